package io.queuegate.system;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lettuce.core.cluster.SlotHash;
import io.queuegate.core.queue.QueueKeys;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every Lua script of every module touches only the keys it is given, and they are all of one product: so each
 * script runs on one Redis Cluster node, as on a single Redis. Each script's header names its keys
 * ({@code KEYS[1] waiting:{p}}); the body may use no other, and may not build a key name itself.
 */
class ScriptKeysTests {

    private static final Pattern DOCUMENTED = Pattern.compile("KEYS\\[(\\d+)]\\s+([a-z-]+):\\{p}");

    private static final Pattern USED = Pattern.compile("KEYS\\[(\\d+)]");

    /** A string literal that looks like a key of this project ('waiting:{', "stats:"). */
    private static final Pattern BUILT_KEY = Pattern.compile("['\"][a-z-]+:(\\{|['\"])");

    @Test
    void everyScriptTouchesOnlyItsProductsKeys() throws IOException {
        Resource[] scripts = new PathMatchingResourcePatternResolver()
            .getResources("classpath*:META-INF/scripts/*.lua");
        Set<String> names = new TreeSet<>();
        for (Resource script : scripts) {
            names.add(script.getFilename());
        }
        assertThat(names).contains("append_waiting.lua", "admit_batch.lua", "read_status.lua", "consume_admission.lua",
                "hold_lease.lua");

        Set<String> productKeyNames = new TreeSet<>();
        for (String key : QueueKeys.of(42).all()) {
            productKeyNames.add(key.replace(":{42}", ""));
        }
        productKeyNames.add(QueueKeys.of(42).auditLease().replace(":{42}", ""));

        for (Resource script : scripts) {
            String text;
            try (InputStream in = script.getInputStream()) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            Map<Integer, String> documented = new TreeMap<>();
            Set<Integer> used = new TreeSet<>();
            for (String line : text.lines().toList()) {
                String trimmed = line.strip();
                if (trimmed.startsWith("--")) {
                    Matcher keys = DOCUMENTED.matcher(trimmed);
                    while (keys.find()) {
                        documented.put(Integer.parseInt(keys.group(1)), keys.group(2));
                    }
                    continue;
                }
                Matcher keys = USED.matcher(trimmed);
                while (keys.find()) {
                    used.add(Integer.parseInt(keys.group(1)));
                }
                assertThat(BUILT_KEY.matcher(trimmed).find()).as("%s builds a key: %s", script.getFilename(), trimmed)
                    .isFalse();
            }
            assertThat(documented).as("%s names its keys", script.getFilename()).isNotEmpty();
            assertThat(documented.keySet()).as("%s uses only the keys its header names", script.getFilename())
                .containsAll(used);
            assertThat(productKeyNames).as("%s's keys are keys of QueueKeys", script.getFilename())
                .containsAll(documented.values());
        }
    }

    @Test
    void everyKeyOfAProductIsInOneClusterSlot() {
        for (long product : new long[] { 1, 42, 7_000_000_123L }) {
            QueueKeys keys = QueueKeys.of(product);
            Set<Integer> slots = new TreeSet<>();
            keys.all().forEach((key) -> slots.add(SlotHash.getSlot(key)));
            slots.add(SlotHash.getSlot(keys.auditLease()));
            assertThat(slots).as("slots of product %d", product).hasSize(1);
        }
        assertThat(SlotHash.getSlot(QueueKeys.of(1).waiting())).isNotEqualTo(SlotHash.getSlot(QueueKeys.of(2).waiting()));
    }
}
