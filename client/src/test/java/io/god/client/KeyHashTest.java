package io.god.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The Go implementation's vectors (reference §9.2), so hashed keys interoperate with Go clients. */
class KeyHashTest {

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    @Test
    void matchesTheReferenceVectors() {
        assertThat(hex(KeyHash.murmur(""))).isEqualTo("00000000000000000000000000000000");
        assertThat(hex(KeyHash.murmur("a"))).isEqualTo("85555565f6597889e6b53a48510e895a");
        assertThat(hex(KeyHash.murmur("hello"))).isEqualTo("cbd8a7b341bd9b025b1e906a48ae1d19");
        assertThat(hex(KeyHash.murmur("0"))).isEqualTo("2ac9debed546a3803a8de9e53c875e09");
        assertThat(hex(KeyHash.murmur("1"))).isEqualTo("71fbbbfe8a7b7c71942aeb9bf9f0f637");
        assertThat(hex(KeyHash.murmur(1L))).isEqualTo("5752fae69d1653da80d26b9fc2bbad56");
    }

    @Test
    void isSixteenBytesAndDeterministic() {
        assertThat(KeyHash.murmur("some key")).hasSize(KeyHash.SIZE).isEqualTo(KeyHash.murmur("some key"));
        assertThat(KeyHash.murmur("some key")).isNotEqualTo(KeyHash.murmur("some key "));
    }
}
