package io.god.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The result records print their bytes readably: text quoted, other bytes as hex, long ones cut. */
class PrintableTest {

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void entriesPrintTextAndHex() {
        assertThat(new GodClient.Entry(utf8("alice"), utf8("30"))).hasToString("Entry[\"alice\"=\"30\"]");
        assertThat(new GodClient.Entry(utf8("n"), new byte[] {0, 0, 0, 0, 0, 0, 0, 7}))
                .hasToString("Entry[\"n\"=0x0000000000000007]");
        assertThat(new GodClient.Entry(utf8("q\"uote"), new byte[0])).hasToString("Entry[\"q\\\"uote\"=\"\"]");
        assertThat(new GodClient.Entry(utf8("grüße"), new byte[] {(byte) 0xff})).hasToString("Entry[\"grüße\"=0xff]");
        assertThat(new GodClient.Entry(null, utf8("v")).toString()).isEqualTo("Entry[null=\"v\"]");
    }

    @Test
    void longValuesAreCutWithTheirLength() {
        String s = new GodClient.Entry(utf8("k"), utf8("x".repeat(100))).toString();
        assertThat(s).isEqualTo("Entry[\"k\"=\"" + "x".repeat(64) + "\"…(100 bytes)]");
    }

    @Test
    void otherRecordsToo() {
        assertThat(new GodClient.Value(utf8("k"), utf8("v"), true, 0)).hasToString("Value[key=\"k\", value=\"v\", exists=true]");
        assertThat(new GodClient.SubValue(utf8("t"), utf8("a"), utf8("1"), 2, true).toString())
                .isEqualTo("SubValue[key=\"t\", subKey=\"a\", value=\"1\", index=2, exists=true]");
        assertThat(new GodClient.SetResult(utf8("a"), List.of(utf8("1"), new byte[] {1})).toString())
                .isEqualTo("SetResult[\"a\"=[\"1\", 0x01]]").doesNotContain("[B@");
    }
}
