package io.god.cluster;

import io.god.tree.Fingerprint;
import io.god.tree.Hash128;
import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.util.Arrays;

/**
 * A Merkle node as the anti-entropy walk sends it ({@link io.god.wire.Ops#SYNC_FINGERPRINTS}): where
 * it sits, and one byte of each child's hash (and of the entry ending at the node) instead of 16.
 *
 * <p>Why one byte is enough: the walk only asks about a region whose parent already showed a
 * different byte, and different bytes always mean different hashes, so a short hash never invents a
 * difference; it can hide one (equal bytes, 1 in 256; nodes of at most {@link #NARROW_MAX} entries
 * send only 4 bits per child, 1 in 16, since they seldom hold two differences). A region known to differ where no child byte
 * differs is asked again with another byte of the hashes ({@code lane}, 16 to choose from); a
 * difference hidden beside another one is found by the next pass, which starts from the root's full
 * 64-bit hash. The root's hash travels whole so "no difference" is never a short-hash accident.
 */
record Probe(byte[] key, int depth, int own, long full, int entry, int[] children, boolean narrow) {

    static final int NONE = -1;
    private static final int PRESENT = 1;
    private static final int ENTRY = 2;
    private static final int DEEPER = 4;
    private static final int ALL = 8;
    private static final int NARROW = 16;
    /** Nodes with at most this many entries send 4-bit child hashes: they rarely hold two differences. */
    static final long NARROW_MAX = 1024;

    /** Byte {@code lane} (0–15) of a 128-bit hash. */
    static int laneByte(Hash128 h, int lane) {
        long v = lane < 8 ? h.h1() : h.h2();
        return (int) (v >>> ((lane & 7) << 3)) & 0xff;
    }

    /** The probe of a local node asked at {@code asked} nibbles; null for none. */
    static Probe of(Fingerprint f, int lane) {
        if (f == null) {
            return null;
        }
        int[] children = new int[16];
        Hash128[] hashes = f.children();
        for (int i = 0; i < 16; i++) {
            children[i] = hashes[i] == null ? NONE : laneByte(hashes[i], lane);
        }
        return new Probe(f.key(), f.depth(), laneByte(f.hash(), lane), f.hash().h1(),
                f.entryHash() == null ? NONE : laneByte(f.entryHash(), lane), children, false);
    }

    /** Writes the local fingerprint of (prefix, asked) as a probe. */
    static void encode(WireWriter w, Fingerprint f, byte[] prefix, int asked, int lane) {
        Probe p = of(f, lane);
        if (p == null) {
            w.u8(0);
            return;
        }
        int mask = 0;
        for (int i = 0; i < 16; i++) {
            mask |= p.children[i] == NONE ? 0 : 1 << i;
        }
        boolean deeper = p.depth > asked;
        boolean narrow = f.entries() <= NARROW_MAX;
        w.u8(PRESENT | (p.entry != NONE ? ENTRY : 0) | (deeper ? DEEPER : 0) | (mask == 0xffff ? ALL : 0)
                | (narrow ? NARROW : 0));
        if (deeper) {
            Nibbles.writePrefix(w, prefix, asked, p.key, p.depth);
            w.u8(p.own);
        }
        if (asked == 0) {
            w.raw(longBytes(p.full));
        }
        if (p.entry != NONE) {
            w.u8(p.entry);
        }
        if (mask != 0xffff) {
            w.raw(new byte[] {(byte) (mask >>> 8), (byte) mask});
        }
        int present = Integer.bitCount(mask);
        byte[] bytes = new byte[narrow ? (present + 1) >> 1 : present];
        int j = 0;
        for (int i = 0; i < 16; i++) {
            if (p.children[i] != NONE) {
                if (narrow) {
                    bytes[j >> 1] |= (byte) ((j & 1) == 0 ? (p.children[i] & 0xf) << 4 : p.children[i] & 0xf);
                } else {
                    bytes[j] = (byte) p.children[i];
                }
                j++;
            }
        }
        w.raw(bytes);
    }

    static Probe decode(WireReader r, byte[] prefix, int asked) {
        int tag = r.u8();
        if (tag == 0) {
            return null;
        }
        byte[] key = prefix;
        int depth = asked;
        int own = NONE;
        if ((tag & DEEPER) != 0) {
            int[] n = new int[1];
            key = Nibbles.readPrefix(r, prefix, asked, n);
            depth = n[0];
            own = r.u8();
        }
        long full = asked == 0 ? bytesLong(r.raw(8)) : 0;
        int entry = (tag & ENTRY) != 0 ? r.u8() : NONE;
        int mask = 0xffff;
        if ((tag & ALL) == 0) {
            byte[] m = r.raw(2);
            mask = (m[0] & 0xff) << 8 | (m[1] & 0xff);
        }
        boolean narrow = (tag & NARROW) != 0;
        int present = Integer.bitCount(mask);
        byte[] bytes = r.raw(narrow ? (present + 1) >> 1 : present);
        int[] children = new int[16];
        int j = 0;
        for (int i = 0; i < 16; i++) {
            if ((mask & (1 << i)) == 0) {
                children[i] = NONE;
            } else {
                children[i] = narrow ? (j & 1) == 0 ? (bytes[j >> 1] >> 4) & 0xf : bytes[j >> 1] & 0xf : bytes[j] & 0xff;
                j++;
            }
        }
        return new Probe(key, depth, own, full, entry, children, narrow);
    }

    /** Whether two short hashes (or absences) differ; only the low 4 bits count when {@code narrow}. */
    static boolean differ(int a, int b, boolean narrow) {
        if (a == NONE || b == NONE) {
            return a != b;
        }
        return narrow ? ((a ^ b) & 0xf) != 0 : a != b;
    }

    /** The short hash of the entry ending exactly at depth, or NONE. */
    static int entryAt(Probe p, int depth) {
        return p != null && p.depth == depth ? p.entry : NONE;
    }

    /** The short hash of everything below nibble at depth (a deeper node lies under one nibble), or NONE. */
    static int childAt(Probe p, int depth, int nibble) {
        if (p == null) {
            return NONE;
        }
        if (p.depth == depth) {
            return p.children[nibble];
        }
        return Nibbles.nibble(p.key, depth) == nibble ? p.own : NONE;
    }

    static byte[] longBytes(long v) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (v >>> (56 - 8 * i));
        }
        return b;
    }

    static long bytesLong(byte[] b) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[i] & 0xff);
        }
        return v;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Probe p && depth == p.depth && own == p.own && full == p.full && entry == p.entry
                && narrow == p.narrow && Arrays.equals(key, p.key) && Arrays.equals(children, p.children);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(children) * 31 + depth;
    }
}
