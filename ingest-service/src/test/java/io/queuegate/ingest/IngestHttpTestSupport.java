package io.queuegate.ingest;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.queuegate.core.queue.Identity;
import io.queuegate.core.testing.ServiceTestSupport;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.test.context.EmbeddedKafka;

/**
 * The ingest service over HTTP on a random port, against an embedded KRaft broker and the real, shared Redis; and a
 * second service beside it, started with something broken, for the tests of what a client is told then.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "spring.config.name=" + IngestApplication.CONFIG_NAME,
        "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
        // WarmUpTests warms up; the others start at once
        "queuegate.ingest.warm-up.duration=0",
        // every client of a test is 127.0.0.1; PerClientLimitsHttpTests turns the limits on
        "queuegate.ingest.per-client.enabled=false" })
@EmbeddedKafka(partitions = 12, topics = IngestHttpTestSupport.TOPIC)
public abstract class IngestHttpTestSupport extends ServiceTestSupport {

    public static final String TOPIC = "queuegate.entries";

    /**
     * The header the shop's backend enters its users with in a line of identity "trusted" (the one
     * {@link #newOpenQueue} opens): its enter key.
     */
    public static final Map<String, String> ENTER_KEY_HEADER = Map.of("Authorization", "Bearer " + ENTER_KEY);

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @LocalServerPort
    protected int port;

    @Value("${spring.embedded.kafka.brokers}")
    protected String brokers;

    /**
     * An open queue of a product of its own, not registered, so that no admission worker anywhere moves its line;
     * its keys are deleted after the test.
     */
    protected long newOpenQueue(int maxActive, int admitPerSecond) {
        return newOpenQueue(maxActive, admitPerSecond, Identity.TRUSTED);
    }

    /** The same, in this identity. */
    protected long newOpenQueue(int maxActive, int admitPerSecond, Identity identity) {
        long product = newProduct();
        LineFixture.openUnregistered(this.redis, product, maxActive, admitPerSecond, identity);
        return product;
    }

    /** The request with the shop's enter key, as its backend enters a user in a line of identity "trusted". */
    public static HttpRequest.Builder withEnterKey(HttpRequest.Builder request) {
        ENTER_KEY_HEADER.forEach(request::header);
        return request;
    }

    /** The shop's enter of its user in this product's line: {@code {"userId": ...}} with the enter key. */
    public static HttpRequest.Builder enterOf(int port, long product, String userId) {
        return withEnterKey(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/api/v1/queues/" + product + "/entries"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"userId\":\"" + userId + "\"}")));
    }

    /**
     * Starts another ingest service on a free port, with this test's secret, without creating topics and without a
     * warm-up; {@code settings} (command-line arguments) say what it is broken by. The caller closes it.
     */
    public static ConfigurableApplicationContext startAnother(String... settings) {
        return startAnother(Duration.ZERO, settings);
    }

    /** The same, with a warm-up of this long at start. */
    public static ConfigurableApplicationContext startAnother(Duration warmUp, String... settings) {
        List<String> args = anotherInstance(IngestApplication.CONFIG_NAME);
        args.add("--spring.kafka.admin.auto-create=false");
        args.add("--queuegate.ingest.warm-up.duration=" + warmUp.toMillis() + "ms");
        if (Arrays.stream(settings).noneMatch((setting) -> setting.startsWith("--queuegate.ingest.per-client."))) {
            args.add("--queuegate.ingest.per-client.enabled=false");
        }
        args.addAll(List.of(settings));
        return new SpringApplicationBuilder(IngestApplication.class).run(args.toArray(String[]::new));
    }

    public static HttpResponse<String> get(int port, String path) {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET());
    }

    /** Sends with a 20 s timeout; a request that gets no answer fails the test. */
    public static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        }
        catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
