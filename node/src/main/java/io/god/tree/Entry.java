package io.god.tree;

import com.google.common.hash.HashFunction;
import com.google.common.hash.Hasher;
import com.google.common.hash.Hashing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One stored key: a live byte value, a tombstone, or neither; and optionally a sub tree. Immutable;
 * the arrays it hands out are shared and must not be modified.
 */
public final class Entry extends Node {

    private static final HashFunction MURMUR = Hashing.murmur3_128();
    private static final byte NO_VALUE = 0;
    private static final byte VALUE = 1;
    private static final byte TOMBSTONE = 2;

    private final byte[] key;
    private final byte[] value;
    private final long timestamp;
    private final TreeState sub;

    private Entry(byte[] key, byte[] value, long timestamp, TreeState sub, long h1, long h2) {
        super(h1, h2);
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
        byte state = value != null ? VALUE : timestamp != 0 ? TOMBSTONE : NO_VALUE;
        Hasher h = MURMUR.newHasher().putInt(key.length).putBytes(key).putByte(state);
        if (value != null) {
            h.putInt(value.length).putBytes(value);
        }
        if (sub != null) {
            h.putLong(sub.hash().h1()).putLong(sub.hash().h2());
        }
        ByteBuffer lanes = ByteBuffer.wrap(h.hash().asBytes()).order(ByteOrder.LITTLE_ENDIAN);
        return new Entry(key, value, timestamp, sub, lanes.getLong(0), lanes.getLong(8));
    }

    /** An entry that takes part in no Merkle hash (mirror trees are derived data). */
    static Entry unhashed(byte[] key, byte[] value, long timestamp) {
        return new Entry(key, value, timestamp, null, 0, 0);
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
}
