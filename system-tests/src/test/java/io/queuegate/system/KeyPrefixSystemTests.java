package io.queuegate.system;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import io.queuegate.admission.AdmissionWorkerApplication;
import io.queuegate.booking.BookingApplication;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.ingest.IngestApplication;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A second deployment, with a key prefix of its own ({@code queuegate.redis.key-prefix}) and topics of its own, runs
 * beside the shared stack (no prefix) on the same Redis, or the same cluster: the same product id, the same secret
 * and so the same tokens, the same users. Each deployment's line, admissions, bookings, audit relay and lines' id
 * stay its own.
 */
class KeyPrefixSystemTests {

    private static final Stack stack = Stack.get();

    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

    private static final Keyspace TENANT = new Keyspace("qg-tenant-" + RUN + ":");

    private static final List<ConfigurableApplicationContext> tenant = new ArrayList<>();

    private static ConfigurableApplicationContext tenantIngest;

    private static ConfigurableApplicationContext tenantWorker;

    private static ConfigurableApplicationContext tenantBooking;

    private final long productId = Stack.newProduct();

    @BeforeAll
    static void startTheTenantsDeployment() {
        String prefix = "queuegate.redis.key-prefix=" + TENANT.prefix();
        String entries = "tenant-" + RUN + ".entries";
        // every topic its own: a deployment that read another's sale, leaves or bookings would restore them
        String sale = "tenant-" + RUN + ".sale";
        String stock = "tenant-" + RUN + ".stock";
        String leaves = "tenant-" + RUN + ".leaves";
        String bookings = "tenant-" + RUN + ".bookings";
        tenantIngest = stack.start(IngestApplication.class, IngestApplication.CONFIG_NAME, prefix,
                "queuegate.ingest.topic=" + entries, "queuegate.ingest.leaves-topic=" + leaves);
        tenant.add(tenantIngest);
        tenantWorker = stack.start(AdmissionWorkerApplication.class, AdmissionWorkerApplication.CONFIG_NAME, prefix,
                "queuegate.admission.topic=" + entries, "queuegate.admission.audit-topic=tenant-" + RUN + ".audit",
                "queuegate.admission.dead-letter-topic=" + entries + ".DLT",
                "queuegate.admission.sale-topic=" + sale, "queuegate.admission.leaves-topic=" + leaves,
                "queuegate.admission.bookings-topic=" + bookings, "queuegate.admission.stock-topic=" + stock,
                "spring.kafka.consumer.group-id=tenant-" + RUN + "-writer", "queuegate.admission.tick-interval=50ms");
        tenant.add(tenantWorker);
        tenantBooking = stack.start(BookingApplication.class, BookingApplication.CONFIG_NAME, prefix,
                "queuegate.booking.topic=" + bookings, "queuegate.booking.stock-topic=" + stock);
        tenant.add(tenantBooking);
    }

    @AfterAll
    static void stopTheTenantsDeployment() {
        tenant.reversed().forEach(ConfigurableApplicationContext::close);
        Set<String> left = stack.redis.keys(TENANT.prefix() + "*");
        if (left != null && !left.isEmpty()) {
            stack.redis.delete(left);
        }
    }

