package io.god.supervise;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a background loop tells its {@link Supervisor}: each iteration it starts ({@link #started},
 * which also records the loop's thread), progress within a long iteration ({@link #progress}), and
 * the error that ended it ({@link #failed}). It holds no clock: the supervisor times the beats, so a
 * loop needs nothing injected to be supervised.
 */
public final class Heartbeat {

    private final String name;
    private final Duration interval;
    private final AtomicLong beats = new AtomicLong();
    private volatile Thread thread;
    private volatile Throwable failure;

    /** @param interval how often the loop beats; null = not a loop, only a failure to report (never silent) */
    public Heartbeat(String name, Duration interval) {
        this.name = name;
        this.interval = interval;
    }

    /** An iteration starts on the current thread. */
    public void started() {
        thread = Thread.currentThread();
        beats.incrementAndGet();
    }

    /** A long iteration is still moving (e.g. one exchanged region of a resync). */
    public void progress() {
        beats.incrementAndGet();
    }

    /** The loop ended with {@code t} (it will start no further iteration). */
    public void failed(Throwable t) {
        failure = t;
    }

    /** Iterations started plus progress reported: a counter that only moves while the loop lives. */
    public long beats() {
        return beats.get();
    }

    public String name() {
        return name;
    }

    /** How often the loop beats, or null when only a failure is reported ({@link #failed}), not beats. */
    public Duration interval() {
        return interval;
    }

    Thread thread() {
        return thread;
    }

    Throwable failure() {
        return failure;
    }

    /**
     * {@code body} as one supervised iteration: it beats first, and an error that escapes it (an
     * OutOfMemoryError halts the process, {@link io.god.node.OomExit}) marks the loop dead before it
     * ends the loop.
     */
    public Runnable wrap(Runnable body) {
        return () -> {
            started();
            try {
                body.run();
            } catch (Throwable t) {
                io.god.node.OomExit.onError(t);
                failed(t);
                throw t;
            }
        };
    }
}
