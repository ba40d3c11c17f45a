package io.god.time;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Timers behind a seam: the ring's ticks, call deadlines, retry back-off and the in-memory
 * transport's delays are all scheduled here, so a simulation can run them on simulated time.
 */
@FunctionalInterface
public interface Scheduler {

    /** A scheduled task; cancelling a task that already ran does nothing. */
    @FunctionalInterface
    interface Cancellable {
        void cancel();
    }

    Cancellable schedule(long delayNanos, Runnable task);

    /** Real time on an executor (its tasks must not block). */
    static Scheduler of(ScheduledExecutorService executor) {
        return (delay, task) -> {
            if (executor.isShutdown()) {
                return () -> { };
            }
            try {
                var f = executor.schedule(task, Math.max(0, delay), TimeUnit.NANOSECONDS);
                return () -> f.cancel(false);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                return () -> { };
            }
        };
    }
}
