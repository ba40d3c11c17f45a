package io.god.tree;

import static io.god.tree.TreeFixtures.b;
import static org.assertj.core.api.Assertions.assertThat;

import io.god.client.KeyHash;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MerkleDiffTest {

    /** Every key of a and b whose entry differs, found the slow way. */
    private static List<String> slowDiff(TreeState a, TreeState b, List<byte[]> universe) {
        List<String> out = new ArrayList<>();
        for (byte[] k : universe) {
            Entry ea = a.entry(k);
            Entry eb = b.entry(k);
            if (ea == null ? eb != null : eb == null || !ea.entryHash().equals(eb.entryHash())) {
                out.add(Bytes.hex(k));
            }
        }
        return out;
    }

    /** Keys stored on either side that lie in a reported region: each of them must really differ. */
    private static List<String> covered(MerkleDiff d, TreeState a, TreeState b, List<byte[]> universe) {
        List<String> out = new ArrayList<>();
        for (byte[] k : universe) {
            boolean stored = a.entry(k) != null || b.entry(k) != null;
            if (stored && d.differences().stream().anyMatch(x -> x.contains(k))) {
                out.add(Bytes.hex(k));
            }
        }
        return out;
    }

    @Test
    void findsTheOneDifferingKeyOfTwoMillionKeyTreesInLogarithmicSteps() {
        int n = 1_000_000;
        Tree a = TreeFixtures.newTree();
        Tree c = TreeFixtures.newTree();
        // same content, built independently in opposite orders and with other timestamps
        for (int i = 0; i < n; i++) {
            a.put(KeyHash.murmur(i), b("v"), 1);
        }
        for (int i = n - 1; i >= 0; i--) {
            c.put(KeyHash.murmur(i), b("v"), 2);
        }
        assertThat(a.state().hash()).isEqualTo(c.state().hash());
        byte[] changed = KeyHash.murmur(123_456L);
        c.put(changed, b("other"), 3);

        MerkleDiff d = MerkleDiff.compare(a.state(), c.state(), 10);

        assertThat(d.differences()).hasSize(1);
        assertThat(d.differences().get(0).contains(changed)).isTrue();
        assertThat(d.differences().get(0).exact()).isTrue();
        // a 16-way trie over 1 M hashed keys is ~5 levels deep: two fingerprints per level
        assertThat(d.fingerprintsAsked()).isLessThanOrEqualTo(2 * 8);
        assertThat(MerkleDiff.compare(a.state(), a.state(), 10).fingerprintsAsked()).isEqualTo(2);
    }

    @Test
    void coversExactlyTheDifferingKeysWhatEverTheShapes() {
        Random rnd = new Random(7);
        int[] alphabet = {0x00, 0x10, 0x11, 0xff};
        List<byte[]> universe = new ArrayList<>();
        for (int len = 0; len <= 4; len++) {
            for (int c = 0; c < Math.pow(alphabet.length, len); c++) {
                byte[] k = new byte[len];
                for (int i = 0, x = c; i < len; i++, x /= alphabet.length) {
                    k[i] = (byte) alphabet[x % alphabet.length];
                }
                universe.add(k);
            }
        }
        for (int round = 0; round < 200; round++) {
            Tree a = TreeFixtures.newTree();
            Tree c = TreeFixtures.newTree();
            for (byte[] k : universe) {
                int r = rnd.nextInt(10);
                if (r < 3) {
                    a.put(k, b("x"), 1);
                    c.put(k, b("x"), 1);
                } else if (r == 3) {
                    a.put(k, b("x"), 1);
                } else if (r == 4 && rnd.nextInt(4) == 0) {
                    c.delete(k, 1);
                } else if (r == 5 && rnd.nextInt(4) == 0) {
                    a.subPut(k, b("s"), b("1"), 1);
                    c.subPut(k, b("s"), b("2"), 1);
                }
            }
            MerkleDiff d = MerkleDiff.compare(a.state(), c.state(), Integer.MAX_VALUE);
            List<String> expected = slowDiff(a.state(), c.state(), universe);
            assertThat(covered(d, a.state(), c.state(), universe)).as("round %d: %s", round, d.differences()).isEqualTo(expected);
            assertThat(expected.isEmpty()).isEqualTo(a.state().hash().equals(c.state().hash()));
        }
    }

    @Test
    void reportsAtMostTheLimit() {
        Tree a = TreeFixtures.newTree();
        Tree c = TreeFixtures.newTree();
        for (int i = 0; i < 100; i++) {
            a.put(KeyHash.murmur(i), b("v"), 1);
        }
        MerkleDiff d = MerkleDiff.compare(a.state(), c.state(), 3);
        assertThat(d.differences()).hasSize(1); // c is empty: the whole tree is one region
        assertThat(d.differences().get(0).nibbles()).isZero();
        for (int i = 0; i < 100; i += 2) {
            c.put(KeyHash.murmur(i), b("v"), 1);
        }
        assertThat(MerkleDiff.compare(a.state(), c.state(), 3).differences()).hasSize(3);
    }
}
