package io.god.persist;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.testing.TimeScale;
import io.god.tree.TreeState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * Power loss on the {@link SimulatedDisk}: unsynced bytes are lost or torn at a random length,
 * unsynced creations/renames/deletions vanish, at random moments (also while a snapshot is being
 * written in the background). Whatever the policy, the recovered tree is the tree after some prefix
 * of the writes; with fsync=always that prefix holds every acknowledged write.
 */
class SimulatedCrashTest {

    private static final Path DIR = Path.of("/sim/node-1/data");

    @Provide
    Arbitrary<FsyncPolicy> policies() {
        return Arbitraries.of(FsyncPolicy.values());
    }

    @Property(tries = 40, seed = "31337")
    void crashesKeepAPrefixOfTheWrites(@ForAll("policies") FsyncPolicy policy, @ForAll long seed) {
        Random rnd = new Random(seed);
        SimulatedDisk disk = new SimulatedDisk(seed, true);
        PersistenceOptions o = new PersistenceOptions(policy, 150 + rnd.nextInt(600), 1 + rnd.nextInt(2));
        List<TreeState> history = new ArrayList<>(); // history.get(i) = tree after the first i writes
        history.add(TreeState.EMPTY);
        int acknowledged = 0;
        long ts = 1;
        for (int life = 0; life < 4; life++) {
            DurableTree d = DurableTree.open(disk.process(), DIR, PersistenceTest.newTree(), o);
            int prefix = indexOf(history, d.state());
            assertThat(prefix).as("recovered tree is the tree after a prefix of the writes (life %d, %s)", life, d.recovery())
                    .isGreaterThanOrEqualTo(0);
            if (policy == FsyncPolicy.ALWAYS) {
                assertThat(prefix).as("every acknowledged write survives").isEqualTo(acknowledged);
            }
            history.subList(prefix + 1, history.size()).clear(); // lost writes are forgotten
            int writes = 10 + rnd.nextInt(60);
            for (int i = 0; i < writes; i++) {
                Record r = randomWrite(rnd, ts++);
                d.apply(r);
                history.add(r.applyTo(history.get(history.size() - 1)));
                assertThat(d.state().hash()).isEqualTo(history.get(history.size() - 1).hash());
                if (rnd.nextInt(25) == 0) {
                    d.snapshot();
                }
            }
            acknowledged = history.size() - 1;
            disk.crash(); // the old DurableTree is abandoned like a killed process
        }
        DurableTree d = DurableTree.open(disk.process(), DIR, PersistenceTest.newTree(), o);
        assertThat(indexOf(history, d.state())).isGreaterThanOrEqualTo(0);
        d.close();
    }

