package io.god.tree;

import java.io.ByteArrayOutputStream;

/**
 * Keys of a mirror tree: {@code escape(value) ‖ 0x00 0x01 ‖ key}, where escape turns every 0x00 of the
 * value into 0x00 0xff. Mirror keys therefore sort by value, then by original key, and unlike the
 * reference's {@code value ‖ 0x00 ‖ escape(key)} no two (value, key) pairs can collide.
 */
final class MirrorKeys {

    private static final int TERMINATOR = 0x01;
    private static final int ESCAPED_ZERO = 0xff;

    private MirrorKeys() {
    }

    static byte[] encode(byte[] value, byte[] key) {
        byte[] prefix = valuePrefix(value, TERMINATOR);
        byte[] out = java.util.Arrays.copyOf(prefix, prefix.length + key.length);
        System.arraycopy(key, 0, out, prefix.length, key.length);
        return out;
    }

    /** The smallest mirror key of any entry with this value. */
    static byte[] lowestWith(byte[] value) {
        return valuePrefix(value, TERMINATOR);
    }

    /** A mirror key above every entry with this value and below every entry with a larger value. */
    static byte[] aboveAllWith(byte[] value) {
        return valuePrefix(value, TERMINATOR + 1);
    }

    /** The value part of a mirror key. */
    static byte[] value(byte[] mirrorKey) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(mirrorKey.length);
        for (int i = 0; i < mirrorKey.length; i++) {
            int b = mirrorKey[i] & 0xff;
            if (b != 0) {
                out.write(b);
            } else if ((mirrorKey[i + 1] & 0xff) == ESCAPED_ZERO) {
                out.write(0);
                i++;
            } else {
                break;
            }
        }
        return out.toByteArray();
    }

    private static byte[] valuePrefix(byte[] value, int terminator) {
        int zeros = 0;
        for (byte b : value) {
            if (b == 0) {
                zeros++;
            }
        }
        byte[] out = new byte[value.length + zeros + 2];
        int j = 0;
        for (byte b : value) {
            out[j++] = b;
            if (b == 0) {
                out[j++] = (byte) ESCAPED_ZERO;
            }
        }
        out[j++] = 0;
        out[j] = (byte) terminator;
        return out;
    }
}
