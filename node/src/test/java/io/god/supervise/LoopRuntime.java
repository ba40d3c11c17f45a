package io.god.supervise;

import io.god.node.NodeRuntime;
import io.god.time.NanoClock;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Quarkus node's environment in {@link LivenessHttpTest} (selected by its test profile only):
 * the system clock plus a jump the test chooses, and loop executors the test can reach by name, so it
 * can stop one loop's thread or occupy it with a long round.
 */
@Alternative
@Singleton
public class LoopRuntime {

    private final AtomicLong jump = new AtomicLong();
    private final Map<String, ScheduledExecutorService> loops = new ConcurrentHashMap<>();

    @Produces
    @Alternative
    NodeRuntime runtime() {
        NanoClock system = NanoClock.system();
        NanoClock clock = () -> system.nanos() + jump.get();
        NodeRuntime prod = NodeRuntime.production(clock, null);
        return new NodeRuntime(clock, name -> loops.computeIfAbsent(name,
                n -> Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, n);
                    t.setDaemon(true);
                    return t;
                })), prod.handlers(), prod.seeds(), prod.disk(), null, prod.awaiter(), null);
    }

    /** Moves the node's clock on by {@code d} at once. */
    public void advance(Duration d) {
        jump.addAndGet(d.toNanos());
    }

    /** The executor of the loop whose thread name starts with {@code prefix} (e.g. {@code god-gc-}). */
    public ScheduledExecutorService loop(String prefix) {
        return loops.entrySet().stream().filter(e -> e.getKey().startsWith(prefix)).findFirst().orElseThrow()
                .getValue();
    }

    @PreDestroy
    void stop() {
        loops.values().forEach(ScheduledExecutorService::shutdownNow);
    }
}
