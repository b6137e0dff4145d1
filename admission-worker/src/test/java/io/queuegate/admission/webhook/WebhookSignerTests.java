package io.queuegate.admission.webhook;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WebhookSignerTests {

    private static final String SECRET = "whsec-0123456789abcdef";

    private static final byte[] BODY = "{\"id\":\"e1\"}".getBytes(StandardCharsets.UTF_8);

    @Test
    void theSignatureIsTheHmacOfTheTimeAndTheBodyAsStripeMakesIt() {
        // printf '%s' '1700000000.{"id":"e1"}' | openssl dgst -sha256 -hmac 'whsec-0123456789abcdef'
        assertThat(WebhookSigner.sign(SECRET, 1_700_000_000L, BODY))
            .isEqualTo("t=1700000000,v1=475145d8ab7a55b4e1e67de0f9efad85edf150d83de62d06764a208144a61d0f");
    }

    @Test
    void aReceiverTakesItsOwnSignatureWithinTheTolerance() {
        String header = WebhookSigner.sign(SECRET, 1_700_000_000L, BODY);
        assertThat(WebhookSigner.verify(SECRET, header, BODY, 1_700_000_299L, 300)).isTrue();
    }

    @Test
    void anotherBodyAnotherSecretAnOldOrAMalformedSignatureAreRefused() {
        String header = WebhookSigner.sign(SECRET, 1_700_000_000L, BODY);
        byte[] other = "{\"id\":\"e2\"}".getBytes(StandardCharsets.UTF_8);
        assertThat(WebhookSigner.verify(SECRET, header, other, 1_700_000_000L, 300)).isFalse();
        assertThat(WebhookSigner.verify("another-secret-of-16", header, BODY, 1_700_000_000L, 300)).isFalse();
        assertThat(WebhookSigner.verify(SECRET, header, BODY, 1_700_000_301L, 300)).isFalse();
        // the time is signed: a recorded signature with a fresh time does not verify
        assertThat(WebhookSigner.verify(SECRET, header.replace("t=1700000000", "t=1700000300"), BODY,
                1_700_000_300L, 300)).isFalse();
        assertThat(WebhookSigner.verify(SECRET, "t=1700000000,v1=zz", BODY, 1_700_000_000L, 300)).isFalse();
        assertThat(WebhookSigner.verify(SECRET, "v1=" + header.substring(header.indexOf("v1=") + 3), BODY,
                1_700_000_000L, 300)).isFalse();
        assertThat(WebhookSigner.verify(SECRET, null, BODY, 1_700_000_000L, 300)).isFalse();
    }
}
