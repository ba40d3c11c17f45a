package io.god.tree;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random sequences of writes (puts, tombstones, sub-tree writes, clears, mirror switches) with
 * colliding timestamps, prefix keys, the empty key and 0x00/0xff bytes, applied to the engine and to
 * {@link TreeModel}; then every read of every view is compared, and the hash is compared with a tree
 * holding the same content built in another order. Seeds are fixed so CI is repeatable.
 */
class TreeModelPropertiesTest {

    private static final int[] ALPHABET = {0x00, 0x01, 0x7f, 0x80, 0xff};
    private static final List<byte[]> UNIVERSE = universe();

    private static List<byte[]> universe() {
        List<byte[]> out = new ArrayList<>();
        out.add(new byte[0]);
        for (int len = 1; len <= 3; len++) {
            int combos = (int) Math.pow(ALPHABET.length, len);
            for (int c = 0; c < combos; c++) {
                byte[] k = new byte[len];
                for (int i = 0, x = c; i < len; i++, x /= ALPHABET.length) {
                    k[i] = (byte) ALPHABET[x % ALPHABET.length];
                }
                out.add(k);
            }
        }
        return out;
    }

    enum Kind { PUT, DELETE, SUB_PUT, SUB_DELETE, SUB_CLEAR, CLEAR, MIRROR_ON, MIRROR_OFF }

