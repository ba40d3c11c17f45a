package io.god.setop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Evaluation: the reference §9.10 cases, the fixes of §10/§11, Min/Max/Len and Dest. */
class SetOpsTest {

    /** Named in-memory sources; remembers every cursor it opened. */
    static final class Sources implements SourceResolver {
        final Map<String, List<SetEntry>> sets = new HashMap<>();
        final List<ListSource> opened = new ArrayList<>();

        Sources set(String name, String... keys) {
            sets.put(name, ListSource.entries(Arrays.asList(keys)));
            return this;
        }

        Sources entries(String name, List<SetEntry> entries) {
            sets.put(name, entries);
            return this;
        }

        @Override
        public SortedSource open(byte[] name) {
            ListSource s = ListSource.of(sets.getOrDefault(new String(name, StandardCharsets.UTF_8), List.of()));
            opened.add(s);
            return s;
        }
    }

    /** The reference's test sets: value = key. */
    static Sources reference() {
        return new Sources().set("a", "a", "b", "c").set("b", "a", "c", "d").set("c", "a", "b", "c")
                .set("d", "c").set("e", "c", "d");
    }

    static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    /** Results as "key:[v,v]" strings. */
    static List<String> run(SetExpression e, SourceResolver r) {
        return SetOps.evaluate(e, r).stream()
                .map(x -> utf8(x.key()) + ":" + x.values().stream().map(SetOpsTest::utf8).collect(Collectors.toList()))
                .collect(Collectors.toList());
    }

    static List<String> run(String code, SourceResolver r) {
        return run(SetExpression.builder().code(code).build(), r);
    }

    @Test
    void referenceCases() {
        assertThat(run("(U a b)", reference())).containsExactly("a:[a, a]", "b:[b]", "c:[c, c]", "d:[d]");
        assertThat(run("(I a b)", reference())).containsExactly("a:[a, a]", "c:[c, c]");
        assertThat(run("(I c d e)", reference())).containsExactly("c:[c, c, c]");
        assertThat(run("(D a b)", reference())).containsExactly("b:[b]");
        assertThat(run("(X a b)", reference())).containsExactly("b:[b]", "d:[d]");
        assertThat(run("(I:ConCat a*2 b)", reference())).containsExactly("a:[aaa]", "c:[ccc]");
        assertThat(run("(U:First a b)", reference())).containsExactly("a:[a]", "b:[b]", "c:[c]", "d:[d]");
        assertThat(run("(U:Last a b)", reference())).containsExactly("a:[a]", "b:[b]", "c:[c]", "d:[d]");
        // the JSON example: the same source twice gives two cursors
        assertThat(run("(U a a)", reference())).containsExactly("a:[a, a]", "b:[b, b]", "c:[c, c]");
        // a missing source is empty
        assertThat(run("(U a nope)", reference())).containsExactly("a:[a]", "b:[b]", "c:[c]");
        assertThat(run("(I a nope)", reference())).isEmpty();
    }

    @Test
    void differenceKeepsAllSources() {
        Sources s = new Sources().set("p", "1", "2").set("q", "1").set("r", "2");
        assertThat(run("(D p q r)", s)).isEmpty();
        s.set("p", "1", "2", "3", "4").set("q", "1", "4").set("r", "2");
        assertThat(run("(D p q r)", s)).containsExactly("3:[3]");
        assertThat(run("(D p*2 q r)", s)).containsExactly("3:[3, 3]");
    }

    @Test
    void xorIsExactlyOneNotParity() {
        Sources s = new Sources().set("p", "1", "2", "3").set("q", "1", "2").set("r", "1", "4");
        // 1 is in three sources (odd) but not in exactly one
        assertThat(run("(X p q r)", s)).containsExactly("3:[3]", "4:[4]");
    }

    @Test
    void nestedExpressions() {
        Sources s = reference();
        assertThat(run("(U (I a b) (D c d))", s)).containsExactly("a:[a, a, a]", "b:[b]", "c:[c, c]");
        assertThat(run("(I (U a b) e)", s)).containsExactly("c:[c, c, c]", "d:[d, d]");
        assertThat(run("(D (U a b e) (X a b))", s)).containsExactly("a:[a, a]", "c:[c, c, c]");
    }

