package io.queuegate.ingest.enter;

import java.net.http.HttpResponse;
import java.time.Duration;

import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.QueueSettings;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.ingest.IngestHttpTestSupport;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A closed or deleted queue refuses enters within a second, however long nobody entered before: what an operator
 * tried, an enter 3 s after {@code DELETE /api/v1/queues/{p}}, was answered 202 by an ingest that served its copy of
 * the settings once more before reading them again. The queues are closed and deleted as the admin API does it
 * ({@link QueueStore#save}, {@link QueueStore#markDeleted}, after the sale topic took the change), and each enter is
 * sent once, at a set moment after the change, as an operator's would be: that moment is the test's input.
 */
class QueueChangesHttpTests extends IngestHttpTestSupport {

    /** Longer than {@code queue-cache-ttl} (1 s): the copy of a queue nobody entered is older than that. */
    private static final Duration QUIET = Duration.ofSeconds(3);

    @Test
    void aClosedAndADeletedQueueRefuseEntersASecondAfterAQuietSpell() {
        QueueStore store = new QueueStore(this.redis);
        long closed = newOpenQueue(10, 10);
        long deleted = newOpenQueue(10, 10);
        assertThat(enter(this.port, closed, "before-close").statusCode()).isEqualTo(202);
        assertThat(enter(this.port, deleted, "before-delete").statusCode()).isEqualTo(202);
        quietSpell(closed, deleted);

        long changedAt = System.nanoTime();
        store.save(closed, store.findSettings(closed).orElseThrow().closed());
        store.markDeleted(deleted, System.currentTimeMillis());

        reach(changedAt, Duration.ofSeconds(1));
        refused(enter(this.port, closed, "a-second-after-close"));
        refused(enter(this.port, deleted, "a-second-after-delete"));
    }

    /**
     * The announcement alone makes it: at an ingest that would otherwise serve its copy for an hour, an enter is
     * refused well within a second of the close, and taken again as soon after the queue is opened again.
     */
    @Test
    void anAnnouncedChangeIsReadAtOnceWhereTheCopyWouldServeForAnHour() {
        QueueStore store = new QueueStore(this.redis);
        long product = newOpenQueue(10, 10);
        try (ConfigurableApplicationContext ingest = startAnother("--spring.kafka.bootstrap-servers=" + this.brokers,
                "--queuegate.ingest.queue-cache-ttl=1h")) {
            int port = portOf(ingest);
            assertThat(enter(port, product, "before-close").statusCode()).isEqualTo(202);
            QueueSettings open = store.findSettings(product).orElseThrow();

            store.save(product, open.closed());
            await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(50))
                .until(() -> enter(port, product, "after-close").statusCode(), (status) -> status == 409);
            refused(enter(port, product, "after-close"));

            store.save(product, open);
            await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(50))
                .until(() -> enter(port, product, "after-reopen").statusCode(), (status) -> status == 202);

            store.markDeleted(product, System.currentTimeMillis());
            await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(50))
                .until(() -> enter(port, product, "after-delete").statusCode(), (status) -> status == 409);
            refused(enter(port, product, "after-delete"));
        }
    }

    /**
     * A close whose announcement never came (written past {@link QueueStore}, as a message lost to a reconnection
     * leaves it) is seen by the periodic read: within {@code queue-cache-ttl} and a read, however quiet it was.
     */
    @Test
    void aCloseWhoseAnnouncementWasLostIsSeenByThePeriodicRead() {
        long product = newOpenQueue(10, 10);
        assertThat(enter(this.port, product, "before-close").statusCode()).isEqualTo(202);
        quietSpell(product);

        long changedAt = System.nanoTime();
        this.redis.opsForHash().put(QueueKeys.of(product).settings(), "open", "false");

        reach(changedAt, Duration.ofSeconds(2));
        refused(enter(this.port, product, "after-silent-close"));
    }

    /** Nobody enters for {@link #QUIET}, and the queues stay open meanwhile. */
    private void quietSpell(long... products) {
        QueueStore store = new QueueStore(this.redis);
        await().during(QUIET).atMost(QUIET.plusSeconds(2)).until(() -> {
            for (long product : products) {
                if (!store.findSettings(product).orElseThrow().open()) {
                    return false;
                }
            }
            return true;
        });
    }

    /** Until {@code offset} after {@code since} (a {@link System#nanoTime()}). */
    private static void reach(long since, Duration offset) {
        await().atMost(offset.plusSeconds(1)).pollInterval(Duration.ofMillis(10))
            .until(() -> System.nanoTime() - since >= offset.toNanos());
    }

    private static void refused(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(409);
        assertThat(JsonMapper.shared().readTree(response.body()).get("code").asString()).isEqualTo("queue_closed");
    }

    private static HttpResponse<String> enter(int port, long product, String userId) {
        return send(enterOf(port, product, userId));
    }
}
