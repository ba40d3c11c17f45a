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

    /**
     * The timestamp of a write that another node may have stamped already ({@code given}, 0 = none): a
     * fresh stamp, unless the given one is more than {@code window} ns old — the call arrived late, its
     * forwarder may have failed over and seen newer writes meanwhile — then the given one, so a late
     * copy can only repeat that write, never overtake what came after it.
     */
    public long forWrite(long given, long window) {
        if (given <= 0) {
            return next();
        }
        advanceTo(given);
        long fresh = next();
        return fresh - given <= window ? fresh : given;
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
