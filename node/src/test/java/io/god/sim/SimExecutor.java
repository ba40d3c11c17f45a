package io.god.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A node's loop or handler executor on the simulation's event queue (what {@link io.god.node.NodeRuntime}
 * hands a {@link io.god.node.GodNode} in place of threads). Shutting it down drops its pending tasks,
 * which is how a crashed node stops.
 */
final class SimExecutor extends AbstractExecutorService implements ScheduledExecutorService {

    private final SimLoop loop;
    private final SimLoop.Kind kind;
    private final List<SimLoop.Event> pending = new ArrayList<>();
    private boolean shutdown;

    SimExecutor(SimLoop loop, SimLoop.Kind kind) {
        this.loop = loop;
        this.kind = kind;
    }

    private SimLoop.Event submitAt(long delayNanos, Runnable task) {
        if (shutdown) {
            return null;
        }
        pending.removeIf(e -> e.cancelled || e.time < loop.now());
        SimLoop.Event e = loop.at(delayNanos, kind, () -> {
            if (!shutdown) {
                task.run();
            }
        });
        pending.add(e);
        return e;
    }

    @Override
    public void execute(Runnable command) {
        submitAt(0, command);
    }

    /** A scheduled task: the event of its next run (periodic tasks replace it each time). */
    private final class Task<V> extends CompletableFuture<V> implements ScheduledFuture<V> {
        SimLoop.Event event;
        final long period;

        Task(long period) {
            this.period = period;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return event == null ? 0 : unit.convert(event.time - loop.now(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed o) {
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), o.getDelay(TimeUnit.NANOSECONDS));
        }

        @Override
        public boolean cancel(boolean mayInterrupt) {
            if (event != null) {
                event.cancelled = true;
            }
            return super.cancel(mayInterrupt);
        }
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return schedule(() -> {
            command.run();
            return null;
        }, delay, unit);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        Task<V> t = new Task<>(0);
        t.event = submitAt(unit.toNanos(delay), () -> {
            if (t.isDone()) {
                return;
            }
            try {
                t.complete(callable.call());
            } catch (Exception e) {
                t.completeExceptionally(e);
            }
        });
        return t;
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return scheduleWithFixedDelay(command, initialDelay, period, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        Task<Void> t = new Task<>(unit.toNanos(delay));
        runPeriodically(t, command, unit.toNanos(initialDelay));
        return t;
    }

    private void runPeriodically(Task<Void> t, Runnable command, long delayNanos) {
        t.event = submitAt(delayNanos, () -> {
            if (t.isDone()) {
                return;
            }
            try {
                command.run();
            } catch (RuntimeException e) {
                t.completeExceptionally(e); // as a ScheduledExecutorService: an exception ends the task
                return;
            }
            runPeriodically(t, command, t.period);
        });
    }

    @Override
    public void shutdown() {
        shutdownNow();
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown = true;
        for (SimLoop.Event e : pending) {
            e.cancelled = true;
        }
        pending.clear();
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean isTerminated() {
        return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return true;
    }

}
