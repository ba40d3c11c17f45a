package io.god.cluster;

import io.god.tree.Entry;
import io.god.tree.HashVersion;
import io.god.tree.TreeState;
import io.god.wire.WireReader;
import io.god.wire.WireWriter;

/**
 * What the exchange says about one entry before any value moves: a salted 32-bit hash of its key,
 * the timestamp and kind of its value or tombstone, a 16-bit hash of the value (to settle equal
 * timestamps), and for a sub tree its hash, clear marker and configuration timestamp. The peer then
 * sends only what is newer on its side and asks for what is newer here, so an older version never
 * travels. The salt changes with every exchange, so a hash collision cannot hide a difference twice.
 *
 * <p>Expired tombstones and sub-tree clears older than the tombstone window are left out: they are
 * never sent and never a difference.
 */
record VersionSummary(int keyHash, int flags, long timestamp, int valueHash, long subHash, long subClearedAt,
                      long subConfiguredAt) {

    static final int VALUE = 1;
    static final int TOMBSTONE = 2;
    static final int SUB = 4;
    private static final int CLEARED = 8;
    private static final int CONFIGURED = 16;

    /**
     * The summary of e, or null when it holds nothing worth saying (only an expired tombstone); its sub-tree
     * hash is of {@code version}, the one both sides of the exchange share.
     */
    static VersionSummary of(Entry e, long cutoff, int salt, HashVersion version) {
        int flags = e.hasValue() ? VALUE : e.isTombstone() && e.timestamp() >= cutoff ? TOMBSTONE : 0;
        TreeState sub = e.sub();
        long cleared = 0;
        long configured = 0;
        if (sub != null) {
            flags |= SUB;
            cleared = sub.clearedAt() >= cutoff ? sub.clearedAt() : 0;
            configured = sub.configurationTimestamp();
        }
        if (flags == 0) {
            return null;
        }
        return new VersionSummary(hash(e.key(), salt), flags, (flags & (VALUE | TOMBSTONE)) != 0 ? e.timestamp() : 0,
                e.hasValue() ? hash(e.value(), salt) & 0xffff : 0, sub == null ? 0 : sub.hash(version).h1(), cleared, configured);
    }

    boolean hasValuePart() {
        return (flags & (VALUE | TOMBSTONE)) != 0;
    }

    /** Whether the value part is a tombstone older than {@code cutoff} (expired for whoever uses it). */
    boolean isTombstoneBefore(long cutoff) {
        return (flags & TOMBSTONE) != 0 && timestamp < cutoff;
    }

    boolean hasSub() {
        return (flags & SUB) != 0;
    }

    /** +1 when this value part is newer than other's (or other has none), -1 when older, 0 when the same. */
    int compareValue(VersionSummary other) {
        boolean mine = hasValuePart();
        boolean theirs = other != null && other.hasValuePart();
        if (!mine || !theirs) {
            return mine == theirs ? 0 : mine ? 1 : -1;
        }
        if (timestamp != other.timestamp) {
            return Long.compare(timestamp, other.timestamp);
        }
        // equal timestamps with different contents: both sides send, last-write-wins settles it
        return (flags & (VALUE | TOMBSTONE)) == (other.flags & (VALUE | TOMBSTONE)) && valueHash == other.valueHash ? 0 : 2;
    }

    void write(WireWriter w) {
        int f = flags | (subClearedAt != 0 ? CLEARED : 0) | (subConfiguredAt != 0 ? CONFIGURED : 0);
        w.raw(new byte[] {(byte) (keyHash >>> 24), (byte) (keyHash >>> 16), (byte) (keyHash >>> 8), (byte) keyHash});
        w.u8(f);
        if (hasValuePart()) {
            w.raw(Probe.longBytes(timestamp));
        }
        if ((flags & VALUE) != 0) {
            w.raw(new byte[] {(byte) (valueHash >>> 8), (byte) valueHash});
        }
        if (hasSub()) {
            w.raw(Probe.longBytes(subHash));
            if (subClearedAt != 0) {
                w.raw(Probe.longBytes(subClearedAt));
            }
            if (subConfiguredAt != 0) {
                w.raw(Probe.longBytes(subConfiguredAt));
            }
        }
    }

    static VersionSummary read(WireReader r) {
        byte[] k = r.raw(4);
        int keyHash = (k[0] & 0xff) << 24 | (k[1] & 0xff) << 16 | (k[2] & 0xff) << 8 | (k[3] & 0xff);
        int f = r.u8();
        long ts = (f & (VALUE | TOMBSTONE)) != 0 ? Probe.bytesLong(r.raw(8)) : 0;
        int vh = 0;
        if ((f & VALUE) != 0) {
            byte[] v = r.raw(2);
            vh = (v[0] & 0xff) << 8 | (v[1] & 0xff);
        }
        long subHash = 0;
        long cleared = 0;
        long configured = 0;
        if ((f & SUB) != 0) {
            subHash = Probe.bytesLong(r.raw(8));
            cleared = (f & CLEARED) != 0 ? Probe.bytesLong(r.raw(8)) : 0;
            configured = (f & CONFIGURED) != 0 ? Probe.bytesLong(r.raw(8)) : 0;
        }
        return new VersionSummary(keyHash, f & (VALUE | TOMBSTONE | SUB), ts, vh, subHash, cleared, configured);
    }

    /** Salted 32-bit hash of some bytes (FNV-1a, then a 64-bit finaliser). */
    static int hash(byte[] bytes, int salt) {
        long h = 0xcbf29ce484222325L ^ salt;
        for (byte b : bytes) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) h;
    }
}
