package io.god.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.common.hash.Hasher;
import com.google.common.hash.Hashing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Entries compute their hash on demand; it must stay bit for bit what Guava's murmur3_128 gave. */
class EntryHashTest {

    @Test
    void matchesGuavaForEveryLengthAndState() {
        Random random = new Random(42);
        for (int i = 0; i < 3000; i++) {
            byte[] key = bytes(random, random.nextInt(40));
            byte state = (byte) random.nextInt(3);
            byte[] value = state == EntryHash.VALUE ? bytes(random, random.nextInt(70)) : null;
            Hash128 sub = random.nextBoolean() ? new Hash128(random.nextLong(), random.nextLong()) : null;
            byte[] data = java.util.Arrays.copyOf(key, key.length + (value == null ? 0 : value.length));
            if (value != null) {
                System.arraycopy(value, 0, data, key.length, value.length);
            }
            assertEquals(guava(key, state, value, sub), EntryHash.of(data, key.length, state, sub),
                    "key " + key.length + " value " + (value == null ? -1 : value.length));
        }
    }

    @Test
    void writesCopyTheCallersArraysSoLaterChangesToThemDoNotReachTheTree() {
        for (byte[] value : new byte[][] {{7, 7}, {}}) {
            byte[] key = {1, 2};
            byte[] subKey = {3};
            byte[] v = value.clone();
            TreeState s = TreeState.EMPTY.put(key, v, 5).subPut(key, subKey, v, 6).delete(new byte[] {4}, 7);
            key[0] = 9;
            subKey[0] = 9;
            if (v.length > 0) {
                v[0] = 9;
            }
            org.assertj.core.api.Assertions.assertThat(s.entry(new byte[] {1, 2}).value()).isEqualTo(value);
            org.assertj.core.api.Assertions.assertThat(s.sub(new byte[] {1, 2}).entry(new byte[] {3}).value())
                    .isEqualTo(value);
            org.assertj.core.api.Assertions.assertThat(s.entry(new byte[] {9, 2})).isNull();
        }
    }

    @Test
    void entryHandsOutItsKeyAndValueSeparately() {
        byte[] key = {1, 2, 3};
        Entry e = Entry.of(key, new byte[] {9, 8}, 5, null);
        org.assertj.core.api.Assertions.assertThat(e.key()).containsExactly(1, 2, 3);
        org.assertj.core.api.Assertions.assertThat(e.value()).containsExactly(9, 8);
        org.assertj.core.api.Assertions.assertThat(Entry.of(key, new byte[0], 5, null).value()).isEmpty();
        org.assertj.core.api.Assertions.assertThat(Entry.of(key, null, 5, null).value()).isNull();
        org.assertj.core.api.Assertions.assertThat(Entry.of(key, null, 5, null).isTombstone()).isTrue();
        org.assertj.core.api.Assertions.assertThat(Entry.of(key, new byte[0], 5, null).isTombstone()).isFalse();
        assertEquals(6, e.depth());
    }

    @Test
    void entryHashIsTheSumThatBranchesKeep() {
        Tree tree = new Tree(io.god.time.NanoClock.system(), java.time.Duration.ofHours(1));
        Random random = new Random(7);
        long h1 = 0, h2 = 0;
        for (int i = 0; i < 500; i++) {
            byte[] key = bytes(random, 1 + random.nextInt(4));
            tree.put(key, bytes(random, 8), i + 1);
        }
        java.util.Iterator<Entry> it = tree.state().entries(null);
        while (it.hasNext()) {
            Hash128 h = it.next().entryHash();
            h1 += h.h1();
            h2 += h.h2();
        }
        assertEquals(new Hash128(h1, h2), tree.state().hash());
    }

    /**
     * The stamped hash (issue 27) is kept the same way through overwrites, deletes and sub trees — a branch's
     * incremental update equals the sum over its entries — and differs where only a stamp does.
     */
    @Test
    void stampedHashIsTheSumThatBranchesKeepAndCoversStamps() {
        Tree tree = new Tree(io.god.time.NanoClock.system(), java.time.Duration.ofHours(1));
        Random random = new Random(11);
        long ts = 1;
        for (int i = 0; i < 2000; i++) {
            byte[] key = bytes(random, 1 + random.nextInt(3));
            switch (random.nextInt(4)) {
                case 0 -> tree.delete(key, ts++);
                case 1 -> tree.subPut(key, bytes(random, 2), bytes(random, 3), ts++);
                default -> tree.put(key, bytes(random, 1 + random.nextInt(2)), ts++);
            }
        }
        long h1 = 0, h2 = 0;
        for (java.util.Iterator<Entry> it = tree.state().entries(null); it.hasNext(); ) {
            Hash128 h = it.next().entryHash(HashVersion.STAMPED);
            h1 += h.h1();
            h2 += h.h2();
        }
        assertEquals(new Hash128(h1, h2), tree.state().hash(HashVersion.STAMPED));

        Tree a = new Tree(io.god.time.NanoClock.system(), java.time.Duration.ofHours(1));
        Tree b = new Tree(io.god.time.NanoClock.system(), java.time.Duration.ofHours(1));
        a.put(new byte[] {1}, new byte[] {9}, 5);
        b.put(new byte[] {1}, new byte[] {9}, 6);
        assertEquals(a.state().hash(), b.state().hash());
        org.assertj.core.api.Assertions.assertThat(a.state().hash(HashVersion.STAMPED))
                .isNotEqualTo(b.state().hash(HashVersion.STAMPED));
        a.subPut(new byte[] {2}, new byte[] {3}, new byte[] {4}, 7);
        b.subPut(new byte[] {2}, new byte[] {3}, new byte[] {4}, 8);
        b.put(new byte[] {1}, new byte[] {9}, 5); // older: loses, b keeps stamp 6
        a.put(new byte[] {1}, new byte[] {9}, 6);
        org.assertj.core.api.Assertions.assertThat(a.state().hash(HashVersion.STAMPED))
                .as("a sub entry's stamp").isNotEqualTo(b.state().hash(HashVersion.STAMPED));
        a.subPut(new byte[] {2}, new byte[] {3}, new byte[] {4}, 8);
        assertEquals(a.state().hash(HashVersion.STAMPED), b.state().hash(HashVersion.STAMPED));
    }

    private static Hash128 guava(byte[] key, byte state, byte[] value, Hash128 sub) {
        Hasher h = Hashing.murmur3_128().newHasher().putInt(key.length).putBytes(key).putByte(state);
        if (value != null) {
            h.putInt(value.length).putBytes(value);
        }
        if (sub != null) {
            h.putLong(sub.h1()).putLong(sub.h2());
        }
        ByteBuffer lanes = ByteBuffer.wrap(h.hash().asBytes()).order(ByteOrder.LITTLE_ENDIAN);
        return new Hash128(lanes.getLong(0), lanes.getLong(8));
    }

    private static byte[] bytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }
}
