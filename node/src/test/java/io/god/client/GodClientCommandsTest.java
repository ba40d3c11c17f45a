package io.god.client;

import static io.god.client.GodClient.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.god.node.GodNode;
import io.god.request.Command;
import io.god.testing.ScaledTimeout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The typed methods of {@link GodClient} beyond the point operations travel as binary commands (issue 29: the node's
 * own Request records, {@link io.god.wire.Ops#COMMAND}) and answer what they answered as JSON calls: on a 3-node
 * ring over TCP, every converted method's answer is compared with the same method at nodes that refuse binary
 * commands (an older version: {@link GodNode#COMMAND_REFUSED}, the client falls back to JSON), with values known from
 * the data, and with {@link GodClient#raw} JSON calls; the nodes' JSON-call probe shows which way each went.
 */
@ScaledTimeout(120)
class GodClientCommandsTest {

    /** The commands GodClient sends as binary commands (Nodes too, though the ring refresh still asks it in JSON). */
    private static final Set<String> CONVERTED = Set.of("SubClear", "Clear", "AddConfiguration", "SubAddConfiguration",
            "Next", "Prev", "SubMirrorNext", "SubMirrorPrev", "MirrorFirst", "MirrorLast", "NextIndex", "PrevIndex",
            "MirrorNextIndex", "MirrorPrevIndex", "IndexOf", "ReverseIndexOf", "MirrorIndexOf", "MirrorReverseIndexOf",
            "Count", "MirrorCount", "MirrorSlice", "MirrorReverseSlice", "SliceIndex", "ReverseSliceIndex",
            "MirrorSliceIndex", "MirrorReverseSliceIndex", "MirrorSliceLen", "MirrorReverseSliceLen", "Size",
            "SubSize", "Configuration", "SubConfiguration", "SetExpression", "Describe", "DescribeTree", "Slice",
            "ReverseSlice", "SliceLen", "ReverseSliceLen", "SubNext", "SubPrev", "First", "Last");

    private final ConcurrentLinkedQueue<String> jsonCalls = new ConcurrentLinkedQueue<>();

    @AfterEach
    void reset() {
        GodNode.JSON_CALL_PROBE = null;
        GodNode.COMMAND_REFUSED.clear();
    }

    private Set<String> convertedSentAsJson() {
        return jsonCalls.stream().map(m -> m.substring(Command.SERVICE.length())).filter(CONVERTED::contains)
                .collect(Collectors.toSet());
    }

    /** Every converted read of the seeded data, as text (the answers hold byte arrays). */
    private static List<String> reads(GodClient c, String address) {
        byte[] t = utf8("t");
        List<String> out = new ArrayList<>();
        out.add("next " + c.next(utf8("a")) + " prev " + c.prev(utf8("c")) + " next-last " + c.next(utf8("z")));
        out.add("mirror " + c.subMirrorNext(t, utf8("1")) + c.subMirrorPrev(t, utf8("3")) + c.mirrorFirst(t)
                + c.mirrorLast(t));
        out.add("index " + c.nextIndex(t, 0) + c.prevIndex(t, 2) + c.mirrorNextIndex(t, 0) + c.mirrorPrevIndex(t, 2));
        out.add("indexOf " + c.indexOf(t, utf8("b")) + c.reverseIndexOf(t, utf8("b")) + c.mirrorIndexOf(t, utf8("3"))
                + c.mirrorReverseIndexOf(t, utf8("9")));
        out.add("count " + c.count(t, utf8("a"), utf8("b"), true, true) + " " + c.mirrorCount(t, null, null, true, true));
        out.add("slices " + c.mirrorSlice(t, utf8("1"), utf8("2"), true, true) + c.mirrorReverseSlice(t, null, null,
                true, true) + c.sliceIndex(t, 1L, null) + c.reverseSliceIndex(t, null, 1L) + c.mirrorSliceIndex(t, 0L, 0L)
                + c.mirrorReverseSliceIndex(t, 0L, 1L) + c.mirrorSliceLen(t, utf8("2"), false, 5)
                + c.mirrorReverseSliceLen(t, null, true, 2));
        out.add("sizes " + c.size() + " " + c.subSize(t) + " " + c.subSize(utf8("none")));
        out.add("conf " + c.configuration().get("x") + " " + c.subConfiguration(t));
        out.add("setexpr " + c.setExpression("(U t u)", null) + c.setExpression("(I t u)", utf8("b"), null, true,
                true, 1, null));
        out.add("nodes " + c.nodes().size());
        // the newest-of-replicas walks: each step a command to every replica
        out.add("walks " + c.first(t) + c.last(t) + c.subNext(t, utf8("a")) + c.subPrev(t, utf8("a")));
        // a gateway client's slices, and an empty page, are one node's answer: commands, not merged replica reads
        out.add("pages " + c.sliceLen(t, null, true, 0) + c.reverseSliceLen(t, null, true, 0));
        try (GodClient g = GodClient.builder().endpoints(address).gateway(true).build()) {
            out.add("gateway " + g.slice(t, utf8("b"), null, true, true) + g.reverseSlice(t, null, utf8("b"), true,
                    false) + g.sliceLen(t, utf8("a"), false, 1) + g.reverseSliceLen(t, null, true, 2) + g.first(t)
                    + g.subPrev(t, utf8("c")));
        }
        String described = c.describe(address);
        out.add("describe " + described.contains("\"Addr\":\"" + address + "\"") + " " + c.describeTree(address)
                .isEmpty());
        return out;
    }

    /** An existing entry of the tree t as SubValue prints it. */
    private static String sv(String subKey, String value) {
        return "SubValue[key=\"t\", subKey=\"" + subKey + "\", value=\"" + value + "\", index=0, exists=true]";
    }

    private static void seed(GodClient c) {
        for (String k : List.of("a", "b", "c")) {
            c.put(utf8(k), utf8(k + "v"), true);
        }
        c.subPut(utf8("t"), utf8("a"), utf8("1"), true);
        c.subPut(utf8("t"), utf8("b"), utf8("2"), true);
        c.subPut(utf8("t"), utf8("c"), utf8("3"), true);
        c.subPut(utf8("u"), utf8("b"), utf8("20"), true);
        c.addConfiguration("x", "y");
        c.subAddConfiguration(utf8("t"), "mirrored", "yes");
        c.subPut(utf8("scratch"), utf8("s"), utf8("1"), true);
        c.subClear(utf8("scratch"), true);
    }

    @Test
    void convertedMethodsTravelAsBinaryCommandsAndAnswerAsTheJsonCallsDid() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.start(3);
            GodNode.JSON_CALL_PROBE = (node, method) -> jsonCalls.add(method);
            List<String> binary;
            try (GodClient c = GodClient.builder().endpoints(rings.address(0)).build()) {
                seed(c);
                binary = reads(c, rings.address(1));
                assertThat(c.subSize(utf8("scratch"))).isZero();
                assertThat(convertedSentAsJson()).as("converted methods sent as JSON calls").isEmpty();

                // the values the data gives, and the same methods as raw JSON calls
                assertThat(binary.get(0)).isEqualTo("next Value[key=\"b\", value=\"bv\", exists=true] prev "
                        + "Value[key=\"b\", value=\"bv\", exists=true] next-last Value[key=null, value=null, exists=false]");
                assertThat(binary.get(3)).isEqualTo("indexOf Index[n=1, existed=true]Index[n=1, existed=true]"
                        + "Index[n=2, existed=true]Index[n=0, existed=false]");
                assertThat(binary.get(4)).isEqualTo("count 2 3");
                assertThat(binary.get(5)).isEqualTo("slices [Entry[\"1\"=\"a\"], Entry[\"2\"=\"b\"]]"
                        + "[Entry[\"3\"=\"c\"], Entry[\"2\"=\"b\"], Entry[\"1\"=\"a\"]][Entry[\"b\"=\"2\"], Entry[\"c\"=\"3\"]]"
                        + "[Entry[\"c\"=\"3\"], Entry[\"b\"=\"2\"]][Entry[\"1\"=\"a\"]][Entry[\"3\"=\"c\"], Entry[\"2\"=\"b\"]]"
                        + "[Entry[\"3\"=\"c\"]][Entry[\"3\"=\"c\"], Entry[\"2\"=\"b\"]]");
                assertThat(binary.get(6)).isEqualTo("sizes 7 3 0"); // a, b, c and t's three and u's one entry
                assertThat(binary.get(7)).isEqualTo("conf y {mirrored=yes}");
                assertThat(binary.get(8)).isEqualTo("setexpr [SetResult[\"a\"=[\"1\"]], SetResult[\"b\"=[\"2\", \"20\"]], "
                        + "SetResult[\"c\"=[\"3\"]]][SetResult[\"b\"=[\"2\", \"20\"]]]");
                assertThat(binary.get(9)).isEqualTo("nodes 3");
                assertThat(binary.get(10)).isEqualTo("walks " + sv("a", "1") + sv("c", "3") + sv("b", "2")
                        + "SubValue[key=\"t\", subKey=null, value=null, index=0, exists=false]");
                assertThat(binary.get(11)).isEqualTo("pages [][]");
                assertThat(binary.get(12)).isEqualTo("gateway [Entry[\"b\"=\"2\"], Entry[\"c\"=\"3\"]][Entry[\"a\"=\"1\"]]"
                        + "[Entry[\"b\"=\"2\"]][Entry[\"c\"=\"3\"], Entry[\"b\"=\"2\"]]"
                        + sv("a", "1") + sv("b", "2"));
                assertThat(binary.get(13)).isEqualTo("describe true false");
                ObjectNode body = Json.body().put("Key", utf8("t")).put("SubKey", utf8("b"));
                assertThat(binary.get(3)).startsWith("indexOf " + Json.index(c.raw("IndexOf", utf8("t"), body)));
                assertThat(binary.get(6)).startsWith("sizes " + c.raw("Size", null, Json.body()).asLong());
                assertThat(c.sliceIndex(utf8("t"), 1L, null)).hasToString(Json.entries(c.raw("SliceIndex", utf8("t"),
                        Json.body().put("Key", utf8("t")).put("MinIndex", 1L))).toString());
            }

            // nodes of a version before binary commands: the client falls back to the JSON calls, same answers
            jsonCalls.clear();
            for (int i = 0; i < 3; i++) {
                GodNode.COMMAND_REFUSED.add(rings.address(i));
            }
            try (GodClient c = GodClient.builder().endpoints(rings.address(0)).build()) {
                assertThat(reads(c, rings.address(1))).isEqualTo(binary);
                assertThat(convertedSentAsJson()).as("every converted method, asked in JSON of the older nodes")
                        .containsAll(Set.of("Next", "Prev", "SubMirrorNext", "SubMirrorPrev", "MirrorFirst", "MirrorLast",
                                "NextIndex", "PrevIndex", "MirrorNextIndex", "MirrorPrevIndex", "IndexOf",
                                "ReverseIndexOf", "MirrorIndexOf", "MirrorReverseIndexOf", "Count", "MirrorCount",
                                "MirrorSlice", "MirrorReverseSlice", "SliceIndex", "ReverseSliceIndex",
                                "MirrorSliceIndex", "MirrorReverseSliceIndex", "MirrorSliceLen",
                                "MirrorReverseSliceLen", "Size", "SubSize", "Configuration", "SubConfiguration",
                                "SetExpression", "Describe", "DescribeTree", "Slice", "ReverseSlice", "SliceLen",
                                "ReverseSliceLen", "SubNext", "SubPrev", "First", "Last"));
                c.addConfiguration("x", "z");
                c.subAddConfiguration(utf8("t"), "mirrored", "no");
                assertThat(c.configuration()).containsEntry("x", "z");
                assertThat(c.subConfiguration(utf8("t"))).containsEntry("mirrored", "no");
                c.subClear(utf8("t"), true);
                assertThat(c.subSize(utf8("t"))).isZero();
                c.clear();
                assertThat(c.size()).isZero();
                assertThat(convertedSentAsJson()).contains("AddConfiguration", "SubAddConfiguration", "SubClear",
                        "Clear");
            }
        }
    }

    @Test
    void anOversizeKeyIsRefusedClearlyAsABinaryCommandAndAsItsJsonFallback() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put("god.limits.key-size", "32");
            rings.start(1);
            GodNode.JSON_CALL_PROBE = (node, method) -> jsonCalls.add(method);
            String tooLong = "Key of 33 bytes exceeds god.limits.key-size (32 bytes)";
            try (GodClient c = GodClient.builder().endpoints(rings.address(0)).redundancy(1).build()) {
                assertThatThrownBy(() -> c.indexOf(new byte[33], utf8("s")))
                        .isInstanceOfSatisfying(GodRequestException.class, e -> assertThat(e.status()).isEqualTo(400))
                        .hasMessageContaining(tooLong);
                assertThatThrownBy(() -> c.count(new byte[33], null, null, true, true))
                        .isInstanceOf(GodRequestException.class).hasMessageContaining(tooLong);
                assertThat(convertedSentAsJson()).isEmpty();
                Map<String, String> none = c.subConfiguration(utf8("none"));
                assertThat(none).isEmpty();
            }
            GodNode.COMMAND_REFUSED.add(rings.address(0));
            try (GodClient c = GodClient.builder().endpoints(rings.address(0)).redundancy(1).build()) {
                assertThatThrownBy(() -> c.indexOf(new byte[33], utf8("s")))
                        .isInstanceOfSatisfying(GodRequestException.class, e -> assertThat(e.status()).isEqualTo(400))
                        .hasMessageContaining(tooLong);
                assertThat(convertedSentAsJson()).containsExactly("IndexOf");
            }
        }
    }
}
