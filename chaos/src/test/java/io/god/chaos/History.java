package io.god.chaos;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Every operation of a run, appended by the workload's threads as they complete. */
final class History {

    private final long startNanos;
    private final AtomicLong ids = new AtomicLong();
    private final List<Op> ops = new ArrayList<>();

    History(long startNanos) {
        this.startNanos = startNanos;
    }

    /** Milliseconds since the campaign started. */
    long now() {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    long nextId() {
        return ids.incrementAndGet();
    }

    synchronized void add(Op op) {
        ops.add(op);
    }

    /** The operations so far, by invoke time. */
    synchronized List<Op> ops() {
        List<Op> copy = new ArrayList<>(ops);
        copy.sort(Comparator.comparingLong(Op::invoke).thenComparingLong(Op::id));
        return copy;
    }
}
