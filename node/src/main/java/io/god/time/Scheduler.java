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

    /**
     * Real time on an executor (its tasks must not block). A task the executor no longer takes (it shut down: the
     * node is closing) runs at once on the caller: the tasks are call deadlines and retries, whose futures someone
     * waits for — dropped, a retry's caller waited for its own bound (a replication lane stayed occupied until then).
     * A retry that runs at once finds its transport closed and fails; its attempts are bounded.
     */
    static Scheduler of(ScheduledExecutorService executor) {
        return (delay, task) -> {
            if (!executor.isShutdown()) {
                try {
                    var f = executor.schedule(task, Math.max(0, delay), TimeUnit.NANOSECONDS);
                    return () -> f.cancel(false);
                } catch (java.util.concurrent.RejectedExecutionException e) { // shut down meanwhile
                    // run below
                }
            }
            task.run();
            return () -> { };
        };
    }
}
