/**
 * The OpenAPI description every service serves at {@code /v3/api-docs}: what the controllers' annotations say, plus
 * what holds for every endpoint and would otherwise be repeated on each (or forgotten on a new one): refusals are
 * {@code application/problem+json} with a {@code code}, who may call an operation, and the answers the shared
 * filters and handlers give.
 */
package io.queuegate.web.openapi;
