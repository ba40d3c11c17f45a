package io.god.sim;

import io.god.time.Scheduler;
import io.god.transport.Awaiter;
import io.god.transport.TransportException;
import java.time.Duration;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Simulated time and the one event queue of a simulation, all on the calling thread. Events are
 * ordered by (time, sequence number), so a run depends only on its seed.
 *
 * <p>Code that waits for a peer ({@link Awaiter}) runs the queue until its future completes
 * ({@link #awaiter()}): nested event processing. So that nesting stays bounded and an outer wait is
 * never starved by unrelated inner work, events come in three kinds: {@link Kind#QUICK} (timers and
 * message deliveries whose handlers answer at once) always run; {@link Kind#SERVE} (a forwarded client
 * call, whose handler may wait for further peers: part of some waiter's chain) run below
 * {@link #MAX_DEPTH} nested waits; {@link Kind#START} (a sync round, a client operation: new work that
 * waits) run only when nothing waits, so they never interleave — as if each ran to its end quickly.
 */
final class SimLoop {

    static final int MAX_DEPTH = 8;

    enum Kind { QUICK, SERVE, START }
    static final long EPOCH = 1_700_000_000_000_000_000L;

    final class Event {
        final long time;
        final long seq;
        final Runnable task;
        boolean cancelled;

        Event(long time, long seq, Runnable task) {
            this.time = time;
            this.seq = seq;
            this.task = task;
        }
    }

    private static final Comparator<Event> ORDER = Comparator.<Event>comparingLong(e -> e.time)
            .thenComparingLong(e -> e.seq);
    private final PriorityQueue<Event> quick = new PriorityQueue<>(ORDER);
    private final PriorityQueue<Event> serve = new PriorityQueue<>(ORDER);
    private final PriorityQueue<Event> start = new PriorityQueue<>(ORDER);
    private long now = EPOCH;
    private long seq;
    private int depth;
    private long executed;
    private final Trace trace;

    SimLoop(Trace trace) {
        this.trace = trace;
    }

    long now() {
        return now;
    }

    long executed() {
        return executed;
    }

    int depth() {
        return depth;
    }

    Event at(long delayNanos, Kind kind, Runnable task) {
        Event e = new Event(now + Math.max(0, delayNanos), seq++, task);
        (kind == Kind.QUICK ? quick : kind == Kind.SERVE ? serve : start).add(e);
        return e;
    }

    /** Non-blocking timers (ring ticks of the network, call deadlines, retry back-off). */
    Scheduler scheduler() {
        return (delay, task) -> {
            Event e = at(delay, Kind.QUICK, task);
            return () -> e.cancelled = true;
        };
    }

    /** Runs the next runnable event due by {@code until}; false when there is none. */
    boolean step(long until) {
        Event e = next(until);
        if (e == null) {
            return false;
        }
        now = Math.max(now, e.time);
        executed++;
        try {
            e.task.run();
        } catch (RuntimeException | AssertionError ex) {
            if (ex instanceof InvariantViolation v) {
                throw v;
            }
            trace.note("event failed: " + ex);
        }
        return true;
    }

    private Event next(long until) {
        while (true) {
            PriorityQueue<Event> from = quick;
            from = earlier(from, depth < MAX_DEPTH ? serve : null);
            from = earlier(from, depth == 0 ? start : null);
            Event e = from.peek();
            if (e == null || e.time > until) {
                return null;
            }
            from.poll();
            if (!e.cancelled) {
                return e;
            }
        }
    }

    private static PriorityQueue<Event> earlier(PriorityQueue<Event> a, PriorityQueue<Event> b) {
        if (b == null || b.isEmpty()) {
            return a;
        }
        return a.isEmpty() || ORDER.compare(b.peek(), a.peek()) < 0 ? b : a;
    }

    /** Runs every event due by t, then sets the clock to t. */
    void runUntil(long t) {
        while (step(t)) {
            // keep going
        }
        now = Math.max(now, t);
    }

    Awaiter awaiter() {
        return new Awaiter() {
            @Override
            public <T> T await(CompletableFuture<T> f, Duration limit) {
                long until = now + limit.toNanos();
                depth++;
                try {
                    while (!f.isDone() && step(until)) {
                        // run the world until the answer arrives
                    }
                } finally {
                    depth--;
                }
                if (!f.isDone()) {
                    now = Math.max(now, until);
                    throw new TransportException(TransportException.Reason.TIMEOUT, "no answer (simulated)");
                }
                try {
                    return f.get();
                } catch (ExecutionException e) {
                    throw TransportException.of(e);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
    }
}
