package io.queuegate.core.queue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.RedisScript;

/** The queue's Lua scripts, each read once from {@code META-INF/scripts/} and run by SHA. */
public final class QueueScripts {

    /**
     * What every script may call, first, as the scripts use it: the clock ({@code time_ms()}, {@code now_ms(given)}),
     * a fair start's order ({@code fair_score(seed, user)}) and the Redis process it runs on ({@code run_id()}).
     */
    private static final String PRELUDE = read("lib/clock") + read("lib/fair_start") + read("lib/process");

    @SuppressWarnings("rawtypes")
    public static final RedisScript<List> APPEND_WAITING = of("append_waiting", List.class);

    @SuppressWarnings("rawtypes")
    public static final RedisScript<List> ADMIT_BATCH = of("admit_batch", List.class);

    @SuppressWarnings("rawtypes")
    public static final RedisScript<List> READ_STATUS = of("read_status", List.class);

    public static final RedisScript<Long> LEAVE_PLACE = of("leave_place", Long.class);

    private QueueScripts() {
    }

    /**
     * Reads the script's text once, with the prelude after its {@code #!lua} line (which must stay first). A script
     * built from a resource would check the file's modification time inside the jar on every call, which was most
     * of a status poll's CPU.
     */
    public static <T> RedisScript<T> of(String name, Class<T> resultType) {
        return RedisScript.of(withPrelude(read(name)), resultType);
    }

    /** A script's text as Redis runs it: the prelude after its {@code #!lua} line, or first when it has none. */
    public static String withPrelude(String script) {
        int shebang = script.startsWith("#!") ? script.indexOf('\n') + 1 : 0;
        return script.substring(0, shebang) + PRELUDE + script.substring(shebang);
    }

    private static String read(String name) {
        try {
            return new ClassPathResource("META-INF/scripts/" + name + ".lua").getContentAsString(StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("no script META-INF/scripts/" + name + ".lua", ex);
        }
    }
}
