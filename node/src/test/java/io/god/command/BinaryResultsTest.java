package io.god.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.god.request.BinaryResults;
import io.god.request.Result;
import io.god.wire.WireException;
import io.god.wire.WireWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The typed answers of binary commands: every kind of result object the executor returns, encoded and decoded, is
 * written by the JSON contract as the same bytes (a forwarding node answers its client what the owner would have);
 * a cut or lying reply is refused as malformed.
 */
class BinaryResultsTest {

    private static final ObjectMapper JSON = Wire.mapper();

    private static byte[] b(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private static Map<String, Object> stamped(String key, String subKey, boolean sub, String value, long ts) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("Key", b(key));
        if (sub) {
            m.put("SubKey", b(subKey));
        }
        m.put("Value", b(value));
        m.put("Exists", value != null);
        m.put("Timestamp", ts);
        return m;
    }

    static List<Object> results() {
        return Arrays.asList(null, Forwarding.NOTHING, 42L, -7L, 3,
                new Result.ValueRes(b("k"), b("v"), true), new Result.ValueRes(null, null, false),
                new Result.SubValueRes(b("k"), b(""), b("v"), true), new Result.SubValueRes(null, null, null, false),
                new Result.SubValueIndexRes(b("k"), b("s"), b("v"), 5, true), new Result.IndexRes(-1, false),
                new Result.UpdateRes(2, List.of(b("a"), b(""))), new Result.UpdateRes(0, null),
                List.of(new Result.ValueRes(b("a"), b("1"), true), new Result.ValueRes(b("b"), b(""), true)), List.of(),
                stamped("k", null, false, "v", 9), stamped("k", null, true, null, 10), stamped(null, "s", true, "v", 1),
                List.of(stamped("a", null, false, "1", 1), stamped("b", null, false, null, 2)),
                List.of(new Result.SetOpResult(b("x"), List.of(b("1"), b("2")))),
                new Result.Conf(null, new TreeMap<>(Map.of("mirrored", "yes", "é", "")), 77),
                new Result.Conf(b("t"), new TreeMap<>(), 0),
                List.of(new Result.Remote(b("p"), "127.0.0.2:1"), new Result.Remote(b("q"), "h:2", "CATCHING_UP")),
                new Result.Description("a:1", b("pos"), "t1", "t2", "t3", "1s", 3, 4, 0.5,
                        List.of(new Result.Remote(b("p"), "a:1"))),
                "tree\n  description");
    }

    @Test
    void everyResultKindIsWrittenAsTheSameJsonAfterTheBinaryCodec() throws Exception {
        for (Object result : results()) {
            byte[] wire = BinaryResults.Reply.ok(result).encode();
            BinaryResults.Reply back = BinaryResults.Reply.decode(wire);
            assertThat(back.status()).isEqualTo(200);
            assertThat(new String(JSON.writeValueAsBytes(back.result()), StandardCharsets.UTF_8)).as(String.valueOf(result))
                    .isEqualTo(new String(JSON.writeValueAsBytes(result), StandardCharsets.UTF_8));
            for (int cut = 0; cut < wire.length; cut++) {
                byte[] part = Arrays.copyOf(wire, cut);
                assertThatThrownBy(() -> BinaryResults.Reply.decode(part)).isInstanceOf(WireException.class);
            }
        }
        BinaryResults.Reply refused = BinaryResults.Reply.decode(BinaryResults.Reply.error(503, "retry").encode());
        assertThat(refused).isEqualTo(new BinaryResults.Reply(503, null, "retry"));
    }

    @Test
    void aReplyDeclaringMoreEntriesThanItsBytesIsRefusedBeforeAllocating() {
        byte[] lying = new WireWriter().varint(200).u8(8).varint(Integer.MAX_VALUE).toBytes();
        assertThatThrownBy(() -> BinaryResults.Reply.decode(lying)).isInstanceOf(WireException.class)
                .hasMessageContaining("out of range");
        byte[] unknownTag = new WireWriter().varint(200).u8(99).toBytes();
        assertThatThrownBy(() -> BinaryResults.Reply.decode(unknownTag)).hasMessageContaining("unknown result tag 99");
    }
}
