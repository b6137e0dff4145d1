/**
 * What ingest's management context (Actuator's own port) is given beyond Spring Boot's defaults. Kept apart from
 * {@code io.queuegate.ingest}, which the application scans.
 */
package io.queuegate.management;
