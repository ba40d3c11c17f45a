package io.god.tree;

import static io.god.tree.TreeFixtures.b;
import static io.god.tree.TreeFixtures.keys;
import static io.god.tree.TreeFixtures.s;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The reference's radix acceptance cases (§9.6) that concern one tree, against our API. */
class ReferenceRadixTest {

    private static Tree treeWith(int from, int to) {
        Tree t = TreeFixtures.newTree();
        for (int i = from; i <= to; i++) {
            t.put(b(String.valueOf(i)), b(String.valueOf(i)), 1);
        }
        return t;
    }

    private static List<String> range(int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            out.add(String.valueOf(i));
        }
        return out;
    }

    @Test
    void sizeBetween() {
        Tree t = treeWith(11, 19);
        SortedView v = t.state().values();
        for (int i = 10; i <= 20; i++) {
            for (int j = i; j <= 20; j++) {
                for (boolean minInc : new boolean[] {true, false}) {
                    for (boolean maxInc : new boolean[] {true, false}) {
                        long expected = Math.max(0, Math.min(j + (maxInc ? 1 : 0), 20) - Math.max(11, i + (minInc ? 0 : 1)));
                        assertThat(v.count(b(String.valueOf(i)), minInc, b(String.valueOf(j)), maxInc))
                                .as("count(%d %s, %d %s)", i, minInc, j, maxInc).isEqualTo(expected);
                    }
                }
            }
        }
        for (int i = 0; i < 10; i++) {
            t.subPut(b(50), b(String.valueOf(i)), b("x"), 1);
        }
        assertThat(t.state().sizeBetween(b(50), b(51))).isEqualTo(10);
        assertThat(t.state().sub(b(50)).values().size()).isEqualTo(10);
    }

    @Test
    void subTree() {
        Tree t = TreeFixtures.newTree();
        t.put(b("a"), b("a"), 1);
        assertThat(t.state().size()).isEqualTo(1);
        t.subPut(b("b"), b("c"), b("d"), 1);
        assertThat(t.state().size()).isEqualTo(2);
        t.subPut(b("b"), b("d"), b("e"), 2);
        assertThat(t.state().size()).isEqualTo(3);
        Item got = t.state().sub(b("b")).get(b("d"));
        assertThat(s(got.value())).isEqualTo("e");
        assertThat(got.timestamp()).isEqualTo(2);
        assertThat(got.exists()).isTrue();
    }

    @Test
    void hashIsIndependentOfInsertionOrderAndDeletes() {
        Random rnd = new Random(42);
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            byte[] k = new byte[1 + rnd.nextInt(4)];
            rnd.nextBytes(k);
            keys.add(k);
        }
        Tree t1 = TreeFixtures.newTree();
        Tree t2 = TreeFixtures.newTree();
        for (byte[] k : keys) {
            t1.put(k, k, 1);
        }
        List<byte[]> shuffled = new ArrayList<>(keys);
        Collections.shuffle(shuffled, rnd);
        for (byte[] k : shuffled) {
            t2.put(k, k, 7);
        }
        assertThat(t1.state().hash()).isEqualTo(t2.state().hash());
        for (int i = 0; i < 4; i++) {
            byte[] k = keys.get(rnd.nextInt(keys.size()));
            t1.delete(k, 10 + i);
            t2.delete(k, 20 + i);
            assertThat(t1.state().hash()).isEqualTo(t2.state().hash());
        }
    }

    @Test
    void prefixInsertionOrderDoesNotChangeTheHash() {
        // The original's bug (§3.3): "10","11","1" vs "1","10","11" hashed differently.
        Tree a = TreeFixtures.newTree();
        Tree c = TreeFixtures.newTree();
        for (String k : List.of("10", "11", "1")) {
            a.put(b(k), b("v"), 1);
        }
        for (String k : List.of("1", "10", "11")) {
            c.put(b(k), b("v"), 1);
        }
        assertThat(a.state().hash()).isEqualTo(c.state().hash());
    }

    @Test
    void eachAndReverseEach() {
        SortedView v = treeWith(100, 199).state().values();
        assertThat(keys(v.slice(null, true, null, true, -1, false))).isEqualTo(range(100, 199));
        List<String> desc = range(100, 199);
        Collections.reverse(desc);
        assertThat(keys(v.slice(null, true, null, true, -1, true))).isEqualTo(desc);
        assertThat(keys(v.slice(null, true, null, true, 10, false))).isEqualTo(range(100, 109));
        assertThat(keys(v.slice(null, true, null, true, 10, true))).isEqualTo(desc.subList(0, 10));
    }

    @Test
    void eachBetweenAndReverseEachBetween() {
        SortedView v = treeWith(11, 19).state().values();
        for (int i = 10; i <= 20; i++) {
            for (int j = i; j <= 20; j++) {
                for (boolean minInc : new boolean[] {true, false}) {
                    for (boolean maxInc : new boolean[] {true, false}) {
                        List<String> expected = new ArrayList<>();
                        for (int k = 11; k <= 19; k++) {
                            if ((minInc ? k >= i : k > i) && (maxInc ? k <= j : k < j)) {
                                expected.add(String.valueOf(k));
                            }
                        }
                        assertThat(keys(v.slice(b(String.valueOf(i)), minInc, b(String.valueOf(j)), maxInc, -1, false)))
                                .isEqualTo(expected);
                        Collections.reverse(expected);
                        assertThat(keys(v.slice(b(String.valueOf(i)), minInc, b(String.valueOf(j)), maxInc, -1, true)))
                                .isEqualTo(expected);
                    }
                }
            }
        }
    }

    @Test
    void indexOfAndReverseIndexOf() {
        Tree t = TreeFixtures.newTree();
        for (int i = 100; i < 200; i += 2) {
            t.put(b(String.valueOf(i)), b("v"), 1);
        }
        SortedView v = t.state().values();
        for (int i = 100; i < 200; i++) {
            assertThat(v.indexOf(b(String.valueOf(i)))).isEqualTo(new Index((i - 99) / 2, i % 2 == 0));
            assertThat(v.reverseIndexOf(b(String.valueOf(i)))).isEqualTo(new Index(49 - (i - 100) / 2, i % 2 == 0));
        }
        assertThat(v.indexOf(b("1991"))).isEqualTo(new Index(50, false));
        assertThat(v.indexOf(b("099"))).isEqualTo(new Index(0, false));
        assertThat(v.reverseIndexOf(b("1991"))).isEqualTo(new Index(0, false));
        assertThat(v.reverseIndexOf(b("099"))).isEqualTo(new Index(50, false));
    }

    @Test
    void eachBetweenIndexBothWays() {
        SortedView v = treeWith(11, 19).state().values();
        for (int i = -1; i <= 9; i++) {
            for (int j = i; j <= 9; j++) {
                List<String> fwd = range(Math.max(11, i + 11), Math.min(j + 12, 20) - 1);
                assertThat(keys(v.sliceIndex(i, j, false))).as("[%d,%d]", i, j).isEqualTo(fwd);
                List<String> rev = new ArrayList<>();
                for (int k = Math.min(20, 20 - i) - 1; k >= Math.max(11, 19 - j); k--) {
                    rev.add(String.valueOf(k));
                }
                assertThat(keys(v.sliceIndex(i, j, true))).as("reverse [%d,%d]", i, j).isEqualTo(rev);
            }
        }
    }

    @Test
    void emptyKeyIsAKey() {
        Tree t = TreeFixtures.newTree();
        Hash128 empty = t.state().hash();
        assertThat(t.state().get(new byte[0]).exists()).isFalse();
        assertThat(t.put(new byte[0], new byte[0], 1)).isTrue();
        assertThat(t.state().get(new byte[0]).exists()).isTrue();
        assertThat(t.state().values().first().key()).isEmpty();
        t.delete(new byte[0], 2);
        assertThat(t.state().get(new byte[0]).exists()).isFalse();
        assertThat(t.state().get(new byte[0]).timestamp()).isEqualTo(2);
        assertThat(t.state().hash()).isNotEqualTo(empty); // a tombstone is content until collected
    }

    @Test
    void firstLastIndexNextPrev() {
        SortedView v = treeWith(10, 19).state().values();
        assertThat(v.first()).isEqualTo(new Item(b("10"), b("10"), 1, true, 0));
        assertThat(v.last()).isEqualTo(new Item(b("19"), b("19"), 1, true, 9));
        SortedView w = treeWith(100, 199).state().values();
        IntStream.range(0, 100).forEach(i -> assertThat(s(w.at(i).key())).isEqualTo(String.valueOf(100 + i)));
        for (int i = 101; i <= 199; i++) {
            assertThat(s(w.floor(b(String.valueOf(i)), false).key())).isEqualTo(String.valueOf(i - 1));
        }
        assertThat(w.floor(b("100"), false)).isNull();
        for (int i = 100; i < 199; i++) {
            assertThat(s(w.ceiling(b(String.valueOf(i)), false).key())).isEqualTo(String.valueOf(i + 1));
        }
        assertThat(w.ceiling(b("199"), false)).isNull();
    }

    /**
     * Point reads compare only the entry they end at (Trie.get skips the branches' prefixes): absent keys that
     * diverge inside a prefix, end at a branch point, stop short of one or run past a leaf are all misses.
     */
    @Test
    void absentKeysThatShareTheNibblesOfPresentOnesAreMisses() {
        Tree t = TreeFixtures.newTree();
        List<String> present = List.of("key:000001", "key:000002", "key:000010", "key:0000", "kez", "x");
        long ts = 1;
        for (String k : present) {
            t.put(b(k), b(k), ts++);
        }
        for (String k : present) {
            assertThat(s(t.state().get(b(k)).value())).isEqualTo(k);
        }
        for (String k : List.of("key:000003", "kay:000001", "key:100001", "key:00000", "key:000", "key:0000010",
                "key:0000100", "ke", "k", "xy", "", "key:00000\u0001", "jey:000001")) {
            assertThat(t.state().get(b(k)).exists()).as(k).isFalse();
        }
    }

    @Test
    void basicOps() {
        Tree t = TreeFixtures.newTree();
        long ts = 1;
        for (String k : List.of("apple", "crab", "crabapple", "banana", "guava", "guanabana")) {
            assertThat(t.state().get(b(k)).exists()).isFalse();
            t.put(b(k), b(k), ts++);
        }
        assertThat(t.state().size()).isEqualTo(6);
        t.put(b("crab"), b("crab2"), ts++);
        assertThat(s(t.state().get(b("crab")).value())).isEqualTo("crab2");
        t.put(new byte[0], b("nil"), ts++);
        t.put(b("nil"), new byte[0], ts++);
        assertThat(t.state().size()).isEqualTo(8);
        assertThat(s(t.state().get(new byte[0]).value())).isEqualTo("nil");
        assertThat(t.state().get(b("nil")).exists()).isTrue();
        assertThat(t.state().get(b("gua")).exists()).isFalse(); // only a branch point
        for (String k : List.of("apple", "crab", "crabapple", "banana", "guava", "guanabana")) {
            assertThat(t.delete(b(k), ts++)).isTrue();
            assertThat(t.state().get(b(k)).exists()).isFalse();
        }
        assertThat(t.state().size()).isEqualTo(2);
    }

    @Test
    void ordinalsAreRightWithPrefixKeys() {
        // §3.4's bug: keys "1","12","2" — ordinal range [1,1] must give "12", ReverseIndexOf must count.
        Tree t = TreeFixtures.newTree();
        for (String k : List.of("1", "12", "2")) {
            t.put(b(k), b(k), 1);
        }
        SortedView v = t.state().values();
        assertThat(keys(v.sliceIndex(1, 1, false))).containsExactly("12");
        assertThat(s(v.at(1).key())).isEqualTo("12");
        assertThat(v.reverseIndexOf(b("1"))).isEqualTo(new Index(2, true));
        assertThat(v.reverseIndexOf(b("12"))).isEqualTo(new Index(1, true));
        assertThat(v.reverseIndexOf(b("13"))).isEqualTo(new Index(1, false));
        assertThat(v.indexOf(b("12"))).isEqualTo(new Index(1, true));
    }
}
