package io.god.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.limits.NodeChild;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A durable node (fsync everysec) in a child JVM takes pipelined runs of SETs — each run applied as one tree version
 * and one log append ({@link RespCommands#setsTogether}), on the network event loop — and is killed with SIGKILL at a
 * random moment, three times: every SET acknowledged before a kill is there after the restart (DESIGN §5: under
 * everysec a process kill loses nothing acknowledged), and a key overwritten by every run holds its last acknowledged
 * value or a later one.
 */
class RespPipelinedSetsKillTest {

    private static final int RUN = 50;

    @Test
    @ScaledTimeout(value = 180, unit = TimeUnit.SECONDS)
    void setsAcknowledgedBeforeAKillAreThereAfterTheRestart(@TempDir Path tmp) throws Exception {
        Path data = tmp.resolve("data");
        Random random = new Random(20261207);
        Map<String, String> acknowledged = new ConcurrentHashMap<>();
        AtomicInteger lastRun = new AtomicInteger(-1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int life = 0; life < 4; life++) {
            Path out = tmp.resolve("node-" + life + ".out");
            NodeChild.Started child = NodeChild.start(out, "-Xmx256m", "god.data-dir=" + data,
                    "god.persistence.fsync=everysec", NodeChild.RESP + "=16");
            try (Jedis j = new Jedis("127.0.0.1", NodeChild.respPort(out), (int) TimeScale.seconds(30).toMillis())) {
                List<String> keys = new ArrayList<>(acknowledged.keySet());
                for (int i = 0; i < keys.size(); i += 500) {
                    List<String> some = keys.subList(i, Math.min(keys.size(), i + 500));
                    List<String> values = j.mget(some.toArray(String[]::new));
                    for (int k = 0; k < some.size(); k++) {
                        assertThat(values.get(k)).as("%s after kill %d", some.get(k), life)
                                .isEqualTo(acknowledged.get(some.get(k)));
                    }
                }
                if (lastRun.get() >= 0) {
                    assertThat(Integer.parseInt(j.get("last"))).as("the overwritten key").isGreaterThanOrEqualTo(lastRun.get());
                }
                if (life == 3) {
                    return;
                }
                int before = acknowledged.size();
                int number = life;
                Thread writer = new Thread(() -> write(out, number, acknowledged, lastRun, failure), "writer-" + life);
                writer.start();
                long until = System.nanoTime() + TimeScale.seconds(20).toNanos();
                while (acknowledged.size() < before + 10 * RUN && System.nanoTime() < until) {
                    Thread.sleep(10);
                }
                assertThat(acknowledged.size()).as("runs acknowledged before the kill").isGreaterThanOrEqualTo(before + 10 * RUN);
                Thread.sleep(random.nextInt(300));
                child.process().destroyForcibly(); // SIGKILL on Linux, mid-run
                assertThat(child.process().waitFor(TimeScale.seconds(20).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
                writer.join(TimeScale.seconds(40).toMillis());
                assertThat(writer.isAlive()).as("the writer saw its connection close").isFalse();
                assertThat(failure.get()).as("the writer's replies before the kill").isNull();
            } finally {
                child.process().destroyForcibly();
            }
        }
    }

    /** Pipelines runs of SETs (fresh keys, and "last" = the run's number) until the connection breaks. */
    private static void write(Path out, int life, Map<String, String> acknowledged, AtomicInteger lastRun,
                              AtomicReference<Throwable> failure) {
        try (Jedis j = new Jedis("127.0.0.1", NodeChild.respPort(out), (int) TimeScale.seconds(30).toMillis())) {
            for (int run = 0; ; run++) {
                int number = life * 1_000_000 + run;
                Pipeline p = j.pipelined();
                for (int i = 0; i < RUN; i++) {
                    p.set("k" + number + "-" + i, "v" + number + "-" + i);
                }
                p.set("last", Integer.toString(number));
                List<Object> replies = p.syncAndReturnAll();
                for (int i = 0; i < RUN; i++) {
                    assertThat(replies.get(i)).isEqualTo("OK");
                    acknowledged.put("k" + number + "-" + i, "v" + number + "-" + i);
                }
                assertThat(replies.get(RUN)).isEqualTo("OK");
                lastRun.set(number);
            }
        } catch (JedisConnectionException e) {
            // the kill closed the connection: what was acknowledged is recorded
        } catch (Throwable t) {
            failure.set(t);
        }
    }
}
