package io.queuegate.core.queue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.StringCodec;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Appends applied enter events to a product's line, in log order and exactly once; see {@code append_waiting.lua}.
 *
 * <p>Appends go out on a connection of their own and are pipelined: {@link #appendAsync} sends a chunk without
 * waiting for the answers to the ones before it, and Redis runs one connection's commands in the order they were
 * sent. What keeps order when a chunk in the middle fails is in the script, not here: every chunk names the offset
 * its predecessor ended at, and a chunk whose predecessor is not in is refused.
 */
public class WaitingLine implements DisposableBean {

    /** No Redis process restored for: the line takes a chunk only on the process that stamped it last. */
    public static final String NO_PROCESS = "";

    @SuppressWarnings("rawtypes")
    private static final RedisScript<List> SCRIPT = QueueScripts.APPEND_WAITING;

    private final StringRedisTemplate redis;

    private final ScriptTimer timer;

    private final Keyspace keyspace;

    private StatefulConnection<String, String> connection;

    private RedisClusterAsyncCommands<String, String> commands;

    public WaitingLine(StringRedisTemplate redis, ScriptTimer timer, Keyspace keyspace) {
        this.redis = redis;
        this.timer = timer;
        this.keyspace = keyspace;
    }

    /** Appends one chunk and waits for the answer. */
    public AppendResult append(LineChunk chunk) {
        try {
            return appendAsync(chunk).join();
        }
        catch (CompletionException ex) {
            throw ex.getCause() instanceof RuntimeException cause ? cause : ex;
        }
    }

    /**
     * Sends one chunk and returns at once. Chunks sent one after another by one thread reach Redis in that order.
     * The answer fails when Redis failed the script; it wrote nothing then (a script that writes is refused before
     * it starts when Redis is out of memory, and every other check comes before the first write).
     */
    public CompletableFuture<AppendResult> appendAsync(LineChunk chunk) {
        return appendAsync(chunk, NO_PROCESS);
    }

    /**
     * Sends one chunk as {@link #appendAsync(LineChunk)}, from a writer that restored the sale for a Redis process
     * and reads the log again from the start: on that process the line takes the chunk even when another process
     * stamped it last, as a line the restore did not know is (see {@code append_waiting.lua}).
     *
     * @param restoredFor the run_id of that process, or {@link #NO_PROCESS}
     */
    public CompletableFuture<AppendResult> appendAsync(LineChunk chunk, String restoredFor) {
        QueueKeys keys = this.keyspace.product(chunk.productId());
        String[] scriptKeys = { keys.waiting(), keys.entry(), keys.gone(), keys.stats(), keys.settings(),
            keys.seen() };
        List<String> userIds = chunk.userIds();
        String[] args = new String[userIds.size() + 4];
        args[0] = LineChunk.appliedField(chunk.source());
        args[1] = Long.toString(chunk.after());
        args[2] = offsets(chunk.offsets());
        args[3] = restoredFor;
        for (int i = 0; i < userIds.size(); i++) {
            args[i + 4] = userIds.get(i);
        }
        RedisClusterAsyncCommands<String, String> commands = commands();
        return this.timer.timeAsync("append_waiting", () -> commands
            .<List<Long>>evalsha(SCRIPT.getSha1(), ScriptOutputType.MULTI, scriptKeys, args)
            .toCompletableFuture()
            .handle((reply, failure) -> {
                if (failure != null) {
                    if (unwrap(failure) instanceof RedisNoScriptException) {
                        // Redis lost its scripts (a restart): load it for the retry the failure asks for
                        commands.scriptLoad(SCRIPT.getScriptAsString());
                    }
                    throw failure instanceof CompletionException completion ? completion
                            : new CompletionException(failure);
                }
                long added = reply.get(0);
                return new AppendResult(added < 0, Math.max(0, added), reply.get(1), added == -2);
            }));
    }

    private synchronized RedisClusterAsyncCommands<String, String> commands() {
        if (this.commands == null) {
            LettuceConnectionFactory factory = (LettuceConnectionFactory) this.redis.getRequiredConnectionFactory();
            AbstractRedisClient client = factory.getRequiredNativeClient();
            if (client instanceof RedisClusterClient cluster) {
                var clustered = cluster.connect(StringCodec.UTF8);
                this.connection = clustered;
                this.commands = clustered.async();
            }
            else {
                var single = ((RedisClient) client).connect(StringCodec.UTF8);
                this.connection = single;
                this.commands = single.async();
            }
            this.commands.scriptLoad(SCRIPT.getScriptAsString()).toCompletableFuture().join();
        }
        return this.commands;
    }

    @Override
    public synchronized void destroy() {
        if (this.connection != null) {
            this.connection.close();
            this.connection = null;
            this.commands = null;
        }
    }

    private static String offsets(long[] offsets) {
        StringBuilder text = new StringBuilder(offsets.length * 8);
        for (int i = 0; i < offsets.length; i++) {
            if (i > 0) {
                text.append(',');
            }
            text.append(offsets[i]);
        }
        return text.toString();
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
