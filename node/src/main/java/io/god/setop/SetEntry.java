package io.god.setop;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One element of a sorted source or of a set-expression result: a key and its values (a raw source
 * has one value per key; operators produce what their merge function returns). Arrays are shared,
 * not copied: treat them as immutable.
 */
public record SetEntry(byte[] key, List<byte[]> values) {

    public SetEntry {
        if (key == null || values == null) {
            throw new NullPointerException("key and values must not be null");
        }
        values = List.copyOf(values);
    }

    /** An entry of a raw source: one value. */
    public static SetEntry of(byte[] key, byte[] value) {
        return new SetEntry(key, List.of(value));
    }

    /** The first value, or an empty array when the merge produced none. */
    public byte[] firstValue() {
        return values.isEmpty() ? new byte[0] : values.get(0);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SetEntry other) || !Arrays.equals(key, other.key)
                || values.size() != other.values.size()) {
            return false;
        }
        for (int i = 0; i < values.size(); i++) {
            if (!Arrays.equals(values.get(i), other.values.get(i))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = Arrays.hashCode(key);
        for (byte[] v : values) {
            h = 31 * h + Arrays.hashCode(v);
        }
        return h;
    }

    @Override
    public String toString() {
        return show(key) + values.stream().map(SetEntry::show).collect(Collectors.joining(",", ":[", "]"));
    }

    /** Printable ASCII as text, anything else as hex prefixed with 0x. */
    public static String show(byte[] b) {
        for (byte x : b) {
            if (x < 0x20 || x > 0x7e) {
                StringBuilder sb = new StringBuilder("0x");
                for (byte y : b) {
                    sb.append(String.format("%02x", y));
                }
                return sb.toString();
            }
        }
        return new String(b, StandardCharsets.US_ASCII);
    }
}
