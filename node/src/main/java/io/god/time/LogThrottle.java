package io.god.time;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts occurrences of something worth a log line and says when one is due: at most one per {@code every}
 * (on the given clock), each saying how many occurred since the previous line — so a flood (a clamp per
 * request, a refused write per call while the disk is full) logs a line every few seconds, not one per event.
 */
public final class LogThrottle {

    private final NanoClock clock;
    private final long everyNanos;
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong loggedAt = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong loggedCount = new AtomicLong();

    public LogThrottle(NanoClock clock, Duration every) {
        this.clock = clock;
        this.everyNanos = every.toNanos();
    }

    /** Counts one occurrence; answers how many (this one included) since the last line when a line is due, else 0. */
    public long count() {
        long n = count.incrementAndGet();
        long now = clock.nanos();
        long last = loggedAt.get();
        if ((last == Long.MIN_VALUE || now - last >= everyNanos || now < last) && loggedAt.compareAndSet(last, now)) {
            return n - loggedCount.getAndSet(n);
        }
        return 0;
    }

    /** Occurrences so far. */
    public long total() {
        return count.get();
    }
}
