package io.queuegate.booking;

import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.testing.ServiceTestSupport;
import io.queuegate.core.token.TokenCodec;
import org.junit.jupiter.api.BeforeEach;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.test.web.servlet.client.EntityExchangeResult;
import org.springframework.test.web.servlet.client.RestTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The booking service over HTTP on a random port, against an embedded KRaft broker and the real, shared Redis; and
 * a second service beside it, started against a broken Kafka, for the tests of what a booking is told then.
 * <p>
 * Every test books products of its own ({@link #newProduct()}), whose keys are deleted after it. Users are admitted
 * as the admission worker admits them: put into the product's entry set ({@code entry:{p}}), scored by when their
 * entry expires, and named by a token issued with the service's secret.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "spring.config.name=" + BookingApplication.CONFIG_NAME,
        "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}" })
@EmbeddedKafka(partitions = 12, topics = BookingHttpTestSupport.TOPIC)
public abstract class BookingHttpTestSupport extends ServiceTestSupport {

    /** The bookings topic ({@code queuegate.booking.topic}). */
    public static final String TOPIC = "queuegate.bookings";

    /** How long an admitted user's entry lasts in these tests: far beyond any test. */
    protected static final long ENTRY_MILLIS = 600_000;

    @LocalServerPort
    protected int port;

    @Value("${spring.embedded.kafka.brokers}")
    protected String brokers;

    @Autowired
    protected MeterRegistry metrics;

    protected final TokenCodec codec = new TokenCodec(TOKEN_SECRET);

    /** This service, over real HTTP. */
    protected RestTestClient http;

    @BeforeEach
    void client() {
        this.http = client(this.port);
    }

    /** A client of the service on this port. */
    protected static RestTestClient client(int port) {
        return RestTestClient.bindToServer().baseUrl("http://127.0.0.1:" + port).build();
    }

    /**
     * Admits the user to the product as the admission worker does (entry:{p}, scored by the entry's expiry, epoch ms)
     * and returns the user's token.
     */
    protected String admit(long product, String userId) {
        this.redis.opsForZSet().add(QueueKeys.of(product).entry(), userId, System.currentTimeMillis() + ENTRY_MILLIS);
        return this.codec.issue(product, userId).value();
    }

    /** Admits the user, and keeps its entry's expiry as admitted to compare with after a refusal. */
    protected Admitted admitted(long product, String userId) {
        String token = admit(product, userId);
        return new Admitted(product, userId, token, entryExpiry(product, userId));
    }

    /** A token issued for the user, who is not admitted (still waiting, say). */
    protected String notAdmitted(long product, String userId) {
        return this.codec.issue(product, userId).value();
    }

    /** A product of the test's own, its stock set to {@code units}. */
    protected long productWithStock(long units) {
        long product = newProduct();
        setStock(product, units);
        return product;
    }

    /** Sets the stock through the admin API, as an operator does. */
    protected void setStock(long product, long units) {
        EntityExchangeResult<String> result = this.http.put()
            .uri("/api/v1/products/{product}/stock", product)
            .header(HttpHeaders.AUTHORIZATION, "Bearer " + ADMIN_TOKEN)
            .contentType(MediaType.APPLICATION_JSON)
            .body("{\"available\":" + units + "}")
            .exchange()
            .returnResult(String.class);
        assertThat(result.getStatus().value()).as(result.getResponseBody()).isEqualTo(200);
        assertThat(stock(product)).isEqualTo(units);
    }

    /** The product's stock as Redis holds it. */
    protected long stock(long product) {
        String value = this.redis.opsForValue().get(QueueKeys.of(product).stock());
        assertThat(value).as("stock of %d", product).isNotNull();
        return Long.parseLong(value);
    }

    /** When the user's entry expires, epoch ms; null when the user is not admitted (any more). */
    protected Double entryExpiry(long product, String userId) {
        return this.redis.opsForZSet().score(QueueKeys.of(product).entry(), userId);
    }

    /** Users whose place is used (or expired). */
    protected List<String> gone(long product) {
        return List.copyOf(this.redis.opsForSet().members(QueueKeys.of(product).gone()));
    }

    /** The bookings the gate recorded for the product: booking id to JSON. */
    protected Map<Object, Object> bookingRecords(long product) {
        return this.redis.opsForHash().entries(QueueKeys.of(product).bookings());
    }

    /** Reservations not confirmed durable: booking id to the consumed entry's expiry. */
    protected Map<Object, Object> reservations(long product) {
        return this.redis.opsForHash().entries(QueueKeys.of(product).reservations());
    }

    /** POST /api/v1/bookings on this service. */
    protected EntityExchangeResult<String> book(long product, String token, int quantity) {
        return book(this.http, product, token, quantity);
    }

    protected static EntityExchangeResult<String> book(RestTestClient client, long product, String token,
            int quantity) {
        return client.post()
            .uri("/api/v1/bookings")
            .contentType(MediaType.APPLICATION_JSON)
            .body("{\"productId\":" + product + ",\"token\":\"" + token + "\",\"quantity\":" + quantity + "}")
            .exchange()
            .returnResult(String.class);
    }

    protected static JsonNode json(EntityExchangeResult<String> result) {
        return JsonMapper.shared().readTree(result.getResponseBody());
    }

    /** The problem code of a refusal. */
    protected static String code(EntityExchangeResult<String> result) {
        assertThat(result.getResponseHeaders().getContentType()).hasToString("application/problem+json");
        return json(result).get("code").asString();
    }

    /** {@code queuegate.bookings{outcome}} of this service so far. */
    protected double bookings(String outcome) {
        return bookings(this.metrics, outcome);
    }

    protected static double bookings(MeterRegistry metrics, String outcome) {
        Counter counter = metrics.find("queuegate.bookings").tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    /**
     * Starts another booking service on a free port, with this test's secrets, against the Kafka at
     * {@code bootstrapServers}; {@code settings} are further command-line arguments. The caller closes it.
     */
    protected static ConfigurableApplicationContext startAnother(String bootstrapServers, String... settings) {
        List<String> args = anotherInstance(BookingApplication.CONFIG_NAME);
        args.add("--spring.kafka.bootstrap-servers=" + bootstrapServers);
        args.addAll(List.of(settings));
        return new SpringApplicationBuilder(BookingApplication.class).run(args.toArray(String[]::new));
    }

    /** An admitted user of a product: the token it books with, and its entry's expiry when it was admitted. */
    protected record Admitted(long product, String userId, String token, Double expiry) {
    }
}
