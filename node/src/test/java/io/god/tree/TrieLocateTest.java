package io.god.tree;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Trie#locate}'s one-descent write against {@link Trie#put}'s walk from the root, which compares every
 * branch's prefix: keys from a two-byte alphabet of varied lengths (prefixes of each other, the empty key, keys
 * that fork off above a path-compressed branch) give the same found entry, the same hash and the same entries.
 */
class TrieLocateTest {

    @Test
    void locateAndPutAgreeWithTheWalkFromTheRoot() {
        Random random = new Random(20261128);
        for (int run = 0; run < 200; run++) {
            Node walked = null;
            Node located = null;
            for (int i = 0; i < 60; i++) {
                byte[] key = key(random);
                Entry expectedFound = Trie.get(walked, key);
                Trie.Slot slot = Trie.locate(located, key);
                assertThat(slot.found()).as("found %s", Bytes.hex(key)).isSameAs(Trie.get(located, key));
                assertThat(slot.found() == null).isEqualTo(expectedFound == null);
                Entry e = Entry.copying(key, random.nextBoolean() ? null : new byte[] {(byte) i}, i + 1, null);
                walked = Trie.put(walked, e);
                located = slot.put(e);
                assertThat(located.hash()).isEqualTo(walked.hash());
                assertThat(keys(located)).isEqualTo(keys(walked));
                assertThat(Trie.get(located, key)).isSameAs(e);
            }
        }
    }

    /**
     * {@link Trie#touch} walks a batch's descents side by side: each must end where a descent of its own ends — at a
     * present key's entry, and for an absent key at the entry (or nothing) its nibbles lead to — whatever the batch's
     * order and size.
     */
    @Test
    void touchReadsTheEntryEachDescentEndsAt() {
        Random random = new Random(20261207);
        for (int run = 0; run < 200; run++) {
            Node root = null;
            List<byte[]> present = new ArrayList<>();
            for (int i = 0; i < 1 + random.nextInt(80); i++) {
                byte[] key = key(random);
                root = Trie.put(root, Entry.copying(key, new byte[] {(byte) random.nextInt(100)}, i + 1, null));
                present.add(key);
            }
            byte[][] batch = new byte[1 + random.nextInt(40)][];
            List<byte[]> found = new ArrayList<>();
            int expected = 0;
            int foundExpected = 0;
            for (int i = 0; i < batch.length; i++) {
                batch[i] = random.nextBoolean() ? present.get(random.nextInt(present.size())) : key(random);
                expected += endOfDescent(root, batch[i]);
                Entry e = Trie.get(root, batch[i]);
                if (e != null) {
                    found.add(batch[i]);
                    foundExpected += e.touch();
                }
            }
            assertThat(Trie.touch(root, batch, batch.length)).isEqualTo(expected);
            assertThat(Trie.touch(root, found.toArray(byte[][]::new), found.size())).as("present keys")
                    .isEqualTo(foundExpected);
        }
        assertThat(Trie.touch(null, new byte[][] {{1}}, 1)).isZero();
    }

    /** One descent alone, as {@link Trie#get} walks it, without its final key comparison. */
    private static int endOfDescent(Node n, byte[] key) {
        while (n instanceof Branch b) {
            int kd = Bytes.nibbles(key);
            n = kd < b.depth() ? null : kd == b.depth() ? b.entry : b.child(Bytes.nibble(key, b.depth()));
        }
        return n instanceof Entry e ? e.touch() : 0;
    }

    private static byte[] key(Random random) {
        byte[] key = new byte[random.nextInt(5)];
        for (int j = 0; j < key.length; j++) {
            key[j] = (byte) (random.nextBoolean() ? 0x12 : random.nextBoolean() ? 0x13 : 0xf2);
        }
        return key;
    }

    @Test
    void locateInAnEmptyTrie() {
        Trie.Slot slot = Trie.locate(null, new byte[] {1});
        assertThat(slot.found()).isNull();
        Entry e = Entry.copying(new byte[] {1}, new byte[] {2}, 1, null);
        assertThat(slot.put(e)).isSameAs(e);
    }

    private static List<String> keys(Node root) {
        List<String> out = new ArrayList<>();
        Cursor c = new Cursor(root, Measure.ENTRIES, false);
        for (Entry e = c.next(); e != null; e = c.next()) {
            out.add(Bytes.hex(e.key()) + "@" + e.timestamp());
        }
        return out;
    }
}
