package io.god.tree;

/**
 * One result of a read. For a plain tree: key, value and the value's timestamp. For a mirror: the key
 * is the value and the value is the original key. A tombstone reads as {@code exists == false} with
 * the tombstone's timestamp, so the newest of several replicas can be chosen. {@code index} is the
 * entry's ordinal in the direction of the query (counted from the end for reverse queries), or -1.
 */
public record Item(byte[] key, byte[] value, long timestamp, boolean exists, long index) {

    static Item absent(byte[] key) {
        return new Item(key, null, 0, false, -1);
    }

    @Override
    public String toString() {
        return "Item[" + Bytes.hex(key) + (exists ? "=" + Bytes.hex(value) : " absent") + " @" + timestamp
                + (index >= 0 ? " #" + index : "") + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Item i && java.util.Arrays.equals(key, i.key) && java.util.Arrays.equals(value, i.value)
                && timestamp == i.timestamp && exists == i.exists && index == i.index;
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(key) * 31 + java.util.Arrays.hashCode(value);
    }
}
