package io.god.wire;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Compact payload encoding: unsigned LEB128 varints, zig-zag varints for signed longs, byte strings
 * as varint(length + 1) then the bytes (0 = null, so null and empty differ), strings as UTF-8 byte
 * strings, booleans as one byte, fixed 16-byte positions raw.
 */
public final class WireWriter {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream(64);

    public WireWriter varint(long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
        return this;
    }

    public WireWriter signed(long v) {
        return varint((v << 1) ^ (v >> 63));
    }

    public WireWriter bool(boolean b) {
        out.write(b ? 1 : 0);
        return this;
    }

    public WireWriter u8(int b) {
        out.write(b);
        return this;
    }

    public WireWriter bytes(byte[] b) {
        if (b == null) {
            return varint(0);
        }
        varint(b.length + 1L);
        out.writeBytes(b);
        return this;
    }

    public WireWriter raw(byte[] b) {
        out.writeBytes(b);
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

    public byte[] toBytes() {
        return out.toByteArray();
    }
}
