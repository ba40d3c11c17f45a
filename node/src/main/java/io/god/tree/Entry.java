package io.god.tree;

import java.util.Arrays;

/**
 * One stored key: a live byte value, a tombstone, or neither; and optionally a sub tree. Immutable;
 * a key array it hands out may be the stored one and must not be modified. The Merkle hash is not
 * stored (it would cost 16 bytes a key): {@link #hash()} computes it; branches keep the sums.
 */
public sealed class Entry extends Node permits Entry.Unhashed {

    /**
     * The key's bytes followed by the value's: one array where two would cost another array header
     * and reference (20 bytes a key). Without a value (or with an empty one) it is the key itself.
     */
    private final byte[] data;
    /** The key's length, or its complement (negative) when the entry holds no byte value. */
    private final int keyLength;
    private final long timestamp;
    private final TreeState sub;

    private Entry(byte[] key, byte[] value, long timestamp, TreeState sub) {
        if (value == null || value.length == 0) {
            this.data = key;
        } else {
            this.data = Arrays.copyOf(key, key.length + value.length);
            System.arraycopy(value, 0, data, key.length, value.length);
        }
        this.keyLength = value == null ? ~key.length : key.length;
        this.timestamp = timestamp;
        this.sub = sub;
    }

    /**
     * A hashed entry. {@code value == null && timestamp != 0} is a tombstone; {@code timestamp == 0}
     * means the key holds no byte value (only a sub tree).
     */
    static Entry of(byte[] key, byte[] value, long timestamp, TreeState sub) {
        return new Entry(key, value, timestamp, sub);
    }

    /**
     * As {@link #of} for arrays the caller still owns: copies each at most once (a non-empty value is
     * copied together with the key into the entry's one array; otherwise only the key is copied).
     */
    static Entry copying(byte[] key, byte[] value, long timestamp, TreeState sub) {
        return new Entry(value == null || value.length == 0 ? key.clone() : key, value, timestamp, sub);
    }

    /** An entry that takes part in no Merkle hash (mirror trees are derived data). */
    static Entry unhashed(byte[] key, byte[] value, long timestamp) {
        return new Unhashed(key, value, timestamp);
    }

    /** murmur3_128 of the length-prefixed key, the state, the value and the sub tree's hash. */
    @Override
    Hash128 hash() {
        byte state = hasValue() ? EntryHash.VALUE : timestamp != 0 ? EntryHash.TOMBSTONE : EntryHash.NO_VALUE;
        return EntryHash.of(data, keyLength(), state, sub == null ? null : sub.hash());
    }

    /** The key (a fresh copy when the stored array also holds the value). */
    /** The stamp part of this entry: its stamp and its sub tree's stamps, tied to its content hash h. */
    @Override
    long stamps(Hash128 h) {
        return EntryHash.stamp(h, timestamp, sub == null ? 0 : sub.stamps());
    }

    public byte[] key() {
        int n = keyLength();
        return n == data.length ? data : Arrays.copyOf(data, n);
    }

    /** The live byte value (a fresh copy), or null (tombstone, or sub tree only). */
    public byte[] value() {
        if (keyLength < 0) {
            return null;
        }
        return keyLength == data.length ? Bytes.EMPTY : Arrays.copyOfRange(data, keyLength, data.length);
    }

    /**
     * The stored array, read without copying (never modified): the key is its first {@link #keySize} bytes, a live
     * value the {@link #valueSize} bytes after them. Wire encoders read it so (key() and value() copy both).
     */
    public byte[] stored() {
        return data;
    }

    public int keySize() {
        return keyLength();
    }

    /** Bytes of the live value (0 for a tombstone, or a key with only a sub tree). */
    public int valueSize() {
        return keyLength < 0 ? 0 : data.length - keyLength;
    }

    /** Whether the key equals k, without copying it. */
    /** Reads the first and the last of the entry's bytes (key and value), for {@link Trie#touch}. */
    int touch() {
        byte[] d = data;
        return d.length == 0 ? 0 : d[0] + d[d.length - 1];
    }

    boolean keyEquals(byte[] k) {
        return Arrays.equals(data, 0, keyLength(), k, 0, k.length);
    }

    private int keyLength() {
        return keyLength < 0 ? ~keyLength : keyLength;
    }

    /** The stored array: the key, maybe followed by value bytes (enough for the trie's nibble walks). */
    @Override
    byte[] path() {
        return data;
    }

    /** Timestamp of the byte value or tombstone; 0 when the key holds only a sub tree. */
    public long timestamp() {
        return timestamp;
    }

    public boolean isTombstone() {
        return keyLength < 0 && timestamp != 0;
    }

    public boolean hasValue() {
        return keyLength >= 0;
    }

    /** The sub tree under this key, or null. */
    public TreeState sub() {
        return sub;
    }

    /** The content hash ({@link HashVersion#CONTENT}): key, state, value and sub tree, not the stamp. */
    public Hash128 entryHash() {
        return hash();
    }

    /** The entry's hash under a version: {@link HashVersion#STAMPED} also covers its stamps. */
    public Hash128 entryHash(HashVersion version) {
        return hash(version);
    }

    @Override
    int depth() {
        return keyLength() << 1;
    }

    @Override
    long live() {
        return keyLength >= 0 ? 1 : 0;
    }

    @Override
    long subLive() {
        return sub != null ? sub.size() : 0;
    }

    @Override
    long real() {
        return (timestamp != 0 ? 1 : 0) + (sub != null ? sub.realSize() : 0);
    }

    @Override
    long entries() {
        return 1;
    }

    @Override
    long keys() {
        return live() + subLive() > 0 ? 1 : 0;
    }

    @Override
    long minDue() {
        long own = isTombstone() ? timestamp : Long.MAX_VALUE;
        return sub != null ? Math.min(own, sub.minDue()) : own;
    }

    @Override
    public String toString() {
        return "Entry[" + Bytes.hex(key())
                + (hasValue() ? "=" + Bytes.hex(value()) : isTombstone() ? " (deleted)" : "")
                + (timestamp != 0 ? " @" + timestamp : "") + (sub != null ? " sub:" + sub.size() : "") + "]";
    }

    /** A mirror entry: hashes to zero, so mirror tries cost no hashing. */
    static final class Unhashed extends Entry {
        Unhashed(byte[] key, byte[] value, long timestamp) {
            super(key, value, timestamp, null);
        }

        @Override
        Hash128 hash() {
            return Hash128.ZERO;
        }

        @Override
        long stamps(Hash128 h) {
            return 0;
        }
    }
}
