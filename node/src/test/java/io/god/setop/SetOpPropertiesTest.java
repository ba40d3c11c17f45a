package io.god.setop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/** U/I/D/X against naive set computations, and parser robustness. Fixed seeds for CI. */
class SetOpPropertiesTest {
    static final String[] NAMES = {"s0", "s1", "s2", "s3", "s4"};
    static final List<byte[]> UNIVERSE = universe();

    /** All keys of length 0..2 over {00, 01, 7f, 80, ff}: exercises prefixes and unsigned order. */
    static List<byte[]> universe() {
        byte[] alphabet = {0x00, 0x01, 0x7f, (byte) 0x80, (byte) 0xff};
        List<byte[]> out = new ArrayList<>();
        out.add(new byte[0]);
        for (byte a : alphabet) {
            out.add(new byte[] {a});
            for (byte b : alphabet) {
                out.add(new byte[] {a, b});
            }
        }
        return out;
    }

    // ---- evaluation vs model ----------------------------------------------------------------

    @Provide
    Arbitrary<SetOp> modelExprs() {
        return expr(2, 3, false);
    }

    /** Random ops over the names; the root has at least {@code minRootSources} sources. */
    static Arbitrary<SetOp> expr(int depth, int minSources, boolean anyMergeAndWeight) {
        Arbitrary<SetOpSource> leaf = Arbitraries.of(NAMES).map(SetOpSource::key);
        Arbitrary<SetOpSource> src = depth == 0 ? leaf
                : Arbitraries.frequencyOf(Tuple.of(3, leaf),
                        Tuple.of(1, Arbitraries.lazy(() -> expr(depth - 1, 1, anyMergeAndWeight)).map(SetOpSource::op)));
        if (anyMergeAndWeight) {
            Arbitrary<Double> w = Arbitraries.oneOf(Arbitraries.doubles().between(-1e6, 1e6),
                    Arbitraries.of(0.0, -0.0, 1.0, 0.5, 1e-7, 1e20, -3.0, 1e15, 123456789.125)).injectNull(0.4);
            src = Combinators.combine(src, w).as(SetOpSource::withWeight);
        }
        Arbitrary<Merge> merge = anyMergeAndWeight ? Arbitraries.of(Merge.class) : Arbitraries.just(Merge.APPEND);
        return Combinators.combine(Arbitraries.of(SetOpType.class), merge, src.list().ofMinSize(minSources).ofMaxSize(5))
                .as(SetOp::new);
    }

    @Provide
    Arbitrary<byte[]> bound() {
        return Arbitraries.of(UNIVERSE).injectNull(0.3);
    }

    @Property(seed = "20261121", tries = 600)
    void operatorsMatchNaiveSets(@ForAll("keySets") Map<String, List<SetEntry>> sets, @ForAll("modelExprs") SetOp op,
            @ForAll("bound") byte[] min, @ForAll boolean minInc, @ForAll("bound") byte[] max, @ForAll boolean maxInc,
            @ForAll @IntRange(min = 0, max = 6) int len, @ForAll boolean linear) {
        SourceResolver resolver = name -> {
            List<SetEntry> entries = sets.getOrDefault(new String(name, StandardCharsets.UTF_8), List.of());
            return linear ? ListSource.linear(entries) : ListSource.of(entries);
        };
        TreeMap<byte[], List<byte[]>> model = model(op, sets);

        // unbounded, through next()
        List<SetEntry> all = new ArrayList<>();
        SortedSource root = SetOps.open(op, resolver);
        for (SetEntry e = root.next(); e != null; e = root.next()) {
            all.add(e);
        }
        assertThat(all).isEqualTo(entries(model));

        // bounded, through skip()
        List<SetEntry> expected = new ArrayList<>();
        for (SetEntry e : entries(model)) {
            if (Keys.atLeast(e.key(), min, minInc) && !Keys.beyond(e.key(), max, maxInc)
                    && (len == 0 || expected.size() < len)) {
                expected.add(e);
            }
        }
        SetExpression expr = SetExpression.builder().op(op).min(min, minInc).max(max, maxInc).len(len).build();
        assertThat(SetOps.evaluate(expr, resolver)).isEqualTo(expected);
    }

