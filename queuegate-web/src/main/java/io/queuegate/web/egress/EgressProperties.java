package io.queuegate.web.egress;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where the services may send requests to the addresses that queues' settings name: a shop's webhook
 * ({@code webhookUrl}, posted by the admission worker) and a shop's pass key set ({@code passJwksUri}, fetched by
 * ingest-service). Both off by default, as a deployment facing the internet needs them; set them alike on both
 * services.
 *
 * @param allowPrivate whether the requests to a queue's webhookUrl and passJwksUri may go to addresses that are not
 *        public: loopback, private (10/8, 172.16/12, 192.168/16), carrier-grade NAT (100.64/10), link-local
 *        (169.254/16, where clouds serve instance metadata; fe80::/10), unique local (fc00::/7), unspecified,
 *        multicast, reserved and documentation ranges, and IPv6 forms that embed such an IPv4 address. Checked at connect time on the addresses a name resolves to.
 *        Off: such a request is refused, and a URL naming such an address literally is refused when a queue is
 *        written. For a local stack or tests whose receivers listen on 127.0.0.1
 * @param allowHttp whether a queue's webhookUrl and passJwksUri may be plain {@code http}. Off: only {@code https} is
 *        taken, both when a queue is written (400 {@code invalid_request}) and when a request is made. For a local
 *        stack or tests
 */
@ConfigurationProperties("queuegate.egress")
public record EgressProperties(@DefaultValue("false") boolean allowPrivate, @DefaultValue("false") boolean allowHttp) {
}
