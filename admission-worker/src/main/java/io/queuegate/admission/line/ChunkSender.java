package io.queuegate.admission.line;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import io.queuegate.core.queue.AppendResult;
import io.queuegate.core.queue.LineChunk;
import io.queuegate.core.queue.WaitingLine;

/**
 * Sends one consumer batch's chunks to the line in log order without waiting for answers in between, and keeps
 * the answers. Its steps run one after another (each after the previous chunk was sent), never at once.
 */
final class ChunkSender {

    /** Far beyond any answer; only a connection that hangs without failing would reach it. */
    private static final long PATIENCE_SECONDS = 120;

    private final WaitingLine line;

    /** The last offset sent per product and partition in this batch: what the next chunk expects to be applied. */
    private final Map<LineSource, Long> lastSent = new HashMap<>();

    private final List<CompletableFuture<AppendResult>> answers = new ArrayList<>();

    /** The source of each answer, in the same order. */
    private final List<LineSource> sources = new ArrayList<>();

    private final LineEpoch epoch;

    ChunkSender(WaitingLine line, LineEpoch epoch) {
        this.line = line;
        this.epoch = epoch;
    }

    /**
     * Sends each product's share of one chunk. The first chunk of a product in the batch expects what Redis last
     * confirmed for it to this writer (nothing, when it confirmed nothing since the partitions were assigned): a
     * Redis that went back in time refuses it instead of recording an applied offset beyond what it lost.
     */
    Void send(Collection<LineChunkBuilder> groups) {
        for (LineChunkBuilder group : groups) {
            Long previous = this.lastSent.get(group.source());
            LineChunk chunk = group.build(previous != null ? previous : this.epoch.confirmed(group.source()));
            this.lastSent.put(group.source(), chunk.lastOffset());
            this.sources.add(group.source());
            this.answers.add(this.line.appendAsync(chunk, this.epoch.restoredFor()));
        }
        return null;
    }

    /**
     * Remembers what Redis confirmed it applied, and tells whether it answered any chunk with an applied offset below
     * one it confirmed before: it lost writes it had acknowledged.
     */
    boolean redisWentBack() {
        boolean back = false;
        for (int i = 0; i < this.answers.size(); i++) {
            CompletableFuture<AppendResult> answer = this.answers.get(i);
            if (!answer.isDone() || answer.isCompletedExceptionally()) {
                continue;
            }
            AppendResult result = answer.join();
            LineSource source = this.sources.get(i);
            if (result.applied() < this.epoch.confirmed(source)) {
                back = true;
            }
            else if (!result.refused()) {
                this.epoch.confirm(source, result.applied());
            }
        }
        return back;
    }

    /** Waits until every chunk sent is answered, failed or not; returns how many users joined the lines. */
    long awaitAdded() {
        CompletableFuture<?>[] all = this.answers.toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(all).orTimeout(PATIENCE_SECONDS, TimeUnit.SECONDS).join();
        }
        catch (CompletionException ex) {
            // failures are looked at in order by throwFirstFailure
        }
        return this.answers.stream()
            .filter(answer -> answer.isDone() && !answer.isCompletedExceptionally())
            .mapToLong(answer -> answer.join().added())
            .sum();
    }

    /** The products whose lines took in users in this batch: those of the answered chunks that added any. */
    Set<Long> grownProducts() {
        Set<Long> grown = new HashSet<>();
        for (int i = 0; i < this.answers.size(); i++) {
            CompletableFuture<AppendResult> answer = this.answers.get(i);
            if (answer.isDone() && !answer.isCompletedExceptionally() && answer.join().added() > 0) {
                grown.add(this.sources.get(i).productId());
            }
        }
        return grown;
    }

    /**
     * Whether a line refused a chunk because the Redis process holding it restarted or failed over since it was last
     * written, and may have lost its last writes.
     */
    boolean redisRestarted() {
        return this.answers.stream()
            .anyMatch(answer -> answer.isDone() && !answer.isCompletedExceptionally() && answer.join().restarted());
    }

    /** Throws the first chunk's failure, in log order, or a refusal; returns when every chunk is in. */
    void throwFirstFailure() {
        for (CompletableFuture<AppendResult> answer : this.answers) {
            AppendResult result;
            try {
                result = answer.getNow(null);
            }
            catch (CompletionException ex) {
                throw ex.getCause() instanceof RuntimeException cause ? cause : ex;
            }
            if (result == null) {
                throw new IllegalStateException("the line did not answer an append within " + PATIENCE_SECONDS + " s");
            }
            if (result.refused()) {
                throw new IllegalStateException("the line refused a chunk because the one before it is not in "
                        + "(applied through offset " + result.applied() + "); the batch is sent again");
            }
        }
    }
}
