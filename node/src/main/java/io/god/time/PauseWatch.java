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
 */
public final class PauseWatch {

    private final LongSupplier monotonic;
    private final long threshold;
    private final long grace;
    private volatile long lastBeat;
    private volatile long lastPauseEnd = Long.MIN_VALUE;
    private volatile long lastPause;

    /**
     * @param monotonic a monotonic clock in nanoseconds ({@code System::nanoTime})
     * @param threshold the shortest gap between beats that counts as a pause (ns)
     * @param grace how long after a pause ended the requests it held back are still suspect (ns)
     */
    public PauseWatch(LongSupplier monotonic, long threshold, long grace) {
        this.monotonic = monotonic;
        this.threshold = threshold;
        this.grace = grace;
        this.lastBeat = monotonic.getAsLong();
    }

    /** One beat of the watching thread. */
    public void beat() {
        long now = monotonic.getAsLong();
        long gap = now - lastBeat;
        if (gap >= threshold) {
            lastPause = gap;
            lastPauseEnd = now;
        }
        lastBeat = now;
    }

    /**
     * Why a client write this node began to handle at {@code handledSince} (monotonic ns) must not be
     * stamped now, or null when it may: a pause is going on or just ended, and the write may have waited
     * in it for longer than its client waited.
     */
    public String refusal(long handledSince) {
        long now = monotonic.getAsLong();
        if (now - lastBeat >= threshold) {
            return "this node was paused (no beat for " + (now - lastBeat) / 1_000_000 + " ms); a write that waited"
                    + " in it is not stamped now, its client may have moved on: retry";
        }
        if (lastPauseEnd != Long.MIN_VALUE && handledSince <= lastPauseEnd + grace) {
            return "this node was paused for " + lastPause / 1_000_000 + " ms just before this write; a write that"
                    + " waited in the pause is not stamped now, its client may have moved on: retry";
        }
        return null;
    }
}
