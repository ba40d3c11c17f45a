package io.god.bench.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/** A weighted operation mix, parsed from {@code put=50,get=50} (weights are relative, not percentages). */
public final class OpMix {

    public enum Op {
        PUT, GET, SUBPUT, SLICE, SETEXPR;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Op[] ops;
    private final long[] cumulative;
    private final long total;

    private OpMix(List<Op> ops, List<Long> weights) {
        this.ops = ops.toArray(Op[]::new);
        this.cumulative = new long[weights.size()];
        long sum = 0;
        for (int i = 0; i < weights.size(); i++) {
            sum += weights.get(i);
            cumulative[i] = sum;
        }
        this.total = sum;
    }

    /** @throws IllegalArgumentException with a message naming the bad part */
    public static OpMix parse(String spec) {
        List<Op> ops = new ArrayList<>();
        List<Long> weights = new ArrayList<>();
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("empty op mix; e.g. put=50,get=50");
        }
        for (String part : spec.split(",")) {
            String[] kv = part.trim().split("=", -1);
            if (kv.length != 2) {
                throw new IllegalArgumentException("op mix part '" + part + "' is not op=weight");
            }
            Op op;
            try {
                op = Op.valueOf(kv[0].trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown op '" + kv[0].trim() + "' (put, get, subput, slice, setexpr)");
            }
            long w;
            try {
                w = Long.parseLong(kv[1].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("weight of " + op.label() + " is not a whole number: '" + kv[1] + "'");
            }
            if (w < 0) {
                throw new IllegalArgumentException("weight of " + op.label() + " is negative");
            }
            if (ops.contains(op)) {
                throw new IllegalArgumentException(op.label() + " appears twice in the op mix");
            }
            if (w > 0) {
                ops.add(op);
                weights.add(w);
            }
        }
        if (ops.isEmpty()) {
            throw new IllegalArgumentException("every weight of the op mix is 0");
        }
        return new OpMix(ops, weights);
    }

    public Op next(SplittableRandom random) {
        if (ops.length == 1) {
            return ops[0];
        }
        long x = random.nextLong(total);
        for (int i = 0; i < cumulative.length; i++) {
            if (x < cumulative[i]) {
                return ops[i];
            }
        }
        return ops[ops.length - 1];
    }

    public List<Op> ops() {
        return List.of(ops);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        long prev = 0;
        for (int i = 0; i < ops.length; i++) {
            b.append(i == 0 ? "" : ",").append(ops[i].label()).append('=').append(cumulative[i] - prev);
            prev = cumulative[i];
        }
        return b.toString();
    }
}
