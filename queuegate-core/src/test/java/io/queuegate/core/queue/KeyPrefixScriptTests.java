package io.queuegate.core.queue;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import io.lettuce.core.cluster.SlotHash;
import io.queuegate.core.token.Token;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Two deployments with their own {@code queuegate.redis.key-prefix} share one Redis (or one cluster: this suite runs
 * on the three-master cluster too): every script of the core runs for the same product id and the same users in
 * both, and neither sees nor changes a key of the other, nor one of the default keyspace.
 */
class KeyPrefixScriptTests extends RedisScriptTestSupport {

    private final String run = UUID.randomUUID().toString().substring(0, 8);

    private Deployment tenantA;

    private Deployment tenantB;

    @BeforeEach
    void twoDeployments() {
        this.tenantA = new Deployment(new Keyspace("qg-test-a-" + this.run + ":"));
        this.tenantB = new Deployment(new Keyspace("qg-test-b-" + this.run + ":"));
    }

    @AfterEach
    void forgetBoth() {
        for (Deployment deployment : List.of(this.tenantA, this.tenantB)) {
            deployment.line.destroy();
            redis.delete(deployment.keys.all());
            redis.delete(deployment.keyspace.registry(QueueKeys.REGISTRY));
        }
    }

    @Test
    void twoPrefixesRunTheSameProductWithoutSeeingOrTouchingEachOther() {
        List<String> users = tokens("u", 10);
        // the same product id, the same users and the same log offsets in both; only the settings differ
        this.tenantA.store.save(this.product, new QueueSettings(2, 1_000, 600, true));
        this.tenantB.store.save(this.product, new QueueSettings(5, 1_000, 600, true));
        assertThat(this.tenantA.appender.append(this.product, users)).isEqualTo(10);
        assertThat(this.tenantB.appender.append(this.product, users)).isEqualTo(10);

        assertThat(this.tenantA.admission.admit(this.product, NOW, 100).admitted()).isEqualTo(2);
        assertThat(this.tenantB.admission.admit(this.product, NOW, 100).admitted()).isEqualTo(5);
        assertThat(this.tenantA.remover.remove(new Token(this.product, "u-00010", "t"))).isTrue();

        assertThat(this.tenantA.status("u-00001").status()).isEqualTo(TokenStatus.AVAILABLE);
        assertThat(this.tenantA.status("u-00003").position()).isEqualTo(1);
        assertThat(this.tenantA.status("u-00010").status()).isEqualTo(TokenStatus.EXPIRED);
        assertThat(this.tenantB.status("u-00005").status()).isEqualTo(TokenStatus.AVAILABLE);
        assertThat(this.tenantB.status("u-00006").position()).isEqualTo(1);
        assertThat(this.tenantB.status("u-00010").position()).isEqualTo(5);
        assertThat(this.tenantA.store.find(this.product).orElseThrow().settings().maxActive()).isEqualTo(2);
        assertThat(this.tenantB.store.find(this.product).orElseThrow().settings().maxActive()).isEqualTo(5);
        assertThat(this.tenantA.store.productIds()).containsExactly(this.product);
        assertThat(this.tenantB.store.productIds()).containsExactly(this.product);

        // the default keyspace never saw the product, and every key each wrote is one of its own
        assertThat(redis.countExistingKeys(QueueKeys.of(this.product).all())).isZero();
        assertThat(this.tenantA.existingKeys()).containsExactlyInAnyOrderElementsOf(this.tenantA.expectedKeys());
        assertThat(this.tenantB.existingKeys()).containsExactlyInAnyOrderElementsOf(this.tenantB.expectedKeys());

        // one deployment forgetting the queue and everything in it leaves the other's keys as they were, byte for byte
        Map<String, byte[]> before = this.tenantB.dump();
        this.tenantA.store.delete(this.product);
        assertThat(this.tenantA.existingKeys()).isEmpty();
        Map<String, byte[]> after = this.tenantB.dump();
        assertThat(after.keySet()).isEqualTo(before.keySet());
        before.forEach((key, value) -> assertThat(after.get(key)).as(key).isEqualTo(value));
        assertThat(this.tenantB.store.find(this.product)).isPresent();
        assertThat(this.tenantB.admission.admit(this.product, NOW + 1_000, 100).active()).isEqualTo(5);
    }

