package io.queuegate.ingest.enter;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class VisitorIdsTests {

    private final VisitorIds ids = new VisitorIds();

    @Test
    void idsAre128RandomBitsInBase64UrlAndNeverRepeat() {
        Set<String> made = ConcurrentHashMap.newKeySet();
        // from many threads at once, as the event loops make them at a sale's opening
        IntStream.range(0, 100_000).parallel().forEach((i) -> made.add(this.ids.next()));

        assertThat(made).hasSize(100_000);
        assertThat(made).allSatisfy((id) -> assertThat(id).hasSize(22).matches("[A-Za-z0-9_-]{22}"));
    }

    @Test
    void everyCharacterVariesAcrossIds() {
        // a fixed prefix or a counter would leave some positions constant; the 22nd character holds the last 2 bits
        for (int position = 0; position < 21; position++) {
            Set<Character> seen = new java.util.HashSet<>();
            for (int i = 0; i < 200; i++) {
                seen.add(this.ids.next().charAt(position));
            }
            assertThat(seen).as("characters seen at position %d", position).hasSizeGreaterThan(16);
        }
    }
}
