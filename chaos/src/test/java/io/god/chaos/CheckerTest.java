package io.god.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The checker's rules on hand-made histories: each invariant caught, and what is allowed left alone. */
class CheckerTest {

    static Op put(long id, String key, long invoke, long complete, Op.Outcome outcome) {
        return new Op(id, 0, Op.Kind.PUT, key, "v-" + key, invoke, complete, outcome, false, "n0", null);
    }

    static Op del(long id, String key, long invoke, long complete, Op.Outcome outcome) {
        return new Op(id, 0, Op.Kind.DEL, key, null, invoke, complete, outcome, false, "n0", null);
    }

    static Op get(long id, String key, long invoke, long complete, boolean found) {
        return new Op(id, 1, Op.Kind.GET, key, found ? "v-" + key : null, invoke, complete, Op.Outcome.OK, found, "n0",
                null);
    }

    static final Checker.Final PRESENT_A = new Checker.Final(false, true, "v-a");
    static final Checker.Final ABSENT = new Checker.Final(false, false, null);

    @Test
    void aCleanHistoryPasses() {
        List<Op> h = List.of(put(1, "a", 0, 10, Op.Outcome.OK), get(2, "a", 11, 12, true),
                put(3, "b", 0, 10, Op.Outcome.OK), del(4, "b", 20, 30, Op.Outcome.OK), get(5, "b", 31, 32, false));
        assertThat(Checker.check(h, Map.of("a", PRESENT_A, "b", ABSENT))).isEmpty();
    }

    @Test
    void anAcknowledgedPutMissingAtTheEndIsALostWrite() {
        List<Op> h = List.of(put(1, "a", 0, 10, Op.Outcome.OK));
        assertThat(Checker.check(h, Map.of("a", ABSENT))).extracting(Checker.Violation::kind).containsExactly("lost write");
    }

    @Test
    void anUnacknowledgedPutMayBeMissing() {
        List<Op> h = List.of(put(1, "a", 0, 10, Op.Outcome.UNKNOWN));
        assertThat(Checker.check(h, Map.of("a", ABSENT))).isEmpty();
        assertThat(Checker.check(h, Map.of("a", PRESENT_A))).isEmpty();
    }

    @Test
    void anAcknowledgedDeletePresentAtTheEndIsResurrected() {
        List<Op> h = List.of(put(1, "a", 0, 10, Op.Outcome.OK), del(2, "a", 20, 30, Op.Outcome.OK));
        assertThat(Checker.check(h, Map.of("a", PRESENT_A))).extracting(Checker.Violation::kind)
                .containsExactly("resurrected delete");
        List<Op> unknown = List.of(put(1, "a", 0, 10, Op.Outcome.OK), del(2, "a", 20, 30, Op.Outcome.UNKNOWN));
        assertThat(Checker.check(unknown, Map.of("a", PRESENT_A))).isEmpty();
    }

    @Test
    void aReadAfterTheAcknowledgementThatMissesTheWriteIsStale() {
        List<Op> h = List.of(put(1, "a", 0, 10, Op.Outcome.OK), get(2, "a", 11, 12, false));
        List<Checker.Violation> v = Checker.check(h, Map.of("a", PRESENT_A));
        assertThat(v).extracting(Checker.Violation::kind).containsExactly("stale read");
        assertThat(v.get(0).describe()).contains("#1", "#2"); // the excerpt shows both operations
    }

    @Test
    void aReadConcurrentWithThePutOrADeleteMayGoEitherWay() {
        List<Op> h = List.of(put(1, "a", 0, 10, Op.Outcome.OK), get(2, "a", 5, 12, false),
                del(3, "a", 20, 30, Op.Outcome.OK), get(4, "a", 25, 26, true), get(5, "a", 31, 32, false));
        assertThat(Checker.check(h, Map.of("a", ABSENT))).isEmpty();
    }

    @Test
    void aReadAfterAnAcknowledgedDeleteThatSeesTheValueIsStale() {
        List<Op> h = List.of(put(1, "a", 0, 10, Op.Outcome.OK), del(2, "a", 20, 30, Op.Outcome.OK),
                get(3, "a", 31, 32, true));
        assertThat(Checker.check(h, Map.of("a", ABSENT))).extracting(Checker.Violation::kind)
                .containsExactly("stale read");
    }

    @Test
    void aFailedFinalReadOfAnAcknowledgedKeyIsReported() {
        List<Op> h = List.of(put(1, "a", 0, 10, Op.Outcome.OK));
        assertThat(Checker.check(h, Map.of("a", new Checker.Final(true, false, "timeout"))))
                .extracting(Checker.Violation::kind).containsExactly("unreadable");
    }

    static Op write(long id, long seq, long invoke, long complete, Op.Outcome outcome) {
        return new Op(id, 0, Op.Kind.PUT, "r0-0", "r0-0#" + seq, invoke, complete, outcome, false, "n0", null);
    }

    static Op read(long id, Long seq, long invoke, long complete) {
        return new Op(id, 1, Op.Kind.GET, "r0-0", seq == null ? null : "r0-0#" + seq, invoke, complete, Op.Outcome.OK,
                seq != null, "n0", null);
    }

    static Checker.Final register(long seq) {
        return new Checker.Final(false, true, "r0-0#" + seq);
    }

