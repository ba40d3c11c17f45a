package io.god.command;

/**
 * A sorted-set score as 8 bytes that compare (unsigned, big-endian) as the doubles do: the sign bit flipped for
 * positives, every bit flipped for negatives. A mirrored sub tree ordered by these values therefore orders its
 * members by score, then by member: Redis' order. −0.0 is stored as 0.0 (Redis compares them equal and answers 0
 * for both); NaN has no place in the order and is refused before it gets here.
 */
public final class ScoreCodec {

    /** Bytes of an encoded score. */
    public static final int SIZE = 8;

    private ScoreCodec() {
    }

    public static byte[] encode(double score) {
        if (Double.isNaN(score)) {
            throw new IllegalArgumentException("a score is not a number (NaN)");
        }
        long bits = Double.doubleToLongBits(score == 0.0 ? 0.0 : score);
        bits = bits < 0 ? ~bits : bits ^ Long.MIN_VALUE;
        byte[] out = new byte[SIZE];
        for (int i = SIZE - 1; i >= 0; i--) {
            out[i] = (byte) bits;
            bits >>>= 8;
        }
        return out;
    }

    /** The score of 8 encoded bytes; anything else is not a score (a value written by another client). */
    public static double decode(byte[] b) {
        if (b == null || b.length != SIZE) {
            throw new IllegalArgumentException("a sorted-set value is not an 8-byte score");
        }
        long bits = 0;
        for (byte x : b) {
            bits = bits << 8 | (x & 0xff);
        }
        bits = bits < 0 ? bits ^ Long.MIN_VALUE : ~bits;
        return Double.longBitsToDouble(bits);
    }
}
