package io.god.limits;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A byte budget shared by many holders (the binary connections' buffered request frames,
 * {@code god.limits.frame-budget}): a holder reserves before it buffers and releases when done; a
 * reservation that would pass the budget is refused, so the holder refuses its peer instead of
 * growing the heap.
 */
public final class ByteBudget {

    private final long max;
    private final AtomicLong used = new AtomicLong();

    public ByteBudget(long max) {
        this.max = max;
    }

    /** No bound (tests, embedded transports). */
    public static ByteBudget unlimited() {
        return new ByteBudget(Long.MAX_VALUE);
    }

    /** Reserves {@code n} bytes, or returns false (reserving nothing) when that would pass the budget. */
    public boolean tryReserve(long n) {
        while (true) {
            long u = used.get();
            if (u + n > max || u + n < u) {
                return false;
            }
            if (used.compareAndSet(u, u + n)) {
                return true;
            }
        }
    }

    public void release(long n) {
        used.addAndGet(-n);
    }

    public long used() {
        return used.get();
    }

    public long max() {
        return max;
    }
}
