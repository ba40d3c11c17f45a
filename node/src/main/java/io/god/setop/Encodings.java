package io.god.setop;

import java.math.BigInteger;

/**
 * Value encodings understood by the numeric merge functions (reference §4.4).
 *
 * <ul>
 *   <li>int64: 8 bytes big-endian two's complement; decoding reads the first 8 bytes, shorter
 *       values are undecodable.
 *   <li>float64: 8 bytes big-endian IEEE-754; same length rule.
 *   <li>big integer: the original's form is the magnitude only, big-endian, minimal length (zero is
 *       the empty array), so the sign was lost. This port keeps that form for every non-negative
 *       number and encodes a negative number as {@code 0x00} followed by the minimal magnitude
 *       ({@code -5 -> 00 05}, {@code -258 -> 00 01 02}). A value is read as negative only when it is
 *       at least two bytes long, starts with {@code 0x00} and its second byte is not {@code 0x00};
 *       every other value is read as an unsigned magnitude, exactly as the original read it. The
 *       original never wrote a leading zero byte, so everything it stored decodes unchanged; a
 *       fixed-width unsigned value written by hand decodes unchanged as long as it does not start
 *       with exactly one zero byte followed by a non-zero byte.
 * </ul>
 */
public final class Encodings {
    private Encodings() {}

    public static byte[] encodeInt64(long v) {
        byte[] b = new byte[8];
        for (int i = 7; i >= 0; i--) {
            b[i] = (byte) v;
            v >>>= 8;
        }
        return b;
    }

    /** True when {@link #decodeInt64} (and {@link #decodeFloat64}) can read {@code b}. */
    public static boolean isDecodable64(byte[] b) {
        return b != null && b.length >= 8;
    }

    /** Reads the first 8 bytes as a big-endian int64. */
    public static long decodeInt64(byte[] b) {
        requireDecodable(b);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[i] & 0xff);
        }
        return v;
    }

    public static byte[] encodeFloat64(double v) {
        return encodeInt64(Double.doubleToRawLongBits(v));
    }

    /** Reads the first 8 bytes as a big-endian IEEE-754 double. */
    public static double decodeFloat64(byte[] b) {
        requireDecodable(b);
        return Double.longBitsToDouble(decodeInt64(b));
    }

    /** Encodes a big integer in the sign-preserving form described above. */
    public static byte[] encodeBigInt(BigInteger v) {
        byte[] mag = magnitude(v.abs());
        if (v.signum() >= 0) {
            return mag;
        }
        byte[] out = new byte[mag.length + 1];
        System.arraycopy(mag, 0, out, 1, mag.length);
        return out;
    }

    /** Decodes both the sign-preserving form and the original's magnitude-only form. */
    public static BigInteger decodeBigInt(byte[] b) {
        if (b.length >= 2 && b[0] == 0 && b[1] != 0) {
            return new BigInteger(1, b, 1, b.length - 1).negate();
        }
        return new BigInteger(1, b);
    }

    /** The original's encoding: minimal big-endian magnitude, sign dropped. */
    public static byte[] encodeBigIntMagnitude(BigInteger v) {
        return magnitude(v.abs());
    }

    private static byte[] magnitude(BigInteger nonNegative) {
        if (nonNegative.signum() == 0) {
            return new byte[0];
        }
        byte[] twos = nonNegative.toByteArray();
        if (twos[0] == 0) {
            byte[] out = new byte[twos.length - 1];
            System.arraycopy(twos, 1, out, 0, out.length);
            return out;
        }
        return twos;
    }

    private static void requireDecodable(byte[] b) {
        if (!isDecodable64(b)) {
            throw new IllegalArgumentException(
                    "need at least 8 bytes to decode a 64-bit number, got " + (b == null ? "null" : b.length));
        }
    }
}
