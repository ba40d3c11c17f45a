package io.god.wire;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Compact payload encoding: unsigned LEB128 varints, zig-zag varints for signed longs, byte strings
 * as varint(length + 1) then the bytes (0 = null, so null and empty differ), strings as UTF-8 byte
 * strings, booleans as one byte, fixed 16-byte positions raw.
 */
public final class WireWriter {

    // a plain growable array: ByteArrayOutputStream's synchronized write per byte showed in client profiles
    private byte[] out;
    private int size;

    public WireWriter() {
        this(64);
    }

    /** @param capacity the expected encoded size (grown as needed) */
    public WireWriter(int capacity) {
        out = new byte[capacity > 0 ? capacity : 16];
    }

    private void write(int b) {
        if (size == out.length) {
            out = Arrays.copyOf(out, out.length * 2);
        }
        out[size++] = (byte) b;
    }

    private void writeBytes(byte[] b) {
        if (out.length - size < b.length) {
            out = Arrays.copyOf(out, Math.max(out.length * 2, size + b.length));
        }
        System.arraycopy(b, 0, out, size, b.length);
        size += b.length;
    }

    public WireWriter varint(long v) {
        while ((v & ~0x7FL) != 0) {
            write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        write((int) v);
        return this;
    }

    public WireWriter signed(long v) {
        return varint((v << 1) ^ (v >> 63));
    }

    public WireWriter bool(boolean b) {
        write(b ? 1 : 0);
        return this;
    }

    public WireWriter u8(int b) {
        write(b);
        return this;
    }

    public WireWriter bytes(byte[] b) {
        if (b == null) {
            return varint(0);
        }
        varint(b.length + 1L);
        writeBytes(b);
        return this;
    }

    /** As {@link #bytes(byte[])} for {@code len} bytes of {@code b} from {@code off} (never null). */
    public WireWriter bytes(byte[] b, int off, int len) {
        varint(len + 1L);
        if (out.length - size < len) {
            out = Arrays.copyOf(out, Math.max(out.length * 2, size + len));
        }
        System.arraycopy(b, off, out, size, len);
        size += len;
        return this;
    }

    public WireWriter raw(byte[] b) {
        writeBytes(b);
        return this;
    }

    public WireWriter string(String s) {
        return bytes(s == null ? null : s.getBytes(StandardCharsets.UTF_8));
    }

    public WireWriter byteList(List<byte[]> list) {
        varint(list.size());
        for (byte[] b : list) {
            bytes(b);
        }
        return this;
    }

    /** Bytes written so far (since the last {@link #drainTo}). */
    public int size() {
        return size;
    }

    /** Feeds the bytes written so far to {@code digest} and empties this writer (a hash of a stream, in chunks). */
    public WireWriter drainTo(java.security.MessageDigest digest) {
        digest.update(out, 0, size);
        size = 0;
        return this;
    }

    /** Bytes {@link #varint} writes for {@code v}. */
    public static int varintSize(long v) {
        return v == 0 ? 1 : (64 - Long.numberOfLeadingZeros(v) + 6) / 7;
    }

    public byte[] toBytes() {
        return size == out.length ? out : Arrays.copyOf(out, size);
    }
}
