package io.god.tree;

import static io.god.tree.TreeFixtures.b;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MirrorKeysTest {

    private static final List<byte[]> SAMPLES = List.of(b(), b(0), b(0, 0), b(0, 5), b(1), b(5), b(5, 0),
            b(0xff), b(0xff, 0), b("a"), b('a', 0), b('a', 0, 'b', 0), b('b', 0, 'c'), b('c'));

    @Test
    void encodingIsCollisionFreeAndOrderedByValueThenKey() {
        List<byte[][]> pairs = new ArrayList<>();
        for (byte[] v : SAMPLES) {
            for (byte[] k : SAMPLES) {
                pairs.add(new byte[][] {v, k});
            }
        }
        Set<String> seen = new HashSet<>();
        for (byte[][] p : pairs) {
            byte[] enc = MirrorKeys.encode(p[0], p[1]);
            assertThat(seen.add(Bytes.hex(enc))).as("collision for %s", Arrays.toString(p)).isTrue();
            assertThat(MirrorKeys.value(enc)).isEqualTo(p[0]);
        }
        for (byte[][] p : pairs) {
            for (byte[][] q : pairs) {
                int byValue = Arrays.compareUnsigned(p[0], q[0]);
                int expected = byValue != 0 ? byValue : Arrays.compareUnsigned(p[1], q[1]);
                int actual = Arrays.compareUnsigned(MirrorKeys.encode(p[0], p[1]), MirrorKeys.encode(q[0], q[1]));
                assertThat(Integer.signum(actual)).isEqualTo(Integer.signum(expected));
            }
        }
    }

    @Test
    void mirrorReadsOfTheReferenceExampleWork() {
        // the reference's collision example: value "a", key "b\0c" and value "a\0b\0", key "c"
        Tree t = TreeFixtures.newTree();
        t.subConfigure(b("s"), TreeState.MIRRORED, "yes", 1);
        t.subPut(b("s"), b('b', 0, 'c'), b("a"), 2);
        t.subPut(b("s"), b("c"), b('a', 0, 'b', 0), 2);
        SortedView m = t.state().sub(b("s")).mirror();
        assertThat(m.size()).isEqualTo(2);
        assertThat(m.first().key()).isEqualTo(b("a"));
        assertThat(m.last().value()).isEqualTo(b("c"));
        // not-found mirror lookups are not-found, never a crash (§10 item 14)
        assertThat(m.ceiling(b("z"), true)).isNull();
        assertThat(TreeState.EMPTY.mirror().first()).isNull();
        // inclusive upper bounds compare stripped values (§3.5's incrementBytes bug)
        assertThat(m.count(null, true, b("a"), true)).isEqualTo(1);
        assertThat(m.count(null, true, b(0xff), true)).isEqualTo(2);
        t.subConfigure(b("s"), TreeState.MIRRORED, "no", 3);
        assertThat(t.state().sub(b("s")).mirror().size()).isZero();
    }
}
