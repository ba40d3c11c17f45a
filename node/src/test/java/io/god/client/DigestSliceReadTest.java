package io.god.client;

import static io.god.client.GodClient.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.god.node.GodNode;
import io.god.persist.Record;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.wire.DataCall;
import io.god.wire.SliceCall;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client's merged SliceLen/ReverseSliceLen as digest reads on a 3-node ring (N = 3: every node is a replica):
 * one replica sends its entries, the others digests; replicas that differ send their entries and the merge is the
 * one of every replica's entries; nodes older than the digest kinds, or than the binary slice call, are answered
 * through the fallback, which each node costs once. The node's {@link GodNode#DATA_AS_OLDER_VERSION} seam counts
 * the binary calls each node receives, and makes nodes answer as their older versions did.
 */
@ScaledTimeout(120)
class DigestSliceReadTest {

    private static final byte[] TREE = utf8("digest-t");

    /** Calls per node address and data kind (the first payload byte). */
    private final Map<String, Map<Integer, AtomicInteger>> seen = new ConcurrentHashMap<>();

    @AfterEach
    void noSeam() {
        GodNode.DATA_AS_OLDER_VERSION = null;
    }

    private int count(String address, int... kinds) {
        int n = 0;
        for (int k : kinds) {
            AtomicInteger c = seen.getOrDefault(address, Map.of()).get(k);
            n += c == null ? 0 : c.get();
        }
        return n;
    }

    private int total(ClientRings rings, int... kinds) {
        int n = 0;
        for (int i = 0; i < 3; i++) {
            n += count(rings.address(i), kinds);
        }
        return n;
    }

    /** Counts every data call; nodes in {@code refusing} answer the kinds listed for them as an older version. */
    private void seam(Map<String, Set<Integer>> refusing) {
        seen.clear();
        GodNode.DATA_AS_OLDER_VERSION = (address, payload, mayBlock) -> {
            int kind = payload[0];
            if (!mayBlock) { // every call over TCP is seen here first, once
                seen.computeIfAbsent(address, a -> new ConcurrentHashMap<>())
                        .computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
            }
            if (refusing.getOrDefault(address, Set.of()).contains(kind)) {
                // byte for byte what DataCalls answers a kind DataCall does not know
                return DataCall.Reply.error(400, "malformed DHash.Data call: unknown data operation " + kind).encode();
            }
            return null;
        };
    }

    private static GodClient client(ClientRings rings) {
        return GodClient.builder().endpoints(rings.address(0)).attemptTimeout(TimeScale.millis(2000)).build();
    }

    private static List<String> keys(List<GodClient.Entry> entries) {
        return entries.stream().map(e -> new String(e.key(), StandardCharsets.UTF_8) + "="
                + new String(e.value(), StandardCharsets.UTF_8)).toList();
    }

    /** k00..k29 with value v<i>, the same stamps on every node; k05 deleted on every node. */
    private static void sameEverywhere(ClientRings rings) {
        long ts = rings.nodes.get(0).timestamps().next() + 1_000_000;
        for (GodNode n : rings.nodes) {
            for (int i = 0; i < 30; i++) {
                n.store().apply(Record.subPut(TREE, utf8(String.format("k%02d", i)), utf8("v" + i), ts + i));
            }
            n.store().apply(Record.subDelete(TREE, utf8("k05"), ts + 100));
        }
    }

