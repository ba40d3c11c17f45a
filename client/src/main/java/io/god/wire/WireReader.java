package io.god.wire;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Reads what {@link WireWriter} wrote; any truncation or impossible length is a {@link WireException}. */
public final class WireReader {

    private final byte[] in;
    private int pos;

    public WireReader(byte[] in) {
        this.in = in;
    }

    public long varint() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = u8();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new WireException("varint longer than 10 bytes at offset " + pos);
    }

    /** A varint that must fit a non-negative int no larger than max. */
    public int count(int max) {
        long v = varint();
        if (v < 0 || v > max) {
            throw new WireException("count " + v + " out of range (max " + max + ") at offset " + pos);
        }
        return (int) v;
    }

    public long signed() {
        long v = varint();
        return (v >>> 1) ^ -(v & 1);
    }

    public int u8() {
        if (pos >= in.length) {
            throw new WireException("payload truncated at offset " + pos);
        }
        return in[pos++] & 0xFF;
    }

    public boolean bool() {
        int b = u8();
        if (b > 1) {
            throw new WireException("bad boolean " + b + " at offset " + (pos - 1));
        }
        return b == 1;
    }

    public byte[] bytes() {
        long n = varint();
        if (n == 0) {
            return null;
        }
        if (n < 0 || n - 1 > in.length - pos) {
            throw new WireException("byte string of " + (n - 1) + " bytes runs past the payload end at offset " + pos);
        }
        byte[] b = new byte[(int) (n - 1)];
        System.arraycopy(in, pos, b, 0, b.length);
        pos += b.length;
        return b;
    }

    public byte[] raw(int n) {
        if (n > in.length - pos) {
            throw new WireException("payload truncated at offset " + pos);
        }
        byte[] b = new byte[n];
        System.arraycopy(in, pos, b, 0, n);
        pos += n;
        return b;
    }

    public String string() {
        byte[] b = bytes();
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    public List<byte[]> byteList(int max) {
        int n = count(max);
        List<byte[]> out = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            out.add(bytes());
        }
        return out;
    }

    /** Bytes not read yet: the most elements a count read next can describe (each takes at least one byte). */
    public int remaining() {
        return in.length - pos;
    }

    public boolean atEnd() {
        return pos == in.length;
    }

    /** Fails unless every byte was read (trailing garbage is malformed). */
    public void end() {
        if (pos != in.length) {
            throw new WireException((in.length - pos) + " unexpected trailing bytes");
        }
    }
}