    @Test
    void aRegisterReadMaySeeTheLastAcknowledgedWriteOrAnyNewerAttempt() {
        List<Op> h = List.of(write(1, 1, 0, 10, Op.Outcome.OK), read(2, 1L, 11, 12),
                write(3, 2, 20, 30, Op.Outcome.OK), read(4, 1L, 25, 26), // concurrent with write 2: either
                write(5, 3, 40, 3_000, Op.Outcome.UNKNOWN), read(6, 3L, 50, 51), // a newer, unacknowledged one
                read(7, 2L, 3_100, 3_101), read(8, null, 5, 6)); // before any acknowledged write: nothing
        assertThat(Checker.check(h, Map.of("r0-0", register(3)))).isEmpty();
    }

    @Test
    void aRegisterReadOlderThanTheLastAcknowledgedWriteIsStale() {
        List<Op> h = List.of(write(1, 1, 0, 10, Op.Outcome.OK), write(2, 2, 20, 30, Op.Outcome.OK), read(3, 1L, 31, 32),
                read(4, null, 40, 41));
        assertThat(Checker.check(h, Map.of("r0-0", register(2)))).extracting(Checker.Violation::detail)
                .containsExactly("read #3 began after write #2 was acknowledged and found r0-0#1",
                        "read #4 began after write #2 was acknowledged and found nothing");
    }

    @Test
    void aRegisterEndingOlderThanItsLastAcknowledgedWriteLostIt() {
        List<Op> h = List.of(write(1, 1, 0, 10, Op.Outcome.OK), write(2, 2, 20, 30, Op.Outcome.OK));
        assertThat(Checker.check(h, Map.of("r0-0", register(1)))).extracting(Checker.Violation::kind)
                .containsExactly("lost write");
        assertThat(Checker.check(h, Map.of("r0-0", ABSENT))).extracting(Checker.Violation::kind)
                .containsExactly("lost write");
    }

    @Test
    void anAsyncPutMissingAtTheEndIsReportedAsSuchAndItsReadsAreNotCheckedForStaleness() {
        List<Op> h = List.of(put(1, "u0-1", 0, 10, Op.Outcome.OK), get(2, "u0-1", 11, 12, false));
        assertThat(Checker.check(h, Map.of("u0-1", ABSENT))).extracting(Checker.Violation::kind)
                .containsExactly(Checker.ASYNC_LOST);
        assertThat(Checker.check(h, Map.of("u0-1", new Checker.Final(false, true, "v-u0-1")))).isEmpty();
    }

    static Checker.Copy copy(String node, boolean exists, long ts, String value) {
        return new Checker.Copy(node, exists, ts, value, null);
    }

    @Test
    void replicasHoldingTheSameEntryOrTheSameTombstoneAgree() {
        assertThat(Checker.compareReplicas("a", List.of(copy("n0", true, 7, "v-a"), copy("n1", true, 7, "v-a"),
                copy("n2", true, 7, "v-a")), List.of())).isNull();
        assertThat(Checker.compareReplicas("a", List.of(copy("n0", false, 9, null), copy("n1", false, 9, null),
                copy("n2", false, 9, null)), List.of())).isNull();
    }

    @Test
    void replicasThatDifferInValueStampOrTombstoneAreAMismatchNamingEachReplica() {
        List<Op> h = List.of(put(1, "a", 0, 10, Op.Outcome.OK), del(2, "a", 20, 30, Op.Outcome.OK));
        Checker.Violation v = Checker.compareReplicas("a", List.of(copy("n0", false, 9, null), copy("n1", false, 9, null),
                copy("n2", true, 7, "v-a")), h);
        assertThat(v.kind()).isEqualTo(Checker.REPLICA_MISMATCH);
        assertThat(v.key()).isEqualTo("a");
        assertThat(v.detail()).contains("n0: tombstone @9", "n1: tombstone @9", "n2: v-a @7");
        assertThat(v.describe()).contains("#1", "#2"); // the key's history
        assertThat(Checker.compareReplicas("a", List.of(copy("n0", true, 7, "v-a"), copy("n1", true, 7, "v-b")), h)
                .kind()).isEqualTo(Checker.REPLICA_MISMATCH);
        // a tombstone against nothing: the tombstone never reached that replica
        Checker.Violation missing = Checker.compareReplicas("a", List.of(copy("n0", false, 9, null),
                copy("n1", false, 0, null)), h);
        assertThat(missing.kind()).isEqualTo(Checker.REPLICA_MISMATCH);
        assertThat(missing.detail()).contains("n0: tombstone @9", "n1: nothing");
    }

    @Test
    void theSameDataUnderDifferentStampsIsReportedApart() {
        // last-write-wins could order a later write differently on each replica, but anti-entropy never sees it
        assertThat(Checker.compareReplicas("a", List.of(copy("n0", true, 7, "v-a"), copy("n1", true, 8, "v-a")), List.of())
                .kind()).isEqualTo(Checker.STAMPS_DIFFER);
        Checker.Violation v = Checker.compareReplicas("a", List.of(copy("n0", false, 9, null), copy("n1", false, 8, null),
                copy("n2", false, 9, null)), List.of());
        assertThat(v.kind()).isEqualTo(Checker.STAMPS_DIFFER);
        assertThat(v.detail()).contains("n1: tombstone @8");
    }

    @Test
    void aReplicaThatCouldNotBeReadIsAMismatchAndNoReplicaAtAllIsRefused() {
        Checker.Violation v = Checker.compareReplicas("a", List.of(copy("n0", true, 7, "v-a"),
                Checker.Copy.failed("n1", "timeout")), List.of());
        assertThat(v.detail()).contains("n1: read failed (timeout)");
        assertThat(Checker.compareReplicas("a", List.of(Checker.Copy.failed("n0", "503 awaits repair")), List.of()))
                .isNotNull();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Checker.compareReplicas("a", List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no replica read for a");
    }
}