    @Test
    void agreeingReplicasSendOneAnswerAndTwoDigests() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put("god.sync.interval", "1h"); // anti-entropy would repair the differences made below
            rings.start(3);
            sameEverywhere(rings);
            seam(Map.of());
            try (GodClient c = client(rings)) {
                for (int read = 0; read < 9; read++) {
                    assertThat(keys(c.sliceLen(TREE, null, true, 5)))
                            .containsExactly("k00=v0", "k01=v1", "k02=v2", "k03=v3", "k04=v4");
                    assertThat(keys(c.reverseSliceLen(TREE, utf8("k06"), true, 3)))
                            .containsExactly("k06=v6", "k04=v4", "k03=v3");
                }
            }
            // per read: entries from one replica, digests from the two others; nothing asked twice
            assertThat(total(rings, SliceCall.SLICE_LEN, SliceCall.REVERSE_SLICE_LEN)).isEqualTo(18);
            assertThat(total(rings, SliceCall.SLICE_LEN_DIGEST, SliceCall.REVERSE_SLICE_LEN_DIGEST)).isEqualTo(36);
            for (int i = 0; i < 3; i++) { // the replica asked for entries rotates
                assertThat(count(rings.address(i), SliceCall.SLICE_LEN, SliceCall.REVERSE_SLICE_LEN))
                        .as("entries asked of node %d", i).isEqualTo(6);
            }
        }
    }

    @Test
    void replicasThatDifferSendTheirEntriesAndTheMergeKeepsTheNewest() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put("god.sync.interval", "1h"); // anti-entropy would repair the differences made below
            rings.start(3);
            sameEverywhere(rings);
            long later = rings.nodes.get(0).timestamps().next() + 2_000_000;
            // node 1 deleted k02 later; node 2 wrote k03 again later and alone holds k025
            rings.nodes.get(1).store().apply(Record.subDelete(TREE, utf8("k02"), later));
            rings.nodes.get(2).store().apply(Record.subPut(TREE, utf8("k03"), utf8("new"), later));
            rings.nodes.get(2).store().apply(Record.subPut(TREE, utf8("k025"), utf8("only"), later));
            seam(Map.of());
            try (GodClient c = client(rings)) {
                for (int read = 0; read < 3; read++) { // each replica once the one asked for entries
                    assertThat(keys(c.sliceLen(TREE, null, true, 5)))
                            .containsExactly("k00=v0", "k01=v1", "k025=only", "k03=new", "k04=v4");
                }
                for (int read = 0; read < 3; read++) {
                    assertThat(keys(c.reverseSliceLen(TREE, utf8("k04"), true, 4)))
                            .containsExactly("k04=v4", "k03=new", "k025=only", "k01=v1");
                }
            }
            // each read is two pages: up to the nearest cut the three windows differ (entries from one replica, a
            // digest and then the entries of each other), after it (one entry to go) they agree (one entries call,
            // two digests)
            assertThat(total(rings, SliceCall.SLICE_LEN_DIGEST, SliceCall.REVERSE_SLICE_LEN_DIGEST))
                    .isEqualTo(6 * (2 + 2));
            assertThat(total(rings, SliceCall.SLICE_LEN, SliceCall.REVERSE_SLICE_LEN)).isEqualTo(6 * (3 + 1));
        }
    }

    @Test
    void olderNodesAreAskedAsTheyUnderstandOncePerNode() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put("god.sync.interval", "1h"); // anti-entropy would repair the differences made below
            rings.start(3);
            sameEverywhere(rings);
            long later = rings.nodes.get(0).timestamps().next() + 2_000_000;
            rings.nodes.get(2).store().apply(Record.subDelete(TREE, utf8("k01"), later)); // a difference to merge
            List<String> forward;
            List<String> reverse;
            try (GodClient c = client(rings)) { // every node new: the answers the mixed ring must give
                forward = keys(c.sliceLen(TREE, utf8("k00"), true, 4));
                reverse = keys(c.reverseSliceLen(TREE, null, true, 4));
            }
            assertThat(forward).containsExactly("k00=v0", "k02=v2", "k03=v3", "k04=v4");
            assertThat(reverse).containsExactly("k29=v29", "k28=v28", "k27=v27", "k26=v26");

            String noDigests = rings.address(1); // knows the binary slice call, not its digests
            String noBinarySlices = rings.address(2); // knows neither: answers only the JSON call
            seam(Map.of(noDigests, Set.of(SliceCall.SLICE_LEN_DIGEST, SliceCall.REVERSE_SLICE_LEN_DIGEST),
                    noBinarySlices, Set.of(SliceCall.SLICE_LEN, SliceCall.REVERSE_SLICE_LEN,
                            SliceCall.SLICE_LEN_DIGEST, SliceCall.REVERSE_SLICE_LEN_DIGEST)));
            try (GodClient c = client(rings)) {
                for (int read = 0; read < 6; read++) { // every node asked for entries and for digests
                    assertThat(keys(c.sliceLen(TREE, utf8("k00"), true, 4))).isEqualTo(forward);
                    assertThat(keys(c.reverseSliceLen(TREE, null, true, 4))).isEqualTo(reverse);
                }
            }
            int[] digests = {SliceCall.SLICE_LEN_DIGEST, SliceCall.REVERSE_SLICE_LEN_DIGEST};
            int[] slices = {SliceCall.SLICE_LEN, SliceCall.REVERSE_SLICE_LEN};
            assertThat(count(noDigests, digests)).as("digests asked of the node without them").isEqualTo(1);
            // a binary slice each page (the forward read is two pages: the deleted k01 cuts the first short)
            assertThat(count(noDigests, slices)).as("its entries, in binary, every page").isEqualTo(6 * 3);
            assertThat(count(noBinarySlices, slices)).as("binary slices asked of the node without them")
                    .isEqualTo(1);
            assertThat(count(noBinarySlices, digests)).as("digests asked of it (only before it refused a slice)")
                    .isLessThanOrEqualTo(1);
            assertThat(count(rings.address(0), digests)).as("the new node is asked for digests").isPositive();
        }
    }
}
