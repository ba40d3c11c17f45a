package io.god.client;

import static io.god.client.GodClient.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.node.GodNode;
import io.god.persist.Record;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.wire.Call;
import io.god.wire.Ops;
import io.god.wire.SliceCall;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The binary Stamped slice call ({@link SliceCall} in an {@link Ops#DATA} frame) through {@link GodClient}'s
 * sliceLen/reverseSliceLen and raw connections: one node (limits, bad input) and a 3-node ring (merging).
 */
@ScaledTimeout(90)
class BinarySliceCallTest {

    private static List<String> keys(List<GodClient.Entry> entries) {
        return entries.stream().map(e -> new String(e.key(), StandardCharsets.UTF_8)).toList();
    }

    private static SliceCall.Reply raw(String address, byte[] payload) throws Exception {
        try (NodeConnection c = new NodeConnection(address, null, 2000)) {
            return SliceCall.Reply.decode(c.call(Ops.DATA, payload, TimeUnit.SECONDS.toNanos(5)));
        }
    }

    private static SliceCall call(int kind, String key, String from, boolean fromInc, long len) {
        return new SliceCall(kind, utf8(key), from == null ? null : utf8(from), fromInc, len, null, 0, Call.EXECUTE);
    }

    @Test
    void oneNodeLenBoundsLimitsAndMalformedCalls() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put("god.limits.key-size", "32");
            rings.extra.put("god.limits.result-rows", "50");
            rings.start(1);
            String at = rings.address(0);
            GodNode node = rings.nodes.get(0);
            try (GodClient c = GodClient.builder().endpoints(at).redundancy(1).build()) {
                for (int i = 0; i < 10; i++) {
                    c.subPut(utf8("t"), utf8("k" + i), utf8("v" + i), true);
                }
                c.subDel(utf8("t"), utf8("k3"));
                assertThat(keys(c.sliceLen(utf8("t"), null, true, 3))).containsExactly("k0", "k1", "k2");
                assertThat(keys(c.sliceLen(utf8("t"), utf8("k2"), false, 2))).containsExactly("k4", "k5");
                assertThat(keys(c.reverseSliceLen(utf8("t"), null, true, 2))).containsExactly("k9", "k8");
                assertThat(keys(c.reverseSliceLen(utf8("t"), utf8("k4"), true, 5))).containsExactly("k4", "k2", "k1",
                        "k0");
                assertThat(c.sliceLen(utf8("t"), null, true, Long.MAX_VALUE)).hasSize(9); // huge Len: what there is
                assertThat(c.sliceLen(utf8("t"), null, true, 0)).isEmpty();
                assertThat(c.sliceLen(utf8("t"), null, true, -5)).isEmpty(); // Len ≤ 0: nothing, as in JSON
                assertThat(c.sliceLen(utf8("absent"), null, true, 10)).isEmpty();
                assertThat(c.get(utf8("t")).exists()).isFalse();
                assertThat(c.sliceLen(utf8("t"), null, true, 100)).extracting(e -> new String(e.value(),
                        StandardCharsets.UTF_8)).startsWith("v0", "v1", "v2", "v4");
                assertThatThrownBy(() -> c.sliceLen(new byte[33], null, true, 1))
                        .isInstanceOfSatisfying(GodRequestException.class, e -> assertThat(e.status()).isEqualTo(400))
                        .hasMessageContaining("Key of 33 bytes exceeds god.limits.key-size (32 bytes)");
                assertThatThrownBy(() -> c.sliceLen(utf8("t"), new byte[33], true, 1))
                        .hasMessageContaining("From of 33 bytes exceeds god.limits.key-size");
                for (int i = 0; i < 60; i++) {
                    c.subPut(utf8("big"), utf8("k" + i), utf8("v"), true);
                }
                assertThatThrownBy(() -> c.sliceLen(utf8("big"), null, true, 1000))
                        .isInstanceOfSatisfying(GodRequestException.class, e -> assertThat(e.status()).isEqualTo(400))
                        .hasMessageContaining("god.limits.result-rows");
            }

            // the stamped entries themselves: tombstones carry their time, values theirs
            SliceCall.Reply r = raw(at, call(SliceCall.SLICE_LEN, "t", "k2", true, 2).encode());
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.entries()).extracting(e -> new String(e.key(), StandardCharsets.UTF_8))
                    .containsExactly("k2", "k3", "k4");
            SliceCall.Stamped dead = r.entries().get(1);
            assertThat(dead.exists()).isFalse();
            assertThat(dead.value()).isNull();
            assertThat(dead.timestamp()).isEqualTo(node.store().state().sub(utf8("t")).get(utf8("k3")).timestamp())
                    .isPositive();

            // an empty value exists with an empty value (not a tombstone); the digest kind answers the SHA-256 of the
            // very bytes the entries kind sends (the node hashes its answer as it writes it, never building it)
            try (GodClient c = GodClient.builder().endpoints(at).redundancy(1).build()) {
                c.subPut(utf8("t"), utf8("k25"), new byte[0], true);
            }
            byte[] entriesReply;
            byte[] digestReply;
            try (NodeConnection conn = new NodeConnection(at, null, 2000)) {
                long budget = TimeUnit.SECONDS.toNanos(5);
                entriesReply = conn.call(Ops.DATA, call(SliceCall.SLICE_LEN, "t", "k2", true, 3).encode(), budget);
                digestReply = conn.call(Ops.DATA, call(SliceCall.SLICE_LEN_DIGEST, "t", "k2", true, 3).encode(),
                        budget);
            }
            SliceCall.Reply withEmpty = SliceCall.Reply.decode(entriesReply);
            assertThat(withEmpty.entries()).extracting(e -> new String(e.key(), StandardCharsets.UTF_8))
                    .containsExactly("k2", "k25", "k3", "k4");
            assertThat(withEmpty.entries().get(1).exists()).isTrue();
            assertThat(withEmpty.entries().get(1).value()).isEmpty();
            assertThat(SliceCall.DigestReply.decode(digestReply).digest()).isEqualTo(SliceCall.digest(entriesReply));

            // malformed calls: a 400 naming the problem, the connection still serves
            byte[] good = call(SliceCall.SLICE_LEN, "t", null, true, 1).encode();
            SliceCall.Reply truncated = raw(at, Arrays.copyOf(good, good.length - 1));
            assertThat(truncated.status()).isEqualTo(400);
            assertThat(truncated.message()).startsWith("malformed DHash.Data slice call: ");
            byte[] flags = good.clone();
            flags[1] = (byte) 0x40;
            assertThat(raw(at, flags).message()).contains("unknown flags");
            byte[] trailing = Arrays.copyOf(good, good.length + 1);
            assertThat(raw(at, trailing).status()).isEqualTo(400);
            assertThat(raw(at, good).entries()).hasSize(1);
        }
    }

    @Test
    void ringMergesEveryReplicaAndRoutesFromAnyNode() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.start(3);
            // no node is down here: a generous attempt deadline, so that a replica slow under load is not left out
            // of the merge (each entry is on one node only, so a merge of two replicas would miss entries)
            try (GodClient c = GodClient.builder().endpoints(rings.address(0)).attemptTimeout(TimeScale.seconds(5))
                    .build()) {
                byte[] t = utf8("ring-t");
                long ts = rings.nodes.get(0).timestamps().next() + 1_000_000;
                // k0..k8, each on exactly one node (N = 3: every node is a replica); k4 deleted later on another
                for (int i = 0; i < 9; i++) {
                    rings.nodes.get(i % 3).store().apply(Record.subPut(t, utf8("k" + i), utf8("v" + i), ts + i));
                }
                rings.nodes.get(0).store().apply(Record.subDelete(t, utf8("k4"), ts + 100));
                assertThat(keys(c.sliceLen(t, null, true, 5))).containsExactly("k0", "k1", "k2", "k3", "k5");
                assertThat(keys(c.reverseSliceLen(t, null, true, 3))).containsExactly("k8", "k7", "k6");
                assertThat(keys(c.sliceLen(t, utf8("k3"), false, 100))).containsExactly("k5", "k6", "k7", "k8");
                // ROUTE mode at a node that is a replica, or not: one node's answer (its own copy)
                for (int n = 0; n < 3; n++) {
                    SliceCall.Reply r = raw(rings.address(n), new SliceCall(SliceCall.SLICE_LEN, t, null, true, 100,
                            null, 0, Call.ROUTE).encode());
                    assertThat(r.status()).isEqualTo(200);
                    assertThat(r.entries()).isNotEmpty();
                }
            }
        }
    }
}
