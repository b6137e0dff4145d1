package io.queuegate.admission;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.queuegate.core.event.EntryRequested;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.testing.ServiceTestSupport;
import io.queuegate.core.testing.TestRedis;
import io.queuegate.core.token.TokenCodec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeEach;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.test.context.EmbeddedKafka;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The admission worker as it runs, against an embedded KRaft broker and the real, shared Redis on 127.0.0.1:6379.
 * Every test uses random product ids and deletes their keys afterwards. The worker ticks once at start and then
 * not for an hour, so this context never admits from other runs' queues while the tests run; and it has no audit
 * relay (see {@link WithoutAuditRelay}). Its line is a {@link LosingLine}, which loses nothing unless a test asks.
 */
@SpringBootTest(properties = {
        "spring.config.name=" + AdmissionWorkerApplication.CONFIG_NAME,
        "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
        "queuegate.admission.tick-interval=1h",
        // WarmUpTests warms up; the others start at once
        "queuegate.admission.warm-up.duration=0",
        // small chunks, so that every batch is sent as many pipelined chunks
        "queuegate.admission.append-chunk=100",
        // the sweeper walks every registered queue of the shared Redis, other runs' too; its tests call it themselves
        "queuegate.admission.reservations.enabled=false",
        // the gate is on the test classpath only to make reservations the way a booking counter does
        "spring.autoconfigure.exclude=io.queuegate.gate.GateAutoConfiguration" })
@ContextConfiguration(initializers = WithoutAuditRelay.class)
@Import(LosingLine.Configuration.class)
@EmbeddedKafka(partitions = 12, topics = { WorkerTestSupport.ENTRIES_TOPIC, WorkerTestSupport.BOOKINGS_TOPIC })
abstract class WorkerTestSupport extends ServiceTestSupport {

    static final String ENTRIES_TOPIC = "queuegate.entries";

    static final String BOOKINGS_TOPIC = "queuegate.bookings";

    @Autowired
    ConfigurableApplicationContext context;

    @BeforeEach
    void noAuditRelay() {
        assertThat(WithoutAuditRelay.hasRelay(this.context)).isFalse();
    }

    List<String> waiting(long product) {
        Set<String> members = this.redis.opsForZSet().range(QueueKeys.of(product).waiting(), 0, -1);
        return members == null ? List.of() : List.copyOf(members);
    }

    Map<String, Double> waitingScores(long product) {
        return TestRedis.scores(this.redis, QueueKeys.of(product).waiting());
    }

    /**
     * Sends one enter event per user (users {@code <prefix>-00000} on), waits for the broker's acknowledgements,
     * returns the users in order.
     */
    static List<String> enter(KafkaProducer<String, String> producer, TokenCodec codec, long product, String prefix,
            int count) {
        List<String> users = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String user = "%s-%05d".formatted(prefix, i);
            users.add(user);
            String token = codec.issue(product, user).value();
            producer.send(new ProducerRecord<>(ENTRIES_TOPIC, Long.toString(product), JsonMapper.shared()
                .writeValueAsString(new EntryRequested(product, token, user, "r-" + i, 1L))));
        }
        producer.flush();
        return users;
    }

    long stat(long product, String field) {
        Object value = this.redis.opsForHash().get(QueueKeys.of(product).stats(), field);
        return value == null ? 0 : Long.parseLong(value.toString());
    }
}
