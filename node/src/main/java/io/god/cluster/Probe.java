package io.god.cluster;

import io.god.tree.Fingerprint;
import io.god.tree.Hash128;
import io.god.wire.WireException;
import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.util.Arrays;

/**
 * A Merkle node as the anti-entropy walk sends it ({@link io.god.wire.Ops#SYNC_FINGERPRINTS}): where
 * it sits, and a hash of each child (and of the entry ending at the node, and of the node itself when
 * it lies deeper than asked) — short or wide.
 *
 * <p>Short (one byte of each 128-bit hash, {@code lane} choosing which of 16): for a region wholly
 * inside the compared range. The walk only asks about such a region when its parent already showed a
 * different hash, and different bytes always mean different hashes, so a short hash never invents a
 * difference; it can hide one (equal bytes, 1 in 256; nodes of at most {@link #NARROW_MAX} entries
 * send only 4 bits per child, 1 in 16, since they seldom hold two differences). A region known to
 * differ where no child byte differs is asked again with another byte; a difference hidden beside
 * another one is found by the next pass (a pass that moved records never ends a sync as clean).
 *
 * <p>Wide (63 bits of each hash, {@link #wideValue}): for a node straddling a range boundary. Nothing
 * above such a node tells whether its part of the range differs — its own hash covers keys outside the
 * range too — so its comparisons are the ones that decide "no difference"; a short hash there hid a
 * whole differing subtree 1 time in 16 and a sync (or a catch-up) reported a clean range that was not.
 * The root's hash likewise travels whole ({@code full}) for a walk of the whole range. Wide probes are
 * asked only of a peer that announced them ({@link AntiEntropy}); an older peer is walked short.
 */
record Probe(byte[] key, int depth, long own, long full, long entry, long[] children, boolean narrow) {

    /** No such child / entry; short values are 0–255 and wide ones non-negative, so none is ever NONE. */
    static final long NONE = -1;
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

    /** A wide hash value: 63 bits of the first half (the sign bit dropped so that no value is {@link #NONE}). */
    static long wideValue(Hash128 h) {
        return h.h1() >>> 1;
    }

    private static long value(Hash128 h, int lane, boolean wide) {
        return h == null ? NONE : wide ? wideValue(h) : laneByte(h, lane);
    }

    /** The probe of a local node, short (byte {@code lane}) or wide; null for none. */
    static Probe of(Fingerprint f, int lane, boolean wide) {
        if (f == null) {
            return null;
        }
        long[] children = new long[16];
        Hash128[] hashes = f.children();
        for (int i = 0; i < 16; i++) {
            children[i] = value(hashes[i], lane, wide);
        }
        return new Probe(f.key(), f.depth(), value(f.hash(), lane, wide), f.hash().h1(),
                value(f.entryHash(), lane, wide), children, false);
    }

    /** Writes the local fingerprint of (prefix, asked) as a probe, short or wide. */
    static void encode(WireWriter w, Fingerprint f, byte[] prefix, int asked, int lane, boolean wide) {
        Probe p = of(f, lane, wide);
        if (p == null) {
            w.u8(0);
            return;
        }
        int mask = 0;
        for (int i = 0; i < 16; i++) {
            mask |= p.children[i] == NONE ? 0 : 1 << i;
        }
        boolean deeper = p.depth > asked;
        boolean narrow = !wide && f.entries() <= NARROW_MAX;
        w.u8(PRESENT | (p.entry != NONE ? ENTRY : 0) | (deeper ? DEEPER : 0) | (mask == 0xffff ? ALL : 0)
                | (narrow ? NARROW : 0));
        if (deeper) {
            Nibbles.writePrefix(w, prefix, asked, p.key, p.depth);
            writeValue(w, p.own, wide);
        }
        if (asked == 0) {
            w.raw(longBytes(p.full));
        }
        if (p.entry != NONE) {
            writeValue(w, p.entry, wide);
        }
        if (mask != 0xffff) {
            w.raw(new byte[] {(byte) (mask >>> 8), (byte) mask});
        }
        if (wide) {
            for (long c : p.children) {
                if (c != NONE) {
                    w.raw(longBytes(c));
                }
            }
            return;
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

    private static void writeValue(WireWriter w, long v, boolean wide) {
        if (wide) {
            w.raw(longBytes(v));
        } else {
            w.u8((int) v);
        }
    }

    private static long readValue(WireReader r, boolean wide) {
        if (!wide) {
            return r.u8();
        }
        long v = bytesLong(r.raw(8));
        if (v < 0) {
            throw new WireException("wide hash value with the sign bit set");
        }
        return v;
    }

    /** Reads a probe written by {@link #encode} with the same {@code wide}. */
    static Probe decode(WireReader r, byte[] prefix, int asked, boolean wide) {
        int tag = r.u8();
        if (tag == 0) {
            return null;
        }
        byte[] key = prefix;
        int depth = asked;
        long own = NONE;
        if ((tag & DEEPER) != 0) {
            int[] n = new int[1];
            key = Nibbles.readPrefix(r, prefix, asked, n);
            depth = n[0];
            own = readValue(r, wide);
        }
        long full = asked == 0 ? bytesLong(r.raw(8)) : 0;
        long entry = (tag & ENTRY) != 0 ? readValue(r, wide) : NONE;
        int mask = 0xffff;
        if ((tag & ALL) == 0) {
            byte[] m = r.raw(2);
            mask = (m[0] & 0xff) << 8 | (m[1] & 0xff);
        }
        boolean narrow = !wide && (tag & NARROW) != 0;
        long[] children = new long[16];
        if (wide) {
            for (int i = 0; i < 16; i++) {
                children[i] = (mask & (1 << i)) == 0 ? NONE : readValue(r, true);
            }
            return new Probe(key, depth, own, full, entry, children, false);
        }
        int present = Integer.bitCount(mask);
        byte[] bytes = r.raw(narrow ? (present + 1) >> 1 : present);
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

    /** Whether two hash values (or absences) differ; only the low 4 bits count when {@code narrow}. */
    static boolean differ(long a, long b, boolean narrow) {
        if (a == NONE || b == NONE) {
            return a != b;
        }
        return narrow ? ((a ^ b) & 0xf) != 0 : a != b;
    }

    /** The hash value of the entry ending exactly at depth, or NONE. */
    static long entryAt(Probe p, int depth) {
        return p != null && p.depth == depth ? p.entry : NONE;
    }

    /** The hash value of everything below nibble at depth (a deeper node lies under one nibble), or NONE. */
    static long childAt(Probe p, int depth, int nibble) {
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