    /** Group commit under power loss: 4 writers share fsyncs; the disk dies under them. */
    @Test
    void concurrentAcknowledgedWritesSurvivePowerLoss() throws InterruptedException {
        for (int round = 0; round < 3; round++) {
            SimulatedDisk disk = new SimulatedDisk(round, true);
            DurableTree d = DurableTree.open(disk.process(), DIR, PersistenceTest.newTree(),
                    new PersistenceOptions(FsyncPolicy.ALWAYS, 4096, 2));
            java.util.Set<String> acked = java.util.concurrent.ConcurrentHashMap.newKeySet();
            java.util.concurrent.atomic.AtomicLong clock = new java.util.concurrent.atomic.AtomicLong();
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int id = t;
                Thread w = new Thread(() -> {
                    for (int i = 0; ; i++) {
                        String k = "w" + id + "-" + i;
                        try {
                            d.put(b(k), b("v"), clock.incrementAndGet());
                        } catch (PersistenceException dead) {
                            return;
                        }
                        acked.add(k);
                    }
                });
                writers.add(w);
                w.start();
            }
            // crash once the writers got going (on a busy machine they may start late), at a different point each round
            int enough = 21 + 20 * round;
            org.awaitility.Awaitility.await().atMost(TimeScale.seconds(10)).until(() -> acked.size() >= enough);
            disk.crash();
            for (Thread w : writers) {
                w.join(TimeScale.seconds(10).toMillis());
            }
            assertThat(acked).hasSizeGreaterThan(20);
            try (DurableTree r = DurableTree.open(disk.process(), DIR, PersistenceTest.newTree(), PersistenceOptions.defaults())) {
                for (String k : acked) {
                    assertThat(r.state().get(b(k)).exists()).as("acknowledged %s", k).isTrue();
                }
            }
        }
    }

    @Test
    void syncFailurePoisonsTheLogAndNothingAcknowledgedIsLost() {
        SimulatedDisk disk = new SimulatedDisk(1, true);
        DurableTree d = DurableTree.open(disk.process(), DIR, PersistenceTest.newTree(),
                PersistenceOptions.defaults().withFsync(FsyncPolicy.ALWAYS));
        d.put(b("a"), b("1"), 1);
        TreeState acked = d.state();
        disk.setFailSyncs(true);
        try {
            d.put(b("b"), b("2"), 2);
            throw new AssertionError("a write whose fsync failed must not be acknowledged");
        } catch (PersistenceException expected) {
            assertThat(expected).hasMessageContaining("not acknowledged");
        }
        try {
            d.put(b("c"), b("3"), 3);
            throw new AssertionError("a log whose fsync failed takes no more writes");
        } catch (PersistenceException expected) {
            assertThat(expected).hasMessageContaining("failed earlier");
        }
        disk.setFailSyncs(false);
        disk.crash();
        try (DurableTree r = DurableTree.open(disk.process(), DIR, PersistenceTest.newTree(), PersistenceOptions.defaults())) {
            assertThat(r.state().get(b("a")).exists()).isTrue();
            assertThat(r.state().get(b("c")).exists()).isFalse();
            assertThat(indexOf(List.of(acked, Record.put(b("b"), b("2"), 2).applyTo(acked)), r.state())).isNotNegative();
        }
    }

    @Test
    void everysecSyncsInTheBackgroundAndNoOnlyOnClose() throws InterruptedException {
        SimulatedDisk disk = new SimulatedDisk(3, false);
        DurableTree d = DurableTree.open(disk.process(), DIR, PersistenceTest.newTree(),
                PersistenceOptions.defaults().withFsync(FsyncPolicy.EVERYSEC));
        d.put(b("a"), b("1"), 1);
        long deadline = System.nanoTime() + TimeScale.seconds(10).toNanos();
        while (!durableAfterCrashCopy(disk)) { // the background fsync runs about once a second
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no background fsync within " + TimeScale.seconds(10).toSeconds() + " s");
            }
            Thread.sleep(100);
        }
        disk.crash();
        try (DurableTree r = DurableTree.open(disk.process(), DIR, PersistenceTest.newTree(), PersistenceOptions.defaults())) {
            assertThat(r.state().get(b("a")).exists()).isTrue();
        }
        SimulatedDisk disk2 = new SimulatedDisk(4, false);
        DurableTree n = DurableTree.open(disk2.process(), DIR, PersistenceTest.newTree(),
                PersistenceOptions.defaults().withFsync(FsyncPolicy.NO));
        n.put(b("a"), b("1"), 1);
        disk2.crash();
        try (DurableTree r = DurableTree.open(disk2.process(), DIR, PersistenceTest.newTree(), PersistenceOptions.defaults())) {
            assertThat(r.state().get(b("a")).exists()).as("fsync=no: an unsynced write is lost on power loss").isFalse();
        }
    }

    /** Whether the log's records are durable: the newest log's durable length exceeds its header. */
    private static boolean durableAfterCrashCopy(SimulatedDisk disk) {
        return disk.durableSize(DIR.resolve(FileNames.log(1))) > WriteAheadLog.MAGIC.length;
    }

    @Test
    void oneNodePerSimulatedDirectory() {
        SimulatedDisk disk = new SimulatedDisk(2, false);
        try (DurableTree d = DurableTree.open(disk.process(), DIR, PersistenceTest.newTree(), PersistenceOptions.defaults())) {
            try {
                DurableTree.open(disk.process(), DIR, PersistenceTest.newTree(), PersistenceOptions.defaults());
                throw new AssertionError("second open must fail");
            } catch (PersistenceException expected) {
                assertThat(expected).hasMessageContaining("locked");
            }
            d.metadata().put("position", new byte[] {9});
        }
        disk.crash();
        try (DurableTree d = DurableTree.open(disk.process(), DIR, PersistenceTest.newTree(), PersistenceOptions.defaults())) {
            assertThat(d.metadata().get("position")).contains(new byte[] {9});
        }
    }

    private static int indexOf(List<TreeState> history, TreeState s) {
        for (int i = history.size() - 1; i >= 0; i--) {
            if (history.get(i).hash().equals(s.hash())
                    && TreeAssert.describe(history.get(i)).equals(TreeAssert.describe(s))) {
                return i;
            }
        }
        return -1;
    }

    private static final String[] KEYS = {"", "a", "ab", "b", "c\u0000", "zz"};

    private static Record randomWrite(Random rnd, long ts) {
        byte[] k = b(KEYS[rnd.nextInt(KEYS.length)]);
        byte[] sk = b(KEYS[rnd.nextInt(KEYS.length)]);
        byte[] v = b("v" + rnd.nextInt(5));
        return switch (rnd.nextInt(10)) {
            case 0, 1, 2 -> Record.put(k, v, ts);
            case 3 -> Record.delete(k, ts);
            case 4, 5 -> Record.subPut(k, sk, v, ts);
            case 6 -> Record.subDelete(k, sk, ts);
            case 7 -> Record.subClear(k, ts);
            case 8 -> rnd.nextInt(4) == 0 ? Record.clear(ts) : Record.subSetConfiguration(k, Map.of(TreeState.MIRRORED, "yes"), ts);
            default -> Record.setConfiguration(rnd.nextBoolean() ? Map.of(TreeState.MIRRORED, "yes") : Map.of(), ts);
        };
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
