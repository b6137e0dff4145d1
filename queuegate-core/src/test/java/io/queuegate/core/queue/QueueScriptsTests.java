package io.queuegate.core.queue;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Every script gets the shared clock, and a script's flags line stays its first, where Redis reads it. */
class QueueScriptsTests extends RedisScriptTestSupport {

    @Test
    void aScriptWithFlagsKeepsThemFirstAndGetsTheClockAfterThem() {
        String text = QueueScripts.ADMIT_BATCH.getScriptAsString();
        List<String> lines = text.lines().toList();
        assertThat(lines.getFirst()).isEqualTo("#!lua");
        assertThat(lines.get(1)).startsWith("-- The queue's one clock");
        assertThat(text).contains("local function now_ms(given)").containsOnlyOnce("redis.call('TIME')");
    }

    @Test
    void aScriptWithoutFlagsStartsWithTheClock() {
        assertThat(QueueScripts.READ_STATUS.getScriptAsString()).startsWith("-- The queue's one clock");
    }

    @Test
    void theClockAnswersAFixedNowOrRedisTime() {
        long before = System.currentTimeMillis();
        assertThat(redis.execute(QueueScripts.of("lib/clock_probe", Long.class), List.of(this.keys.stats()), "0"))
            .isBetween(before - 5_000, System.currentTimeMillis() + 5_000);
        assertThat(redis.execute(QueueScripts.of("lib/clock_probe", Long.class), List.of(this.keys.stats()), Long.toString(NOW)))
            .isEqualTo(NOW);
    }
}
