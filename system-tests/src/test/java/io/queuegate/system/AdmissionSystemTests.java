package io.queuegate.system;

import java.util.List;
import java.util.Map;

import io.queuegate.booking.BookingApplication;
import io.queuegate.system.Stack.Reply;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An admission a shop verifies without the queue's secret: the AVAILABLE status answer carries it, every service
 * publishes the keys, and a booking service of another deployment (its own secret) whose gate knows only the JWKS
 * URL books with it, once, and refuses the bare token.
 */
class AdmissionSystemTests extends StackTests {

    private final long productId = ownProduct();

    @Test
    void everyServicePublishesTheSameKeysAndNoPrivatePart() {
        JsonNode keys = null;
        for (ConfigurableApplicationContext service : List.of(this.stack.ingest, this.stack.worker,
                this.stack.booking)) {
            Reply jwks = this.stack.send("GET", Stack.url(service, "/.well-known/jwks.json"), null, null, Map.of());
            assertThat(jwks.status()).isEqualTo(200);
            JsonNode published = jwks.json();
            assertThat(published.get("keys")).isNotEmpty();
            published.get("keys").forEach((key) -> {
                assertThat(key.get("kty").asString()).isEqualTo("EC");
                assertThat(key.get("crv").asString()).isEqualTo("P-256");
                assertThat(key.has("d")).as("a private part").isFalse();
            });
            if (keys != null) {
                assertThat(published).isEqualTo(keys);
            }
            keys = published;
        }
    }

    @Test
    void aShopWithoutTheSecretBooksWithTheAdmissionOnce() {
        this.stack.configure(this.productId, 1, 1000, 600, true);
        this.stack.setStock(this.productId, 5);
        String token = entered(this.productId, "admitted-alice");
        awaitStatus(this.productId, token, "AVAILABLE");
        String admission = this.stack.status(this.productId, token).text("admission");
        assertThat(admission).matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");

        try (ConfigurableApplicationContext shop = this.stack.start(BookingApplication.class,
                BookingApplication.CONFIG_NAME, "queuegate.token.secret=a-shop-that-never-saw-the-queues-secret",
                "queuegate.gate.jwks-uri=" + Stack.url(this.stack.ingest, "/.well-known/jwks.json"))) {
            Reply bare = this.stack.book(shop, this.productId, token, 1);
            assertThat(bare.status()).isEqualTo(403);
            Reply booked = this.stack.book(shop, this.productId, admission, 1);
            assertThat(booked.status()).isEqualTo(201);
            assertThat(booked.text("userId")).isEqualTo("admitted-alice");
            Reply again = this.stack.book(shop, this.productId, admission, 1);
            assertThat(again.status()).isEqualTo(403);
            assertThat(again.text("code")).isEqualTo("token_not_admitted");
        }
    }
}
