package io.god.persist;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.tree.Tree;
import io.god.tree.TreeState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Child JVMs write with fsync=always (snapshots every 2 KB of log) and are killed with SIGKILL at
 * random moments; each restart goes on with the next op in the same directory. After every kill no
 * acknowledged write may be missing: the recovered tree must equal the ops 0..lastAck applied in
 * order, up to the one op that may have been logged but not yet acknowledged.
 */
class KillNineTest {

    private static final int RUNS = 5;

    @Test
    @ScaledTimeout(value = 150, unit = TimeUnit.SECONDS)
    void killedWritersLoseNoAcknowledgedWrite(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("data");
        Random rnd = new Random(9);
        int next = 0;
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (int run = 0; run < RUNS; run++) {
            Path out = tmp.resolve("child-" + run + ".out");
            Process p = new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                    CrashChild.class.getName(), dir.toString(), Integer.toString(next))
                    .redirectErrorStream(false)
                    .redirectOutput(out.toFile())
                    .redirectError(tmp.resolve("child-" + run + ".err").toFile())
                    .start();
            int lastAck;
            try {
                long deadline = System.nanoTime() + TimeScale.seconds(30).toNanos();
                while (ackCount(out) < 20) {
                    if (!p.isAlive()) {
                        throw new AssertionError("child exited early with " + p.exitValue() + ": "
                                + Files.readString(tmp.resolve("child-" + run + ".err")));
                    }
                    assertThat(System.nanoTime()).as("child started writing in time").isLessThan(deadline);
                    Thread.sleep(20);
                }
                Thread.sleep(50 + rnd.nextInt(400));
            } finally {
                p.destroyForcibly(); // SIGKILL on Linux
                assertThat(p.waitFor(TimeScale.seconds(20).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            }
            lastAck = lastAck(out);
            assertThat(lastAck).isGreaterThanOrEqualTo(next + 19);

            Tree recovered = new Tree(() -> 1_000_000L, Duration.ofDays(365));
            try (DurableTree d = DurableTree.open(dir, recovered, PersistenceOptions.defaults().withFsync(FsyncPolicy.NO))) {
                TreeState acked = expected(lastAck);
                TreeState withNext = CrashChild.op(lastAck + 1).applyTo(acked);
                TreeState got = d.state();
                if (!got.hash().equals(withNext.hash())) {
                    TreeAssert.assertSameTree(got, acked);
                }
                next = lastAck + (got.hash().equals(acked.hash()) ? 1 : 2);
            }
        }
    }

    private static TreeState expected(int lastAck) {
        TreeState s = TreeState.EMPTY;
        for (int i = 0; i <= lastAck; i++) {
            s = CrashChild.op(i).applyTo(s);
        }
        return s;
    }

    private static List<String> acks(Path out) throws IOException {
        if (!Files.exists(out)) {
            return List.of();
        }
        return Files.readAllLines(out).stream().filter(l -> l.matches("ACK \\d+")).toList();
    }

    private static int ackCount(Path out) throws IOException {
        return acks(out).size();
    }

    private static int lastAck(Path out) throws IOException {
        List<String> a = acks(out);
        return Integer.parseInt(a.get(a.size() - 1).substring(4));
    }
}
