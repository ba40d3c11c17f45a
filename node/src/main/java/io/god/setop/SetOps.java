package io.god.setop;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Evaluation of set expressions: streaming, in key order, over {@link SortedSource}s opened by a
 * {@link SourceResolver}. Nothing is materialised beyond one entry per source; evaluation stops as
 * soon as {@code Len} results were produced or {@code Max} was passed.
 */
public final class SetOps {
    /** The original's error for a stored expression whose top-level merge is Append. */
    public static final String APPEND_WITH_DEST =
            "When storing results of Set expressions the Append merge function is not allowed";

    private SetOps() {}

    /** The skipper tree of {@code op}: one source per raw name occurrence, one operator per node. */
    public static SortedSource open(SetOp op, SourceResolver resolver) {
        return open(op, resolver, Deadline.NONE);
    }

    /** As {@link #open(SetOp, SourceResolver)}; every operator checks {@code deadline} in its loops. */
    public static SortedSource open(SetOp op, SourceResolver resolver, Deadline deadline) {
        return open(op, resolver, deadline, false);
    }

    /** As above; with {@code exactNumbers} a numeric merge refuses values that are not 8 bytes. */
    static SortedSource open(SetOp op, SourceResolver resolver, Deadline deadline, boolean exactNumbers) {
        List<SortedSource> children = new ArrayList<>(op.sources().size());
        double[] weights = new double[op.sources().size()];
        int i = 0;
        for (SetOpSource s : op.sources()) {
            deadline.check();
            SortedSource child = s.op() != null ? open(s.op(), resolver, deadline, exactNumbers) : resolver.open(s.key());
            if (exactNumbers && op.merge().numeric()) {
                child = new EightByteValues(child, s.op() != null ? s.op().toString() : SetEntry.show(s.key()),
                        op.merge());
            }
            children.add(child);
            weights[i++] = s.effectiveWeight();
        }
        return OperatorSource.create(op.type(), children, weights, op.merge(), deadline);
    }

    /**
     * Streams the results of {@code expr} within its Min/Max/Len to {@code consumer}, ignoring
     * {@code Dest}; returns how many were produced.
     */
    public static int each(SetExpression expr, SourceResolver resolver, Consumer<SetEntry> consumer) {
        return each(expr, resolver, Deadline.NONE, consumer);
    }

    /** As above; the evaluation checks {@code deadline} in every skipper loop. */
    public static int each(SetExpression expr, SourceResolver resolver, Deadline deadline,
            Consumer<SetEntry> consumer) {
        SortedSource root = open(expr.op(), resolver, deadline, expr.exactNumbers());
        int count = 0;
        byte[] min = expr.min();
        boolean inclusive = expr.minInc();
        while (expr.len() <= 0 || count < expr.len()) {
            SetEntry e = root.skip(min, inclusive);
            if (e == null || Keys.beyond(e.key(), expr.max(), expr.maxInc())) {
                break;
            }
            count++;
            deadline.check();
            consumer.accept(e);
            min = e.key();
            inclusive = false;
        }
        return count;
    }

    /** All results of {@code expr} (ignoring {@code Dest}). */
    public static List<SetEntry> evaluate(SetExpression expr, SourceResolver resolver) {
        return evaluate(expr, resolver, Deadline.NONE, e -> { });
    }

    /** All results of {@code expr}, each shown to {@code check} first (a budget may refuse it). */
    public static List<SetEntry> evaluate(SetExpression expr, SourceResolver resolver, Deadline deadline,
            Consumer<SetEntry> check) {
        List<SetEntry> out = new ArrayList<>();
        each(expr, resolver, deadline, e -> {
            check.accept(e);
            out.add(e);
        });
        return out;
    }

    /** Throws {@link SetOpException} when {@code expr} may not be stored (top-level merge Append). */
    public static void checkStorable(SetExpression expr) {
        if (expr.op().merge() == Merge.APPEND) {
            throw new SetOpException(APPEND_WITH_DEST);
        }
    }

    /**
     * Evaluates {@code expr} and writes each result's first value (an empty value when the merge
     * produced none) to {@code sink}; refuses an Append top-level merge before reading anything.
     * Returns how many results were stored.
     */
    public static int store(SetExpression expr, SourceResolver resolver, SetOpSink sink) {
        checkStorable(expr);
        return each(expr, resolver, e -> sink.put(e.key(), e.firstValue()));
    }
}
