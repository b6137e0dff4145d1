package io.queuegate.admission;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import io.queuegate.core.queue.QueueKeys;
import org.junit.jupiter.api.Test;

import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis that loses the lines (restarted without persistence, wiped, failed over without its last writes) gets
 * them back from the log, in log order, with the same places: the writer commits its offsets with the id of the
 * Redis it applied them to, and reads from the start of the log when Redis no longer carries that id. The loss is
 * made by deleting the product's keys and the lines' id of the test's own keyspace ({@link OwnRunTestSupport}), so that
 * no other worker on the shared Redis sees a loss.
 */
class LineRebuildTests extends OwnRunTestSupport {

    private static final Duration REBUILT = Duration.ofSeconds(60);

    @Test
    void linesLostWhileTheWriterRunsAreRebuiltInLogOrder() {
        long product = this.run.newProduct();
        List<String> users = this.run.enter(this.worker, product, "run", 500);
        await().atMost(REBUILT).until(() -> waiting(product).size() == 500);
        assertThat(redis.opsForValue().get(this.run.keyspace().lineEpoch())).isNotNull();

        loseTheLines(product);
        // the next batch finds Redis changed
        users.addAll(this.run.enter(this.worker, product, "after", 1));

        await().atMost(REBUILT).until(() -> waiting(product).size() == 501);
        assertThat(waiting(product)).containsExactlyElementsOf(users);
        assertThat(redis.opsForZSet().score(keys(product).waiting(), users.getLast())).isEqualTo(501.0);
        assertThat(stat(product, "enteredTotal")).isEqualTo("501");
    }

    @Test
    void anEmptyRedisFoundOnAssignmentIsRefilledFromTheLog() {
        long product = this.run.newProduct();
        List<String> users = this.run.enter(this.worker, product, "assign", 300);
        await().atMost(REBUILT).until(() -> waiting(product).size() == 300);

        MessageListenerContainer writer = this.worker.getBean(KafkaListenerEndpointRegistry.class)
            .getListenerContainer("waiting-writer");
        writer.stop();
        try {
            loseTheLines(product);
            assertThat(waiting(product)).isEmpty();
        }
        finally {
            writer.start();
        }

        await().atMost(REBUILT).until(() -> waiting(product).size() == 300);
        assertThat(waiting(product)).containsExactlyElementsOf(users);
        assertThat(redis.opsForZSet().score(keys(product).waiting(), users.getLast())).isEqualTo(300.0);
        assertThat(stat(product, "seq")).isEqualTo("300");
    }

    private void loseTheLines(long product) {
        redis.delete(keys(product).all());
        redis.delete(this.run.keyspace().lineEpoch());
    }

    private QueueKeys keys(long product) {
        return this.run.keyspace().product(product);
    }

    private List<String> waiting(long product) {
        Set<String> members = redis.opsForZSet().range(keys(product).waiting(), 0, -1);
        return members == null ? List.of() : List.copyOf(members);
    }

    private Object stat(long product, String field) {
        return redis.opsForHash().get(keys(product).stats(), field);
    }
}
