/**
 * The shared HTTP conventions for a service on Spring WebFlux: the reactive twins of the servlet filters, problem
 * handler and CORS access beside them. Nothing here is loaded by a servlet service.
 */
package io.queuegate.web.reactive;
