package io.god.bench;

import io.god.setop.Encodings;
import io.god.setop.ListSource;
import io.god.setop.SetEntry;
import io.god.setop.SetOp;
import io.god.setop.SetOpParser;
import io.god.setop.SetOps;
import io.god.setop.SortedSource;
import io.god.setop.SourceResolver;
import io.god.setop.TreeSource;
import io.god.tree.Tree;
import io.god.tree.TreeState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Intersection of a 1 M-entry set with a 1 k-entry set (half of the small set's keys are in the
 * large one): the set operator's skip-ahead (galloping) intersection against the same operator over
 * sources that can only step (a linear merge), and against a plain two-pointer merge over the key
 * arrays; and the same over two sub trees of the engine ({@link TreeSource}: seek vs step).
 * Run: {@code java -jar bench/target/benchmarks.jar SetOp -f 1 -wi 2 -i 3}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SetOpBenchmark {
    static final int LARGE = 1_000_000;
    static final int SMALL = 1_000;

    private List<SetEntry> large;
    private List<SetEntry> small;
    private ListSource largeGallop;
    private ListSource smallGallop;
    private ListSource largeLinear;
    private ListSource smallLinear;
    private byte[][] largeKeys;
    private byte[][] smallKeys;
    private SetOp intersection;
    private TreeState tree;

    @Setup
    public void setup() {
        List<byte[]> shared = List.of(new byte[0]);
        // keys first, so they lie next to each other in memory as a tree's would in a freshly built leaf run
        byte[][] keys = new byte[LARGE][];
        for (int i = 0; i < LARGE; i++) {
            keys[i] = Encodings.encodeInt64(2L * i);
        }
        large = new ArrayList<>(LARGE);
        for (int i = 0; i < LARGE; i++) {
            large.add(new SetEntry(keys[i], shared));
        }
        small = new ArrayList<>(SMALL);
        for (int i = 0; i < SMALL; i++) {
            small.add(new SetEntry(Encodings.encodeInt64(2L * i * (LARGE / SMALL) + (i % 2)), shared));
        }
        largeKeys = large.stream().map(SetEntry::key).toArray(byte[][]::new);
        smallKeys = small.stream().map(SetEntry::key).toArray(byte[][]::new);
        // built (copied and checked) once; each benchmark call opens fresh cursors over the same arrays
        largeGallop = ListSource.of(large);
        smallGallop = ListSource.of(small);
        largeLinear = ListSource.linear(large);
        smallLinear = ListSource.linear(small);
        intersection = SetOpParser.parse("(I small large)");
        long[] now = {1};
        Tree t = new Tree(() -> now[0], Duration.ofHours(24));
        byte[] largeName = "large".getBytes(StandardCharsets.UTF_8);
        byte[] smallName = "small".getBytes(StandardCharsets.UTF_8);
        for (SetEntry e : large) {
            t.subPut(largeName, e.key(), e.key(), ++now[0]);
        }
        for (SetEntry e : small) {
            t.subPut(smallName, e.key(), e.key(), ++now[0]);
        }
        tree = t.state();
        int expected = SMALL / 2;
        int[] counts = {skipAhead(), linearMerge(), twoPointerMerge(), treeSkipAhead(), treeLinearMerge()};
        for (int c : counts) {
            if (c != expected) {
                throw new IllegalStateException("benchmarks disagree: " + Arrays.toString(counts) + ", expected " + expected);
            }
        }
    }

    private int count(SortedSource root) {
        int n = 0;
        for (SetEntry e = root.next(); e != null; e = root.next()) {
            n++;
        }
        return n;
    }

    /** The set operator over galloping sources: ≈ small × log(large / small) key comparisons. */
    @Benchmark
    public int skipAhead() {
        ListSource l = largeGallop.reopen();
        ListSource s = smallGallop.reopen();
        return count(SetOps.open(intersection, name -> name[0] == 's' ? s : l));
    }

    /** The same operator over sources that skip by stepping: reads the whole large set. */
    @Benchmark
    public int linearMerge() {
        ListSource l = largeLinear.reopen();
        ListSource s = smallLinear.reopen();
        return count(SetOps.open(intersection, name -> name[0] == 's' ? s : l));
    }

    /** A hand-written two-pointer merge over the key arrays (the cheapest possible linear merge). */
    @Benchmark
    public int twoPointerMerge() {
        int i = 0;
        int j = 0;
        int n = 0;
        while (i < smallKeys.length && j < largeKeys.length) {
            int c = Arrays.compareUnsigned(smallKeys[i], largeKeys[j]);
            if (c == 0) {
                n++;
                i++;
                j++;
            } else if (c < 0) {
                i++;
            } else {
                j++;
            }
        }
        return n;
    }

    /** The set operator over two sub trees of the engine: each skip is a seek from the root. */
    @Benchmark
    public int treeSkipAhead() {
        return count(SetOps.open(intersection, TreeSource.subTrees(tree)));
    }

    /** The same over the engine's cursor stepping entry by entry (a linear merge of the sub trees). */
    @Benchmark
    public int treeLinearMerge() {
        SourceResolver trees = TreeSource.subTrees(tree);
        return count(SetOps.open(intersection, name -> stepping(trees.open(name))));
    }

    /** A source whose skip only steps forward with next(). */
    static SortedSource stepping(SortedSource inner) {
        return new SortedSource() {
            private SetEntry current;
            private boolean started;

            @Override
            public SetEntry skip(byte[] min, boolean inclusive) {
                if (!started) {
                    started = true;
                    current = inner.next();
                }
                while (current != null && min != null) {
                    int c = Arrays.compareUnsigned(current.key(), min);
                    if (c > 0 || (inclusive && c == 0)) {
                        break;
                    }
                    current = inner.next();
                }
                return current;
            }

            @Override
            public SetEntry next() {
                started = true;
                current = inner.next();
                return current;
            }
        };
    }
}
