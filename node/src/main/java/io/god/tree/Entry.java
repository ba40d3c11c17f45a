package io.god.tree;

/**
 * One stored key: a live byte value, a tombstone, or neither; and optionally a sub tree. Immutable;
 * the arrays it hands out are shared and must not be modified. The Merkle hash is not stored (it
 * would cost 16 bytes a key): {@link #hash()} computes it; branches keep the sums.
 */
public sealed class Entry extends Node permits Entry.Unhashed {

    private final byte[] key;
    private final byte[] value;
    private final long timestamp;
    private final TreeState sub;

    private Entry(byte[] key, byte[] value, long timestamp, TreeState sub) {
        this.key = key;
        this.value = value;
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

    /** An entry that takes part in no Merkle hash (mirror trees are derived data). */
    static Entry unhashed(byte[] key, byte[] value, long timestamp) {
        return new Unhashed(key, value, timestamp);
    }

    /** murmur3_128 of the length-prefixed key, the state, the value and the sub tree's hash. */
    @Override
    Hash128 hash() {
        byte state = value != null ? EntryHash.VALUE : timestamp != 0 ? EntryHash.TOMBSTONE : EntryHash.NO_VALUE;
        return EntryHash.of(key, state, value, sub == null ? null : sub.hash());
    }

    public byte[] key() {
        return key;
    }

    /** The live byte value, or null (tombstone, or sub tree only). */
    public byte[] value() {
        return value;
    }

    /** Timestamp of the byte value or tombstone; 0 when the key holds only a sub tree. */
    public long timestamp() {
        return timestamp;
    }

    public boolean isTombstone() {
        return value == null && timestamp != 0;
    }

    public boolean hasValue() {
        return value != null;
    }

    /** The sub tree under this key, or null. */
    public TreeState sub() {
        return sub;
    }

    public Hash128 entryHash() {
        return hash();
    }

    @Override
    int depth() {
        return key.length << 1;
    }

    @Override
    long live() {
        return value != null ? 1 : 0;
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
    long minDue() {
        long own = isTombstone() ? timestamp : Long.MAX_VALUE;
        return sub != null ? Math.min(own, sub.minDue()) : own;
    }

    @Override
    public String toString() {
        return "Entry[" + Bytes.hex(key)
                + (value != null ? "=" + Bytes.hex(value) : isTombstone() ? " (deleted)" : "")
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
    }
}