    @Test
    void minMaxLen() {
        byte[] b = {'b'};
        byte[] c = {'c'};
        SetOp u = SetOpParser.parse("(U a b)");
        assertThat(run(SetExpression.builder().op(u).min(b, true).build(), reference())).extracting(x -> x.charAt(0))
                .containsExactly('b', 'c', 'd');
        assertThat(run(SetExpression.builder().op(u).min(b, false).build(), reference())).extracting(x -> x.charAt(0))
                .containsExactly('c', 'd');
        assertThat(run(SetExpression.builder().op(u).max(c, true).build(), reference())).extracting(x -> x.charAt(0))
                .containsExactly('a', 'b', 'c');
        assertThat(run(SetExpression.builder().op(u).max(c, false).build(), reference())).extracting(x -> x.charAt(0))
                .containsExactly('a', 'b');
        assertThat(run(SetExpression.builder().op(u).min(b, false).max(c, true).build(), reference()))
                .extracting(x -> x.charAt(0)).containsExactly('c');
        assertThat(run(SetExpression.builder().op(u).len(2).build(), reference())).extracting(x -> x.charAt(0))
                .containsExactly('a', 'b');
        assertThat(run(SetExpression.builder().op(u).len(0).build(), reference())).hasSize(4);
        assertThat(run(SetExpression.builder().op(u).min(c, false).max(b, true).build(), reference())).isEmpty();
    }