    @Test
    void thePrefixKeepsEveryKeyOfAProductInTheProductsSlot() {
        for (long product : new long[] { 1, 42, this.product }) {
            Set<Integer> slots = new TreeSet<>();
            for (Deployment deployment : List.of(this.tenantA, this.tenantB)) {
                deployment.keyspace.product(product).all().forEach((key) -> slots.add(SlotHash.getSlot(key)));
            }
            QueueKeys.of(product).all().forEach((key) -> slots.add(SlotHash.getSlot(key)));
            assertThat(slots).as("slots of product %d", product).hasSize(1);
        }
        assertThat(new Keyspace("tenantA:").product(42).waiting()).isEqualTo("tenantA:waiting:{42}");
        assertThat(new Keyspace("tenantA:").lineEpoch()).isEqualTo("tenantA:queuegate:line-epoch");
        assertThat(Keyspace.DEFAULT.product(42)).isEqualTo(QueueKeys.of(42));
        for (String bad : List.of("{tenant}:", "tenant{", "}")) {
            assertThatIllegalArgumentException().as(bad).isThrownBy(() -> new Keyspace(bad));
        }
    }

    /** The core's components of one deployment, as {@code QueueCoreConfiguration} builds them for its prefix. */
    private final class Deployment {

        final Keyspace keyspace;

        final QueueKeys keys;

        final QueueStore store;

        final WaitingLine line;

        final LogAppender appender;

        final Admission admission;

        final TokenStatusReader reader;

        final Leaving remover;

        Deployment(Keyspace keyspace) {
            ScriptTimer timer = new ScriptTimer(new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
            this.keyspace = keyspace;
            this.keys = keyspace.product(KeyPrefixScriptTests.this.product);
            this.store = new QueueStore(redis, keyspace, QueueKeys.REGISTRY);
            this.line = new WaitingLine(redis, timer, keyspace);
            this.appender = new LogAppender(this.line, "test-topic:0");
            this.admission = new Admission(redis, timer, keyspace);
            this.reader = new TokenStatusReader(redis, timer, keyspace);
            this.remover = new Leaving(redis, timer, keyspace);
        }

        TokenState status(String userId) {
            return withKnownPace(this.reader.read(new Token(KeyPrefixScriptTests.this.product, userId, "t"), NOW + 1));
        }

        /** What the scripts above write: the line's keys, its stats, settings and audit, and the registry. */
        Set<String> expectedKeys() {
            Set<String> keys = new HashSet<>(Set.of(this.keys.waiting(), this.keys.entry(), this.keys.settings(),
                    this.keys.stats(), this.keys.audit(), this.keyspace.registry(QueueKeys.REGISTRY)));
            if (this == KeyPrefixScriptTests.this.tenantA) {
                keys.add(this.keys.gone()); // the user who left
            }
            return keys;
        }

        /** Every key under the prefix; a test may list keys by pattern, the services never do. */
        Set<String> existingKeys() {
            Set<String> keys = redis.keys(this.keyspace.prefix() + "*");
            return keys == null ? Set.of() : new HashSet<>(keys);
        }

        Map<String, byte[]> dump() {
            Map<String, byte[]> values = new LinkedHashMap<>();
            for (String key : new TreeSet<>(existingKeys())) {
                values.put(key, redis.execute((RedisCallback<byte[]>) (RedisConnection connection) -> connection
                    .keyCommands()
                    .dump(key.getBytes(java.nio.charset.StandardCharsets.UTF_8))));
            }
            return values;
        }
    }
}
