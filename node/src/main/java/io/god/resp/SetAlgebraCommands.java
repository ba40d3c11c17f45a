package io.god.resp;

import io.god.command.CommandError;
import io.god.command.ScoreCodec;
import io.god.command.SubUpdates;
import io.god.command.Wire;
import io.god.request.Request;
import io.god.request.Result;
import io.god.setop.Merge;
import io.god.setop.SetOpType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The sorted-set algebra of the RESP table: ZUNION, ZINTER, ZDIFF and their STORE forms. An intersection or a
 * difference is one god set expression over the sources' sub trees with the Append merge (each member with its
 * sources' scores, in source order); a union is one expression per source, because a union's Append values do not
 * say which source (and so which weight) each came from. WEIGHTS and AGGREGATE SUM|MIN|MAX are applied here, on the
 * decoded scores, as Redis does: god's numeric merges read raw IEEE bytes, not {@link ScoreCodec}'s order-preserving
 * ones. The STORE forms replace the destination at its owner in one {@code SubUpdate}.
 */
final class SetAlgebraCommands {

    private enum Aggregate { SUM, MIN, MAX }

    /** One parsed command. */
    private record Call(SetOpType type, List<byte[]> keys, double[] weights, Aggregate aggregate, boolean withScores) {
    }

    private final RespCommands core;

    SetAlgebraCommands(RespCommands core) {
        this.core = core;
    }

    void register() {
        add("ZUNION", SetOpType.UNION);
        add("ZINTER", SetOpType.INTERSECTION);
        add("ZDIFF", SetOpType.DIFFERENCE);
    }

