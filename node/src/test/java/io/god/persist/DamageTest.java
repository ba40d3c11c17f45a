package io.god.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.tree.Entry;
import io.god.tree.TreeState;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each kind of damage under each corruption policy, on one data directory (no node). */
class DamageTest {

    @TempDir
    Path dir;

    private static PersistenceOptions policy(CorruptionPolicy p, boolean peers) {
        return new PersistenceOptions(FsyncPolicy.NO, 0, 2).withOnCorruption(p, peers);
    }

    @ParameterizedTest
    @EnumSource(Damages.class)
    void refuseIsTheDefaultChangesNothingAndNamesFileOffsetAndChoices(Damages kind) throws IOException {
        Damages.populate(dir);
        kind.inflict(dir, 7);
        TreeMap<String, String> before = Damages.fingerprint(dir);
        DataCorruptionException e = (DataCorruptionException) org.assertj.core.api.Assertions.catchThrowable(
                () -> DurableTree.open(dir, Damages.tree(), new PersistenceOptions(FsyncPolicy.NO, 0, 2)));
        assertThat(e).as(kind.name()).isNotNull();
        assertThat(e.damage()).isNotEmpty().noneMatch(Damage::tornTail);
        for (Damage d : e.damage()) {
            assertThat(e.getMessage()).contains(d.file());
        }
        assertThat(e.getMessage()).contains(dir.toString()).contains("refuse").contains("repair").contains("truncate");
        if (kind == Damages.FLIP_MID_LOG || kind == Damages.GARBAGE_NEWEST_LOG) {
            assertThat(e.getMessage()).contains("at offset");
        } else {
            assertThat(e.getMessage()).contains("missing");
        }
        assertThat(Damages.fingerprint(dir)).isEqualTo(before);
        // and again: refusing is repeatable, nothing was half done
        assertThatThrownBy(() -> DurableTree.open(dir, Damages.tree(), policy(CorruptionPolicy.REFUSE, true)))
                .isInstanceOf(DataCorruptionException.class);
        assertThat(Damages.fingerprint(dir)).isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(Damages.class)
    void repairStartsWithEveryValidRecordReportsTheLossAndStartsCleanAfterwards(Damages kind) throws IOException {
        TreeState written = Damages.populate(dir);
        List<String> touched = kind.inflict(dir, 7);
        long newest = maxTimestamp(written);
        long kept;
        try (DurableTree d = DurableTree.open(dir, Damages.tree(), policy(CorruptionPolicy.REPAIR, true))) {
            RecoveryReport r = d.recovery();
            assertThat(r.lostRecords()).as(r.toString()).isTrue();
            assertThat(r.completeUpTo()).isLessThan(newest);
            // nothing invented: every recovered entry is one that was written (same value or tombstone, same time)
            assertSubset(d.state(), written);
            kept = d.state().realSize();
            if (kind == Damages.FLIP_MID_LOG) {
                assertThat(written.realSize() - kept).as("one damaged record").isLessThanOrEqualTo(1);
            }
            if (kind == Damages.FLIP_MID_LOG || kind == Damages.GARBAGE_NEWEST_LOG) {
                String log = touched.get(0);
                assertThat(r.setAside()).containsExactly(log + ".damaged");
                assertThat(dir.resolve(log + ".damaged")).exists();
            }
            d.put("after".getBytes(), "x".getBytes(), newest + 1);
        }
        // the data stays marked incomplete until the node caught up with the ring: without peers it refuses
        java.util.TreeMap<String, String> before = Damages.fingerprint(dir);
        assertThatThrownBy(() -> DurableTree.open(dir, Damages.tree(), new PersistenceOptions(FsyncPolicy.NO, 0, 2)))
                .isInstanceOf(PersistenceException.class).hasMessageContaining("has not caught up")
                .hasMessageContaining(dir.resolve(DurableTree.REPAIR_PENDING + ".meta").toString());
        assertThat(Damages.fingerprint(dir)).isEqualTo(before);
        // the snapshot taken at the repair covers the damage: the next start is clean, even under refuse
        try (DurableTree d = DurableTree.open(dir, Damages.tree(), policy(CorruptionPolicy.REFUSE, true))) {
            assertThat(d.recovery().lostRecords()).isFalse();
            assertThat(d.state().realSize()).isEqualTo(kept + 1);
        }
    }

    @ParameterizedTest
    @EnumSource(Damages.class)
    void truncateStartsAndSaysWhatWasLost(Damages kind) throws IOException {
        TreeState written = Damages.populate(dir);
        kind.inflict(dir, 7);
        try (DurableTree d = DurableTree.open(dir, Damages.tree(), policy(CorruptionPolicy.TRUNCATE, false))) {
            assertThat(d.recovery().lostRecords()).isTrue();
            assertThat(d.recovery().warnings()).anyMatch(w -> w.contains("DATA LOST"));
            assertSubset(d.state(), written);
        }
    }

    @Test
    void repairWithoutRingPeersRefuses() throws IOException {
        Damages.populate(dir);
        Damages.FLIP_MID_LOG.inflict(dir, 7);
        assertThatThrownBy(() -> DurableTree.open(dir, Damages.tree(), policy(CorruptionPolicy.REPAIR, false)))
                .isInstanceOf(DataCorruptionException.class).hasMessageContaining("needs ring peers");
    }

    /** What a power loss with fsync=everysec leaves at the end of the newest log: zeros, a partial frame. */
    @Test
    void tornTailsAreStillCutUnderRefuseAndLoseNothingElse() throws IOException {
        TreeState written = Damages.populate(dir);
        Path newest = Damages.files(dir, "log").lastEntry().getValue();
        long size = Files.size(newest);
        Files.write(newest, new byte[4096], StandardOpenOption.APPEND);
        try (DurableTree d = DurableTree.open(dir, Damages.tree(), new PersistenceOptions(FsyncPolicy.NO, 0, 2))) {
            assertThat(d.recovery().lostRecords()).isFalse();
            assertThat(d.recovery().truncatedBytes()).isEqualTo(4096);
            TreeAssert.assertSameTree(d.state(), written);
        }
        assertThat(Files.size(newest)).isEqualTo(size);

        newest = Damages.files(dir, "log").lastEntry().getValue(); // the open started a new log: write one there
        try (DurableTree d = DurableTree.open(dir, Damages.tree(), new PersistenceOptions(FsyncPolicy.NO, 0, 2))) {
            d.put("torn".getBytes(), "record-that-is-cut".getBytes(), 1_000_000);
        }
        newest = Damages.files(dir, "log").lastEntry().getValue();
        byte[] bytes = Files.readAllBytes(newest);
        Files.write(newest, java.util.Arrays.copyOf(bytes, bytes.length - 5)); // the last frame cut short
        try (DurableTree d = DurableTree.open(dir, Damages.tree(), new PersistenceOptions(FsyncPolicy.NO, 0, 2))) {
            assertThat(d.recovery().lostRecords()).isFalse();
            assertThat(d.recovery().damage()).singleElement().matches(Damage::tornTail);
            TreeAssert.assertSameTree(d.state(), written);
        }
    }

    /** One truncated snapshot with the previous one and its logs still there: nothing is lost. */
    @Test
    void aDamagedSnapshotWithACompleteFallbackIsNotALoss() throws IOException {
        TreeState written = Damages.populate(dir);
        Path newestSnap = Damages.files(dir, "snap").lastEntry().getValue();
        byte[] bytes = Files.readAllBytes(newestSnap);
        Files.write(newestSnap, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        try (DurableTree d = DurableTree.open(dir, Damages.tree(), new PersistenceOptions(FsyncPolicy.NO, 0, 2))) {
            assertThat(d.recovery().lostRecords()).isFalse();
            assertThat(d.recovery().rejectedSnapshots()).hasSize(1);
            TreeAssert.assertSameTree(d.state(), written);
        }
    }

    private static long maxTimestamp(TreeState s) {
        long max = 0;
        for (Iterator<Entry> it = s.entries(null); it.hasNext(); ) {
            max = Math.max(max, it.next().timestamp());
        }
        return max;
    }

    private static void assertSubset(TreeState got, TreeState written) {
        for (Iterator<Entry> it = got.entries(null); it.hasNext(); ) {
            Entry e = it.next();
            Entry w = written.entry(e.key());
            assertThat(w).as(new String(e.key())).isNotNull();
            if (w.timestamp() == e.timestamp()) {
                assertThat(e.isTombstone()).isEqualTo(w.isTombstone());
                if (e.hasValue()) {
                    assertThat(ByteBuffer.wrap(e.value())).isEqualTo(ByteBuffer.wrap(w.value()));
                }
            } else {
                assertThat(e.timestamp()).as("an older write of the same key").isLessThan(w.timestamp());
            }
        }
    }
}
