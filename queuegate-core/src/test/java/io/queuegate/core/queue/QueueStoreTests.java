package io.queuegate.core.queue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisConnection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class QueueStoreTests extends RedisScriptTestSupport {

    /** Every write of a queue's settings is announced, after it is in Redis, for the ingests' copies. */
    @Test
    void aSaveAndADeletionAreAnnouncedOnTheQueueChangesChannel() {
        List<String> heard = new CopyOnWriteArrayList<>();
        RedisConnection subscriber = redis.getRequiredConnectionFactory().getConnection();
        try {
            subscriber.subscribe((message, pattern) -> {
                String product = new String(message.getBody(), StandardCharsets.UTF_8);
                // read when heard, as an ingest does: off the connection's thread, which must not wait on Redis
                CompletableFuture.runAsync(() -> heard.add(product + ":" + this.store
                    .findSettings(Long.parseLong(product)).map(QueueSettings::open).orElse(null)));
            }, Keyspace.DEFAULT.queueChangesChannel().getBytes(StandardCharsets.UTF_8));
            await().atMost(Duration.ofSeconds(5)).until(subscriber::isSubscribed);

            this.store.save(this.product, new QueueSettings(5, 40, 300, true));
            await().atMost(Duration.ofSeconds(5)).until(() -> heard.contains(this.product + ":true"));
            this.store.save(this.product, new QueueSettings(5, 40, 300, false));
            await().atMost(Duration.ofSeconds(5)).until(() -> heard.contains(this.product + ":false"));
            heard.clear();
            this.store.save(this.product, new QueueSettings(5, 40, 300, true));
            await().atMost(Duration.ofSeconds(5)).until(() -> heard.contains(this.product + ":true"));
            heard.clear();
            this.store.markDeleted(this.product, 1_000);
            await().atMost(Duration.ofSeconds(5)).until(() -> heard.contains(this.product + ":false"));
        }
        finally {
            subscriber.close();
        }
    }

    @Test
    void unknownQueueIsEmpty() {
        assertThat(this.store.findSettings(this.product)).isEmpty();
        assertThat(this.store.find(this.product)).isEmpty();
        assertThat(this.store.productIds()).doesNotContain(this.product);
    }

    @Test
    void savedSettingsAreFoundAndTheProductRegistered() {
        QueueSettings settings = new QueueSettings(500, 40, 300, true);

        this.store.save(this.product, settings);

        assertThat(this.store.findSettings(this.product)).contains(settings);
        assertThat(this.store.find(this.product)).contains(new QueueView(settings, 0, 0, 0, null, null, null));
        assertThat(this.store.productIds()).contains(this.product);
        assertThat(redis.opsForHash().entries(this.keys.settings())).containsExactlyInAnyOrderEntriesOf(
                java.util.Map.of("maxActive", "500", "admitPerSecond", "40", "entryTtlSeconds", "300",
                        "open", "true", "identity", "visitor"));
    }

    @Test
    void passKeysAreStoredPublicAndReadBackAsGiven() throws Exception {
        var shop = new com.nimbusds.jose.jwk.gen.ECKeyGenerator(com.nimbusds.jose.jwk.Curve.P_256).keyID("shop-1")
            .generate();
        QueueSettings settings = new QueueSettings(5, 40, 300, true, null, null, null, null, true,
                java.util.List.of(shop.toPublicJWK().toJSONObject()));

        this.store.save(this.product, settings);

        assertThat(this.store.findSettings(this.product)).contains(settings);
        assertThat(this.store.find(this.product).orElseThrow().settings()).isEqualTo(settings);
        assertThat(redis.opsForHash().get(this.keys.settings(), "passKeys").toString()).contains("shop-1")
            .doesNotContain("\"d\"");
        this.store.save(this.product, new QueueSettings(5, 40, 300, true));
        assertThat(redis.opsForHash().hasKey(this.keys.settings(), "passKeys")).as("left out: off").isFalse();
        assertThat(redis.opsForHash().hasKey(this.keys.settings(), "inviteOnly")).isFalse();
    }

    @Test
    void whereTheShopPublishesItsPassKeysIsStoredAndReadBack() {
        QueueSettings settings = new QueueSettings(5, 40, 300, true, null, null, null, null, true, null,
                "https://shop.example/.well-known/jwks.json");

        this.store.save(this.product, settings);

        assertThat(this.store.findSettings(this.product)).contains(settings);
        assertThat(this.store.find(this.product).orElseThrow().settings()).isEqualTo(settings);
        assertThat(this.store.find(this.product).orElseThrow().settings().closed())
            .isEqualTo(new QueueSettings(5, 40, 300, false, null, null, null, null, true, null,
                    "https://shop.example/.well-known/jwks.json"));
        this.store.save(this.product, new QueueSettings(5, 40, 300, true));
        assertThat(redis.opsForHash().hasKey(this.keys.settings(), "passJwksUri")).as("left out: off").isFalse();
    }

    @Test
    void aWebhookAndItsSecretAreStoredAndReadBackAndAChangeWithoutThemTurnsThemOff() {
        QueueSettings settings = new QueueSettings(5, 40, 300, true, null, null, null, null, null, null, null,
                "https://shop.example/queuegate/events", "whsec-0123456789abcdef");

        this.store.save(this.product, settings);

        assertThat(this.store.findSettings(this.product)).contains(settings);
        assertThat(this.store.find(this.product).orElseThrow().settings()).isEqualTo(settings);
        assertThat(settings.hasWebhook()).isTrue();
        assertThat(settings.closed().webhookSecret()).isEqualTo("whsec-0123456789abcdef");
        assertThat(settings.withoutWebhookSecret().webhookSecret()).isNull();
        assertThat(settings.withoutWebhookSecret().webhookUrl()).isEqualTo("https://shop.example/queuegate/events");
        this.store.save(this.product, new QueueSettings(5, 40, 300, true));
        assertThat(redis.opsForHash().hasKey(this.keys.settings(), "webhookUrl")).as("left out: off").isFalse();
        assertThat(redis.opsForHash().hasKey(this.keys.settings(), "webhookSecret")).isFalse();
        assertThat(this.store.findSettings(this.product).orElseThrow().hasWebhook()).isFalse();
    }

    @Test
    void savingAgainReplacesTheSettings() {
        this.store.save(this.product, new QueueSettings(500, 40, 300, true));
        QueueSettings changed = new QueueSettings(10_000_000, 1_000_000, 86_400, false);

        this.store.save(this.product, changed);

        assertThat(this.store.findSettings(this.product)).contains(changed);
        assertThat(this.store.productIds()).contains(this.product);
    }

    @Test
    void findCountsTheLineTheEntriesAndTheAdmitted() {
        // configured without registering, so no worker of another run admits from this line meanwhile
        QueueSettings settings = new QueueSettings(3, 100, 10, true);
        configure(3, 100, 10, true);
        this.line.append(this.product, tokens("t", 7));
        this.admission.admit(this.product, NOW, 100);

        // the audit stream holds the step's ADMITTED change until a relay publishes it
        assertThat(this.store.find(this.product))
            .contains(new QueueView(settings, 4, 3, 3, null, null, null, 0, 0, null, 1));

        // the second step expires three (EXPIRED) and admits three (ADMITTED)
        this.admission.admit(this.product, NOW + 10_000, 100);
        assertThat(this.store.find(this.product))
            .contains(new QueueView(settings, 1, 3, 6, null, null, null, 0, 0, null, 3));
    }

    @Test
    void deleteForgetsTheQueueAndEverythingInIt() {
        // registered, so a worker of another run may tick it: entries that stay valid by Redis time keep it from
        // expiring and refilling them meanwhile
        this.store.save(this.product, new QueueSettings(3, 100, 600, true));
        this.line.append(this.product, tokens("t", 7));
        this.admission.admit(this.product, ScriptTime.REDIS_TIME, 100);
        this.remover.remove(token("t-00007"));
        redis.opsForValue().set(this.keys.stock(), "5");
        redis.opsForHash().put(this.keys.bookings(), "b1", "{}");
        // the audit stream is left out: the product is registered, so a relay of another run may drain it meanwhile
        assertThat(redis.countExistingKeys(List.of(this.keys.waiting(), this.keys.entry(), this.keys.gone(),
                this.keys.settings(), this.keys.stats(), this.keys.stock(), this.keys.bookings())))
            .as("the seven data keys (gone holds the leaver)").isEqualTo(7);

        this.store.delete(this.product);

        assertThat(this.store.findSettings(this.product)).isEmpty();
        assertThat(this.store.find(this.product)).isEmpty();
        assertThat(this.store.productIds()).doesNotContain(this.product);
        assertThat(redis.countExistingKeys(this.keys.all())).isZero();
        assertThat(this.admission.admit(this.product, NOW, 100)).isEqualTo(AdmissionResult.UNKNOWN_QUEUE);
    }

    @Test
    void productIdsListsEveryRegisteredQueue() {
        long other = this.product;
        while (other == this.product || redis.countExistingKeys(QueueKeys.of(other).all()) > 0) {
            other = java.util.concurrent.ThreadLocalRandom.current().nextLong(1_000_000_000L, 9_000_000_000L);
        }
        try {
            this.store.save(this.product, new QueueSettings(1, 1, 1, true));
            this.store.save(other, new QueueSettings(2, 2, 2, false));

            assertThat(this.store.productIds()).contains(this.product, other);
            assertThat(this.store.findSettings(other)).contains(new QueueSettings(2, 2, 2, false));

            this.store.delete(other);
            assertThat(this.store.productIds()).contains(this.product).doesNotContain(other);
        }
        finally {
            redis.delete(QueueKeys.of(other).all());
            redis.opsForSet().remove(QueueKeys.REGISTRY, Long.toString(other));
        }
    }

    @Test
    void returnHostsAreStoredAndLeavingThemOutRemovesThem() {
        QueueSettings with = new QueueSettings(5, 5, 60, true).withIdentity(Identity.VISITOR)
            .withReturnHosts(List.of("shop.example", "127.0.0.1:8090"));
        this.store.save(this.product, with);

        assertThat(this.store.findSettings(this.product)).contains(with);
        assertThat(this.store.find(this.product)).map(QueueView::settings).contains(with);
        assertThat(with.returnsTo("127.0.0.1:8090")).isTrue();
        assertThat(with.returnsTo("127.0.0.1:8091")).isFalse();

        this.store.save(this.product, with.withReturnHosts(null));
        assertThat(this.store.findSettings(this.product).orElseThrow().returnHosts()).isNull();
    }

    @Test
    void keysOfOneProductShareOneHashTag() {
        List<String> all = QueueKeys.of(42).all();

        assertThat(all).hasSize(16).doesNotHaveDuplicates().allSatisfy((key) -> assertThat(key).endsWith(":{42}"));
        assertThat(QueueKeys.REGISTRY).doesNotContain("{");
    }

    @Test
    void optionalSettingsAreStoredAndLeavingThemOutTurnsThemOff() {
        QueueSettings withAll = new QueueSettings(500, 40, 300, true, 2_000, 120, 1_767_261_600_000L);
        this.store.save(this.product, withAll);

        assertThat(this.store.findSettings(this.product)).contains(withAll);
        assertThat(this.store.find(this.product)).map(QueueView::settings).contains(withAll);

        QueueSettings without = new QueueSettings(500, 40, 300, true);
        this.store.save(this.product, without);

        assertThat(this.store.findSettings(this.product)).contains(without);
        assertThat(redis.opsForHash().keys(this.keys.settings())).containsExactlyInAnyOrder("maxActive",
                "admitPerSecond", "entryTtlSeconds", "open", "identity");
    }

    @Test
    void theIdentityIsStoredAndReadBackAndALeftOutOneIsWhatInviteOnlySays() {
        QueueSettings trusted = new QueueSettings(5, 40, 300, true, null, null, null, null, null, null, null, null,
                null, Identity.TRUSTED);
        this.store.save(this.product, trusted);

        assertThat(this.store.findSettings(this.product)).contains(trusted);
        assertThat(this.store.find(this.product).orElseThrow().settings().identity()).isEqualTo(Identity.TRUSTED);
        assertThat(this.store.find(this.product).orElseThrow().settings().closed().identity())
            .isEqualTo(Identity.TRUSTED);
        assertThat(redis.opsForHash().get(this.keys.settings(), "identity")).isEqualTo("trusted");

        this.store.save(this.product, new QueueSettings(5, 40, 300, true, null, null, null, null, true, null,
                "https://shop.example/.well-known/jwks.json"));
        assertThat(redis.opsForHash().get(this.keys.settings(), "identity")).as("invite-only").isEqualTo("pass");

        // settings written before the identity existed
        redis.opsForHash().delete(this.keys.settings(), "identity");
        assertThat(this.store.findSettings(this.product).orElseThrow().identity()).isEqualTo(Identity.PASS);
        assertThat(this.store.find(this.product).orElseThrow().settings().identity()).isEqualTo(Identity.PASS);
        redis.opsForHash().delete(this.keys.settings(), "inviteOnly", "passJwksUri");
        assertThat(this.store.findSettings(this.product).orElseThrow().identity()).isEqualTo(Identity.VISITOR);
        assertThat(this.store.find(this.product).orElseThrow().settings().identity()).isEqualTo(Identity.VISITOR);
    }

    @Test
    void findReportsTheMeasuredPaceAndTheStock() {
        configure(3, 100, 10, true);
        redis.opsForHash().put(this.keys.stats(), "pace", "2.5");
        redis.opsForValue().set(this.keys.stock(), "0");

        QueueView view = this.store.find(this.product).orElseThrow();

        assertThat(view.pace()).isEqualTo(2.5);
        assertThat(view.stock()).isZero();
        assertThat(view.soldOut()).isTrue();
    }
}