    @Provide
    Arbitrary<Map<String, List<SetEntry>>> keySets() {
        Arbitrary<Set<byte[]>> one = Arbitraries.of(UNIVERSE).set().ofMaxSize(UNIVERSE.size());
        return one.list().ofSize(NAMES.length).map(list -> {
            Map<String, List<SetEntry>> m = new LinkedHashMap<>();
            for (int i = 0; i < NAMES.length; i++) {
                TreeMap<byte[], byte[]> sorted = new TreeMap<>(Arrays::compareUnsigned);
                for (byte[] k : list.get(i)) {
                    byte[] v = Arrays.copyOf(NAMES[i].getBytes(StandardCharsets.UTF_8), 2 + k.length);
                    System.arraycopy(k, 0, v, 2, k.length);
                    sorted.put(k, v);
                }
                List<SetEntry> entries = new ArrayList<>();
                sorted.forEach((k, v) -> entries.add(SetEntry.of(k, v)));
                m.put(NAMES[i], entries);
            }
            return m;
        });
    }

    static List<SetEntry> entries(TreeMap<byte[], List<byte[]>> m) {
        List<SetEntry> out = new ArrayList<>();
        m.forEach((k, v) -> out.add(new SetEntry(k, v)));
        return out;
    }

    /** Naive evaluation with Append and weight 1: values concatenated in source order. */
    static TreeMap<byte[], List<byte[]>> model(SetOp op, Map<String, List<SetEntry>> sets) {
        List<TreeMap<byte[], List<byte[]>>> children = new ArrayList<>();
        for (SetOpSource s : op.sources()) {
            if (s.op() != null) {
                children.add(model(s.op(), sets));
            } else {
                TreeMap<byte[], List<byte[]>> m = new TreeMap<>(Arrays::compareUnsigned);
                for (SetEntry e : sets.getOrDefault(new String(s.key(), StandardCharsets.UTF_8), List.of())) {
                    m.put(e.key(), e.values());
                }
                children.add(m);
            }
        }
        TreeMap<byte[], List<byte[]>> all = new TreeMap<>(Arrays::compareUnsigned);
        children.forEach(all::putAll);
        TreeMap<byte[], List<byte[]>> out = new TreeMap<>(Arrays::compareUnsigned);
        for (byte[] k : all.keySet()) {
            List<byte[]> values = new ArrayList<>();
            int in = 0;
            for (TreeMap<byte[], List<byte[]>> c : children) {
                if (c.containsKey(k)) {
                    in++;
                    values.addAll(c.get(k));
                }
            }
            boolean keep = switch (op.type()) {
                case UNION -> true;
                case INTERSECTION -> in == children.size();
                case DIFFERENCE -> children.get(0).containsKey(k) && in == 1;
                case XOR -> in == 1;
            };
            if (keep) {
                out.put(k, values);
            }
        }
        return out;
    }

    // ---- parser ---------------------------------------------------------------------------------

    @Provide
    Arbitrary<SetOp> anyExprs() {
        Arbitrary<String> names = Arbitraries.strings().withCharRange('!', '~').withChars("äλ\t€")
                .excludeChars(' ', '(', ')', '*').ofMinLength(1).ofMaxLength(6);
        return exprOver(names, 3);
    }

