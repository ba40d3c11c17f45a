package io.god.setop;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.DoubleBinaryOperator;
import java.util.function.LongBinaryOperator;

/**
 * Implementations of {@link Merge}, as the original's {@code setop/merges.go} with its crashes
 * turned into errors: integer and big-integer division by zero throws
 * {@link SetOpArithmeticException} (float division follows IEEE-754: ±Inf/NaN); a fold with no value
 * at all returns an empty list instead of indexing past the end; huge Append/ConCat weights are
 * refused instead of exhausting memory.
 *
 * <p>Weights: Append/ConCat repeat {@code (int) w} times (0.5 → 0, negative → 0); integer and big
 * integer merges multiply each new value by {@code (long) w}; float merges by {@code w}. Values too
 * short to decode as int64/float64 are skipped, as in the original.
 */
final class Merges {
    /** Upper bound on values produced by one Append and on bytes produced by one ConCat. */
    static final long MAX_APPEND_VALUES = 1 << 20;
    static final long MAX_CONCAT_BYTES = 64L << 20;

    private Merges() {}

    private static boolean none(List<byte[]> old) {
        return old == null || old.isEmpty();
    }

    private static int copies(double w) {
        return w >= 1 ? (int) Math.min(w, Integer.MAX_VALUE) : 0;
    }

    static List<byte[]> append(List<byte[]> old, List<byte[]> values, double w) {
        int n = values.isEmpty() ? 0 : copies(w);
        long size = (old == null ? 0 : old.size()) + (long) n * values.size();
        if (size > MAX_APPEND_VALUES) {
            throw new SetOpException("Append would produce " + size + " values (weight " + w + "); limit " + MAX_APPEND_VALUES);
        }
        List<byte[]> out = new ArrayList<>((int) size);
        if (old != null) {
            out.addAll(old);
        }
        for (int i = 0; i < n; i++) {
            out.addAll(values);
        }
        return out;
    }

    static List<byte[]> concat(List<byte[]> old, List<byte[]> values, double w) {
        int n = copies(w);
        long oldLen = 0;
        long newLen = 0;
        if (old != null) {
            for (byte[] b : old) {
                oldLen += b.length;
            }
        }
        for (byte[] b : values) {
            newLen += b.length;
        }
        if (newLen == 0) {
            n = 0; // nothing to repeat, however large the weight
        }
        long total = oldLen + n * newLen;
        if (total > MAX_CONCAT_BYTES) {
            throw new SetOpException("ConCat would produce " + total + " bytes (weight " + w + "); limit " + MAX_CONCAT_BYTES);
        }
        byte[] out = new byte[(int) total];
        int at = 0;
        if (old != null) {
            for (byte[] b : old) {
                System.arraycopy(b, 0, out, at, b.length);
                at += b.length;
            }
        }
        for (int i = 0; i < n; i++) {
            for (byte[] b : values) {
                System.arraycopy(b, 0, out, at, b.length);
                at += b.length;
            }
        }
        return List.of(out);
    }

    // ---- int64 -------------------------------------------------------------------------------

    static List<byte[]> integerSum(List<byte[]> old, List<byte[]> values, double w) {
        return List.of(Encodings.encodeInt64(foldLongs(old, values, (long) w, 0, Long::sum)));
    }

    static List<byte[]> integerMul(List<byte[]> old, List<byte[]> values, double w) {
        return List.of(Encodings.encodeInt64(foldLongs(old, values, (long) w, 1, (x, y) -> x * y)));
    }

    /** op over identity, every decodable old value and every decodable new value times w. */
    private static long foldLongs(List<byte[]> old, List<byte[]> values, long w, long identity, LongBinaryOperator op) {
        long acc = identity;
        if (old != null) {
            for (byte[] b : old) {
                if (Encodings.isDecodable64(b)) {
                    acc = op.applyAsLong(acc, Encodings.decodeInt64(b));
                }
            }
        }
        for (byte[] b : values) {
            if (Encodings.isDecodable64(b)) {
                acc = op.applyAsLong(acc, Encodings.decodeInt64(b) * w);
            }
        }
        return acc;
    }

    static List<byte[]> integerDiv(List<byte[]> old, List<byte[]> values, double w) {
        long lw = (long) w;
        long acc;
        List<byte[]> rest;
        if (!none(old)) {
            acc = Encodings.isDecodable64(old.get(0)) ? Encodings.decodeInt64(old.get(0)) : 0;
            rest = values;
        } else if (values.isEmpty()) {
            return List.of();
        } else {
            acc = Encodings.isDecodable64(values.get(0)) ? Encodings.decodeInt64(values.get(0)) * lw : 0;
            rest = values.subList(1, values.size());
        }
        for (byte[] b : rest) {
            if (Encodings.isDecodable64(b)) {
                long d = Encodings.decodeInt64(b) * lw;
                if (d == 0) {
                    throw new SetOpArithmeticException("IntegerDiv: division by zero (divisor "
                            + Encodings.decodeInt64(b) + " with weight " + w + ")");
                }
                acc /= d;
            }
        }
        return List.of(Encodings.encodeInt64(acc));
    }

    // ---- float64 -----------------------------------------------------------------------------

    static List<byte[]> floatSum(List<byte[]> old, List<byte[]> values, double w) {
        return List.of(Encodings.encodeFloat64(foldDoubles(old, values, w, 0, Double::sum)));
    }

    static List<byte[]> floatMul(List<byte[]> old, List<byte[]> values, double w) {
        return List.of(Encodings.encodeFloat64(foldDoubles(old, values, w, 1, (x, y) -> x * y)));
    }

