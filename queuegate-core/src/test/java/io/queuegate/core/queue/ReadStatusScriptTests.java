package io.queuegate.core.queue;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ReadStatusScriptTests extends RedisScriptTestSupport {

    @Test
    void theLineSaysItsPaceFloorWhetherItIsMeasuredAndItsHeadStart() {
        // RedisScriptTestSupport configures maxActive 10, admitPerSecond 25, entryTtlSeconds 300 unless told
        configure(10, 25, 4, true);
        this.line.append(this.product, tokens("t", 5));

        LineConditions unmeasured = this.statusReader.read(token("t-1"), NOW).line();
        assertThat(unmeasured.pace()).isEqualTo(25);
        assertThat(unmeasured.paceFloor()).as("10 places held at most 4 s").isEqualTo(2.5);
        assertThat(unmeasured.paceMeasured()).isFalse();
        assertThat(unmeasured.headStart()).as("a full bucket, 10 places free").isEqualTo(10);

        this.admission.admit(this.product, NOW, 100);
        redis.opsForHash().put(this.keys.stats(), "pace", "3.5");
        LineConditions measured = this.statusReader.read(token("t-1"), NOW).line();
        assertThat(measured.paceMeasured()).isTrue();
        assertThat(measured.pace()).isEqualTo(3.5);
        assertThat(measured.headStart()).as("5 of the 10 places taken").isEqualTo(5);
    }

    @Test
    void unseenTokenIsPending() {
        configure(10, 25, 60, true);
        this.line.append(this.product, List.of("someone-else"));

        assertThat(status("not-yet-applied", NOW)).isEqualTo(new TokenState(TokenStatus.PENDING, 0, 0, 25));
    }

    @Test
    void unseenTokenOfAnUnknownQueueIsPendingWithRateZero() {
        assertThat(status("anything", NOW)).isEqualTo(new TokenState(TokenStatus.PENDING, 0, 0, 0));
    }

    @Test
    void waitingTokenHasItsOneBasedPosition() {
        configure(2, 25, 60, true);
        List<String> all = tokens("t", 5);
        this.line.append(this.product, all);

        for (int i = 0; i < all.size(); i++) {
            assertThat(status(all.get(i), NOW)).isEqualTo(new TokenState(TokenStatus.WAITING, i + 1, 0, 25));
        }

        this.admission.admit(this.product, NOW, 100);

        assertThat(status(all.get(2), NOW)).isEqualTo(new TokenState(TokenStatus.WAITING, 1, 0, 25));
        assertThat(status(all.get(4), NOW)).isEqualTo(new TokenState(TokenStatus.WAITING, 3, 0, 25));
    }

    @Test
    void admittedTokenIsAvailableUntilItsScoreAndExpiredFromIt() {
        configure(2, 25, 60, true);
        List<String> all = tokens("t", 3);
        this.line.append(this.product, all);
        this.admission.admit(this.product, NOW, 100);
        long expiresAt = NOW + 60_000;

        assertThat(status(all.get(0), NOW)).isEqualTo(new TokenState(TokenStatus.AVAILABLE, 0, expiresAt, 25));
        assertThat(status(all.get(1), expiresAt - 1))
            .isEqualTo(new TokenState(TokenStatus.AVAILABLE, 0, expiresAt, 25));
        // score <= now is expired, exactly as admit_batch decides
        assertThat(status(all.get(0), expiresAt)).isEqualTo(new TokenState(TokenStatus.EXPIRED, 0, 0, 25));
        assertThat(status(all.get(1), expiresAt + 1)).isEqualTo(new TokenState(TokenStatus.EXPIRED, 0, 0, 25));
        // still in the line
        assertThat(status(all.get(2), expiresAt + 1).status()).isEqualTo(TokenStatus.WAITING);
    }

    @Test
    void tokenThatLeftTheLineIsExpired() {
        configure(2, 25, 60, true);
        this.line.append(this.product, List.of("a", "b"));
        this.remover.remove(token("a"));

        assertThat(status("a", NOW)).isEqualTo(new TokenState(TokenStatus.EXPIRED, 0, 0, 25));
        assertThat(status("b", NOW)).isEqualTo(new TokenState(TokenStatus.WAITING, 1, 0, 25));
    }

    @Test
    void tokenThatLeftItsEntryIsExpired() {
        configure(2, 25, 60, true);
        this.line.append(this.product, List.of("a"));
        this.admission.admit(this.product, NOW, 100);
        this.remover.remove(token("a"));

        assertThat(status("a", NOW)).isEqualTo(new TokenState(TokenStatus.EXPIRED, 0, 0, 25));
    }

    @Test
    void tokenWhoseEntryWasRemovedByExpiryIsExpired() {
        configure(2, 25, 60, true);
        this.line.append(this.product, List.of("a"));
        this.admission.admit(this.product, NOW, 100);
        this.admission.admit(this.product, NOW + 60_000, 100);
        assertThat(entry()).isEmpty();

        // read at an earlier time too: once the entry is gone no clock brings it back
        assertThat(status("a", NOW)).isEqualTo(new TokenState(TokenStatus.EXPIRED, 0, 0, 25));
    }

    @Test
    void userWhoseBookingUsedTheEntryIsExpired() {
        configure(2, 25, 60, true);
        this.line.append(this.product, List.of("a"));
        this.admission.admit(this.product, NOW, 100);
        // what consume_admission leaves behind: out of entry, in gone
        redis.opsForZSet().remove(this.keys.entry(), "a");
        redis.opsForSet().add(this.keys.gone(), "a");

        assertThat(status("a", NOW)).isEqualTo(new TokenState(TokenStatus.EXPIRED, 0, 0, 25));
    }

    @Test
    void userTheLineHasNeverPlacedIsPendingEvenWhenOthersAreGone() {
        configure(2, 25, 60, true);
        this.line.append(this.product, List.of("a", "b"));
        this.remover.remove(token("a"));

        assertThat(status("late", NOW)).isEqualTo(new TokenState(TokenStatus.PENDING, 0, 0, 25));
        assertThat(redis.hasKey(this.keys.gone())).isTrue();
    }

    @Test
    void withoutHistoryThePaceIsAdmitPerSecond() {
        configure(2, 37, 60, true);
        this.line.append(this.product, List.of("a"));
        assertThat(status("a", NOW).pace()).isEqualTo(37);

        configure(2, 999_999, 60, true);
        assertThat(status("a", NOW).pace()).isEqualTo(999_999);
        assertThat(status("never-seen", NOW).pace()).isEqualTo(999_999);
    }

    @Test
    void redisTimeDecidesWhenNowIsZero() {
        configure(2, 25, 60, true);
        long future = System.currentTimeMillis() + 3_600_000;
        redis.opsForZSet().add(this.keys.entry(), "fresh", future);
        redis.opsForZSet().add(this.keys.entry(), "stale", 1_000);

        assertThat(status("fresh", ScriptTime.REDIS_TIME))
            .isEqualTo(new TokenState(TokenStatus.AVAILABLE, 0, future, 25));
        assertThat(status("stale", ScriptTime.REDIS_TIME)).isEqualTo(new TokenState(TokenStatus.EXPIRED, 0, 0, 25));
    }

    @Test
    void scriptCalledDirectlyAnswersTheLineThenStatusPositionExpiryAndLastPollPerToken() {
        configure(2, 25, 60, true);
        this.line.append(this.product, List.of("a", "b"));

        @SuppressWarnings("unchecked")
        List<Object> reply = redis.execute(QueueScripts.READ_STATUS, readStatusKeys(), Long.toString(NOW), "b",
                "never-seen");

        // pace, maxPollsPerSecond, waiting (not counted without a budget), abandonAfterSeconds, opensAt, paceFloor
        // (2 places held up to 60 s), measured, headStart (a full bucket, 2 places free), admitPerSecond
        assertThat(reply.subList(0, 5)).containsExactly("25", 0L, 0L, 0L, "0");
        assertThat(Double.parseDouble(reply.get(5).toString())).isCloseTo(2 / 60.0, org.assertj.core.data.Offset
            .offset(1e-9));
        assertThat(reply.subList(6, 9)).containsExactly(0L, 2L, 25L);
        assertThat(reply.subList(9, reply.size())).containsExactly("WAITING", 2L, 0L, -1L, "PENDING", 0L, 0L, -1L);
        assertThat(redis.hasKey(this.keys.seen())).as("a poll without budget or abandonment writes nothing").isFalse();
    }

    @Test
    void manyTokensReadTogetherAnswerWhatEachReadAloneAnswers() {
        configure(2, 25, 60, true);
        List<String> all = tokens("t", 6);
        this.line.append(this.product, all);
        this.admission.admit(this.product, NOW, 100);
        this.remover.remove(token(all.get(1)));
        this.remover.remove(token(all.get(3)));
        // t-1 AVAILABLE, t-2 left its entry, t-3 WAITING 1, t-4 left the line, t-5 WAITING 2, t-6 WAITING 3
        List<String> asked = List.of(all.get(5), "never-seen", all.get(0), all.get(1), all.get(2), all.get(3),
                all.get(4), all.get(2));

        List<TokenState> together = this.statusReader.readAll(this.product, asked, NOW).stream()
            .map(RedisScriptTestSupport::withKnownPace).toList();

        assertThat(together).containsExactly(new TokenState(TokenStatus.WAITING, 3, 0, 25),
                new TokenState(TokenStatus.PENDING, 0, 0, 25),
                new TokenState(TokenStatus.AVAILABLE, 0, NOW + 60_000, 25),
                new TokenState(TokenStatus.EXPIRED, 0, 0, 25), new TokenState(TokenStatus.WAITING, 1, 0, 25),
                new TokenState(TokenStatus.EXPIRED, 0, 0, 25), new TokenState(TokenStatus.WAITING, 2, 0, 25),
                new TokenState(TokenStatus.WAITING, 1, 0, 25));
        for (int i = 0; i < asked.size(); i++) {
            assertThat(status(asked.get(i), NOW)).as(asked.get(i)).isEqualTo(together.get(i));
        }
    }

    @Test
    void oneClockDecidesExpiryForEveryTokenOfACall() {
        configure(2, 25, 60, true);
        this.line.append(this.product, List.of("c"));
        redis.opsForZSet().add(this.keys.entry(), "a", NOW + 60_000);
        redis.opsForZSet().add(this.keys.entry(), "b", NOW + 90_000);

        assertThat(this.statusReader.readAll(this.product, List.of("a", "b", "c"), NOW + 60_000).stream()
            .map(RedisScriptTestSupport::withKnownPace).toList()).containsExactly(
                new TokenState(TokenStatus.EXPIRED, 0, 0, 25),
                new TokenState(TokenStatus.AVAILABLE, 0, NOW + 90_000, 25),
                new TokenState(TokenStatus.WAITING, 1, 0, 25));
    }

    private List<String> readStatusKeys() {
        return List.of(this.keys.entry(), this.keys.waiting(), this.keys.gone(), this.keys.settings(),
                this.keys.stats(), this.keys.stock(), this.keys.seen());
    }

    @Test
    void underAPollBudgetTheLineIsCountedAndEachWaitingUsersLastPollRecorded() {
        configure(2, 25, 60, true);
        redis.opsForHash().put(this.keys.settings(), "maxPollsPerSecond", "500");
        this.line.append(this.product, List.of("a", "b", "c"));

        TokenState first = status("b", NOW);
        TokenState second = status("b", NOW + 700);

        assertThat(first.line()).isEqualTo(new LineConditions(25, 500, 3, 0));
        assertThat(first.sinceLastPollMs()).isEqualTo(-1);
        assertThat(second.sinceLastPollMs()).isEqualTo(700);
        assertThat(redis.opsForZSet().score(this.keys.seen(), "b")).isEqualTo((double) (NOW + 700));
        // only waiting users are tracked
        assertThat(status("never-seen", NOW).sinceLastPollMs()).isEqualTo(-1);
        assertThat(redis.opsForZSet().size(this.keys.seen())).isEqualTo(1);
    }

    @Test
    void twoPollsOfOneUserInOneCallSeeTheSecondAsImmediate() {
        configure(2, 25, 60, true);
        redis.opsForHash().put(this.keys.settings(), "maxPollsPerSecond", "500");
        this.line.append(this.product, List.of("a"));

        List<TokenState> states = this.statusReader.readAll(this.product, List.of("a", "a"), NOW);

        assertThat(states).extracting(TokenState::sinceLastPollMs).containsExactly(-1L, 0L);
    }
}