    @Test
    void lenStopsEarly() {
        List<SetEntry> big = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            big.add(SetEntry.of(Encodings.encodeInt64(i), new byte[0]));
        }
        Sources s = new Sources().entries("big", big);
        SetExpression e = SetExpression.builder().code("(U big)").len(3).build();
        assertThat(SetOps.evaluate(e, s)).hasSize(3);
        assertThat(s.opened.get(0).visited()).isLessThan(10);
    }

    @Test
    void storeWritesFirstValuesToTheSink() {
        Map<String, String> dest = new LinkedHashMap<>();
        SetOpSink sink = (k, v) -> dest.put(utf8(k), utf8(v));
        SetExpression e = SetExpression.builder().code("(U:ConCat a b)").dest(new byte[] {'z'}).build();
        assertThat(SetOps.store(e, reference(), sink)).isEqualTo(4);
        assertThat(dest).containsExactly(Map.entry("a", "aa"), Map.entry("b", "b"), Map.entry("c", "cc"),
                Map.entry("d", "d"));
        // Len and Max apply to stored results too
        dest.clear();
        SetExpression limited = SetExpression.builder().code("(U:First a b)").len(2).build();
        assertThat(SetOps.store(limited, reference(), sink)).isEqualTo(2);
        assertThat(dest).containsOnlyKeys("a", "b");
    }

    @Test
    void storeRefusesAppendBeforeReadingAnything() {
        SourceResolver failing = name -> {
            throw new AssertionError("no source may be opened");
        };
        SetExpression e = SetExpression.builder().code("(U a)").dest(new byte[] {'d'}).build();
        assertThatThrownBy(() -> SetOps.store(e, failing, (k, v) -> {}))
                .isInstanceOf(SetOpException.class).hasMessage(SetOps.APPEND_WITH_DEST);
        // only the top-level merge matters (as in the reference)
        SetExpression nested = SetExpression.builder().code("(U:Last (U a b))").build();
        Map<String, String> dest = new HashMap<>();
        SetOps.store(nested, reference(), (k, v) -> dest.put(utf8(k), utf8(v)));
        assertThat(dest).containsEntry("a", "a").hasSize(4);
    }

    @Test
    void divisionByZeroDuringEvaluationIsAnError() {
        Sources s = new Sources()
                .entries("x", List.of(SetEntry.of(new byte[] {1}, Encodings.encodeInt64(10))))
                .entries("y", List.of(SetEntry.of(new byte[] {1}, Encodings.encodeInt64(0))));
        assertThatThrownBy(() -> run("(I:IntegerDiv x y)", s)).isInstanceOf(SetOpArithmeticException.class);
        assertThatThrownBy(() -> run("(I:BigIntDiv x y)", s)).isInstanceOf(SetOpArithmeticException.class);
        assertThat(SetOps.evaluate(SetExpression.builder().code("(I:IntegerDiv x x*2)").build(), s))
                .extracting(r -> Encodings.decodeInt64(r.values().get(0))).containsExactly(0L);
        assertThat(SetOps.evaluate(SetExpression.builder().code("(I:IntegerSum x y*3 x)").build(), s))
                .extracting(r -> Encodings.decodeInt64(r.values().get(0))).containsExactly(20L);
    }

    @Test
    void unsignedKeyOrder() {
        Sources s = new Sources()
                .entries("p", List.of(SetEntry.of(new byte[] {0x01}, new byte[] {1}),
                        SetEntry.of(new byte[] {(byte) 0x80}, new byte[] {2}), SetEntry.of(new byte[] {(byte) 0xff}, new byte[] {3})))
                .entries("q", List.of(SetEntry.of(new byte[] {0x7f}, new byte[] {4}),
                        SetEntry.of(new byte[] {(byte) 0xff}, new byte[] {5})));
        assertThat(SetOps.evaluate(SetExpression.builder().code("(U p q)").build(), s))
                .extracting(r -> r.key()[0] & 0xff).containsExactly(0x01, 0x7f, 0x80, 0xff);
        assertThat(SetOps.evaluate(SetExpression.builder().code("(I p q)").build(), s))
                .extracting(r -> r.key()[0] & 0xff).containsExactly(0xff);
    }

    @Test
    void operatorsAreSkippersThemselves() {
        SortedSource u = SetOps.open(SetOpParser.parse("(U a b)"), reference());
        assertThat(utf8(u.next().key())).isEqualTo("a");
        assertThat(utf8(u.skip(new byte[] {'a'}, true).key())).isEqualTo("a"); // bound still satisfied
        assertThat(utf8(u.skip(new byte[] {'b'}, false).key())).isEqualTo("c");
        assertThat(utf8(u.skip(new byte[] {'a'}, true).key())).isEqualTo("c"); // never moves back
        assertThat(utf8(u.next().key())).isEqualTo("d");
        assertThat(u.next()).isNull();
        assertThat(u.skip(null, true)).isNull();
    }

    /**
     * Skip-ahead: intersecting a 1 k-entry set with a 1 M-entry set visits about
     * small × log2(large / small) entries of the large set, not 1 M.
     */
    @Test
    void intersectionSkipsAhead() {
        int large = 1_000_000;
        int small = 1_000;
        List<byte[]> shared = List.of(new byte[0]);
        List<SetEntry> big = new ArrayList<>(large);
        for (int i = 0; i < large; i++) {
            big.add(new SetEntry(Encodings.encodeInt64(2L * i), shared)); // even numbers
        }
        List<SetEntry> few = new ArrayList<>(small);
        for (int i = 0; i < small; i++) {
            few.add(new SetEntry(Encodings.encodeInt64(2L * i * (large / small) + (i % 2)), shared)); // half odd
        }
        Sources s = new Sources().entries("large", big).entries("small", few);
        List<SetEntry> result = SetOps.evaluate(SetExpression.builder().code("(I small large)").build(), s);
        assertThat(result).hasSize(small / 2);
        long visitedLarge = s.opened.get(1).visited();
        long visitedSmall = s.opened.get(0).visited();
        double log2 = Math.log((double) large / small) / Math.log(2);
        // galloping costs about 2·log2(distance) comparisons per skip
        assertThat(visitedLarge).isLessThan((long) (small * 2 * (log2 + 2)));
        assertThat(visitedLarge).isLessThan(large / 20);
        assertThat(visitedSmall).isLessThan(4 * small);
        System.out.printf("intersection 1k x 1M: large visited %d, small visited %d, large seeks %d%n",
                visitedLarge, visitedSmall, s.opened.get(1).seeks());

        // the linear merge reads (almost) the whole large set
        ListSource linear = ListSource.linear(big);
        ListSource smallLinear = ListSource.linear(few);
        List<SetEntry> linearResult = SetOps.evaluate(SetExpression.builder().code("(I a b)").build(),
                name -> name[0] == 'a' ? smallLinear : linear);
        assertThat(linearResult).isEqualTo(result);
        assertThat(linear.visited()).isGreaterThan(large * 9L / 10);
    }
}
