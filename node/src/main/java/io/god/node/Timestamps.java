package io.god.node;

import io.god.time.NanoClock;
import io.god.time.SkewBound;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The node's write timestamps: nanoseconds from the clock, but strictly increasing per node even when
 * the clock stands still or steps back (then each stamp is the previous one plus 1 ns).
 *
 * <p>Time belongs to the ring (issue 23): stamps from elsewhere — peers' records, forwarded calls, the
 * persisted last timestamp — raise the floor only up to the {@link SkewBound} (physical now + {@code
 * god.time.max-skew}); the records themselves are still applied by last-write-wins. The newest stamp
 * seen, bounded or not, is kept apart ({@link #newestSeen()}) so it can be persisted and reported.
 */
public final class Timestamps {

    private final NanoClock clock;
    private final SkewBound bound;
    private final AtomicLong last = new AtomicLong();
    private final AtomicLong newestSeen = new AtomicLong();

    /** Unbounded: for tests of other logic and tools; a node uses {@link #Timestamps(NanoClock, SkewBound)}. */
    public Timestamps(NanoClock clock) {
        this(clock, SkewBound.none(clock));
    }

    /** Stamps from {@code clock} (the network time); outside stamps bounded by {@code bound}. */
    public Timestamps(NanoClock clock, SkewBound bound) {
        this.clock = clock;
        this.bound = bound;
    }

    /** A stamp greater than every stamp handed out before (and than {@link #advanceTo} floors). */
    public long next() {
        long now = clock.nanos();
        long stamp = last.accumulateAndGet(now, (prev, n) -> Math.max(n, successor(prev)));
        newestSeen.accumulateAndGet(stamp, Math::max);
        return stamp;
    }

    /**
     * The timestamp of a write that another node may have stamped already ({@code given}, 0 = none): a
     * fresh stamp, unless the given one is more than {@code window} ns old — the call arrived late, its
     * forwarder may have failed over and seen newer writes meanwhile — then the given one, so a late
     * copy can only repeat that write, never overtake what came after it. A given stamp from the
     * future moves the floor at most to the bound, and the write gets a fresh stamp.
     */
    public long forWrite(long given, long window) {
        if (given <= 0) {
            return next();
        }
        raise(given, "forwarded call"); // not newestSeen: the write gets a fresh stamp, never this one
        long fresh = next();
        return fresh - given <= window ? fresh : given;
    }

    /** The newest stamp handed out (0 = none). */
    public long last() {
        return last.get();
    }

    /**
     * The newest stamp handed out or offered to {@link #advanceTo} (the stamps of records this node
     * stores), before bounding (0 = none): what is persisted, so a restart can report future data.
     */
    public long newestSeen() {
        return newestSeen.get();
    }

    /** The bound of floors raised from outside. */
    public SkewBound bound() {
        return bound;
    }

    /** As {@link #advanceTo(long, String)} from an unnamed source. */
    public void advanceTo(long floor) {
        advanceTo(floor, "timestamp floor");
    }

    /**
     * Makes every later stamp greater than {@code floor} (e.g. the newest stamp of replicated records,
     * or before a restart), but at most greater than the bound: a floor beyond it is clamped, counted
     * and logged as coming from {@code source}.
     */
    public void advanceTo(long floor, String source) {
        newestSeen.accumulateAndGet(floor, Math::max);
        raise(floor, source);
    }

    private void raise(long floor, String source) {
        last.accumulateAndGet(bound.floor(floor, source), Math::max);
    }

    /** prev + 1, or a clear error instead of wrapping to a negative stamp. */
    private static long successor(long prev) {
        if (prev == Long.MAX_VALUE) {
            throw new IllegalStateException("timestamp space exhausted: the last stamp is Long.MAX_VALUE ns;"
                    + " the data carries stamps from the far future (see docs/durability.md, repairing"
                    + " future timestamps)");
        }
        return prev + 1;
    }
}
