/**
 * Requests the services make to addresses the queues' settings name (a shop's webhook, a shop's pass key set): only
 * to public addresses, checked at connect time after DNS resolution ({@link PublicAddresses},
 * {@link PublicAddressResolver}), over https, without following redirects, each within one deadline
 * ({@link EgressClient}). {@link EgressProperties} opens private addresses and plain http for local use and tests.
 */
package io.queuegate.web.egress;
