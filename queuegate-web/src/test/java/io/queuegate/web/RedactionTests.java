package io.queuegate.web;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RedactionTests {

    private static final String TOKEN = "AQ6hBGFsaWNlTkpZbcCkz1eQ3l7v2P1gqA";

    @Test
    void aPlacesTokenInAPathIsReplaced() {
        assertThat(Redaction.path("/api/v1/queues/7/entries/" + TOKEN)).isEqualTo("/api/v1/queues/7/entries/{token}");
        assertThat(Redaction.path("/api/v1/queues/7/entries/" + TOKEN + "/events"))
            .isEqualTo("/api/v1/queues/7/entries/{token}/events");
    }

    @Test
    void theQueryAndFragmentAreLeftOff() {
        assertThat(Redaction.path("/api/v1/queues/7/entries/" + TOKEN + "?lang=ko#token=" + TOKEN))
            .isEqualTo("/api/v1/queues/7/entries/{token}");
        assertThat(Redaction.path("/queues/7?token=" + TOKEN)).isEqualTo("/queues/7");
        assertThat(Redaction.path("http://127.0.0.1:8080/api/v1/queues/7/entries/" + TOKEN))
            .isEqualTo("http://127.0.0.1:8080/api/v1/queues/7/entries/{token}");
    }

    @Test
    void pathsWithoutATokenAreKeptAsTheyCame() {
        assertThat(Redaction.path("/api/v1/queues/7/entries")).isEqualTo("/api/v1/queues/7/entries");
        assertThat(Redaction.path("/api/v1/queues/7/entries/")).isEqualTo("/api/v1/queues/7/entries/");
        assertThat(Redaction.path("/api/v1/queues/7/challenge")).isEqualTo("/api/v1/queues/7/challenge");
        assertThat(Redaction.path(null)).isNull();
    }

    @Test
    void aSentenceQuotingAPathKeepsItsWordsAndLosesTheToken() {
        assertThat(Redaction.text("No static resource api/v1/queues/7/entries/" + TOKEN + "/nothing."))
            .isEqualTo("No static resource api/v1/queues/7/entries/{token}/nothing.");
        assertThat(Redaction.text("No endpoint GET /api/v1/queues/7/entries/" + TOKEN + "."))
            .isEqualTo("No endpoint GET /api/v1/queues/7/entries/{token}.");
        assertThat(Redaction.text("a token of any shape: entries/a.b~c%20d\"")).isEqualTo(
                "a token of any shape: entries/{token}\"");
        assertThat(Redaction.text("The request body is too large.")).isEqualTo("The request body is too large.");
        assertThat(Redaction.text(null)).isNull();
    }
}