    static Arbitrary<SetOp> exprOver(Arbitrary<String> names, int depth) {
        Arbitrary<SetOpSource> leaf = names.map(SetOpSource::key);
        Arbitrary<SetOpSource> src = depth == 0 ? leaf
                : Arbitraries.frequencyOf(Tuple.of(3, leaf),
                        Tuple.of(1, Arbitraries.lazy(() -> exprOver(names, depth - 1)).map(SetOpSource::op)));
        Arbitrary<Double> w = Arbitraries.oneOf(Arbitraries.doubles().between(-1e6, 1e6),
                Arbitraries.of(0.0, -0.0, 1.0, 0.5, 1e-7, 1e20, -3.0, 1e15, 4.9e-324, 1.7976931348623157e308))
                .injectNull(0.4);
        src = Combinators.combine(src, w).as(SetOpSource::withWeight);
        return Combinators.combine(Arbitraries.of(SetOpType.class), Arbitraries.of(Merge.class),
                src.list().ofMinSize(1).ofMaxSize(4)).as(SetOp::new);
    }

    @Property(seed = "31337", tries = 1000)
    void toStringRoundTrips(@ForAll("anyExprs") SetOp op) {
        assertThat(SetOpParser.parse(op.toString())).isEqualTo(op);
        assertThat(SetOpParser.parse("   " + op.toString())).isEqualTo(op);
    }

    @Provide
    Arbitrary<String> noise() {
        Arbitrary<String> grammarish = Arbitraries.strings().withChars("UIDXQ:()* ab1.-e+").ofMaxLength(40);
        Arbitrary<String> anything = Arbitraries.strings().all().ofMaxLength(30);
        Arbitrary<String> mutated = Combinators.combine(anyExprs().map(SetOp::toString),
                Arbitraries.integers().between(0, 1000), Arbitraries.integers().between(0, 3),
                Arbitraries.of('(', ')', '*', ' ', ':', 'U', 'x', '1', '.', 'e')).as(SetOpPropertiesTest::mutate);
        Arbitrary<String> merged = Arbitraries.of(Merge.class).map(m -> "(I:" + m.label());
        return Arbitraries.oneOf(grammarish, anything, mutated,
                Combinators.combine(merged, grammarish).as(String::concat));
    }

    /** Deletes, inserts or replaces one character, or truncates. */
    static String mutate(String s, int at, int kind, char c) {
        int i = at % (s.length() + 1);
        return switch (kind) {
            case 0 -> i < s.length() ? s.substring(0, i) + s.substring(i + 1) : s;
            case 1 -> s.substring(0, i) + c + s.substring(i);
            case 2 -> i < s.length() ? s.substring(0, i) + c + s.substring(i + 1) : s;
            default -> s.substring(0, i);
        };
    }

    @Property(seed = "8675309", tries = 3000)
    void randomInputOnlyEverGivesParseErrors(@ForAll("noise") String code) {
        SetOp op;
        try {
            op = SetOpParser.parse(code);
        } catch (SetOpParseException e) {
            assertThat(e.position()).isBetween(0, code.length());
            assertThat(e.reason()).isNotBlank();
            return;
        }
        assertThat(SetOpParser.parse(op.toString())).isEqualTo(op);
    }

    // ---- merges -------------------------------------------------------------------------------

    @Property(seed = "1234", tries = 1000)
    void mergesNeverThrowAnythingButSetOpErrors(@ForAll Merge merge,
            @ForAll("values") List<byte[]> old, @ForAll boolean withOld, @ForAll("values") List<byte[]> values,
            @ForAll("weights") double weight) {
        try {
            List<byte[]> r = merge.apply(withOld ? old : null, values, weight);
            assertThat(r).isNotNull().doesNotContainNull();
        } catch (SetOpException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    @Provide
    Arbitrary<List<byte[]>> values() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(12).list().ofMaxSize(5);
    }

    @Provide
    Arbitrary<Double> weights() {
        return Arbitraries.oneOf(Arbitraries.doubles().between(-10, 10),
                Arbitraries.of(0.0, 0.5, Double.NaN, Double.POSITIVE_INFINITY, -1e300, 1e300, 1e12));
    }
}
