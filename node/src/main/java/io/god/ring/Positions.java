package io.god.ring;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/** Ring positions: fixed 16-byte unsigned numbers, arithmetic modulo 2^128. */
public final class Positions {
    public static final int SIZE = 16;
    static final BigInteger MOD = BigInteger.ONE.shiftLeft(128);

    private Positions() {
    }

    public static BigInteger toNumber(byte[] p) {
        return new BigInteger(1, p);
    }

    /** The number modulo 2^128 as exactly 16 big-endian bytes. */
    public static byte[] of(BigInteger n) {
        byte[] raw = n.mod(MOD).toByteArray();
        byte[] out = new byte[SIZE];
        int copy = Math.min(raw.length, SIZE);
        System.arraycopy(raw, raw.length - copy, out, SIZE - copy, copy);
        return out;
    }

    /** Clockwise distance from a to b (2^128 when a equals b: the whole ring). */
    public static BigInteger gap(byte[] a, byte[] b) {
        BigInteger d = toNumber(b).subtract(toNumber(a)).mod(MOD);
        return d.signum() == 0 ? MOD : d;
    }

    /**
     * The position a new, empty node takes: in the biggest gap between consecutive members (the first
     * such gap), at its middle moved by a random offset of up to a quarter of the gap, so that nodes
     * joining at the same moment from the same view do not pick the same position.
     */
    public static byte[] biggestGap(List<byte[]> sortedPositions, Random random) {
        if (sortedPositions.isEmpty()) {
            byte[] p = new byte[SIZE];
            random.nextBytes(p);
            return p;
        }
        BigInteger best = BigInteger.ZERO;
        byte[] from = null;
        for (int i = 0; i < sortedPositions.size(); i++) {
            byte[] a = sortedPositions.get(i);
            byte[] b = sortedPositions.get((i + 1) % sortedPositions.size());
            BigInteger g = gap(a, b);
            if (g.compareTo(best) > 0) {
                best = g;
                from = a;
            }
        }
        BigInteger quarter = best.shiftRight(2);
        BigInteger offset = quarter.signum() == 0 ? BigInteger.ZERO
                : new BigInteger(130, random).mod(quarter.shiftLeft(1)).subtract(quarter);
        return of(toNumber(from).add(best.shiftRight(1)).add(offset));
    }

    public static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }
}
