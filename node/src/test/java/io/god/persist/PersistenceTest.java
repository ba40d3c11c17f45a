package io.god.persist;

import static io.god.persist.TreeAssert.assertSameTree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.testing.TimeScale;
import io.god.tree.Item;
import io.god.tree.Tree;
import io.god.tree.TreeState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PersistenceTest {

    static final Duration WEEK = Duration.ofDays(7);
    /** A fixed clock with a window nothing the tests write expires in (no garbage collection). */
    static Tree newTree() {
        return new Tree(() -> 1_000_000L, Duration.ofDays(365));
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static PersistenceOptions opts(FsyncPolicy p) {
        return PersistenceOptions.defaults().withFsync(p);
    }

    static DurableTree open(Path dir, PersistenceOptions o) {
        return DurableTree.open(dir, newTree(), o);
    }

    static List<String> dataFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".log") || n.endsWith(".snap")).sorted().toList();
        }
    }

    static Path newestLog(Path dir) throws IOException {
        List<String> logs = dataFiles(dir).stream().filter(n -> n.endsWith(".log")).toList();
        return dir.resolve(logs.get(logs.size() - 1));
    }

    /** Reference TestRecordPlay: record {a=1 @1}, stop, play: exactly that. */
    @Test
    void recordPlay(@TempDir Path dir) throws IOException {
        try (DurableTree d = open(dir, opts(FsyncPolicy.ALWAYS))) {
            assertThat(d.put(b("a"), b("1"), 1)).isTrue();
            assertThat(d.diskBytes()).isEqualTo(Files.size(newestLog(dir)));
        }
        try (DurableTree d = open(dir, opts(FsyncPolicy.ALWAYS))) {
            assertThat(d.recovery().logRecords()).isEqualTo(1);
            Item a = d.state().get(b("a"));
            assertThat(a.exists()).isTrue();
            assertThat(a.value()).isEqualTo(b("1"));
            assertThat(a.timestamp()).isEqualTo(1);
            assertThat(d.state().size()).isEqualTo(1);
        }
    }

    /** Cleaning's DROP removes a key without a tombstone, and stays removed after replay. */
    @Test
    void dropReplays(@TempDir Path dir) throws IOException {
        try (DurableTree d = open(dir, opts(FsyncPolicy.ALWAYS))) {
            assertThat(d.put(b("a"), b("1"), 1)).isTrue();
            assertThat(d.put(b("b"), b("2"), 2)).isTrue();
            assertThat(d.applyAll(java.util.List.of(Record.drop(b("a"), 3)))).isTrue();
            assertThat(d.state().entry(b("a"))).isNull();
        }
        try (DurableTree d = open(dir, opts(FsyncPolicy.ALWAYS))) {
            assertThat(d.state().entry(b("a"))).isNull();
            assertThat(d.state().get(b("b")).exists()).isTrue();
            assertThat(d.state().realSize()).isEqualTo(1);
        }
        assertThat(Record.decode(Record.drop(b("k"), 5).encode())).isEqualTo(Record.drop(b("k"), 5));
    }

    /**
     * Reference TestSwap: threshold 1024 bytes, put "0".."999", delete every i%3==0, stop. With one
     * retained snapshot exactly 1 snapshot + 1 log remain (plus the lock file god.lock); the default
     * (2 retained) also keeps the previous snapshot and the log(s) since it for fallback.
     */
    @Test
    void swap(@TempDir Path tmp) throws IOException {
        for (int retained : new int[] {1, 2}) {
            Path dir = tmp.resolve("r" + retained);
            PersistenceOptions o = new PersistenceOptions(FsyncPolicy.NO, 1024, retained);
            TreeState live;
            long snapshots;
            try (DurableTree d = open(dir, o)) {
                long ts = 1;
                for (int i = 0; i < 1000; i++) {
                    d.put(b("" + i), b("" + i), ts++);
                }
                for (int i = 0; i < 1000; i += 3) {
                    d.delete(b("" + i), ts++);
                }
                live = d.state();
                d.awaitSnapshot();
                snapshots = d.snapshotsWritten();
            }
            assertThat(snapshots).isPositive();
            List<String> files = dataFiles(dir);
            if (retained == 1) {
                assertThat(files).hasSize(2);
                String log = files.stream().filter(n -> n.endsWith(".log")).findFirst().orElseThrow();
                String snap = files.stream().filter(n -> n.endsWith(".snap")).findFirst().orElseThrow();
                assertThat(snap.replace(".snap", "")).isEqualTo(log.replace(".log", ""));
            } else {
                assertThat(files.stream().filter(n -> n.endsWith(".snap"))).hasSize((int) Math.min(2, snapshots));
            }
            assertThat(live.size()).isEqualTo(666);
            try (DurableTree d = open(dir, o)) {
                assertSameTree(d.state(), live);
                assertThat(d.state().size()).isEqualTo(666);
                assertThat(d.recovery().snapshot()).isNotNull();
            }
        }
    }

    /** Every kind of write, including sub-tree clear markers, configuration (mirrors) and a tree clear. */
    @Test
    void replaysEveryKindOfWriteThroughSnapshotAndLog(@TempDir Path dir) {
        TreeState live;
        try (DurableTree d = open(dir, opts(FsyncPolicy.EVERYSEC))) {
            d.put(b("a"), b("1"), 10);
            d.delete(b("b"), 11);
            d.subPut(b("s"), b("x"), b("9"), 12);
            d.subConfigure(b("s"), TreeState.MIRRORED, "yes", 13);
            d.subDelete(b("s"), b("y"), 14);
            d.subConfigure(b("c"), "owner", "me", 15);
            d.clear(16);
            d.put(b("after"), b("2"), 17);
            d.subClear(b("t"), 18);
            d.snapshot();
            d.configure(TreeState.MIRRORED, "yes", 19);
            d.subPut(b("s"), b("z"), b("0"), 20);
            d.subClear(b("s"), 19);
            d.subPut(b("u"), b("k"), b("v"), 21);
            d.subDelete(b("u"), b("k"), 22);
            d.configure("other", "x", 23);
            live = d.state();
        }
        try (DurableTree d = open(dir, opts(FsyncPolicy.EVERYSEC))) {
            assertSameTree(d.state(), live);
            assertThat(d.recovery().snapshot()).isNotNull();
            assertThat(d.state().isMirrored()).isTrue();
            assertThat(d.state().clearedAt()).isEqualTo(16);
            assertThat(d.state().sub(b("c")).configuration()).containsEntry("owner", "me");
        }
    }

    @Test
    void truncatedTailsKeepEveryCompleteRecord(@TempDir Path tmp) throws IOException {
        Path base = tmp.resolve("base");
        List<TreeState> versions = new ArrayList<>();
        try (DurableTree d = open(base, opts(FsyncPolicy.NO))) {
            versions.add(d.state());
            for (int i = 1; i <= 20; i++) {
                d.put(b("k" + i), b("value-" + i), i);
                versions.add(d.state());
            }
        }
        Path log = newestLog(base);
        byte[] full = Files.readAllBytes(log);
        // frame boundaries: every record is 8 + body bytes; find them by replaying prefixes
        for (int cut = 0; cut < full.length; cut += 7) {
            Path dir = tmp.resolve("cut" + cut);
            Files.createDirectories(dir);
            Files.write(dir.resolve(log.getFileName()), java.util.Arrays.copyOf(full, cut));
            try (DurableTree d = open(dir, opts(FsyncPolicy.NO))) {
                long n = d.recovery().logRecords();
                assertSameTree(d.state(), versions.get((int) n));
                assertThat(d.recovery().truncatedBytes()).isLessThanOrEqualTo(cut);
                if (d.recovery().truncatedBytes() > 0) {
                    assertThat(d.recovery().warnings()).anyMatch(w -> w.contains("torn tail"));
                }
                assertThat(d.recovery().lostRecords()).isFalse();
                // the log is clean again: writing on and recovering again loses nothing
                d.put(b("more"), b("x"), 100);
            }
            try (DurableTree d = open(dir, opts(FsyncPolicy.NO))) {
                assertThat(d.recovery().truncatedBytes()).isZero();
                assertThat(d.state().get(b("more")).exists()).isTrue();
            }
        }
    }

    /**
     * A flipped bit mid-log is corruption, not a torn tail: by default the open fails naming the file
     * and offset and changes nothing; repair keeps every other record (before and after); truncate cuts
     * at the damage as before. A flip in the last record looks like a torn tail and is cut.
     */
    @Test
    void bitFlipsMidLogAreCorruptionAndNeverCutValidRecords(@TempDir Path tmp) throws IOException {
        Path base = tmp.resolve("base");
        List<TreeState> versions = new ArrayList<>();
        List<Record> writes = new ArrayList<>();
        try (DurableTree d = open(base, opts(FsyncPolicy.NO))) {
            versions.add(d.state());
            for (int i = 1; i <= 10; i++) {
                writes.add(Record.put(b("k" + i), b("v" + i), i));
                d.apply(writes.get(i - 1));
                versions.add(d.state());
            }
        }
        Path log = newestLog(base);
        byte[] full = Files.readAllBytes(log);
        int recordLen = (full.length - WriteAheadLog.MAGIC.length) / 10; // all records have the same size
        java.util.Random rnd = new java.util.Random(42);
        int corruptions = 0;
        for (int trial = 0; trial < 30; trial++) {
            int pos = WriteAheadLog.MAGIC.length + rnd.nextInt(full.length - WriteAheadLog.MAGIC.length);
            byte[] damaged = full.clone();
            damaged[pos] ^= (byte) (1 << rnd.nextInt(8));
            int hit = (pos - WriteAheadLog.MAGIC.length) / recordLen; // the damaged record (0-based)
            long at = WriteAheadLog.MAGIC.length + (long) hit * recordLen;
            Path[] dirs = new Path[3];
            for (int k = 0; k < 3; k++) {
                dirs[k] = tmp.resolve("flip" + trial + "-" + k);
                Files.createDirectories(dirs[k]);
                Files.write(dirs[k].resolve(log.getFileName()), damaged);
            }
            if (hit == 9) { // the last record: indistinguishable from a torn tail, cut under every policy
                try (DurableTree d = open(dirs[0], opts(FsyncPolicy.NO))) {
                    assertThat(d.recovery().lostRecords()).isFalse();
                    assertThat(d.recovery().truncatedBytes()).isEqualTo(full.length - at);
                    assertSameTree(d.state(), versions.get(9));
                }
                continue;
            }
            corruptions++;
            String name = log.getFileName().toString();
            assertThatThrownBy(() -> open(dirs[0], opts(FsyncPolicy.NO)))
                    .isInstanceOf(DataCorruptionException.class)
                    .hasMessageContaining(name + " at offset " + at)
                    .hasMessageContaining("refuse").hasMessageContaining("repair").hasMessageContaining("truncate");
            assertThat(Files.readAllBytes(dirs[0].resolve(name))).isEqualTo(damaged);
            assertThat(dataFiles(dirs[0])).containsExactly(name);

            try (DurableTree d = open(dirs[1], opts(FsyncPolicy.NO).withOnCorruption(CorruptionPolicy.REPAIR, true))) {
                assertThat(d.recovery().lostRecords()).isTrue();
                assertThat(d.recovery().logRecords()).isEqualTo(9);
                assertThat(d.recovery().damage()).singleElement().satisfies(x -> {
                    assertThat(x.offset()).isEqualTo(at);
                    assertThat(x.bytes()).isEqualTo(recordLen);
                });
                assertThat(d.recovery().completeUpTo()).isEqualTo(hit); // k1..k<hit> have timestamps 1..hit
                TreeState expected = TreeState.EMPTY;
                for (int i = 0; i < 10; i++) {
                    if (i != hit) {
                        expected = writes.get(i).applyTo(expected);
                    }
                }
                assertSameTree(d.state(), expected);
                d.put(b("after"), b("x"), 100);
            }
            assertThat(Files.readAllBytes(dirs[1].resolve(name + ".damaged"))).isEqualTo(damaged);
            // clean now, even under refuse (with peers: the repair-pending marker needs them until the node caught up)
            try (DurableTree d = open(dirs[1], opts(FsyncPolicy.NO).withOnCorruption(CorruptionPolicy.REFUSE, true))) {
                assertThat(d.recovery().lostRecords()).isFalse();
                assertThat(d.state().size()).isEqualTo(10);
            }

            try (DurableTree d = open(dirs[2], opts(FsyncPolicy.NO).withOnCorruption(CorruptionPolicy.TRUNCATE, false))) {
                assertThat(d.recovery().logRecords()).as("flip at %d", pos).isEqualTo(hit);
                assertThat(d.recovery().truncatedBytes()).isEqualTo(full.length - at);
                assertSameTree(d.state(), versions.get(hit));
            }
        }
        assertThat(corruptions).isGreaterThan(20);
    }

    @Test
    void corruptSnapshotFallsBackToThePreviousOneAndItsLogs(@TempDir Path dir) throws IOException {
        TreeState live;
        PersistenceOptions o = opts(FsyncPolicy.NO); // 2 retained snapshots
        try (DurableTree d = open(dir, o)) {
            long ts = 1;
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 50; i++) {
                    d.put(b("k" + i), b("r" + round), ts++);
                    if (i % 7 == 0) {
                        d.delete(b("k" + (i + 1)), ts++);
                    }
                }
                d.subPut(b("sub"), b("r" + round), b("x"), ts++);
                d.snapshot();
            }
            d.put(b("tail"), b("t"), ts++);
            live = d.state();
        }
        List<String> snaps = dataFiles(dir).stream().filter(n -> n.endsWith(".snap")).toList();
        assertThat(snaps).hasSize(2);
        Path newest = dir.resolve(snaps.get(1));
        byte[] bytes = Files.readAllBytes(newest);
        bytes[bytes.length / 2] ^= 0x10;
        Files.write(newest, bytes);
        try (DurableTree d = open(dir, o)) {
            assertThat(d.recovery().rejectedSnapshots()).containsExactly(snaps.get(1));
            assertThat(d.recovery().snapshot()).isEqualTo(snaps.get(0));
            assertSameTree(d.state(), live);
        }
        assertThat(Files.exists(dir.resolve(snaps.get(1) + ".corrupt"))).isTrue();
    }

    @Test
    void incompleteSnapshotIsRejected(@TempDir Path dir) throws IOException {
        TreeState live;
        try (DurableTree d = open(dir, opts(FsyncPolicy.NO))) {
            for (int i = 0; i < 100; i++) {
                d.put(b("k" + i), b("v"), i + 1);
            }
            d.snapshot();
            d.put(b("a"), b("b"), 1000);
            d.snapshot();
            live = d.state();
        }
        List<String> snaps = dataFiles(dir).stream().filter(n -> n.endsWith(".snap")).toList();
        Path newest = dir.resolve(snaps.get(snaps.size() - 1));
        byte[] bytes = Files.readAllBytes(newest);
        Files.write(newest, java.util.Arrays.copyOf(bytes, bytes.length - 3)); // trailer torn
        try (DurableTree d = open(dir, opts(FsyncPolicy.NO))) {
            assertThat(d.recovery().rejectedSnapshots()).hasSize(1);
            assertSameTree(d.state(), live);
        }
    }

    /** A snapshot of 1 M keys is held in its fsync; writes (even fsync=always) complete meanwhile. */
    @Test
    void writesCompleteWhileALargeSnapshotIsBeingWritten(@TempDir Path dir) throws Exception {
        ForwardingDisk disk = new ForwardingDisk();
        CountDownLatch gate = new CountDownLatch(1);
        TreeState live;
        DurableTree d = DurableTree.open(disk, dir, newTree(), opts(FsyncPolicy.ALWAYS).withSnapshotThreshold(0));
        try {
            List<Record> batch = new ArrayList<>();
            long ts = 1;
            for (int i = 0; i < 1_000_000; i++) {
                batch.add(Record.put(b("key-" + i), b("v" + i), ts++));
                if (batch.size() == 20_000) {
                    d.applyAll(batch);
                    batch.clear();
                }
            }
            assertThat(d.state().size()).isEqualTo(1_000_000);
            disk.snapshotGate = gate;
            Thread snap = new Thread(d::snapshot);
            snap.start();
            assertThat(disk.snapshotReachedGate.await(60, TimeUnit.SECONDS)).isTrue();
            long t0 = System.nanoTime();
            assertThat(d.put(b("during"), b("snapshot"), ts++)).isTrue();
            assertThat(d.delete(b("key-7"), ts++)).isTrue();
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(snap.isAlive()).as("snapshot still being written").isTrue();
            assertThat(ms).isLessThan(TimeScale.seconds(5).toMillis());
            gate.countDown();
            snap.join(60_000);
            assertThat(d.snapshotsWritten()).isEqualTo(1);
            live = d.state();
        } finally {
            gate.countDown();
            d.close();
        }
        try (DurableTree r = open(dir, opts(FsyncPolicy.NO))) {
            assertThat(r.recovery().snapshotRecords()).isEqualTo(1_000_000);
            assertThat(r.recovery().logRecords()).isEqualTo(2);
            assertThat(r.state().hash()).isEqualTo(live.hash());
            assertThat(r.state().get(b("during")).exists()).isTrue();
            assertThat(r.state().get(b("key-7")).exists()).isFalse();
            assertThat(r.state().entry(b("key-7")).isTombstone()).isTrue();
        }
    }

    @Test
    void aFullDiskFailsTheWriteAndCorruptsNothing(@TempDir Path dir) {
        ForwardingDisk disk = new ForwardingDisk();
        TreeState acknowledged;
        try (DurableTree d = DurableTree.open(disk, dir, newTree(), opts(FsyncPolicy.ALWAYS))) {
            d.put(b("a"), b("1"), 1);
            disk.logBudget.set(10); // the next record does not fit
            assertThatThrownBy(() -> d.put(b("b"), b("2"), 2)).isInstanceOf(PersistenceException.class)
                    .hasMessageContaining("not acknowledged").hasMessageContaining("No space left");
            assertThat(d.state().get(b("b")).exists()).as("a failed write is not applied").isFalse();
            disk.logBudget.set(-1); // space freed
            d.put(b("c"), b("3"), 3);
            acknowledged = d.state();
        }
        try (DurableTree d = open(dir, opts(FsyncPolicy.ALWAYS))) {
            assertThat(d.recovery().truncatedBytes()).isZero();
            assertSameTree(d.state(), acknowledged);
        }
    }

    @Test
    void aFailedSnapshotKeepsTheLogsAndRetriesLater(@TempDir Path dir) {
        ForwardingDisk disk = new ForwardingDisk();
        TreeState live;
        try (DurableTree d = DurableTree.open(disk, dir, newTree(), new PersistenceOptions(FsyncPolicy.NO, 2048, 1))) {
            disk.failSnapshots = true;
            long ts = 1;
            for (int i = 0; i < 300; i++) {
                d.put(b("k" + i), b("v"), ts++);
            }
            d.awaitSnapshot();
            assertThat(d.snapshotsWritten()).isZero();
            disk.failSnapshots = false;
            for (int i = 0; i < 300; i++) {
                d.put(b("m" + i), b("v"), ts++);
            }
            d.awaitSnapshot();
            assertThat(d.snapshotsWritten()).isPositive();
            live = d.state();
        }
        try (DurableTree d = open(dir, opts(FsyncPolicy.NO))) {
            assertSameTree(d.state(), live);
        }
    }

    @Test
    void concurrentWritersShareFsyncsAndLoseNothing(@TempDir Path dir) throws Exception {
        int threads = 4;
        int per = 150;
        try (DurableTree d = open(dir, opts(FsyncPolicy.ALWAYS).withSnapshotThreshold(8192))) {
            List<Thread> ts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                Thread th = new Thread(() -> {
                    for (int i = 0; i < per; i++) {
                        d.put(b("t" + id + "-" + i), b("v"), 1 + id * per + i);
                    }
                });
                ts.add(th);
                th.start();
            }
            for (Thread th : ts) {
                th.join();
            }
            assertThat(d.state().size()).isEqualTo(threads * per);
        }
        try (DurableTree d = open(dir, opts(FsyncPolicy.ALWAYS))) {
            assertThat(d.state().size()).isEqualTo(threads * per);
        }
    }

    @Test
    void collectedUpToSurvivesRestartsInSnapshots(@TempDir Path dir) {
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong(100);
        Duration window = Duration.ofNanos(50);
        try (DurableTree d = DurableTree.open(dir, new Tree(now::get, window), opts(FsyncPolicy.NO))) {
            d.put(b("a"), b("1"), 10);
            d.delete(b("a"), 60);
            now.set(200); // the tombstone at 60 is now older than the window
            assertThat(d.collectGarbage(100)).isTrue();
            assertThat(d.tree().collectedUpTo()).isEqualTo(60);
            d.snapshot();
        }
        try (DurableTree d = DurableTree.open(dir, new Tree(now::get, window), opts(FsyncPolicy.NO))) {
            assertThat(d.tree().collectedUpTo()).isEqualTo(60);
            assertThat(d.state().entry(b("a"))).isNull();
        }
    }

    @Test
    void recoveryNeedsAFreshTree(@TempDir Path dir) {
        Tree used = newTree();
        used.put(b("x"), b("y"), 1);
        assertThatThrownBy(() -> DurableTree.open(dir, used, opts(FsyncPolicy.NO))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void losingWritesAreNotLogged(@TempDir Path dir) {
        try (DurableTree d = open(dir, opts(FsyncPolicy.NO))) {
            assertThat(d.put(b("a"), b("new"), 10)).isTrue();
            assertThat(d.put(b("a"), b("old"), 5)).isFalse();
            assertThat(d.configure("x", "1", 3)).isTrue();
            assertThat(d.configure("x", "2", 2)).isFalse();
        }
        try (DurableTree d = open(dir, opts(FsyncPolicy.NO))) {
            assertThat(d.recovery().logRecords()).isEqualTo(2);
            assertThat(d.state().get(b("a")).value()).isEqualTo(b("new"));
            assertThat(d.state().configuration()).isEqualTo(Map.of("x", "1"));
        }
    }

    @Test
    void oneNodePerDirectoryAndClearErrors(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("missing/nested");
        try (DurableTree d = open(dir, opts(FsyncPolicy.NO))) {
            assertThat(Files.isDirectory(dir)).as("a missing directory is created").isTrue();
            assertThatThrownBy(() -> open(dir, opts(FsyncPolicy.NO))).isInstanceOf(PersistenceException.class)
                    .hasMessageContaining(dir.toString()).hasMessageContaining("locked");
        }
        open(dir, opts(FsyncPolicy.NO)).close(); // released on close
        Path file = tmp.resolve("plain-file");
        Files.writeString(file, "x");
        assertThatThrownBy(() -> open(file, opts(FsyncPolicy.NO))).isInstanceOf(PersistenceException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("not a directory");
        Path under = file.resolve("data");
        assertThatThrownBy(() -> open(under, opts(FsyncPolicy.NO))).isInstanceOf(PersistenceException.class)
                .hasMessageContaining(under.toString()).hasMessageContaining("cannot be created");
        Path ro = tmp.resolve("read-only");
        Files.createDirectories(ro);
        if (ro.toFile().setWritable(false) && !Files.isWritable(ro)) { // root can write anyway
            assertThatThrownBy(() -> open(ro, opts(FsyncPolicy.NO))).isInstanceOf(PersistenceException.class)
                    .hasMessageContaining(ro.toString()).hasMessageContaining("not writable");
        }
        ro.toFile().setWritable(true);
    }

    @Test
    void metadataIsReplacedAtomicallyAndSurvivesReopen(@TempDir Path dir) throws IOException {
        try (DurableTree d = open(dir, opts(FsyncPolicy.NO))) {
            MetadataStore m = d.metadata();
            assertThat(m.get("position")).isEmpty();
            m.put("position", new byte[] {1, 2, 3});
            m.put("position", new byte[] {4, 5, 6, 7});
            m.putLong("lastAliveAt", 123456789L);
            m.put("empty", new byte[0]);
        }
        try (DurableTree d = open(dir, opts(FsyncPolicy.NO))) {
            MetadataStore m = d.metadata();
            assertThat(m.get("position")).contains(new byte[] {4, 5, 6, 7});
            assertThat(m.getLong("lastAliveAt")).contains(123456789L);
            assertThat(m.get("empty")).contains(new byte[0]);
            assertThatThrownBy(() -> m.put("../escape", new byte[1])).isInstanceOf(IllegalArgumentException.class);
        }
        Path f = dir.resolve("position.meta");
        byte[] bytes = Files.readAllBytes(f);
        bytes[bytes.length - 1] ^= 1;
        Files.write(f, bytes);
        assertThat(new MetadataStore(NioDisk.INSTANCE, dir).get("position")).isEmpty();
        assertThat(dataFiles(dir).stream().filter(n -> n.endsWith(".tmp"))).isEmpty();
    }
}
