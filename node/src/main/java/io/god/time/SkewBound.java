package io.god.time;

import java.time.Duration;

/**
 * How far ahead of this machine's physical clock anything from outside may move its notion of time
 * ({@code god.time.max-skew}, issue 23): a stamp floor raised by a peer's record, the persisted last
 * timestamp, a time-network sample or the offset adopted on join. The bound is always measured
 * against the physical clock, never against the last stamp, so repeated requests from the future
 * cannot ratchet it further: at any moment the floor is at most physical now + max skew.
 *
 * <p>Every clamp is counted ({@link #clamps()}, the {@code god_time_clamps_total} metric) and logged
 * at most once per {@link #LOG_EVERY} of physical time (with the number of clamps since the last line),
 * so a peer or client that keeps sending far-future stamps cannot flood the log.
 */
public final class SkewBound {

    private static final System.Logger LOG = System.getLogger(SkewBound.class.getName());

    /** Shortest pause between two clamp log lines. */
    public static final Duration LOG_EVERY = Duration.ofSeconds(10);

    private final NanoClock physical;
    private final long maxSkew;
    private final LogThrottle clamps;

    /** A bound of maxSkew (positive) around the physical clock. */
    public SkewBound(NanoClock physical, Duration maxSkew) {
        if (maxSkew.isNegative() || maxSkew.isZero()) {
            throw new IllegalArgumentException("max skew must be positive, was " + maxSkew);
        }
        this.physical = physical;
        this.maxSkew = saturatedNanos(maxSkew);
        this.clamps = new LogThrottle(physical, LOG_EVERY);
    }

    /** No bound at all (unit tests of other logic and tools that replay foreign data as it is). */
    public static SkewBound none(NanoClock physical) {
        return new SkewBound(physical, Duration.ofNanos(Long.MAX_VALUE));
    }

    public long maxSkewNanos() {
        return maxSkew;
    }

    /** The highest stamp floor allowed now: physical now + max skew (saturating at Long.MAX_VALUE). */
    public long limit() {
        return saturatedAdd(physical.nanos(), maxSkew);
    }

    /**
     * {@code stamp}, or {@link #limit()} when it is beyond it (counted and logged as coming from
     * {@code source}, e.g. "replication").
     */
    public long floor(long stamp, String source) {
        long limit = limit();
        if (stamp <= limit) {
            return stamp;
        }
        clamped(source + ": timestamp " + stamp + " ns is " + describe(stamp - limit)
                + " beyond physical now + " + describe(maxSkew) + "; the stamp floor moves only to that bound");
        return limit;
    }

    /** {@code offset} (network time minus physical time) limited to ±max skew (counted and logged). */
    public long offset(long offset, String source) {
        if (offset >= -maxSkew && offset <= maxSkew) {
            return offset;
        }
        clamped(source + ": clock offset of " + (offset < 0 ? "-" : "+") + describe(Math.abs(offset))
                + " limited to ±" + describe(maxSkew));
        return offset < 0 ? -maxSkew : maxSkew;
    }

    /** Clamps so far. */
    public long clamps() {
        return clamps.total();
    }

    private void clamped(String what) {
        long since = clamps.count();
        if (since > 0) {
            LOG.log(System.Logger.Level.WARNING, what + " (god.time.max-skew; " + since
                    + " clamp(s) since the last such message, " + clamps.total() + " in all)");
        }
    }

    /** a + b, Long.MAX_VALUE or Long.MIN_VALUE instead of overflowing. */
    public static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? (b > 0 ? Long.MAX_VALUE : Long.MIN_VALUE) : r;
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    private static String describe(long nanos) {
        if (nanos < 0) {
            return "a negative span";
        }
        Duration d = Duration.ofNanos(nanos);
        long days = d.toDays();
        return days >= 2 ? days + " days" : d.toSeconds() >= 1 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
