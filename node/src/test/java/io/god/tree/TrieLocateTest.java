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
                byte[] key = new byte[random.nextInt(5)];
                for (int j = 0; j < key.length; j++) {
                    key[j] = (byte) (random.nextBoolean() ? 0x12 : random.nextBoolean() ? 0x13 : 0xf2);
                }
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
