package io.god.setop;

import java.util.List;
import java.util.Objects;

/**
 * An immutable set-operation node: {@code (TYPE[:Merge] source source ...)}. Build it with
 * {@link SetOpParser#parse(String)} from code, or with {@link #of(int, int, List)} from the JSON
 * {@code Op} form ({@code {"Sources":[...],"Type":0,"Merge":0}}).
 *
 * <p>{@link #toString()} is canonical code: the merge is printed unless it is Append, a weight is
 * printed when one was given, and {@code SetOpParser.parse(op.toString()).equals(op)} holds for
 * every op whose source names are UTF-8 text without space, parentheses or {@code *}.
 */
public record SetOp(SetOpType type, Merge merge, List<SetOpSource> sources) {
    /** Deepest nesting accepted, in code and in the JSON form (the root is depth 1). */
    public static final int MAX_DEPTH = io.god.request.BinaryRequests.MAX_SET_DEPTH; // one bound for JSON and binary

    public SetOp {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(merge, "merge");
        if (sources == null || sources.isEmpty()) {
            throw new SetOpException("SetOp without sources not allowed");
        }
        for (SetOpSource s : sources) {
            Objects.requireNonNull(s, "source");
        }
        sources = List.copyOf(sources);
        if (depthOf(sources) > MAX_DEPTH) {
            throw new SetOpException("SetOp nested deeper than " + MAX_DEPTH + " levels");
        }
    }

    /**
     * The JSON factory: Type 0=U, 1=I, 2=D, 3=X; Merge per {@link Merge} order; sources already
     * decoded (see {@link SetOpSource#of(byte[], SetOp, Double)}). Invalid values give a
     * {@link SetOpException}.
     */
    public static SetOp of(int type, int merge, List<SetOpSource> sources) {
        return new SetOp(SetOpType.fromCode(type), Merge.fromCode(merge), sources);
    }

    /** Nesting depth: 1 for an op over raw sources only. */
    public int depth() {
        return depthOf(sources);
    }

    private static int depthOf(List<SetOpSource> sources) {
        int max = 0;
        for (SetOpSource s : sources) {
            if (s.op() != null) {
                max = Math.max(max, s.op().depth());
            }
        }
        return max + 1;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        appendTo(sb);
        return sb.toString();
    }

    void appendTo(StringBuilder sb) {
        sb.append('(').append(type.letter());
        if (merge != Merge.APPEND) {
            sb.append(':').append(merge.label());
        }
        for (SetOpSource s : sources) {
            sb.append(' ');
            s.appendTo(sb);
        }
        sb.append(')');
    }
}