    private void add(String name, SetOpType type) {
        core.add(name, -3, (s, a, w) -> {
            Call c = parse(s, a, 1, type, false);
            List<Map.Entry<byte[], Double>> result = sorted(evaluate(s, c));
            List<byte[]> out = new ArrayList<>();
            for (Map.Entry<byte[], Double> e : result) {
                out.add(e.getKey());
                if (c.withScores()) {
                    out.add(Scores.format(e.getValue()).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                }
            }
            w.bulks(out);
        });
        core.add(name + "STORE", -4, (s, a, w) -> {
            Call c = parse(s, a, 2, type, true);
            List<byte[]> pairs = new ArrayList<>();
            for (Map.Entry<byte[], Double> e : evaluate(s, c).entrySet()) {
                pairs.add(io.god.setop.Encodings.encodeFloat64(e.getValue()));
                pairs.add(e.getKey());
            }
            w.integer(core.update(s, a.get(1), "zstore", pairs).n());
        });
    }

    /**
     * numkeys key [key ...] [WEIGHTS w ...] [AGGREGATE SUM|MIN|MAX] [WITHSCORES], from argument {@code at}; the
     * sources' types are checked before the options, as Redis does.
     */
    private Call parse(RespSession s, List<byte[]> a, int at, SetOpType type, boolean store) {
        String command = RespCommands.text(a.get(0)).toLowerCase(Locale.ROOT);
        long numKeys = RespCommands.number(a.get(at));
        if (numKeys < 1) {
            throw new IllegalArgumentException("at least 1 input key is needed for '" + command + "' command");
        }
        if (numKeys > a.size() - at - 1) {
            throw new IllegalArgumentException("syntax error");
        }
        int n = (int) numKeys;
        List<byte[]> keys = a.subList(at + 1, at + 1 + n);
        for (byte[] key : keys) {
            SubUpdates.Kind k = core.kind(s, key);
            if (k == SubUpdates.Kind.STRING || k == SubUpdates.Kind.HASH) {
                throw new CommandError(400, SubUpdates.WRONGTYPE);
            }
        }
        double[] weights = new double[n];
        Arrays.fill(weights, 1);
        Aggregate aggregate = Aggregate.SUM;
        boolean withScores = false;
        for (int i = at + 1 + n; i < a.size(); i++) {
            String o = RespCommands.text(a.get(i)).toUpperCase(Locale.ROOT);
            int left = a.size() - i - 1;
            if (o.equals("WEIGHTS") && type != SetOpType.DIFFERENCE && left >= n) {
                for (int j = 0; j < n; j++) {
                    weights[j] = Scores.parse(a.get(++i), "weight value is not a float");
                }
            } else if (o.equals("AGGREGATE") && type != SetOpType.DIFFERENCE && left >= 1) {
                try {
                    aggregate = Aggregate.valueOf(RespCommands.text(a.get(++i)).toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("syntax error");
                }
            } else if (o.equals("WITHSCORES") && !store) {
                withScores = true;
            } else {
                throw new IllegalArgumentException("syntax error");
            }
        }
        return new Call(type, keys, weights, aggregate, withScores);
    }

    /**
     * Every member of the result with its score, in member order, computed as Redis does: the sources of a union or
     * an intersection taken from the smallest to the largest (a stable sort, as glibc's qsort is for so few), a
     * weighted score that is NaN (∞·0) counting 0 for a union's every source but only for an intersection's first,
     * and a SUM that comes to NaN (∞−∞) counting 0. The order matters only for such infinities and for rounding.
     */
    private Map<byte[], Double> evaluate(RespSession s, Call c) {
        int n = c.keys().size();
        Integer[] order = new Integer[n];
        long[] sizes = new long[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
            sizes[i] = c.type() == SetOpType.DIFFERENCE ? 0 : core.subSize(s, c.keys().get(i));
        }
        Arrays.sort(order, Comparator.comparingLong(i -> sizes[i]));
        Map<byte[], Double> out = new LinkedHashMap<>();
        if (c.type() == SetOpType.UNION) { // which source a value came from decides its weight: one read each
            Map<ByteKey, Double> merged = new java.util.TreeMap<>();
            for (int i : order) {
                for (Result.SetOpResult r : expression(s, SetOpType.UNION, List.of(c.keys().get(i)))) {
                    double v = weighted(ScoreCodec.decode(r.values().get(0)), c.weights()[i]);
                    merged.merge(new ByteKey(r.key()), v, (x, y) -> aggregate(c.aggregate(), x, y));
                }
            }
            merged.forEach((k, v) -> out.put(k.bytes(), v));
            return out;
        }
        for (Result.SetOpResult r : expression(s, c.type(), c.keys())) {
            if (c.type() == SetOpType.DIFFERENCE) {
                out.put(r.key(), ScoreCodec.decode(r.values().get(0)));
                continue;
            }
            // an intersection's Append merge holds every source's score, in source order
            double acc = weighted(ScoreCodec.decode(r.values().get(order[0])), c.weights()[order[0]]);
            for (int j = 1; j < n; j++) {
                int i = order[j];
                acc = aggregate(c.aggregate(), acc, ScoreCodec.decode(r.values().get(i)) * c.weights()[i]);
            }
            out.put(r.key(), acc);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private List<Result.SetOpResult> expression(RespSession s, SetOpType type, List<byte[]> keys) {
        List<Request.SetExpression.Source> sources = new ArrayList<>();
        for (byte[] key : keys) {
            sources.add(new Request.SetExpression.Source(key, null, null));
        }
        Request.SetExpression.Op op = new Request.SetExpression.Op(sources, type.code(), Merge.APPEND.code());
        return (List<Result.SetOpResult>) core.call(s, new Request.SetExpression(op, null, null, null, false, false, 0,
                null, false));
    }

    /** Redis' weighting of a first score: a NaN (∞·0) counts 0. */
    private static double weighted(double score, double weight) {
        double v = score * weight;
        return Double.isNaN(v) ? 0 : v;
    }

    private static double aggregate(Aggregate a, double x, double y) {
        return switch (a) {
            case SUM -> {
                double v = x + y;
                yield Double.isNaN(v) ? 0 : v;
            }
            case MIN -> y < x ? y : x; // a NaN never replaces the accumulated score
            case MAX -> y > x ? y : x;
        };
    }

    /** A result ordered as a sorted set: by score, then member. */
    private static List<Map.Entry<byte[], Double>> sorted(Map<byte[], Double> m) {
        List<Map.Entry<byte[], Double>> out = new ArrayList<>(m.entrySet());
        out.sort(Comparator.<Map.Entry<byte[], Double>, byte[]>comparing(e -> ScoreCodec.encode(e.getValue()),
                Arrays::compareUnsigned).thenComparing(Map.Entry::getKey, Arrays::compareUnsigned));
        return out;
    }

    /** A member as a sorted map key. */
    private record ByteKey(byte[] bytes) implements Comparable<ByteKey> {
        @Override
        public int compareTo(ByteKey o) {
            return Arrays.compareUnsigned(bytes, o.bytes);
        }
    }
}