    @Test
    void twoDeploymentsShareOneRedisWithoutSeeingOrTouchingEachOthersKeys() {
        long p = this.productId;
        try {
            assertThat(stack.configure(p, 1, 1000, 600, true).status()).isEqualTo(200);
            assertThat(configure(p, 3)).isEqualTo(200);
            assertThat(stack.setStock(p, 7).status()).isEqualTo(200);
            assertThat(setTenantStock(p, 10)).isEqualTo(200);

            List<String> users = List.of("ns-0", "ns-1", "ns-2", "ns-3", "ns-4");
            List<String> tokens = new ArrayList<>();
            for (String user : users) {
                String shared = stack.enter(p, user).text("token");
                Stack.Reply reply = stack.enter(tenantIngest, p, user);
                assertThat(reply.status()).isEqualTo(202);
                // one secret: the same user gets the same token from both, and it names a different place in each
                assertThat(reply.text("token")).isEqualTo(shared);
                tokens.add(shared);
            }

            await().atMost(Duration.ofSeconds(30)).until(() -> "AVAILABLE".equals(status(tenantIngest, p, tokens.get(2)))
                    && "AVAILABLE".equals(status(stack.ingest, p, tokens.get(0))));
            assertThat(position(stack.ingest, p, tokens.get(1))).isEqualTo(1);
            assertThat(position(tenantIngest, p, tokens.get(3))).isEqualTo(1);

            // a booking in the tenant's deployment consumes the tenant's entry and stock only
            assertThat(stack.book(tenantBooking, p, tokens.get(0), 1).status()).isEqualTo(201);
            assertThat(status(tenantIngest, p, tokens.get(0))).isEqualTo("EXPIRED");
            assertThat(status(stack.ingest, p, tokens.get(0))).isEqualTo("AVAILABLE");
            assertThat(stack.redis.opsForValue().get(TENANT.product(p).stock())).isEqualTo("9");
            assertThat(stack.redis.opsForValue().get(QueueKeys.of(p).stock())).isEqualTo("7");
            // a token the tenant admitted is not admitted by the shared deployment
            assertThat(stack.book(stack.booking, p, tokens.get(2), 1).status()).isEqualTo(403);

            // each relay drains its own deployment's audit stream; each writer names its own Redis's lines
            await().atMost(Duration.ofSeconds(20))
                .until(() -> stack.redis.opsForStream().size(TENANT.product(p).audit()) == 0);
            assertThat(stack.redis.opsForValue().get(TENANT.lineEpoch())).isNotBlank();
            assertThat(stack.redis.opsForValue().get(Keyspace.DEFAULT.lineEpoch())).isNotBlank();

            // every key the tenant's services wrote is under its prefix: the product's, and the cross-product ones
            Set<String> expected = new java.util.HashSet<>(TENANT.product(p).all());
            expected.add(TENANT.registry(Stack.REGISTRY));
            expected.add(TENANT.lineEpoch());
            expected.add(TENANT.admissionWorkers(Stack.REGISTRY));
            assertThat(stack.redis.keys(TENANT.prefix() + "*")).isSubsetOf(expected);

            // the tenant forgetting the queue leaves the shared deployment's line as it was
            tenantWorker.getBean(QueueStore.class).delete(p);
            assertThat(stack.redis.countExistingKeys(TENANT.product(p).all())).isZero();
            assertThat(status(stack.ingest, p, tokens.get(0))).isEqualTo("AVAILABLE");
            assertThat(position(stack.ingest, p, tokens.get(4))).isEqualTo(4);
            assertThat(stack.book(stack.booking, p, tokens.get(0), 1).status()).isEqualTo(201);
        }
        finally {
            stack.forget(p);
            tenantWorker.getBean(QueueStore.class).delete(p);
        }
    }

    private static int configure(long p, int maxActive) {
        return stack.send("PUT", Stack.url(tenantWorker, "/api/v1/queues/" + p),
                ("{\"maxActive\":%d,\"admitPerSecond\":1000,\"entryTtlSeconds\":600,\"open\":true,"
                        + "\"identity\":\"trusted\"}").formatted(maxActive),
                "application/json", Map.of("Authorization", "Bearer " + Stack.ADMIN_TOKEN)).status();
    }

    private static int setTenantStock(long p, long available) {
        return stack.send("PUT", Stack.url(tenantBooking, "/api/v1/products/" + p + "/stock"),
                "{\"available\":" + available + "}", "application/json",
                Map.of("Authorization", "Bearer " + Stack.ADMIN_TOKEN)).status();
    }

    private static String status(ConfigurableApplicationContext ingest, long p, String token) {
        return stack.send("GET", Stack.url(ingest, "/api/v1/queues/" + p + "/entries/" + token), null, null, Map.of())
            .text("status");
    }

    private static long position(ConfigurableApplicationContext ingest, long p, String token) {
        return stack.send("GET", Stack.url(ingest, "/api/v1/queues/" + p + "/entries/" + token), null, null, Map.of())
            .json()
            .get("position")
            .asLong();
    }
}
