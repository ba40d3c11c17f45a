package io.god.time;

import java.util.function.LongSupplier;

/**
 * Notices that this process was paused (SIGSTOP, a frozen VM, a long GC pause): {@link #beat} runs
 * every few milliseconds on a thread of its own, and a gap of at least {@code threshold} between two
 * beats is a pause.
 *
 * <p>Why: a client write that waited in this node's socket during a pause would otherwise be stamped
 * when the node resumes — after the client gave up on that attempt, wrote through another replica and
 * perhaps deleted the key; the late write's fresh stamp would win and bring the value back (the
 * chaos campaign's "delayed write through a paused owner"). A client attempt lasts about a second, so
 * a request that waited less than the threshold was still being waited for. Such a write is refused
 * instead (503, retryable): one handled while no beat came for the threshold (the pause is still
 * being noticed), or shortly after a pause ended ({@code grace}: the requests that queued during it).
 *
 * <p>A saturated machine is not a paused process. A gap between beats counts as a pause only for the part the
 * beating thread spent neither running nor waiting for a CPU ({@code waited}: its run-queue wait,
 * {@link RunQueueWait}); a stopped process, a stop-the-world collection or a frozen machine keeps it off the run
 * queue. And while a beat is late, writes are refused only if no write was let through for the threshold either:
 * a process that kept handling writes was running, its watch was only waiting for a CPU. Before both, a loaded
 * host (load 10 to 40 on 2 cores) had writes refused as "paused" that no pause had delayed.
 */
public final class PauseWatch {

    private final LongSupplier monotonic;
    private final LongSupplier waited;
    private final long threshold;
    private final long grace;
    private volatile long lastBeat;
    private volatile long lastPauseEnd = Long.MIN_VALUE;
    private volatile long lastPause;
    /** The beating thread's run-queue wait at the last beat, -1 before the first (only that thread uses it). */
    private long lastWaited = -1;
    /** When a write was last let through (monotonic ns, within threshold/16): the process was running then. */
    private volatile long lastWrite;

    /**
     * @param monotonic a monotonic clock in nanoseconds ({@code System::nanoTime})
     * @param threshold the shortest gap between beats that counts as a pause (ns)
     * @param grace how long after a pause ended the requests it held back are still suspect (ns)
     */
    public PauseWatch(LongSupplier monotonic, long threshold, long grace) {
        this(monotonic, () -> 0, threshold, grace);
    }

    /**
     * @param waited the beating thread's total run-queue wait so far (ns), read on that thread at each beat
     *               ({@link RunQueueWait}; {@code () -> 0}: every gap counts whole)
     */
    public PauseWatch(LongSupplier monotonic, LongSupplier waited, long threshold, long grace) {
        this.monotonic = monotonic;
        this.waited = waited;
        this.threshold = threshold;
        this.grace = grace;
        this.lastBeat = monotonic.getAsLong();
        this.lastWrite = lastBeat - threshold; // no write yet: a late first beat is not excused by one
    }

    /** One beat of the watching thread. */
    public void beat() {
        long now = monotonic.getAsLong();
        long w = waited.getAsLong();
        long gap = now - lastBeat;
        // the time off the run queue, neither running nor ready to: the part of the gap that is a pause
        long stalled = gap - (lastWaited < 0 ? 0 : Math.max(0, w - lastWaited));
        lastWaited = w;
        if (stalled >= threshold) {
            lastPause = gap;
            lastPauseEnd = now;
        }
        lastBeat = now;
    }

    /**
     * How long after a pause a request that waited through it may still be read (ns): after a resume the process
     * has a backlog (every connection's queued requests, the ring's messages, threads waiting for a CPU on a loaded
     * host), and the chaos campaign saw one read well after {@code grace}.
     */
    public static final long MAX_BACKLOG = 10_000_000_000L;

    /**
     * As {@link #refusal(long)} for a request that reached the node after {@code arrivedAfter} (its connection's
     * previous read, {@code io.god.transport.Arrival}; {@link Long#MIN_VALUE} when not known):
     * one that may have waited through a pause is refused however late after it the node reads it, up to
     * {@link #MAX_BACKLOG} — before, one read more than {@code grace} after the resume was stamped as fresh.
     */
    public String refusal(long handledSince, long arrivedAfter) {
        return refusal(arrivedAfter == Long.MIN_VALUE ? handledSince
                : Math.min(handledSince, Math.max(arrivedAfter, handledSince - MAX_BACKLOG)));
    }

    /**
     * Why a client write this node began to handle at {@code handledSince} (monotonic ns) must not be
     * stamped now, or null when it may: a pause is going on or just ended, and the write may have waited
     * in it for longer than its client waited.
     */
    public String refusal(long handledSince) {
        long now = monotonic.getAsLong();
        long written = lastWrite;
        if (now - lastBeat >= threshold && now - written >= threshold) {
            return "this node was paused (no beat for " + (now - lastBeat) / 1_000_000 + " ms); a write that waited"
                    + " in it is not stamped now, its client may have moved on: retry";
        }
        if (lastPauseEnd != Long.MIN_VALUE && handledSince <= lastPauseEnd + grace) {
            return "this node was paused for " + lastPause / 1_000_000 + " ms just before this write; a write that"
                    + " waited in the pause is not stamped now, its client may have moved on: retry";
        }
        if (now - written > threshold >> 4) { // not every write: a volatile store all writers would share
            lastWrite = now;
        }
        return null;
    }
}
