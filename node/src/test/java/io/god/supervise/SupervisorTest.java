package io.god.supervise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.node.GodNode;
import io.god.node.NodeRuntime;
import io.god.node.NodeSettings;
import io.god.testing.TimeScale;
import io.god.time.NanoClock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import io.god.metrics.NodeMeters;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Supervised loops: dead when failed, thread gone or silent too long; a long round with progress is not. */
class SupervisorTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000_000L);
    private final NanoClock clock = now::get;

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    @Test
    void aLoopSilentLongerThanFiveIntervalsOrSixtySecondsIsDead() {
        Supervisor s = new Supervisor(clock);
        Heartbeat fast = s.register("fast", Duration.ofSeconds(1));
        Heartbeat slow = s.register("slow", Duration.ofSeconds(30));
        fast.started();
        slow.started();
        assertThat(s.dead()).isEmpty();
        advance(Duration.ofSeconds(59));
        assertThat(s.dead()).as("60 s at least, even for a 1 s loop").isEmpty();
        advance(Duration.ofSeconds(2));
        assertThat(s.dead()).singleElement().asString().startsWith("fast: no iteration or progress for");
        assertThat(s.alive("slow")).isTrue();
        advance(Duration.ofSeconds(90)); // 151 s: 5 × 30 s passed
        assertThat(s.alive("slow")).isFalse();
        fast.started();
        slow.started();
        assertThat(s.dead()).as("alive again once it beats").isEmpty();
    }

    @Test
    void aLongRoundThatReportsProgressStaysAlive() {
        Supervisor s = new Supervisor(clock);
        Heartbeat sync = s.register("sync", Duration.ofSeconds(10));
        sync.started();
        for (int i = 0; i < 40; i++) { // a 20-minute resync, a region every 30 s
            advance(Duration.ofSeconds(30));
            sync.progress();
            assertThat(s.dead()).isEmpty();
        }
    }

    @Test
    void aLoopWhoseThreadIsGoneOrThatFailedIsDeadAtOnce() throws Exception {
        Supervisor s = new Supervisor(clock);
        Heartbeat gone = s.register("gone", Duration.ofSeconds(1));
        Thread t = new Thread(gone::started, "test-loop");
        t.start();
        t.join(10_000);
        assertThat(s.dead()).singleElement().asString().isEqualTo("gone: thread test-loop is gone");
        Heartbeat failing = s.register("failing", Duration.ofSeconds(1));
        Runnable body = failing.wrap(() -> {
            throw new StackOverflowError("test");
        });
        try {
            body.run();
        } catch (StackOverflowError expected) {
            // ends the loop
        }
        assertThat(s.alive("failing")).isFalse();
    }

    @Test
    void aKilledNodeLoopTurnsLivenessDown() {
        Map<String, ScheduledExecutorService> executors = new ConcurrentHashMap<>();
        NodeRuntime prod = NodeRuntime.production(NanoClock.system(), null);
        NodeRuntime runtime = new NodeRuntime(NanoClock.system(), name -> executors.computeIfAbsent(name,
                n -> Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread th = new Thread(r, n);
                    th.setDaemon(true);
                    return th;
                })), prod.handlers(), prod.seeds(), prod.disk(), null, prod.awaiter(), null);
        try (GodNode node = GodNode.start(NodeSettings.of(Map.of("god.node.advertise", "127.0.0.1:9191",
                "god.node.port", "0", "god.gc.interval", "20ms", "god.ring.interval", "20ms",
                "god.sync.interval", "20ms")), runtime)) {
            Map<String, Long> before = new java.util.HashMap<>();
            node.supervisor().loops().forEach(h -> before.put(h.name(), h.beats()));
            await().atMost(TimeScale.seconds(10)).untilAsserted(() -> node.supervisor().loops()
                    .forEach(h -> assertThat(h.beats()).as(h.name()).isGreaterThan(before.get(h.name()))));
            assertThat(node.supervisor().dead()).isEmpty();
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            NodeMeters.bind(node, meters, OptionalInt.empty());
            assertThat(meters.get("god.loops.dead").gauge().value()).isZero();
            executors.entrySet().stream().filter(e -> e.getKey().startsWith("god-gc-")).findFirst().orElseThrow()
                    .getValue().shutdownNow(); // the collection loop's thread ends
            await().atMost(TimeScale.seconds(10)).until(() -> !node.supervisor().alive("tombstone-gc"));
            assertThat(node.supervisor().dead()).singleElement().asString().startsWith("tombstone-gc: thread god-gc-");
            assertThat(meters.get("god.loops.dead").gauge().value()).as("god_loops_dead").isEqualTo(1);
        }
    }
}
