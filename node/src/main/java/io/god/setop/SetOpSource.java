package io.god.setop;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One source of a {@link SetOp}: either a raw source name ({@code key}, a sub-tree key in god) or a
 * nested {@code op}, with an optional weight (null means the default 1).
 */
public record SetOpSource(byte[] key, SetOp op, Double weight) {

    public SetOpSource {
        if ((key == null) == (op == null)) {
            throw new SetOpException("SetOpSource needs exactly one of Key and SetOp");
        }
        if (weight != null && !Double.isFinite(weight)) {
            throw new SetOpException("SetOpSource weight must be finite, got " + weight);
        }
    }

    /** The JSON factory ({@code {"Key":..,"SetOp":..,"Weight":..}}, Key already base64-decoded). */
    public static SetOpSource of(byte[] key, SetOp op, Double weight) {
        return new SetOpSource(key, op, weight);
    }

    public static SetOpSource key(byte[] key) {
        return new SetOpSource(key, null, null);
    }

    public static SetOpSource key(String name) {
        return key(name.getBytes(StandardCharsets.UTF_8));
    }

    public static SetOpSource op(SetOp op) {
        return new SetOpSource(null, op, null);
    }

    public SetOpSource withWeight(Double w) {
        return new SetOpSource(key, op, w);
    }

    /** The weight to use: the given one or 1. */
    public double effectiveWeight() {
        return weight == null ? 1.0 : weight;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SetOpSource s && Arrays.equals(key, s.key) && Objects.equals(op, s.op)
                && Objects.equals(weight, s.weight);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(key), op, weight);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        appendTo(sb);
        return sb.toString();
    }

    void appendTo(StringBuilder sb) {
        if (op != null) {
            op.appendTo(sb);
        } else {
            sb.append(new String(key, StandardCharsets.UTF_8));
        }
        if (weight != null) {
            sb.append('*').append(formatWeight(weight));
        }
    }

    /** Integral weights without a fraction ({@code 2}, {@code -1}), others as {@link Double#toString}. */
    static String formatWeight(double w) {
        if (w == Math.rint(w) && Math.abs(w) < 1e15 && !(w == 0 && 1 / w < 0)) {
            return Long.toString((long) w);
        }
        return Double.toString(w);
    }
}