    record Op(Kind kind, int key, int subKey, int value, long ts) {
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Kind> kinds = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(10, Arbitraries.just(Kind.PUT)),
                net.jqwik.api.Tuple.of(4, Arbitraries.just(Kind.DELETE)),
                net.jqwik.api.Tuple.of(10, Arbitraries.just(Kind.SUB_PUT)),
                net.jqwik.api.Tuple.of(4, Arbitraries.just(Kind.SUB_DELETE)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(Kind.SUB_CLEAR)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(Kind.CLEAR)),
                net.jqwik.api.Tuple.of(2, Arbitraries.just(Kind.MIRROR_ON)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(Kind.MIRROR_OFF)));
        // few top-level keys so that sub trees fill up; many sub keys to exercise prefixes
        Arbitrary<Integer> keys = Arbitraries.integers().between(0, 12);
        Arbitrary<Integer> subKeys = Arbitraries.integers().between(0, UNIVERSE.size() - 1);
        Arbitrary<Integer> values = Arbitraries.integers().between(0, UNIVERSE.size() - 1);
        Arbitrary<Long> ts = Arbitraries.longs().between(1, 60);
        Arbitrary<Op> op = Combinators.combine(kinds, keys, subKeys, values, ts).as(Op::new);
        return op.list().ofMinSize(1).ofMaxSize(120);
    }

    @Property(tries = 300, seed = "20261121")
    void everyReadMatchesTheModel(@ForAll("ops") List<Op> ops) {
        Tree tree = TreeFixtures.newTree();
        TreeModel model = new TreeModel();
        for (Op op : ops) {
            apply(tree, model, op);
        }
        check(tree.state(), model, new Random(ops.size()));
    }

    private static byte[] top(int i) {
        // top-level keys that are prefixes of one another, including the empty key
        return UNIVERSE.get(i);
    }

    private static void apply(Tree t, TreeModel m, Op op) {
        byte[] k = top(op.key());
        byte[] sk = UNIVERSE.get(op.subKey());
        byte[] v = UNIVERSE.get(op.value());
        long ts = op.ts();
        switch (op.kind()) {
            case PUT -> {
                t.put(k, v, ts);
                m.put(k, v, ts);
            }
            case DELETE -> {
                t.delete(k, ts);
                m.put(k, null, ts);
            }
            case SUB_PUT -> {
                t.subPut(k, sk, v, ts);
                withSub(m, k, ts).write(sk, v, ts);
            }
            case SUB_DELETE -> {
                t.subDelete(k, sk, ts);
                withSub(m, k, ts).write(sk, null, ts);
            }
            case SUB_CLEAR -> {
                t.subClear(k, ts);
                withSub(m, k, ts).clear(ts);
            }
            case CLEAR -> {
                t.clear(ts);
                m.clear(ts);
            }
            case MIRROR_ON, MIRROR_OFF -> {
                String value = op.kind() == Kind.MIRROR_ON ? "yes" : "";
                t.subConfigure(k, TreeState.MIRRORED, value, ts);
                withSub(m, k, ts).configure(TreeState.MIRRORED, value, ts);
            }
        }
    }

    /** The model's sub tree for a write, or a throwaway one when the write predates a clear. */
    private static TreeModel.Sub withSub(TreeModel m, byte[] k, long ts) {
        TreeModel.Sub s = m.sub(k, ts);
        return s != null ? s : new TreeModel.Sub();
    }

    static void check(TreeState state, TreeModel model, Random rnd) {
        for (byte[] k : UNIVERSE.subList(0, 13)) {
            TreeModel.Val v = model.values.get(k);
            Item got = state.get(k);
            assertThat(got.exists()).as("exists %s", ViewChecker.hex(k)).isEqualTo(v != null && v.value() != null);
            assertThat(got.value()).isEqualTo(v == null ? null : v.value());
            assertThat(got.timestamp()).isEqualTo(v == null ? 0 : v.ts());
            TreeModel.Sub sub = model.subs.get(k);
            assertThat(state.entry(k) != null && state.entry(k).sub() != null).as("has sub").isEqualTo(sub != null);
        }
        new ViewChecker(state.values(), TreeModel.live(model.values), "top").checkAll(UNIVERSE, rnd);
        model.subs.forEach((k, sub) -> {
            TreeState s = state.sub(k);
            assertThat(s.clearedAt()).isEqualTo(sub.clearedAt);
            assertThat(s.configuration()).isEqualTo(sub.config);
            for (byte[] sk : UNIVERSE) {
                TreeModel.Val v = sub.entries.get(sk);
                Item got = s.get(sk);
                assertThat(got.exists()).isEqualTo(v != null && v.value() != null);
                assertThat(got.timestamp()).isEqualTo(v == null ? 0 : v.ts());
            }
            new ViewChecker(s.values(), TreeModel.live(sub.entries), "sub " + ViewChecker.hex(k)).checkAll(UNIVERSE, rnd);
            new ViewChecker(s.mirror(), sub.mirror(), "mirror " + ViewChecker.hex(k)).checkAll(UNIVERSE, rnd);
        });
        assertThat(state.size()).as("size").isEqualTo(model.size());
        assertThat(state.realSize()).as("realSize").isEqualTo(model.realSize());
        java.util.NavigableSet<byte[]> keys = model.keys();
        assertThat(state.keysBetween(null, null)).as("keys").isEqualTo(keys.size());
        for (int i = 0; i < 8; i++) {
            byte[] from = UNIVERSE.get(rnd.nextInt(UNIVERSE.size()));
            byte[] to = UNIVERSE.get(rnd.nextInt(UNIVERSE.size()));
            long expected = TreeModel.ORDER.compare(from, to) >= 0 ? 0 : keys.subSet(from, true, to, false).size();
            assertThat(state.keysBetween(from, to)).as("keys in [%s, %s)", ViewChecker.hex(from), ViewChecker.hex(to))
                    .isEqualTo(expected);
            assertThat(state.nextKey(from)).as("key after %s", ViewChecker.hex(from)).isEqualTo(keys.higher(from));
        }
        assertThat(state.nextKey(null)).as("first key").isEqualTo(keys.isEmpty() ? null : keys.first());

        List<byte[]> order = new ArrayList<>(UNIVERSE);
        Collections.shuffle(order, rnd);
        assertThat(TreeModel.rebuild(model, order).state().hash()).as("hash of the same content").isEqualTo(state.hash());
    }
}
