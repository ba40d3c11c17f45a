package io.god.node;

import io.god.time.NanoClock;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The node's write timestamps: nanoseconds from the clock, but strictly increasing per node even when
 * the clock stands still or steps back (then each stamp is the previous one plus 1 ns).
 */
public final class Timestamps {

    private final NanoClock clock;
    private final AtomicLong last = new AtomicLong();

    public Timestamps(NanoClock clock) {
        this.clock = clock;
    }

    /** A stamp greater than every stamp handed out before (and than {@link #advanceTo} floors). */
    public long next() {
        long now = clock.nanos();
        return last.accumulateAndGet(now, (prev, n) -> Math.max(n, prev + 1));
    }

    /** The newest stamp handed out (0 = none). */
    public long last() {
        return last.get();
    }

    /** Makes every later stamp greater than {@code floor} (e.g. the newest stamp before a restart). */
    public void advanceTo(long floor) {
        last.accumulateAndGet(floor, Math::max);
    }
}
