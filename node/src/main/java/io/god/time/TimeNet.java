package io.god.time;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The time network (reference §7.4, with its fixes): clocks of ring members converge to a common
 * time by sampling peers, and data timestamps come from a clock that never goes backwards.
 *
 * <p>{@link #actual()} = local clock + offset + every pending dilation: it jumps to the network's
 * best estimate at once (used when answering peers). {@link #continuous()} = local clock + offset +
 * the part of each dilation applied so far: a dilation of δ is applied linearly over
 * {@code DILATION_FACTOR · |δ|} ns, so continuous time runs at between 4/5 and 6/5 of the local rate
 * and never goes backwards (it is additionally clamped to the last value returned).
 *
 * <p>{@link #sample} takes one measurement of a peer made by the caller (its clock before the call,
 * the peer's {@link #actual()}, its clock after). The peer's time is estimated as peerTime +
 * latency/2; the measurement is accepted when this peer's last latencies (at least 2) put it within
 * one standard deviation of their mean (equal latencies accepted), and then half the difference is
 * added as a dilation: pairwise averaging, which converges to a common time (the original moved the
 * whole way, which copies rather than averages). No threads, sleeps or wall clock here: the caller
 * (a node's loop, or a test on simulated time) drives it.
 */
public final class TimeNet {

    public static final long DILATION_FACTOR = 5;
    static final int LOG_LENGTH = 11;

    private record Dilation(long start, long delta) {
    }

    private final NanoClock local;
    private final SkewBound bound;
    private long offset;
    private final List<Dilation> dilations = new ArrayList<>();
    private final Map<String, ArrayDeque<Long>> latencies = new HashMap<>();
    private final Map<String, Long> errors = new HashMap<>();
    private long lastContinuous = Long.MIN_VALUE;

    /** Unbounded (tests of the convergence itself); a node uses {@link #TimeNet(NanoClock, SkewBound)}. */
    public TimeNet(NanoClock local) {
        this(local, SkewBound.none(local));
    }

    /**
     * A time network over the physical clock {@code local} whose offset (network time − local time,
     * pending dilations included) never leaves ±{@code bound}'s max skew, whatever peers report: a
     * peer a year ahead moves this clock by at most the skew (issue 23).
     */
    public TimeNet(NanoClock local, SkewBound bound) {
        this.local = local;
        this.bound = bound;
    }

    /** The network time now, with every pending dilation applied at once. */
    public synchronized long actual() {
        long now = local.nanos();
        fold(now);
        long t = now + offset;
        for (Dilation d : dilations) {
            t += d.delta;
        }
        return t;
    }

    /** The network time with dilations applied gradually: never goes backwards. */
    public synchronized long continuous() {
        long now = local.nanos();
        fold(now);
        long t = now + offset;
        for (Dilation d : dilations) {
            long span = Math.abs(d.delta) * DILATION_FACTOR;
            long done = Math.max(0, now - d.start);
            t += span == 0 ? d.delta : (long) ((double) d.delta * Math.min(1.0, (double) done / span));
        }
        // dilations of both signs in progress at different rates can overshoot their sum for a while:
        // data time stays within the bound anyway
        long skew = bound.maxSkewNanos();
        t = Math.max(SkewBound.saturatedAdd(now, -skew), Math.min(SkewBound.saturatedAdd(now, skew), t));
        lastContinuous = Math.max(lastContinuous, t);
        return lastContinuous;
    }

    /** {@link #continuous()} as a clock, for the node's timestamps. */
    public NanoClock continuousClock() {
        return this::continuous;
    }

    /**
     * One measurement of peer: {@code before} and {@code after} are this node's {@link #actual()}
     * around the call, {@code peerTime} the peer's answer. Returns true when it was accepted.
     */
    public synchronized boolean sample(String peer, long before, long peerTime, long after) {
        long latency = Math.max(0, after - before);
        ArrayDeque<Long> log = latencies.computeIfAbsent(peer, p -> new ArrayDeque<>());
        log.addLast(latency);
        while (log.size() > LOG_LENGTH) {
            log.removeFirst();
        }
        if (log.size() < 2) {
            return false;
        }
        double mean = 0;
        for (long l : log) {
            mean += l;
        }
        mean /= log.size();
        double var = 0;
        for (long l : log) {
            var += (l - mean) * (l - mean);
        }
        double std = Math.sqrt(var / (log.size() - 1));
        if (Math.abs(latency - mean) > std) {
            return false;
        }
        long delta = SkewBound.saturatedAdd(SkewBound.saturatedAdd(peerTime, latency / 2), -after);
        errors.put(peer, delta);
        long pending = pendingOffset();
        // the offset this sample aims at, within ±max skew of the physical clock (clamps are counted)
        long half = bound.offset(SkewBound.saturatedAdd(pending, delta / 2), "time sample from " + peer) - pending;
        if (half != 0) {
            dilations.add(new Dilation(local.nanos(), half));
        }
        return true;
    }

    /** Moves straight to a peer's time (a node joining a ring). */
    public synchronized void conform(long before, long peerTime, long after) {
        long latency = Math.max(0, after - before);
        long delta = SkewBound.saturatedAdd(SkewBound.saturatedAdd(peerTime, latency / 2), -after);
        long pending = pendingOffset();
        offset = bound.offset(SkewBound.saturatedAdd(pending, delta), "clock offset adopted on join") - pending + offset;
    }

    /** offset + every dilation, applied or not: where {@link #actual()} stands relative to the local clock. */
    private long pendingOffset() {
        long t = offset;
        for (Dilation d : dilations) {
            t += d.delta;
        }
        return t;
    }

    /** RMS of the last accepted error per current peer (ns); -1 when there is none: the clock error metric. */
    public synchronized double error() {
        if (errors.isEmpty()) {
            return -1;
        }
        double sum = 0;
        for (long e : errors.values()) {
            sum += (double) e * e;
        }
        return Math.sqrt(sum / errors.size());
    }

    /** Forgets peers that are no longer ring members. */
    public synchronized void retain(Set<String> peers) {
        retain(peers::contains);
    }

    /** Forgets the samples of peers that fail {@code keep}. */
    public synchronized void retain(java.util.function.Predicate<String> keep) {
        latencies.keySet().removeIf(keep.negate());
        errors.keySet().removeIf(keep.negate());
    }

    /** Folds dilations that are fully applied into the offset. */
    private void fold(long now) {
        for (Iterator<Dilation> it = dilations.iterator(); it.hasNext(); ) {
            Dilation d = it.next();
            if (now - d.start >= Math.abs(d.delta) * DILATION_FACTOR) {
                offset += d.delta;
                it.remove();
            }
        }
    }
}
