package io.queuegate.core.queue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.StringCodec;

import io.queuegate.core.testing.TestRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AppendWaitingScriptTests extends RedisScriptTestSupport {

    @Test
    void tokensComeOutInTheGivenOrderWithStrictlyIncreasingScores() {
        // deliberately not in lexicographic order: only the score may decide the order
        List<String> batch = List.of("zeta", "alpha", "mike", "bravo", "yankee", "charlie");

        assertThat(this.line.append(this.product, batch)).isEqualTo(6);

        assertThat(waiting()).containsExactlyElementsOf(batch);
        List<Double> scores = List.copyOf(waitingScores().values());
        for (int i = 1; i < scores.size(); i++) {
            assertThat(scores.get(i)).isGreaterThan(scores.get(i - 1));
        }
        assertThat(scores).containsExactly(1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
        assertThat(stat("seq")).isEqualTo(6);
        assertThat(stat("enteredTotal")).isEqualTo(6);
        // a waiting user costs the waiting entry and nothing else
        assertThat(redis.hasKey(this.keys.gone())).isFalse();
        assertThat(redis.hasKey(this.keys.audit())).isFalse();
    }

    @Test
    void scriptCalledDirectlyAnswersAddedAndAppliedAndWritesNoAudit() {
        List<Object> reply = appendRaw("t:0", -1, "5,6,6", "a", "b", "c");

        assertThat(reply).containsExactly(3L, 6L);
        assertThat(waiting()).containsExactly("a", "b", "c");
        assertThat(redis.opsForHash().get(this.keys.stats(), "applied:t:0")).isEqualTo("6");
        // the entries topic already is the record of every enter
        assertThat(redis.hasKey(this.keys.audit())).isFalse();

        assertThat(appendRaw("t:0", 6, "7", "a")).as("a re-entry").containsExactly(0L, 7L);
        assertThat(appendRaw("t:0", -1, "5,6,6,7", "a", "b", "c", "a")).as("redelivered").containsExactly(0L, 7L);
        assertThat(waitingScores()).containsExactly(Map.entry("a", 1.0), Map.entry("b", 2.0), Map.entry("c", 3.0));
    }

    @Test
    void appendingTheSameBatchAgainAddsNothingAndChangesNoScore() {
        List<String> batch = tokens("t", 50);
        this.line.append(this.product, batch);
        Map<String, Double> before = waitingScores();

        assertThat(this.line.append(this.product, batch)).isZero();
        assertThat(this.line.append(this.product, batch.reversed())).isZero();

        assertThat(waitingScores()).containsExactlyEntriesOf(before);
        assertThat(stat("seq")).isEqualTo(50);
        assertThat(stat("enteredTotal")).isEqualTo(50);
    }

    @Test
    void duplicatesInsideOneBatchAreAddedOnce() {
        assertThat(this.line.append(this.product, List.of("a", "b", "a", "c", "b"))).isEqualTo(3);

        assertThat(waiting()).containsExactly("a", "b", "c");
        assertThat(waitingScores().values()).containsExactly(1.0, 2.0, 3.0);
    }

    @Test
    void overlappingBatchAddsOnlyTheNewTokensAtTheEnd() {
        this.line.append(this.product, List.of("a", "b", "c", "d"));
        Map<String, Double> before = waitingScores();

        // a redelivery that starts mid-batch and carries new events after it
        assertThat(this.line.append(this.product, List.of("c", "d", "e", "f"))).isEqualTo(2);

        assertThat(waiting()).containsExactly("a", "b", "c", "d", "e", "f");
        Map<String, Double> after = waitingScores();
        before.forEach((token, score) -> assertThat(after.get(token)).as(token).isEqualTo(score));
        assertThat(after.get("e")).isGreaterThan(after.get("d"));
        assertThat(after.get("f")).isGreaterThan(after.get("e"));
    }

    @Test
    void newTokensGoBehindEveryoneEvenAfterTheHeadWasAdmitted() {
        configure(2, 100, 60, true);
        this.line.append(this.product, List.of("a", "b", "c", "d"));
        this.admission.admit(this.product, NOW, 100);
        assertThat(waiting()).containsExactly("c", "d");

        // a and b are admitted: re-entering them is ignored; e goes to the end
        assertThat(this.line.append(this.product, List.of("a", "e", "b"))).isEqualTo(1);

        assertThat(waiting()).containsExactly("c", "d", "e");
        assertThat(entry()).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void thePriorityLaneGoesBeforeTheGeneralLineInLogOrderAndIsAdmittedFirst() {
        configure(3, 100, 60, true);
        this.line.append(this.product, List.of("g1", "g2", "+p1", "g3", "+p2"));
        assertThat(this.line.append(this.product, List.of("+p3", "g4"))).isEqualTo(2);

        assertThat(waiting()).containsExactly("p1", "p2", "p3", "g1", "g2", "g3", "g4");
        assertThat(waitingScores().get("p1")).isLessThan(-4.5e15);
        // a redelivery, or a re-entry in the other lane, moves nobody
        Map<String, Double> before = waitingScores();
        assertThat(this.line.append(this.product, List.of("g1", "+p1", "+g2", "p2"))).isZero();
        assertThat(waitingScores()).isEqualTo(before);

        this.admission.admit(this.product, NOW, 100);
        assertThat(entry()).containsExactlyInAnyOrder("p1", "p2", "p3");
        assertThat(waiting()).containsExactly("g1", "g2", "g3", "g4");
        assertThat(this.line.append(this.product, List.of("+p4"))).isEqualTo(1);
        assertThat(waiting()).containsExactly("p4", "g1", "g2", "g3", "g4");
    }

    @Test
    void tokenThatLeftBeforeItsAppendIsNotAdded() {
        this.line.append(this.product, List.of("a"));

        assertThat(this.remover.remove(token("early-leaver"))).isFalse();
        assertThat(this.line.append(this.product, List.of("b", "early-leaver", "c"))).isEqualTo(2);

        assertThat(waiting()).containsExactly("a", "b", "c");
        assertThat(status("early-leaver", NOW).status()).isEqualTo(TokenStatus.EXPIRED);
    }

    @Test
    void tokenThatLeftTheLineIsNotPutBackByARedelivery() {
        this.line.append(this.product, List.of("a", "b", "c"));
        assertThat(this.remover.remove(token("b"))).isTrue();

        assertThat(this.line.append(this.product, List.of("a", "b", "c"))).isZero();

        assertThat(waiting()).containsExactly("a", "c");
    }

    @Test
    void emptyBatchAddsNothing() {
        assertThat(this.line.append(this.product, List.of())).isZero();
        assertThat(redis.hasKey(this.keys.waiting())).isFalse();
        assertThat(redis.hasKey(this.keys.stats())).isFalse();
    }

    @Test
    void largeBatchKeepsItsOrder() {
        List<String> batch = new ArrayList<>(tokens("big", 5_000));
        Collections.shuffle(batch, new java.util.Random(3));

        assertThat(this.line.append(this.product, batch)).isEqualTo(5_000);

        assertThat(waiting()).containsExactlyElementsOf(batch);
    }

    @Test
    void aRedeliveredChunkIsSkippedByItsOffsetsEvenWhereItsUsersWouldBeNew() {
        assertThat(chunk("t:0", LineChunk.UNKNOWN, 0, users("a", 0, 10))).isEqualTo(new AppendResult(false, 10, 9));

        // the same records again, and records 5..9 of a redelivery that starts mid-chunk: nothing at or below the
        // applied offset is read, whatever users the records carry
        assertThat(chunk("t:0", LineChunk.UNKNOWN, 0, users("a", 0, 10))).isEqualTo(new AppendResult(false, 0, 9));
        assertThat(chunk("t:0", LineChunk.UNKNOWN, 5, users("x", 5, 10))).isEqualTo(new AppendResult(false, 5, 14));

        List<String> expected = new ArrayList<>(users("a", 0, 10));
        expected.addAll(users("x", 10, 5));
        assertThat(waiting()).containsExactlyElementsOf(expected);
        assertThat(stat("seq")).isEqualTo(15);
        assertThat(stat("enteredTotal")).isEqualTo(15);
    }

    @Test
    void aChunkWhosePredecessorIsNotInIsRefusedAndWritesNothing() {
        chunk("t:0", LineChunk.UNKNOWN, 0, users("a", 0, 10));
        Map<Object, Object> statsBefore = redis.opsForHash().entries(this.keys.stats());

        // records 20..29 expect 10..19 to be in
        assertThat(chunk("t:0", 19, 20, users("c", 20, 10))).isEqualTo(new AppendResult(true, 0, 9));

        assertThat(waiting()).containsExactlyElementsOf(users("a", 0, 10));
        assertThat(redis.opsForHash().entries(this.keys.stats())).isEqualTo(statsBefore);

        // the missing chunk, then the refused one again: everyone in log order
        assertThat(chunk("t:0", 9, 10, users("b", 10, 10)).refused()).isFalse();
        assertThat(chunk("t:0", 19, 20, users("c", 20, 10)).refused()).isFalse();
        List<String> expected = new ArrayList<>(users("a", 0, 10));
        expected.addAll(users("b", 10, 10));
        expected.addAll(users("c", 20, 10));
        assertThat(waiting()).containsExactlyElementsOf(expected);
    }

    /**
     * A Redis restarted from an older snapshot, or a replica promoted a moment behind, keeps the line but may lack its
     * last appends: its process is not the one that stamped the line. Nothing goes in until a restore stamps the line
     * again, so no applied offset is recorded beyond records Redis lost.
     */
    @Test
    void aLineLastWrittenByAnotherRedisProcessTakesNothingUntilRestored() {
        assertThat(chunk("t:0", LineChunk.UNKNOWN, 0, users("a", 0, 10))).isEqualTo(new AppendResult(false, 10, 9));
        String run = redis.<String, String>opsForHash().get(this.keys.stats(), "run");
        assertThat(run).as("stamped with the process that appended").isNotBlank();

        redis.opsForHash().put(this.keys.stats(), "run", "a-process-before-the-restart");
        Map<Object, Object> statsBefore = redis.opsForHash().entries(this.keys.stats());
        assertThat(chunk("t:0", LineChunk.UNKNOWN, 20, users("c", 20, 10)))
            .isEqualTo(new AppendResult(true, 0, 9, true));
        assertThat(waiting()).containsExactlyElementsOf(users("a", 0, 10));
        assertThat(redis.opsForHash().entries(this.keys.stats())).isEqualTo(statsBefore);

        // restored: the line is stamped with the process that serves it now, and takes the log again
        redis.opsForHash().put(this.keys.stats(), "run", run);
        assertThat(chunk("t:0", LineChunk.UNKNOWN, 10, users("b", 10, 10))).isEqualTo(new AppendResult(false, 10, 19));
    }

    /**
     * A writer that restored the sale for the process serving now, and reads the log again from the start, appends
     * to a line that process did not stamp (the restore knew no record of its product but the enters): the line
     * takes the chunk and is stamped. A chunk that names the process before, sent before the writer noticed the new
     * one, is still refused.
     */
    @Test
    void aWriterThatRestoredForThisProcessAppendsToALineAnotherProcessStamped() {
        chunk("t:0", LineChunk.UNKNOWN, 0, users("a", 0, 10));
        String run = redis.<String, String>opsForHash().get(this.keys.stats(), "run");
        redis.opsForHash().put(this.keys.stats(), "run", "a-process-before-the-failover");

        assertThat(chunkRestoredFor("a-process-before-the-failover", 10, users("b", 10, 10)))
            .isEqualTo(new AppendResult(true, 0, 9, true));
        assertThat(chunkRestoredFor(run, 10, users("b", 10, 10))).isEqualTo(new AppendResult(false, 10, 19));

        assertThat(redis.<String, String>opsForHash().get(this.keys.stats(), "run")).isEqualTo(run);
        List<String> expected = new ArrayList<>(users("a", 0, 10));
        expected.addAll(users("b", 10, 10));
        assertThat(waiting()).containsExactlyElementsOf(expected);
    }

    @Test
    void eachPartitionKeepsItsOwnAppliedOffset() {
        chunk("t:0", LineChunk.UNKNOWN, 100, users("p0-", 100, 3));

        // offset 5 of another partition is not "already applied"
        assertThat(chunk("t:1", LineChunk.UNKNOWN, 5, users("p1-", 5, 2))).isEqualTo(new AppendResult(false, 2, 6));
        assertThat(chunk("t:0", 102, 103, users("p0-", 103, 1))).isEqualTo(new AppendResult(false, 1, 103));

        assertThat(waiting()).containsExactly("p0-100", "p0-101", "p0-102", "p1-5", "p1-6", "p0-103");
    }

    /**
     * Three chunks in one pipeline, and the middle one fails inside Redis (its gone key has the wrong type while it
     * runs). The chunk after it is refused, not applied ahead of it; sent again, both land in log order.
     */
    @Test
    void aMiddleChunkThatFailsInRedisKeepsTheChunkAfterItOut() throws Exception {
        var commands = rawConnection();
        RedisFuture<List<Object>> first = evalChunk(commands, -1, 0, users("a", 0, 100));
        RedisFuture<String> breakIt = commands.set(this.keys.gone(), "not a set");
        RedisFuture<List<Object>> middle = evalChunk(commands, 99, 100, users("b", 100, 100));
        RedisFuture<Long> mendIt = commands.del(this.keys.gone());
        RedisFuture<List<Object>> last = evalChunk(commands, 199, 200, users("c", 200, 100));
        commands.flushCommands();

        assertThat(await(first)).containsExactly(100L, 99L);
        assertThat(await(breakIt)).isEqualTo("OK");
        assertThatThrownBy(() -> await(middle)).hasMessageContaining("WRONGTYPE");
        assertThat(await(mendIt)).isEqualTo(1L);
        assertThat(await(last)).as("refused").containsExactly(-1L, 99L);
        assertThat(waiting()).containsExactlyElementsOf(users("a", 0, 100));

        assertThat(chunk("t:0", 99, 100, users("b", 100, 100)).added()).isEqualTo(100);
        assertThat(chunk("t:0", 199, 200, users("c", 200, 100)).added()).isEqualTo(100);
        List<String> expected = new ArrayList<>(users("a", 0, 100));
        expected.addAll(users("b", 100, 100));
        expected.addAll(users("c", 200, 100));
        assertThat(waiting()).containsExactlyElementsOf(expected);
        assertThat(waitingScores().values()).containsExactlyElementsOf(
                java.util.stream.LongStream.rangeClosed(1, 300).mapToObj(i -> (double) i).toList());
    }

    /**
     * Two writers pipeline the same log at once with different chunk boundaries, as an old consumer still
     * finishing its batch and the new owner of the partition would after a rebalance. Whatever interleaving Redis
     * sees, each record is applied once and the line is the log.
     */
    @RepeatedTest(3)
    void twoWritersPipeliningTheSameLogKeepItsOrderAndApplyEachRecordOnce() throws Exception {
        List<String> log = users("u", 0, 6_000);
        List<Long> added = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch start = new CountDownLatch(1);
        WaitingLine other = new WaitingLine(redis, TestRedis.TIMER, Keyspace.DEFAULT);
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            List<Future<?>> writers = new ArrayList<>();
            for (Object[] writer : new Object[][] { { this.waitingLine, 250 }, { other, 170 } }) {
                writers.add(pool.submit(() -> {
                    start.await();
                    WaitingLine line = (WaitingLine) writer[0];
                    int size = (Integer) writer[1];
                    List<CompletableFuture<AppendResult>> answers = new ArrayList<>();
                    long after = LineChunk.UNKNOWN;
                    for (int from = 0; from < log.size(); from += size) {
                        int count = Math.min(size, log.size() - from);
                        LineChunk chunk = new LineChunk(this.product, "t:0", after, offsets(from, count),
                                log.subList(from, from + count));
                        after = chunk.lastOffset();
                        answers.add(line.appendAsync(chunk));
                    }
                    for (CompletableFuture<AppendResult> answer : answers) {
                        AppendResult result = answer.get(30, TimeUnit.SECONDS);
                        assertThat(result.refused()).isFalse();
                        added.add(result.added());
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> writer : writers) {
                writer.get();
            }
        }
        finally {
            other.destroy();
        }

        assertThat(added.stream().mapToLong(Long::longValue).sum()).isEqualTo(6_000);
        assertThat(waiting()).containsExactlyElementsOf(log);
        assertThat(waitingScores().get(log.getLast())).isEqualTo(6_000.0);
        assertThat(stat("seq")).isEqualTo(6_000);
        assertThat(stat("enteredTotal")).isEqualTo(6_000);
        assertThat(redis.opsForHash().get(this.keys.stats(), "applied:t:0")).isEqualTo("5999");
    }

    private AppendResult chunk(String source, long after, long firstOffset, List<String> users) {
        return this.waitingLine.append(new LineChunk(this.product, source, after,
                offsets(firstOffset, users.size()), users));
    }

    private AppendResult chunkRestoredFor(String process, long firstOffset, List<String> users) {
        return this.waitingLine.appendAsync(new LineChunk(this.product, "t:0", LineChunk.UNKNOWN,
                offsets(firstOffset, users.size()), users), process).join();
    }

    private static List<String> users(String prefix, int first, int count) {
        List<String> users = new ArrayList<>(count);
        for (int i = first; i < first + count; i++) {
            users.add(prefix + i);
        }
        return users;
    }

    @SuppressWarnings("unchecked")
    private List<Object> appendRaw(String source, long after, String offsets, String... users) {
        Object[] args = new Object[users.length + 4];
        args[0] = "applied:" + source;
        args[1] = Long.toString(after);
        args[2] = offsets;
        args[3] = WaitingLine.NO_PROCESS;
        System.arraycopy(users, 0, args, 4, users.length);
        return redis.execute(QueueScripts.APPEND_WAITING,
                List.of(this.keys.waiting(), this.keys.entry(), this.keys.gone(), this.keys.stats(),
                        this.keys.settings(), this.keys.seen()), args);
    }

    /** One connection, so that the pipelined commands reach Redis in order: on a cluster, to the product's node. */
    private RedisAsyncCommands<String, String> rawConnection() {
        StatefulRedisConnection<String, String> connection;
        AbstractRedisClient client = ((LettuceConnectionFactory) redis.getRequiredConnectionFactory())
            .getRequiredNativeClient();
        if (client instanceof RedisClusterClient cluster) {
            StatefulRedisClusterConnection<String, String> routed = cluster.connect(StringCodec.UTF8);
            RedisURI node = routed.getPartitions().getPartitionBySlot(SlotHash.getSlot(this.keys.waiting())).getUri();
            connection = routed.getConnection(node.getHost(), node.getPort());
            this.closeAfter = routed;
        }
        else {
            connection = ((RedisClient) client).connect(StringCodec.UTF8);
            this.closeAfter = connection;
        }
        RedisAsyncCommands<String, String> commands = connection.async();
        commands.scriptLoad(QueueScripts.APPEND_WAITING.getScriptAsString());
        commands.setAutoFlushCommands(false);
        return commands;
    }

    private RedisFuture<List<Object>> evalChunk(RedisAsyncCommands<String, String> commands, long after, int first,
            List<String> users) {
        String[] args = new String[users.size() + 4];
        args[0] = "applied:t:0";
        args[1] = Long.toString(after);
        args[2] = String.join(",", java.util.Arrays.stream(offsets(first, users.size())).mapToObj(Long::toString)
            .toList());
        args[3] = WaitingLine.NO_PROCESS;
        for (int i = 0; i < users.size(); i++) {
            args[i + 4] = users.get(i);
        }
        return commands.evalsha(QueueScripts.APPEND_WAITING.getSha1(), ScriptOutputType.MULTI,
                new String[] { this.keys.waiting(), this.keys.entry(), this.keys.gone(), this.keys.stats(),
                    this.keys.settings(), this.keys.seen() }, args);
    }

    private static <T> T await(RedisFuture<T> future) throws Exception {
        try {
            return future.get(10, TimeUnit.SECONDS);
        }
        catch (java.util.concurrent.ExecutionException ex) {
            throw (Exception) ex.getCause();
        }
    }

    private AutoCloseable closeAfter;

    @AfterEach
    void closeRawConnection() throws Exception {
        if (this.closeAfter != null) {
            this.closeAfter.close();
        }
    }
}