    private static double foldDoubles(List<byte[]> old, List<byte[]> values, double w, double identity,
            DoubleBinaryOperator op) {
        double acc = identity;
        if (old != null) {
            for (byte[] b : old) {
                if (Encodings.isDecodable64(b)) {
                    acc = op.applyAsDouble(acc, Encodings.decodeFloat64(b));
                }
            }
        }
        for (byte[] b : values) {
            if (Encodings.isDecodable64(b)) {
                acc = op.applyAsDouble(acc, Encodings.decodeFloat64(b) * w);
            }
        }
        return acc;
    }

    static List<byte[]> floatDiv(List<byte[]> old, List<byte[]> values, double w) {
        double acc;
        List<byte[]> rest;
        if (!none(old)) {
            acc = Encodings.isDecodable64(old.get(0)) ? Encodings.decodeFloat64(old.get(0)) : 0;
            rest = values;
        } else if (values.isEmpty()) {
            return List.of();
        } else {
            acc = Encodings.isDecodable64(values.get(0)) ? Encodings.decodeFloat64(values.get(0)) * w : 0;
            rest = values.subList(1, values.size());
        }
        for (byte[] b : rest) {
            if (Encodings.isDecodable64(b)) {
                acc /= Encodings.decodeFloat64(b) * w;
            }
        }
        return List.of(Encodings.encodeFloat64(acc));
    }

    // ---- big integers ------------------------------------------------------------------------

    static List<byte[]> bigIntAdd(List<byte[]> old, List<byte[]> values, double w) {
        BigInteger bw = BigInteger.valueOf((long) w);
        BigInteger sum = BigInteger.ZERO;
        if (old != null) {
            for (byte[] b : old) {
                sum = sum.add(Encodings.decodeBigInt(b));
            }
        }
        for (byte[] b : values) {
            sum = sum.add(Encodings.decodeBigInt(b).multiply(bw));
        }
        return List.of(Encodings.encodeBigInt(sum));
    }

    static List<byte[]> bigIntMul(List<byte[]> old, List<byte[]> values, double w) {
        BigInteger bw = BigInteger.valueOf((long) w);
        BigInteger prod = BigInteger.ONE;
        if (old != null) {
            for (byte[] b : old) {
                prod = prod.multiply(Encodings.decodeBigInt(b));
            }
        }
        for (byte[] b : values) {
            prod = prod.multiply(Encodings.decodeBigInt(b).multiply(bw));
        }
        return List.of(Encodings.encodeBigInt(prod));
    }

    static List<byte[]> bigIntAnd(List<byte[]> old, List<byte[]> values, double w) {
        return fold(old, values, w, BigInteger::and);
    }

    static List<byte[]> bigIntAndNot(List<byte[]> old, List<byte[]> values, double w) {
        return fold(old, values, w, BigInteger::andNot);
    }

    static List<byte[]> bigIntOr(List<byte[]> old, List<byte[]> values, double w) {
        return fold(old, values, w, BigInteger::or);
    }

    static List<byte[]> bigIntXor(List<byte[]> old, List<byte[]> values, double w) {
        return fold(old, values, w, BigInteger::xor);
    }

    /** Euclidean division, as Go's {@code big.Int.Div}: the remainder is never negative. */
    static List<byte[]> bigIntDiv(List<byte[]> old, List<byte[]> values, double w) {
        return fold(old, values, w, (x, y) -> {
            nonZero(y, "BigIntDiv");
            BigInteger[] qr = x.divideAndRemainder(y);
            if (qr[1].signum() < 0) {
                return y.signum() > 0 ? qr[0].subtract(BigInteger.ONE) : qr[0].add(BigInteger.ONE);
            }
            return qr[0];
        });
    }

    /** Euclidean modulus, as Go's {@code big.Int.Mod}: result in {@code [0, |y|)}. */
    static List<byte[]> bigIntMod(List<byte[]> old, List<byte[]> values, double w) {
        return fold(old, values, w, (x, y) -> {
            nonZero(y, "BigIntMod");
            return x.mod(y.abs());
        });
    }

    /** Truncated remainder, as Go's {@code big.Int.Rem}: sign of the dividend. */
    static List<byte[]> bigIntRem(List<byte[]> old, List<byte[]> values, double w) {
        return fold(old, values, w, (x, y) -> {
            nonZero(y, "BigIntRem");
            return x.remainder(y);
        });
    }

    private static void nonZero(BigInteger y, String merge) {
        if (y.signum() == 0) {
            throw new SetOpArithmeticException(merge + ": division by zero");
        }
    }

    /** acc = old[0] (other old values ignored) or new[0]·w; then acc = op(acc, v·w) for the rest. */
    private static List<byte[]> fold(List<byte[]> old, List<byte[]> values, double w, BinaryOperator<BigInteger> op) {
        BigInteger bw = BigInteger.valueOf((long) w);
        BigInteger acc;
        List<byte[]> rest;
        if (!none(old)) {
            acc = Encodings.decodeBigInt(old.get(0));
            rest = values;
        } else if (values.isEmpty()) {
            return List.of();
        } else {
            acc = Encodings.decodeBigInt(values.get(0)).multiply(bw);
            rest = values.subList(1, values.size());
        }
        for (byte[] b : rest) {
            acc = op.apply(acc, Encodings.decodeBigInt(b).multiply(bw));
        }
        return List.of(Encodings.encodeBigInt(acc));
    }

    // ---- selection ---------------------------------------------------------------------------

    static List<byte[]> first(List<byte[]> old, List<byte[]> values, double w) {
        if (!none(old)) {
            return List.of(old.get(0));
        }
        return values.isEmpty() ? List.of() : List.of(values.get(0));
    }

    static List<byte[]> last(List<byte[]> old, List<byte[]> values, double w) {
        if (values.isEmpty()) {
            return old == null ? List.of() : old;
        }
        return List.of(values.get(values.size() - 1));
    }
}
