package io.god.persist;

import static io.god.persist.TreeAssert.assertSameTree;

import io.god.tree.Tree;
import io.god.tree.TreeState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Random write sequences (values, tombstones, sub-tree writes and clears, tree clears, configuration
 * and mirrors, colliding timestamps, prefix keys) applied both to a plain {@link Tree} and through a
 * {@link DurableTree} with tiny automatic-snapshot thresholds, explicit snapshots and reopens in
 * between; at the end the recovered tree must equal the plain one: Merkle root, every entry with its
 * timestamp, tombstones, clear markers, configuration, value and mirror views. Fixed seed.
 */
class ReplayPropertyTest {

    enum Kind { PUT, DELETE, SUB_PUT, SUB_DELETE, SUB_CLEAR, CLEAR, SUB_MIRROR, SUB_CONF, TOP_MIRROR, TOP_SET_CONF, SNAPSHOT, REOPEN }

    record Op(Kind kind, int key, int subKey, int value, long ts) {
    }

    private static final byte[][] KEYS = {{}, {0}, {0, 0}, {0, 1}, {1}, {(byte) 0xff}, {(byte) 0xff, 0}, {0x7f}};

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Kind> kinds = Arbitraries.frequencyOf(
                Tuple.of(10, Arbitraries.just(Kind.PUT)),
                Tuple.of(5, Arbitraries.just(Kind.DELETE)),
                Tuple.of(8, Arbitraries.just(Kind.SUB_PUT)),
                Tuple.of(4, Arbitraries.just(Kind.SUB_DELETE)),
                Tuple.of(2, Arbitraries.just(Kind.SUB_CLEAR)),
                Tuple.of(1, Arbitraries.just(Kind.CLEAR)),
                Tuple.of(2, Arbitraries.just(Kind.SUB_MIRROR)),
                Tuple.of(1, Arbitraries.just(Kind.SUB_CONF)),
                Tuple.of(1, Arbitraries.just(Kind.TOP_MIRROR)),
                Tuple.of(1, Arbitraries.just(Kind.TOP_SET_CONF)),
                Tuple.of(1, Arbitraries.just(Kind.SNAPSHOT)),
                Tuple.of(1, Arbitraries.just(Kind.REOPEN)));
        Arbitrary<Integer> keys = Arbitraries.integers().between(0, KEYS.length - 1);
        Arbitrary<Long> ts = Arbitraries.longs().between(1, 80);
        return Combinators.combine(kinds, keys, keys, keys, ts).as(Op::new).list().ofMinSize(1).ofMaxSize(80);
    }

    @Property(tries = 150, seed = "4242")
    void recoveredTreeEqualsTheLiveOne(@ForAll("ops") List<Op> ops,
                                       @ForAll("thresholds") long threshold,
                                       @ForAll("retained") int retained) throws IOException {
        Path dir = Files.createTempDirectory("god-replay");
        try {
            PersistenceOptions o = new PersistenceOptions(FsyncPolicy.NO, threshold, retained);
            Tree plain = PersistenceTest.newTree();
            DurableTree d = DurableTree.open(dir, PersistenceTest.newTree(), o);
            try {
                for (Op op : ops) {
                    if (op.kind() == Kind.REOPEN) {
                        d.close();
                        d = DurableTree.open(dir, PersistenceTest.newTree(), o);
                        assertSameTree(d.state(), plain.state());
                    } else if (op.kind() == Kind.SNAPSHOT) {
                        d.snapshot();
                    } else {
                        apply(op, plain, d);
                    }
                }
                assertSameTree(d.state(), plain.state());
            } finally {
                d.close();
            }
            try (DurableTree r = DurableTree.open(dir, PersistenceTest.newTree(), o)) {
                assertSameTree(r.state(), plain.state());
            }
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Provide
    Arbitrary<Long> thresholds() {
        return Arbitraries.of(0L, 200L, 1000L);
    }

    @Provide
    Arbitrary<Integer> retained() {
        return Arbitraries.of(1, 2);
    }

    private static void apply(Op op, Tree t, DurableTree d) {
        byte[] k = KEYS[op.key()];
        byte[] sk = KEYS[op.subKey()];
        byte[] v = KEYS[op.value()];
        long ts = op.ts();
        boolean a;
        boolean b;
        switch (op.kind()) {
            case PUT -> {
                a = t.put(k, v, ts);
                b = d.put(k, v, ts);
            }
            case DELETE -> {
                a = t.delete(k, ts);
                b = d.delete(k, ts);
            }
            case SUB_PUT -> {
                a = t.subPut(k, sk, v, ts);
                b = d.subPut(k, sk, v, ts);
            }
            case SUB_DELETE -> {
                a = t.subDelete(k, sk, ts);
                b = d.subDelete(k, sk, ts);
            }
            case SUB_CLEAR -> {
                a = t.subClear(k, ts);
                b = d.subClear(k, ts);
            }
            case CLEAR -> {
                a = t.clear(ts);
                b = d.clear(ts);
            }
            case SUB_MIRROR -> {
                String on = op.value() % 2 == 0 ? "yes" : "";
                a = t.subConfigure(k, TreeState.MIRRORED, on, ts);
                b = d.subConfigure(k, TreeState.MIRRORED, on, ts);
            }
            case SUB_CONF -> {
                Map<String, String> conf = op.value() % 3 == 0 ? Map.of() : Map.of("n", "" + op.value());
                a = t.subSetConfiguration(k, conf, ts);
                b = d.subSetConfiguration(k, conf, ts);
            }
            case TOP_MIRROR -> {
                String on = op.value() % 2 == 0 ? "yes" : "";
                a = t.configure(TreeState.MIRRORED, on, ts);
                b = d.configure(TreeState.MIRRORED, on, ts);
            }
            case TOP_SET_CONF -> {
                Map<String, String> conf = op.value() % 2 == 0 ? Map.of("x", "1", TreeState.MIRRORED, "yes") : Map.of("y", "2");
                a = t.setConfiguration(conf, ts);
                b = d.setConfiguration(conf, ts);
            }
            default -> throw new IllegalStateException();
        }
        if (a != b) {
            throw new AssertionError("plain and durable trees disagree on whether " + op + " changed anything");
        }
    }
}
