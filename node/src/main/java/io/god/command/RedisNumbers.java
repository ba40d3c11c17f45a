package io.god.command;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Numbers in hash fields as Redis 7.0 reads and writes them (HINCRBY, HINCRBYFLOAT): integers as its strict
 * {@code string2ll} (no sign +, no leading zero, no space, 64 bits), floats as x86 {@code long double}s (64-bit
 * mantissa) parsed by {@code strtold} (decimal forms and inf; hex floats refused), added in that precision and
 * written as {@code ld2string(LD_STR_HUMAN)}: {@code %.17Lf} with the trailing zeros dropped. A long double is held
 * exactly, as a BigDecimal.
 */
public final class RedisNumbers {

    /** Redis' MAX_LONG_DOUBLE_CHARS: longer texts are no number. */
    private static final int MAX_CHARS = 5 * 1024;
    private static final Pattern INTEGER = Pattern.compile("0|-?[1-9][0-9]{0,19}");
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final int MANTISSA_BITS = 64;
    /** Exponent range of the x86 extended format: normal values in [2^-16382, 2^16384). */
    private static final int MAX_EXPONENT = 16384;
    private static final int MIN_EXPONENT = -16382 - 63;

    private RedisNumbers() {
    }

    /** {@code string2ll}: the integer, or null when the text is none (or out of 64 bits). */
    public static Long integer(byte[] b) {
        String t = new String(b, StandardCharsets.US_ASCII);
        if (!INTEGER.matcher(t).matches()) {
            return null;
        }
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * {@code string2ld}: the long double (rounded to 64 significant bits); {@link #INFINITE} for inf (either sign),
     * null for no number (NaN, overflow, underflow to 0, other text).
     */
    public static BigDecimal longDouble(byte[] b) {
        if (b.length == 0 || b.length >= MAX_CHARS) {
            return null;
        }
        String t = new String(b, StandardCharsets.US_ASCII);
        switch (t.toLowerCase(Locale.ROOT)) {
            case "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity" -> {
                return INFINITE;
            }
            default -> {
                if (!DECIMAL.matcher(t).matches()) {
                    return null;
                }
            }
        }
        BigDecimal exact;
        try {
            exact = new BigDecimal(t);
        } catch (NumberFormatException e) {
            return null; // an exponent beyond int: overflow or underflow
        }
        long magnitude = (long) exact.precision() - exact.scale();
        if (exact.signum() != 0 && (magnitude > 4934 || magnitude < -4952)) {
            return null; // strtold's ERANGE: out of the long double's range
        }
        BigDecimal r = round(exact);
        return r == INFINITE || exact.signum() != 0 && r.signum() == 0 ? null : r;
    }

    /** Stands for ±infinity (also what {@link #round} gives on overflow). */
    public static final BigDecimal INFINITE = new BigDecimal("1e999999");

    /** The sum of two long doubles in long double precision; {@link #INFINITE} when it overflows. */
    public static BigDecimal add(BigDecimal a, BigDecimal b) {
        return round(a.add(b));
    }

    /** {@code ld2string(LD_STR_HUMAN)}: {@code %.17Lf}, trailing zeros (and a trailing point) dropped, -0 as 0. */
    public static String human(BigDecimal v) {
        String s = v.setScale(17, RoundingMode.HALF_EVEN).toPlainString();
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        s = s.substring(0, end);
        return s.equals("-0") ? "0" : s;
    }

    /** {@code x} rounded to the nearest long double (64-bit mantissa, ties to even); {@link #INFINITE} over range. */
    static BigDecimal round(BigDecimal x) {
        if (x.signum() == 0) {
            return BigDecimal.ZERO;
        }
        BigInteger num = x.unscaledValue().abs();
        BigInteger den = BigInteger.ONE;
        if (x.scale() > 0) {
            den = BigInteger.TEN.pow(x.scale());
        } else {
            num = num.multiply(BigInteger.TEN.pow(-x.scale()));
        }
        int e = num.bitLength() - den.bitLength() - MANTISSA_BITS; // |x| / 2^e is about 2^63..2^65
        BigInteger[] qr;
        while (true) {
            BigInteger n = e < 0 ? num.shiftLeft(-e) : num;
            BigInteger d = e > 0 ? den.shiftLeft(e) : den;
            qr = n.divideAndRemainder(d);
            if (qr[0].bitLength() > MANTISSA_BITS) {
                e++;
            } else if (qr[0].bitLength() < MANTISSA_BITS) {
                e--;
            } else {
                int half = qr[1].shiftLeft(1).compareTo(d);
                if (half > 0 || half == 0 && qr[0].testBit(0)) {
                    qr[0] = qr[0].add(BigInteger.ONE);
                }
                break;
            }
        }
        BigInteger m = qr[0];
        if (m.bitLength() > MANTISSA_BITS) { // rounded up to 2^64
            m = m.shiftRight(1);
            e++;
        }
        if (e + MANTISSA_BITS > MAX_EXPONENT) {
            return INFINITE;
        }
        if (e < MIN_EXPONENT) {
            return BigDecimal.ZERO; // below the normal range (the subnormals are not modelled)
        }
        BigDecimal v = e >= 0 ? new BigDecimal(m.shiftLeft(e)) : new BigDecimal(m.multiply(BigInteger.valueOf(5)
                .pow(-e)), -e);
        return x.signum() < 0 ? v.negate() : v;
    }
}
