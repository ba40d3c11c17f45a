package io.god.setop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.HexFormat;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class EncodingsTest {
    static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex);
    }

    @Test
    void referenceVectors() {
        assertThat(hex(Encodings.encodeInt64(-2))).isEqualTo("fffffffffffffffe");
        assertThat(hex(Encodings.encodeFloat64(1.5))).isEqualTo("3ff8000000000000");
        assertThat(hex(Encodings.encodeBigIntMagnitude(BigInteger.valueOf(258)))).isEqualTo("0102");
        assertThat(hex(Encodings.encodeBigIntMagnitude(BigInteger.ZERO))).isEmpty();
        assertThat(hex(Encodings.encodeBigIntMagnitude(BigInteger.valueOf(-5)))).isEqualTo("05");
        assertThat(Encodings.decodeInt64(bytes("fffffffffffffffe"))).isEqualTo(-2);
        assertThat(Encodings.decodeInt64(bytes("fffffffffffffffe00"))).isEqualTo(-2);
        assertThat(Encodings.decodeFloat64(bytes("3ff8000000000000"))).isEqualTo(1.5);
        assertThatThrownBy(() -> Encodings.decodeInt64(new byte[7])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void signPreservingBigInts() {
        assertThat(hex(Encodings.encodeBigInt(BigInteger.valueOf(258)))).isEqualTo("0102");
        assertThat(hex(Encodings.encodeBigInt(BigInteger.ZERO))).isEmpty();
        assertThat(hex(Encodings.encodeBigInt(BigInteger.valueOf(-5)))).isEqualTo("0005");
        assertThat(hex(Encodings.encodeBigInt(BigInteger.valueOf(-258)))).isEqualTo("000102");
        assertThat(Encodings.decodeBigInt(bytes("0005"))).isEqualTo(-5);
        // the original's magnitude-only form
        assertThat(Encodings.decodeBigInt(bytes("05"))).isEqualTo(5);
        assertThat(Encodings.decodeBigInt(bytes("ff"))).isEqualTo(255);
        assertThat(Encodings.decodeBigInt(bytes(""))).isEqualTo(0);
        assertThat(Encodings.decodeBigInt(bytes("00"))).isEqualTo(0);
        assertThat(Encodings.decodeBigInt(bytes("000005"))).isEqualTo(5);
        assertThat(Encodings.decodeBigInt(bytes("0000000000000102"))).isEqualTo(258);
    }

    @Property(seed = "4711", tries = 500)
    void bigIntRoundTrips(@ForAll BigInteger v) {
        assertThat(Encodings.decodeBigInt(Encodings.encodeBigInt(v))).isEqualTo(v);
        assertThat(Encodings.decodeBigInt(Encodings.encodeBigIntMagnitude(v))).isEqualTo(v.abs());
    }

    @Property(seed = "4712", tries = 200)
    void int64AndFloat64RoundTrip(@ForAll long l, @ForAll double d) {
        assertThat(Encodings.decodeInt64(Encodings.encodeInt64(l))).isEqualTo(l);
        assertThat(Encodings.decodeFloat64(Encodings.encodeFloat64(d))).isEqualTo(d);
    }
}
