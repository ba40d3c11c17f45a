package io.god.node;

import io.god.persist.Disk;
import io.god.persist.NioDisk;
import io.god.time.NanoClock;
import io.god.transport.Awaiter;
import java.security.SecureRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Everything a {@link GodNode} takes from its environment: the clock, the executors of its loops
 * (named: {@code god-gc-…}, {@code god-ring-…}, {@code god-sync-…}) and of its peer handlers, the
 * seeds of its random choices, the disk under its data directory, its transport and how it waits
 * for peers' answers. {@link #production} is the real machine; the deterministic simulation passes
 * one thread's simulated versions of each, so whole rings of real nodes run seeded and replayable.
 *
 * @param transports null = the TCP transport (Vert.x) on {@code god.node.port}
 * @param monotonic the process's monotonic clock (ns), to notice that it was paused
 *                  ({@link io.god.time.PauseWatch}); null = not watched (the simulation, whose time is its own)
 */
public record NodeRuntime(NanoClock clock, Function<String, ScheduledExecutorService> loops,
                          Function<String, ExecutorService> handlers, LongSupplier seeds, Disk disk,
                          GodNode.TransportFactory transports, Awaiter awaiter, LongSupplier monotonic) {

    /** Daemon threads, secure random seeds, the real disk, blocking waits. */
    public static NodeRuntime production(NanoClock clock, GodNode.TransportFactory transports) {
        SecureRandom random = new SecureRandom();
        return new NodeRuntime(clock,
                name -> Executors.newSingleThreadScheduledExecutor(r -> daemon(r, name)),
                name -> {
                    AtomicInteger n = new AtomicInteger();
                    return Executors.newCachedThreadPool(r -> daemon(r, name + "-" + n.incrementAndGet()));
                },
                random::nextLong, NioDisk.INSTANCE, transports, Awaiter.BLOCKING, System::nanoTime);
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
