package io.god.resp;

import io.god.command.ScoreCodec;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Sorted-set scores as Redis 7.0 reads and writes them: parsed as strtod does (inf, -inf, +inf, infinity; NaN
 * refused), formatted with {@code %.17g} (so 1.1 answers 1.1000000000000001, as 7.0 does; 7.2 answers the
 * shortest form), and score range bounds ({@code (1.5}, {@code -inf}) as {@link ScoreCodec} bytes for the mirror.
 */
final class Scores {

    static final String NOT_A_FLOAT = "value is not a valid float";
    static final String BAD_RANGE = "min or max is not a float";

    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final MathContext SEVENTEEN = new MathContext(17, RoundingMode.HALF_EVEN);

    private Scores() {
    }

    /** A score argument; {@code message} is the error when it is none. */
    static double parse(byte[] b, String message) {
        String t = RespCommands.text(b);
        switch (t.toLowerCase(Locale.ROOT)) {
            case "inf", "+inf", "infinity", "+infinity" -> {
                return Double.POSITIVE_INFINITY;
            }
            case "-inf", "-infinity" -> {
                return Double.NEGATIVE_INFINITY;
            }
            default -> {
                if (!DECIMAL.matcher(t).matches()) {
                    throw new IllegalArgumentException(message);
                }
                double d = Double.parseDouble(t); // overflow gives ±inf, as strtod's ERANGE is ignored by Redis' callers
                if (Double.isNaN(d)) {
                    throw new IllegalArgumentException(message);
                }
                return d;
            }
        }
    }

    static double parse(byte[] b) {
        return parse(b, NOT_A_FLOAT);
    }

    /** {@code %.17g} of glibc: 17 significant digits, trailing zeros dropped, exponent form outside 1e-4..1e17. */
    static String format(double d) {
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0) {
            return Double.doubleToRawLongBits(d) < 0 ? "-0" : "0";
        }
        BigDecimal r = new BigDecimal(d).round(SEVENTEEN);
        int exponent = r.precision() - r.scale() - 1;
        String digits = r.unscaledValue().abs().toString();
        StringBuilder out = new StringBuilder(d < 0 ? "-" : "");
        if (exponent < -4 || exponent >= 17) {
            out.append(digits.charAt(0));
            String frac = stripZeros(digits.substring(1));
            if (!frac.isEmpty()) {
                out.append('.').append(frac);
            }
            out.append('e').append(exponent < 0 ? '-' : '+');
            int e = Math.abs(exponent);
            out.append(e < 10 ? "0" : "").append(e);
            return out.toString();
        }
        String plain = r.abs().toPlainString();
        if (plain.indexOf('.') >= 0) {
            plain = stripZeros(plain);
            if (plain.endsWith(".")) {
                plain = plain.substring(0, plain.length() - 1);
            }
        }
        return out.append(plain).toString();
    }

    static byte[] formatted(byte[] encoded) {
        return format(ScoreCodec.decode(encoded)).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static String stripZeros(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '0') {
            end--;
        }
        return s.substring(0, end);
    }

    /** One end of a score range: {@code (x} exclusive, {@code x} inclusive, {@code -inf}/{@code +inf}. */
    record Bound(byte[] value, boolean inclusive) {
        static Bound parse(byte[] b) {
            boolean open = b.length > 0 && b[0] == '(';
            byte[] rest = open ? java.util.Arrays.copyOfRange(b, 1, b.length) : b;
            return new Bound(ScoreCodec.encode(Scores.parse(rest, BAD_RANGE)), !open);
        }
    }
}
