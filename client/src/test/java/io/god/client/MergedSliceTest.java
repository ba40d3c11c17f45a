package io.god.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Merged slices: per key the newest copy (DESIGN §5) across the replicas' Stamped answers, tombstones dropped. */
class MergedSliceTest {

    static final ObjectMapper M = new ObjectMapper();

    static ObjectNode e(int key, long ts, byte[] value) {
        ObjectNode n = M.createObjectNode().put("Key", new byte[] {(byte) key});
        n = value == null ? n.putNull("Value") : n.put("Value", value);
        return n.put("Exists", value != null).put("Timestamp", ts);
    }

    static ArrayNode answer(ObjectNode... entries) {
        ArrayNode a = M.createArrayNode();
        for (ObjectNode n : entries) {
            a.add(n);
        }
        return a;
    }

    static List<String> keysAndValues(List<GodClient.Entry> es) {
        return es.stream().map(x -> x.key()[0] + "=" + (x.value().length == 0 ? "" : String.valueOf(x.value()[0])))
                .toList();
    }

    @Test
    void newestPerKeyWinsAndTombstonesAreDropped() {
        List<JsonNode> answers = List.of(
                answer(e(1, 5, new byte[] {1}), e(2, 5, new byte[] {2}), e(3, 1, new byte[] {3})),
                answer(e(1, 6, null), e(3, 2, new byte[] {33}), e(4, 1, new byte[] {4})));
        // 1: newer tombstone hides the value; 3: newer value wins; 2 and 4 only on one replica
        assertThat(keysAndValues(MergedSlices.merge(answers, false))).containsExactly("2=2", "3=33", "4=4");
        assertThat(keysAndValues(MergedSlices.merge(answers, true))).containsExactly("4=4", "3=33", "2=2");
    }

    @Test
    void tiesFollowLastWriteWins() {
        // equal timestamps: the tombstone beats the value, whichever replica answered first
        assertThat(MergedSlices.merge(List.of(answer(e(1, 7, new byte[] {9})), answer(e(1, 7, null))), false)).isEmpty();
        assertThat(MergedSlices.merge(List.of(answer(e(1, 7, null)), answer(e(1, 7, new byte[] {9}))), false)).isEmpty();
        // equal timestamps, both values: the larger value bytes (unsigned) win
        assertThat(keysAndValues(MergedSlices.merge(List.of(answer(e(1, 7, new byte[] {0x7f})),
                answer(e(1, 7, new byte[] {(byte) 0x80}))), false))).containsExactly("1=-128");
        assertThat(keysAndValues(MergedSlices.merge(List.of(answer(e(1, 7, new byte[] {(byte) 0x80})),
                answer(e(1, 7, new byte[] {0x7f}))), false))).containsExactly("1=-128");
    }

    /** The reference's TestMergeItems cases (§8.1). */
    @Test
    void referenceMergeItemsCases() {
        byte[] v = {1};
        assertThat(keysAndValues(MergedSlices.merge(List.of(answer(e(4, 44, v)), answer(e(5, 44, v))), true)))
                .containsExactly("5=1", "4=1");
        assertThat(MergedSlices.mergeByKey(List.of(answer(e(5, 45, v)), answer(e(5, 44, v))), false))
                .extracting(n -> n.get("Timestamp").asLong()).containsExactly(45L);
        assertThat(MergedSlices.mergeByKey(List.of(answer(e(5, 44, v)), answer(e(5, 45, v))), false))
                .extracting(n -> n.get("Timestamp").asLong()).containsExactly(45L);
        assertThat(keysAndValues(MergedSlices.merge(List.of(
                answer(e(5, 45, v), e(6, 45, v), e(7, 45, v), e(8, 45, v)),
                answer(e(5, 45, v), e(7, 45, v), e(8, 45, v))), false)))
                .containsExactly("5=1", "6=1", "7=1", "8=1");
    }

    @Test
    void oneAnswerIsItsOwnLiveEntries() {
        assertThat(keysAndValues(MergedSlices.merge(List.of(answer(e(2, 1, new byte[0]), e(3, 1, null))), false)))
                .containsExactly("2=");
        assertThat(MergedSlices.merge(List.of(answer()), false)).isEmpty();
    }

    private static io.god.wire.SliceCall.Stamped st(int key, long ts, String value) {
        return new io.god.wire.SliceCall.Stamped(new byte[] {(byte) key}, value != null, ts,
                value == null ? null : value.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private static List<String> typed(List<io.god.wire.SliceCall.Stamped> merged) {
        return merged.stream().map(e -> e.key()[0] + (e.exists() ? "=" + new String(e.value(),
                java.nio.charset.StandardCharsets.UTF_8) : "-")).toList();
    }

    @Test
    void typedAnswersMergeInWalkOrderNewestCopyPerKey() {
        // three replicas, each in walk order, each missing some keys; key 3 deleted later on one, key 200 > 127
        var up = List.of(List.of(st(1, 5, "a"), st(3, 5, "c"), st(200, 5, "z")),
                List.of(st(2, 5, "b"), st(3, 9, null)),
                List.of(st(1, 7, "A"), st(4, 5, "d")));
        assertThat(typed(MergedSlices.mergeStamped(up, false))).containsExactly("1=A", "2=b", "3-", "4=d", "-56=z");
        var down = up.stream().map(a -> {
            var r = new java.util.ArrayList<>(a);
            java.util.Collections.reverse(r);
            return List.copyOf(r);
        }).toList();
        assertThat(typed(MergedSlices.mergeStamped(down, true))).containsExactly("-56=z", "4=d", "3-", "2=b", "1=A");
        assertThat(MergedSlices.mergeStamped(List.of(List.of(), List.of()), false)).isEmpty();
        assertThat(typed(MergedSlices.mergeStamped(List.of(up.get(1)), false))).containsExactly("2=b", "3-");
    }
}
