package io.god.client;

import static io.god.client.GodClient.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.god.api.JsonRpc;
import io.god.command.SubUpdates;
import io.god.command.Wire;
import io.god.node.GodNode;
import io.god.request.BinaryRequests;
import io.god.request.BinaryResults;
import io.god.request.Command;
import io.god.request.Request;
import io.god.request.Result;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.wire.Call;
import io.god.wire.Ops;
import io.god.wire.WireWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Binary commands ({@link Ops#COMMAND}) on a 3-node ring over TCP (N = 3): every command of the table, asked of every
 * node through the JSON contract (what the HTTP route serves), answers the same whether the members forward it as a
 * binary command, as today's JSON call (every node acting older: {@link GodNode#COMMAND_REFUSED}) or mixed (one node
 * older, the fallback taken for it); the same command sent as a binary call answers the same result, typed; bad
 * frames are refused with a clear 400 and the node keeps serving.
 */
@ScaledTimeout(120)
class BinaryCommandRingTest {

    private static final ObjectMapper JSON = Wire.mapper();

    @AfterEach
    void allNew() {
        GodNode.COMMAND_REFUSED.clear();
    }

    /** One sample of every command, on the data {@link #seed} wrote (reads that find something where they can). */
    static Request sample(Command c) {
        byte[] t = utf8("t");
        Class<? extends Request> type = c.requestType();
        if (type == Request.Next.class) {
            return new Request.Next(c, utf8("k2"));
        } else if (type == Request.SubNext.class) {
            return new Request.SubNext(c, t, utf8("s4"));
        } else if (type == Request.First.class) {
            return new Request.First(c, t);
        } else if (type == Request.NextIndex.class) {
            return new Request.NextIndex(c, t, 3);
        } else if (type == Request.IndexOf.class) {
            return new Request.IndexOf(c, t, utf8("s5"));
        } else if (type == Request.Count.class) {
            return new Request.Count(c, t, utf8("s2"), null, true, false);
        } else if (type == Request.Slice.class) {
            return new Request.Slice(c, t, utf8("s1"), utf8("s6"), false, true, c == Command.SLICE);
        } else if (type == Request.SliceIndex.class) {
            return new Request.SliceIndex(c, t, 1L, null);
        } else if (type == Request.SliceLen.class) {
            return new Request.SliceLen(c, t, utf8("s3"), true, 4, c == Command.REVERSE_SLICE_LEN);
        }
        return switch (c) {
            case PUT -> new Request.Put(utf8("w1"), utf8("v1"), true);
            case DEL -> new Request.Del(utf8("gone"), true);
            case SUB_PUT -> new Request.SubPut(utf8("w"), utf8("s1"), utf8("v1"), true);
            case SUB_DEL -> new Request.SubDel(t, utf8("gone"), false);
            case SUB_CLEAR -> new Request.SubClear(utf8("scratch"), true);
            case SUB_UPDATE -> new Request.SubUpdate(utf8("h"), SubUpdates.encode("hdel", List.of(utf8("nofield"))), true);
            case CLEAR -> new Request.Clear();
            case ADD_CONFIGURATION -> new Request.AddConfiguration("x", "y");
            case SUB_ADD_CONFIGURATION -> new Request.SubAddConfiguration(utf8("t2"), "x", "y");
            case GET -> new Request.Get(utf8("k3"), false);
            case SUB_GET -> new Request.SubGet(t, utf8("s2"), true);
            case KEY_NEXT -> new Request.KeyNext(utf8("k"));
            case SUB_SIZE -> new Request.SubSize(t);
            case SUB_CONFIGURATION -> new Request.SubConfiguration(utf8("t2"));
            // the union of t and a tree another member owns: paged from its owner (SetSources) wherever it runs
            case SET_EXPRESSION -> new Request.SetExpression(new Request.SetExpression.Op(List.of(
                    new Request.SetExpression.Source(t, null, null), new Request.SetExpression.Source(utf8(elsewhere),
                            null, null)), 0, 0), null, utf8("s2"), null, true, false, 6, null, false);
            case SIZE -> new Request.Size();
            case KEY_COUNT -> new Request.KeyCount();
            case OWNED -> new Request.Owned();
            case CONFIGURATION -> new Request.Configuration();
            case DESCRIBE -> new Request.Describe();
            case DESCRIBE_TREE -> new Request.DescribeTree();
            case NODES -> new Request.Nodes(false);
            default -> throw new AssertionError("no sample of " + c);
        };
    }

    /** A tree whose owner is not t's ({@link #seed} picks it). */
    private static String elsewhere = "u";

    private static void seed(ClientRings rings) {
        io.god.ring.Ring ring = rings.nodes.get(0).membership().ring();
        String tOwner = ring.successor(utf8("t")).address();
        // keys sit on the ring by their bytes: vary the first character (its UTF-8 first byte runs from 0x01 to 0xED
        // over these) until another member owns the tree
        for (int i = 1; ring.successor(utf8(elsewhere)).address().equals(tOwner); i++) {
            assertThat(i).as("a first character another member owns").isLessThan(0xD800);
            elsewhere = (char) i + "u";
        }
        for (int i = 0; i < 4; i++) {
            ok(rings.rpc(0), new Request.SubPut(utf8(elsewhere), utf8("s" + (2 * i)), utf8("u" + i), true));
        }
        for (int i = 1; i <= 5; i++) {
            ok(rings.rpc(0), new Request.Put(utf8("k" + i), utf8("v" + i), true));
        }
        for (int i = 0; i < 10; i++) {
            ok(rings.rpc(0), new Request.SubPut(utf8("t"), utf8("s" + i), utf8("v" + i), true));
        }
        ok(rings.rpc(0), new Request.SubAddConfiguration(utf8("t2"), "x", "y"));
        ok(rings.rpc(0), new Request.AddConfiguration("x", "y"));
        // every replica holds it all before answers are compared (async copies land meanwhile)
        await().atMost(TimeScale.seconds(20)).until(() -> rings.nodes.stream().allMatch(n ->
                n.store().state().sub(utf8("t")).values().size() == 10
                        && n.store().state().sub(utf8(elsewhere)).values().size() == 4
                        && n.store().state().get(utf8("k5")).exists()));
    }

    private static String ok(JsonRpc rpc, Request r) {
        JsonRpc.Response a = json(rpc, r);
        assertThat(a.status()).as(r.command().method() + ": " + a.text()).isEqualTo(200);
        return a.text();
    }

    /** A command through the JSON contract, retried while refused as paused (a stall of the loaded test JVM). */
    private static JsonRpc.Response json(JsonRpc rpc, Request r) {
        try {
            byte[] body = JSON.writeValueAsBytes(io.god.request.JsonBodies.of(r));
            JsonRpc.Response a = rpc.handle(Command.SERVICE + r.command().method(), body, null);
            for (int i = 0; i < 10 && a.status() == 503 && a.text().contains("was paused"); i++) {
                a = rpc.handle(Command.SERVICE + r.command().method(), body, null);
            }
            return a;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Every command but Clear (which would empty the ring), at every node: "status text" by "node:method". */
    private static Map<String, String> answers(ClientRings rings) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Command c : Command.values()) {
            if (c == Command.CLEAR) {
                continue;
            }
            for (int i = 0; i < 3; i++) {
                JsonRpc.Response a = json(rings.rpc(i), sample(c));
                out.put(i + ":" + c.method(), comparable(c, a.status(), a.text()));
            }
        }
        return out;
    }

    /**
     * An answer as compared: Describe carries the times of the node's last sync and reroute (its status only), a
     * configuration and DescribeTree the times of the last changes (the samples write again on each pass).
     */
    private static String comparable(Command c, int status, String text) {
        if (c == Command.DESCRIBE) {
            return status + " ";
        }
        if (c == Command.DESCRIBE_TREE) { // the samples write again on each pass: new stamps, the same data
            text = text.replaceAll("@\\d+", "@T");
        }
        if (c == Command.CONFIGURATION || c == Command.SUB_CONFIGURATION) {
            text = text.replaceAll("\"Timestamp\":\\d+", "\"Timestamp\":T");
        }
        return status + " " + text;
    }

    private static long fallbacks(ClientRings rings) {
        long n = 0;
        for (int i = 0; i < 3; i++) {
            n += rings.rpc(i).executor().jsonFallbacks();
        }
        return n;
    }

    private static BinaryResults.Reply binary(String address, byte[] payload) throws Exception {
        try (NodeConnection c = new NodeConnection(address, null, 2000)) {
            return BinaryResults.Reply.decode(c.call(Ops.COMMAND, payload, TimeUnit.SECONDS.toNanos(5)));
        }
    }

    @Test
    void everyCommandAnswersTheSameForwardedAsBinaryAsJsonAndMixed() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put("god.sync.interval", "1h");
            rings.start(3);
            seed(rings);

            Map<String, String> binary = answers(rings);
            assertThat(fallbacks(rings)).as("no JSON call in an all-new ring").isZero();
            for (Command c : Command.values()) { // a forwarding node answers what the key's owner answers
                if (c != Command.CLEAR && !c.is(Command.Flag.LOCAL)) {
                    assertThat(binary.get("1:" + c.method())).as(c.method()).isEqualTo(binary.get("0:" + c.method()))
                            .isEqualTo(binary.get("2:" + c.method())).startsWith("200 ");
                }
            }
            assertThat(binary.get("0:SetExpression")).as("a source paged from another member")
                    .contains(java.util.Base64.getEncoder().encodeToString(utf8("u1")));
            // the same commands as binary calls from a client: the typed result, written as JSON, is the answer
            for (Command c : Command.values()) {
                if (c == Command.CLEAR || c == Command.DESCRIBE) {
                    continue;
                }
                for (int i = 0; i < 3; i++) {
                    BinaryResults.Reply r = binary(rings.address(i),
                            new BinaryRequests.Envelope(sample(c), null, 0, Call.ROUTE, 0).encode());
                    assertThat(comparable(c, r.status(), JSON.writeValueAsString(r.result()))).as(i + ":" + c.method())
                            .isEqualTo(binary.get(i + ":" + c.method()));
                }
            }

            GodNode.COMMAND_REFUSED.addAll(List.of(rings.address(0), rings.address(1), rings.address(2)));
            assertThat(answers(rings)).as("today's JSON forwarding").isEqualTo(binary);
            long allOld = fallbacks(rings);
            assertThat(allOld).isPositive();

            GodNode.COMMAND_REFUSED.clear();
            GodNode.COMMAND_REFUSED.add(rings.address(1));
            assertThat(answers(rings)).as("one node acting older").isEqualTo(binary);
            assertThat(fallbacks(rings)).as("the fallback taken for the older node").isGreaterThan(allOld);

            for (int i = 0; i < 3; i++) { // Clear is a broadcast: every node's answer the same, the fallback for one
                assertThat(ok(rings.rpc(i), new Request.Clear())).isEqualTo("{}");
            }
            GodNode.COMMAND_REFUSED.clear();
            for (int i = 0; i < 3; i++) {
                assertThat(ok(rings.rpc(i), new Request.Get(utf8("k3"), false))).contains("\"Exists\":false");
            }
        }
    }

    @Test
    void badFramesAreRefusedClearlyAndTheNodeKeepsServing() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put("god.limits.body-size", "64K");
            rings.start(1);
            String at = rings.address(0);
            byte[] put = new BinaryRequests.Envelope(new Request.Put(utf8("k"), utf8("v"), true), null, 0, Call.ROUTE, 0)
                    .encode();
            assertThat(binary(at, put).status()).isEqualTo(200);

            List<String> refusals = new ArrayList<>();
            refusals.add(binary(at, java.util.Arrays.copyOf(put, put.length - 2)).message());
            refusals.add(binary(at, new WireWriter().varint(Command.GET.id()).u8(0).varint(0).string(null).signed(0)
                    .varint(1L << 40).toBytes()).message());
            refusals.add(binary(at, new WireWriter().varint(9999).u8(0).varint(0).string(null).signed(0).toBytes())
                    .message());
            refusals.add(binary(at, new BinaryRequests.Envelope(new Request.Put(utf8("k"), new byte[100_000], false),
                    null, 0, Call.ROUTE, 0).encode()).message());
            refusals.add(binary(at, new BinaryRequests.Envelope(new Request.Put(utf8("k"), utf8("late"), false),
                    null, 0, Call.ROUTE, 5).encode()).message());
            assertThat(refusals).satisfiesExactly(
                    m -> assertThat(m).startsWith("malformed DHash.Command call: payload truncated"),
                    m -> assertThat(m).startsWith("malformed DHash.Command call: byte string of 1099511627775 bytes"
                            + " runs past the payload end"),
                    m -> assertThat(m).startsWith("malformed DHash.Command call: unknown command id 9999"),
                    m -> assertThat(m).contains("exceeds god.limits.body-size"),
                    m -> assertThat(m).startsWith("stamp: a client may not choose the timestamp of DHash.Put"));

            BinaryResults.Reply get = binary(at, new BinaryRequests.Envelope(new Request.Get(utf8("k"), false), null, 0,
                    Call.ROUTE, 0).encode());
            assertThat(get.result()).isInstanceOfSatisfying(Result.ValueRes.class,
                    v -> assertThat(new String(v.value(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("v"));
        }
    }
}
