package io.god.transport;

import io.god.time.Scheduler;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** An {@link InMemoryNetwork} with its own timer and delivery threads, healed and stopped on close. */
public final class TestNetwork implements AutoCloseable {

    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    private final ExecutorService deliveries = Executors.newCachedThreadPool();
    public final InMemoryNetwork net;

    public TestNetwork(long seed) {
        net = new InMemoryNetwork(Scheduler.of(timers), deliveries, seed);
    }

    @Override
    public void close() {
        net.heal();
        deliveries.shutdownNow();
        timers.shutdownNow();
    }
}
