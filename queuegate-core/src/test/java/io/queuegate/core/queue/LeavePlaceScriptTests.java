package io.queuegate.core.queue;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LeavePlaceScriptTests extends RedisScriptTestSupport {

    @Test
    void removingFromTheLineMovesTheOnesBehindUp() {
        configure(10, 100, 60, true);
        List<String> all = tokens("t", 5);
        this.line.append(this.product, all);

        assertThat(this.remover.remove(token(all.get(2)))).isTrue();

        assertThat(waiting()).containsExactly(all.get(0), all.get(1), all.get(3), all.get(4));
        assertThat(status(all.get(3), NOW).position()).isEqualTo(3);
        assertThat(status(all.get(4), NOW).position()).isEqualTo(4);
        assertThat(status(all.get(1), NOW).position()).isEqualTo(2);
        assertThat(stat("leftTotal")).isEqualTo(1);
    }

    @Test
    void removingTwiceRemovesOnce() {
        configure(10, 100, 60, true);
        this.line.append(this.product, List.of("a", "b"));

        assertThat(this.remover.remove(token("a"))).isTrue();
        assertThat(this.remover.remove(token("a"))).isFalse();

        assertThat(waiting()).containsExactly("b");
        assertThat(stat("leftTotal")).isEqualTo(1);
    }

    @Test
    void removingFromEntryFreesASlot() {
        configure(2, 1_000, 60, true);
        List<String> all = tokens("t", 4);
        this.line.append(this.product, all);
        assertThat(this.admission.admit(this.product, NOW, 100).admitted()).isEqualTo(2);
        assertThat(this.admission.admit(this.product, NOW, 100).admitted()).isZero();

        assertThat(this.remover.remove(token(all.get(0)))).isTrue();

        assertThat(this.admission.admit(this.product, NOW, 100)).isEqualTo(new AdmissionResult(1, 0, 2, 1));
        assertThat(entry()).containsExactlyInAnyOrder(all.get(1), all.get(2));
        assertThat(waiting()).containsExactly(all.get(3));
        assertThat(stat("leftTotal")).isEqualTo(1);
        // a slot freed by leaving is not counted as expired
        assertThat(stat("expiredTotal")).isZero();
    }

    @Test
    void aRevokedAdmissionIsRecordedUntilItWouldHaveExpiredAndALeaveIsNot() {
        configure(3, 1_000, 60, true);
        this.line.append(this.product, List.of("a", "b", "c"));
        assertThat(this.admission.admit(this.product, NOW, 100).admitted()).isEqualTo(3);
        Double expiresAt = redis.opsForZSet().score(this.keys.entry(), "a");
        // a past revoke whose admission has long expired: trimmed by the next revoke
        redis.opsForZSet().add(this.keys.revoked(), "long-ago", 1);

        assertThat(this.remover.revoke(token("a"))).isTrue();
        this.remover.remove(token("b"));
        this.remover.revoke(token("never-admitted"));

        assertThat(redis.opsForZSet().rangeWithScores(this.keys.revoked(), 0, -1))
            .singleElement().satisfies((revoked) -> {
                assertThat(revoked.getValue()).isEqualTo("a");
                assertThat(revoked.getScore()).isEqualTo(expiresAt);
            });
    }

    @Test
    void unknownTokenIsNotRemovedAndItsLateAppendIsIgnored() {
        configure(10, 100, 60, true);
        this.line.append(this.product, List.of("a"));

        assertThat(this.remover.remove(token("ghost"))).isFalse();
        assertThat(stat("leftTotal")).isZero();

        assertThat(this.line.append(this.product, List.of("ghost", "b"))).isEqualTo(1);
        assertThat(waiting()).containsExactly("a", "b");
        assertThat(status("ghost", NOW).status()).isEqualTo(TokenStatus.EXPIRED);
        // the recorded leave is not a place: removing again still answers false
        assertThat(this.remover.remove(token("ghost"))).isFalse();
    }

    @Test
    void leavingRecordsTheUserAsGoneWhetherOrNotTheyHeldAPlace() {
        configure(10, 100, 60, true);
        this.line.append(this.product, List.of("a", "b"));

        this.remover.remove(token("b"));
        this.remover.remove(token("never-entered"));

        assertThat(gone()).containsExactlyInAnyOrder("b", "never-entered");
        assertThat(waiting()).containsExactly("a");
    }

    @Test
    void scriptCalledDirectlyAnswersOneOrZeroAndAuditsOnlyARealLeave() {
        this.line.append(this.product, List.of("a"));
        List<String> scriptKeys = List.of(this.keys.waiting(), this.keys.entry(), this.keys.gone(),
                this.keys.stats(), this.keys.audit());
        long entered = redis.opsForStream().size(this.keys.audit());

        assertThat(redis.execute(QueueScripts.LEAVE_PLACE, scriptKeys, "a", "1700000000000")).isEqualTo(1L);
        assertThat(redis.execute(QueueScripts.LEAVE_PLACE, scriptKeys, "a", "1700000000001")).isEqualTo(0L);
        var audit = redis.opsForStream().range(this.keys.audit(), org.springframework.data.domain.Range.unbounded());
        assertThat(audit).hasSize((int) entered + 1);
        assertThat(audit.getLast().getValue()).containsEntry("type", "LEFT").containsEntry("users", "a")
            .containsEntry("at", "1700000000000");
    }

    @Test
    void aRevokedPlaceIsGoneLikeALeaveAndAuditedAsRevoked() {
        this.line.append(this.product, List.of("a", "b"));
        assertThat(this.remover.revoke(token("a"))).isTrue();
        assertThat(waiting()).containsExactly("b");
        assertThat(redis.opsForSet().isMember(this.keys.gone(), "a")).isTrue();
        var audit = redis.opsForStream().range(this.keys.audit(), org.springframework.data.domain.Range.unbounded());
        assertThat(audit.getLast().getValue()).containsEntry("type", "REVOKED").containsEntry("users", "a");
        assertThat(stat("revokedTotal")).isEqualTo(1);
        assertThat(stat("leftTotal")).isZero();
        assertThat(this.remover.revoke(token("a"))).isFalse();
    }
}
