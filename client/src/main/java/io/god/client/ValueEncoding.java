package io.god.client;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * How a value's bytes spell a number or a text: the encodings god-cli's {@code --enc} and /v1's
 * {@code enc=} name. The set-expression merges read {@link #INT} (int64, big-endian two's complement:
 * IntegerSum, IntegerDiv, IntegerMul) and {@link #FLOAT} (IEEE-754 float64, big-endian: FloatSum…);
 * their bytes sort like the numbers only when non-negative. {@link #ORDERED_INT} and
 * {@link #ORDERED_FLOAT} are 8 bytes that sort as the numbers do, negatives included (for a mirrored
 * tree ordered by value), which the merges do not read. {@link #BIG} is an unsigned big-endian
 * magnitude (the BigInt merges), {@link #HEX} any bytes as hex digits.
 */
public enum ValueEncoding {
    STRING("string"), INT("int"), FLOAT("float"), BIG("big"), ORDERED_INT("ordered-int"),
    ORDERED_FLOAT("ordered-float"), HEX("hex");

    private final String label;

    ValueEncoding(String label) {
        this.label = label;
    }

    /** The name god-cli and /v1 use. */
    public String label() {
        return label;
    }

    /** The encoding of that name; an IllegalArgumentException listing the names otherwise. */
    public static ValueEncoding named(String name) {
        for (ValueEncoding e : values()) {
            if (e.label.equals(name)) {
                return e;
            }
        }
        throw new IllegalArgumentException("expected string, int, float, big, ordered-int, ordered-float or hex, was "
                + name);
    }

    /** The bytes of {@code text}; an IllegalArgumentException naming the encoding when it is not one of its values. */
    public byte[] encode(String text) {
        try {
            return switch (this) {
                case STRING -> text.getBytes(StandardCharsets.UTF_8);
                case INT -> ByteBuffer.allocate(8).putLong(Long.parseLong(text)).array();
                case FLOAT -> ByteBuffer.allocate(8).putDouble(Double.parseDouble(text)).array();
                case ORDERED_INT -> ByteBuffer.allocate(8).putLong(Long.parseLong(text) ^ Long.MIN_VALUE).array();
                case ORDERED_FLOAT -> {
                    double d = Double.parseDouble(text);
                    if (Double.isNaN(d)) {
                        throw new NumberFormatException("NaN");
                    }
                    long bits = Double.doubleToLongBits(d);
                    yield ByteBuffer.allocate(8).putLong(bits < 0 ? ~bits : bits ^ Long.MIN_VALUE).array();
                }
                case BIG -> {
                    byte[] b = new BigInteger(text).toByteArray();
                    if (b[0] < 0) {
                        throw new NumberFormatException("negative");
                    }
                    yield b.length > 1 && b[0] == 0 ? Arrays.copyOfRange(b, 1, b.length) : b;
                }
                case HEX -> HexFormat.of().parseHex(text);
            };
        } catch (IllegalArgumentException e) { // NumberFormatException, or hex digits that are not
            throw new IllegalArgumentException("'" + text + "' is not a valid " + label + " value"
                    + (this == HEX ? " (an even number of hex digits)" : this == BIG ? " (a whole number ≥ 0)" : ""));
        }
    }

    /** The text of {@code bytes}, or null when they are no value of this encoding (not 8 bytes; not UTF-8). */
    public String decode(byte[] bytes) {
        return switch (this) {
            case STRING -> utf8(bytes);
            case INT -> bytes.length == 8 ? String.valueOf(ByteBuffer.wrap(bytes).getLong()) : null;
            case FLOAT -> bytes.length == 8 ? String.valueOf(ByteBuffer.wrap(bytes).getDouble()) : null;
            case ORDERED_INT -> bytes.length == 8 ? String.valueOf(ByteBuffer.wrap(bytes).getLong() ^ Long.MIN_VALUE)
                    : null;
            case ORDERED_FLOAT -> {
                if (bytes.length != 8) {
                    yield null;
                }
                long bits = ByteBuffer.wrap(bytes).getLong();
                yield String.valueOf(Double.longBitsToDouble(bits < 0 ? bits ^ Long.MIN_VALUE : ~bits));
            }
            case BIG -> new BigInteger(1, bytes).toString();
            case HEX -> HexFormat.of().formatHex(bytes);
        };
    }

    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
