/**
 * The edge check: a proxy in front of a shop's site (nginx's {@code auth_request}, or any proxy that can ask a URL)
 * asks whether a request carries an admission for the product its path belongs to, and is told to pass it, to set the
 * admission's cookie and redirect to the clean URL (a person back from the line), or to send the person to the
 * waiting page. While a line is empty and has room, a visitor is admitted on the spot. docs/OPERATIONS.md, "Protect a
 * site", has the proxies' configuration.
 */
package io.queuegate.ingest.edge;
