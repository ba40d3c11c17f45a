package io.god.limits;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Admission for expensive calls (set expressions, slices that are unbounded or span more than 1024 rows): at most {@code running} run at
 * once and {@code queued} more wait for a slot, each at most {@code maxWait}; beyond that a call is
 * refused at once with a {@link Full} (HTTP 503 with {@code Retry-After}), so a flood of large
 * expressions cannot take every worker thread and the heap while point reads keep being served.
 */
public final class Bulkhead {

    /** Refused: the bulkhead is full, or the call waited for a slot longer than allowed. */
    public static final class Full extends RuntimeException {
        public Full(String message) {
            super(message, null, false, false);
        }
    }

    private final int running;
    private final int capacity;
    private final long maxWaitNanos;
    private final Semaphore slots;
    private final AtomicInteger admitted = new AtomicInteger();

    public Bulkhead(int running, int queued, Duration maxWait) {
        this.running = running;
        this.capacity = running + queued;
        this.maxWaitNanos = maxWait.toNanos();
        this.slots = new Semaphore(running, true);
    }

    /** For the node's limits: {@code expensive-running}, {@code expensive-queue}, waiting at most eval-time. */
    public static Bulkhead of(Limits limits) {
        return new Bulkhead(limits.expensiveRunning(), limits.expensiveQueue(), limits.evalTime());
    }

    /** Runs {@code call} in a slot, or throws {@link Full}. */
    public <T> T run(Supplier<T> call) {
        if (admitted.incrementAndGet() > capacity) {
            admitted.decrementAndGet();
            throw new Full("busy: " + running + " expensive calls running and " + (capacity - running)
                    + " waiting (" + Limits.EXPENSIVE_RUNNING + ", " + Limits.EXPENSIVE_QUEUE + "); retry later");
        }
        try {
            if (!slots.tryAcquire(maxWaitNanos, TimeUnit.NANOSECONDS)) {
                throw new Full("busy: no slot for an expensive call within " + io.god.node.Durations.format(
                        Duration.ofNanos(maxWaitNanos)) + " (" + Limits.EXPENSIVE_RUNNING + "); retry later");
            }
            try {
                return call.get();
            } finally {
                slots.release();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Full("interrupted while waiting for a slot for an expensive call");
        } finally {
            admitted.decrementAndGet();
        }
    }

    /** Calls admitted now (running and waiting). */
    public int admitted() {
        return admitted.get();
    }
}
