package io.god.client;

import static io.god.client.GodClient.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.node.GodNode;
import io.god.persist.Record;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.tree.Item;
import io.god.wire.Call;
import io.god.wire.DataCall;
import io.god.wire.Ops;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binary data calls ({@link Ops#DATA}) end to end through {@link GodClient} and raw connections:
 * one node and 3-node rings over TCP on 127.0.0.x.
 */
@ScaledTimeout(90)
class GodClientDataOpsTest {

    private static String s(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    private static Item held(GodNode n, String key) {
        return n.store().state().get(utf8(key));
    }

    /** One raw DATA request on its own connection (hello with the token), decoded. */
    static DataCall.Reply raw(String address, String token, DataCall call) throws Exception {
        return raw(address, token, call.encode());
    }

    private static DataCall.Reply raw(String address, String token, byte[] payload) throws Exception {
        try (NodeConnection c = new NodeConnection(address, token, 2000)) {
            return DataCall.Reply.decode(c.call(Ops.DATA, payload, TimeUnit.SECONDS.toNanos(5)));
        }
    }

    @Test
    void oneNodeEveryOpLimitsAndMalformedCalls() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put("god.limits.key-size", "32");
            rings.extra.put("god.limits.value-size", "64");
            rings.start(1);
            GodNode node = rings.nodes.get(0);
            try (GodClient c = GodClient.builder().endpoints(rings.address(0)).redundancy(1).build()) {
                c.put(utf8("k"), utf8("v1"));
                assertThat(s(c.get(utf8("k")).value())).isEqualTo("v1");
                assertThat(c.get(utf8("k")).timestamp()).isEqualTo(held(node, "k").timestamp()).isPositive();
                c.put(utf8("empty"), new byte[0], true);
                assertThat(c.get(utf8("empty")).exists()).isTrue();
                assertThat(c.get(utf8("empty")).value()).isEmpty();
                assertThat(c.get(utf8("none")).exists()).isFalse();
                assertThat(c.get(utf8("none")).value()).isNull();
                c.del(utf8("k"));
                assertThat(c.get(utf8("k")).exists()).isFalse();
                assertThat(held(node, "k").exists()).isFalse();
                c.subPut(utf8("t"), utf8("a"), utf8("1"));
                c.subPut(utf8("t"), utf8("b"), utf8("2"), true);
                assertThat(s(c.subGet(utf8("t"), utf8("b")).value())).isEqualTo("2");
                assertThat(c.subSize(utf8("t"))).isEqualTo(2); // JSON calls see binary writes
                c.subDel(utf8("t"), utf8("a"));
                assertThat(c.subGet(utf8("t"), utf8("a")).exists()).isFalse();
                assertThat(c.first(utf8("t")).subKey()).isEqualTo(utf8("b"));

                // size limits: a clear 400, not retried, nothing written
                long before = node.store().state().size();
                assertThatThrownBy(() -> c.put(new byte[33], utf8("v")))
                        .isInstanceOfSatisfying(GodRequestException.class, e -> assertThat(e.status()).isEqualTo(400))
                        .hasMessageContaining("Key of 33 bytes exceeds god.limits.key-size (32 bytes)");
                assertThatThrownBy(() -> c.put(utf8("big"), new byte[65]))
                        .hasMessageContaining("Value of 65 bytes exceeds god.limits.value-size (64 bytes)");
                assertThatThrownBy(() -> c.subPut(utf8("t"), new byte[40], utf8("v")))
                        .hasMessageContaining("SubKey of 40 bytes exceeds god.limits.key-size");
                assertThatThrownBy(() -> c.get(new byte[33])).hasMessageContaining("Key of 33 bytes");
                assertThat(node.store().state().size()).isEqualTo(before);
                assertThat(held(node, "big").exists()).isFalse();
            }

            // malformed calls: a 400 naming the problem, nothing changed, the connection still serves
            long before = node.store().state().size();
            byte[] good = new DataCall(DataCall.PUT, utf8("m"), null, utf8("v"), false, null, 0, Call.ROUTE, 0).encode();
            DataCall.Reply truncated = raw(rings.address(0), null, java.util.Arrays.copyOf(good, good.length - 1));
            assertThat(truncated.status()).isEqualTo(400);
            assertThat(truncated.message()).startsWith("malformed DHash.Data call: ");
            byte[] unknown = good.clone();
            unknown[0] = 42;
            assertThat(raw(rings.address(0), null, unknown).message()).contains("unknown data operation 42");
            assertThat(raw(rings.address(0), null, new byte[0]).status()).isEqualTo(400);
            assertThat(node.store().state().size()).isEqualTo(before);
            assertThat(held(node, "m").exists()).isFalse();
            assertThat(raw(rings.address(0), null, good).status()).isEqualTo(200);
            assertThat(s(held(node, "m").value())).isEqualTo("v");
        }
    }

    @Test
    void durableNodeWritesAndKeepsThem(@TempDir Path dir) throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.startDurable(0, dir);
            try (GodClient c = GodClient.builder().endpoints(rings.address(0)).redundancy(1).build()) {
                for (int i = 0; i < 50; i++) {
                    c.put(utf8("d" + i), utf8("v" + i), i % 2 == 0);
                }
                c.del(utf8("d7"));
                assertThat(s(c.get(utf8("d49")).value())).isEqualTo("v49");
            }
            rings.nodes.get(0).close();
        }
        try (ClientRings again = new ClientRings()) {
            GodNode n = again.startDurable(0, dir);
            assertThat(s(held(n, "d49").value())).isEqualTo("v49");
            assertThat(held(n, "d7").exists()).isFalse();
            assertThat(n.store().state().size()).isEqualTo(49);
        }
    }

    @Test
    void ringReplicatesSyncWritesAndReadsTheNewestReplica() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.start(3);
            try (GodClient c = GodClient.builder().endpoints(rings.address(0)).attemptTimeout(TimeScale.millis(500))
                    .build()) {
                for (int i = 0; i < 30; i++) {
                    c.put(utf8("r" + i), utf8("v" + i), true);
                    // Sync (god.sync.acks=quorum; N = 3: every node a replica): W = 2 have it when put returns, the
                    // third once its copy arrives — all with one stamp
                    String key = "r" + i;
                    String value = "v" + i;
                    assertThat(rings.nodes.stream().filter(n -> held(n, key).exists()
                            && value.equals(s(held(n, key).value())))).as("copies when put returned").hasSizeGreaterThanOrEqualTo(2);
                    org.awaitility.Awaitility.await().atMost(TimeScale.seconds(10)).until(() -> rings.nodes.stream()
                            .allMatch(n -> held(n, key).exists()));
                    long ts = held(rings.nodes.get(0), key).timestamp();
                    for (GodNode n : rings.nodes) {
                        assertThat(s(held(n, key).value())).isEqualTo(value);
                        assertThat(held(n, key).timestamp()).isEqualTo(ts);
                    }
                }
                c.subPut(utf8("rt"), utf8("s"), utf8("x"), true);
                org.awaitility.Awaitility.await().atMost(TimeScale.seconds(10)).until(() -> rings.nodes.stream()
                        .allMatch(n -> "x".equals(s(n.store().state().sub(utf8("rt")).get(utf8("s")).value()))));
                c.del(utf8("r0"), true);
                org.awaitility.Awaitility.await().atMost(TimeScale.seconds(10)).until(() -> rings.nodes.stream()
                        .noneMatch(n -> held(n, "r0").exists()));
                // newest of the replicas: one replica holds a newer value, another a newer tombstone
                GodNode owner = rings.byAddress(c.replicas(utf8("r1")).get(0).address());
                GodNode second = rings.byAddress(c.replicas(utf8("r1")).get(1).address());
                second.store().apply(Record.put(utf8("r1"), utf8("newer"), held(owner, "r1").timestamp() + 1000));
                assertThat(s(c.get(utf8("r1")).value())).isEqualTo("newer");
                second.store().apply(Record.subDelete(utf8("rt"), utf8("s"), Long.MAX_VALUE / 2));
                assertThat(c.subGet(utf8("rt"), utf8("s")).exists()).isFalse();
            }
        }
    }

    @Test
    void callsReachTheOwnerAndKeepTheFirstNodesStamp() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put("god.redundancy", "1"); // one copy: only the owner holds a key
            rings.start(3);
            try (GodClient ring = GodClient.builder().endpoints(rings.address(0)).redundancy(1).build()) {
                for (int i = 0; i < 20; i++) {
                    String key = "f" + i;
                    String owner = ring.replicas(utf8(key)).get(0).address();
                    String other = rings.address(0).equals(owner) ? rings.address(1) : rings.address(0);
                    // a gateway client asks a node that does not own the key: it forwards to the owner
                    try (GodClient gw = GodClient.builder().endpoints(other).gateway(true).build()) {
                        gw.put(utf8(key), utf8("g" + i));
                        assertThat(s(held(rings.byAddress(owner), key).value())).isEqualTo("g" + i);
                        assertThat(held(rings.byAddress(other), key).exists()).isFalse();
                        assertThat(s(gw.get(utf8(key)).value())).isEqualTo("g" + i);
                        gw.subPut(utf8(key), utf8("s"), utf8("x"));
                        assertThat(s(gw.subGet(utf8(key), utf8("s")).value())).isEqualTo("x");
                        assertThat(rings.byAddress(other).store().state().sub(utf8(key)).size()).isZero();
                        gw.del(utf8(key));
                        assertThat(held(rings.byAddress(owner), key).exists()).isFalse();
                    }
                }
                // a forwarded write that arrives late keeps the first node's stamp (Call.stamp): it
                // cannot overtake a newer write
                String key = "late";
                String owner = ring.replicas(utf8(key)).get(0).address();
                ring.put(utf8(key), utf8("new"));
                long newTs = held(rings.byAddress(owner), key).timestamp();
                long old = newTs - Duration.ofSeconds(30).toNanos();
                DataCall late = new DataCall(DataCall.PUT, utf8(key), null, utf8("old"), false, null, 1, Call.ROUTE, old);
                assertThat(raw(owner, null, late).status()).isEqualTo(200);
                assertThat(s(held(rings.byAddress(owner), key).value())).isEqualTo("new");
                DataCall lateNew = new DataCall(DataCall.PUT, utf8("late2"), null, utf8("x"), false, null, 1,
                        Call.ROUTE, old);
                String owner2 = ring.replicas(utf8("late2")).get(0).address();
                raw(owner2, null, lateNew);
                assertThat(held(rings.byAddress(owner2), "late2").timestamp()).isEqualTo(old);
            }
        }
    }

    @Test
    void writesNeedTheToken() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put("god.auth.token", "s3cret-token");
            rings.start(3);
            try (GodClient ok = GodClient.builder().endpoints(rings.address(0)).token("s3cret-token").build()) {
                ok.put(utf8("a"), utf8("1"), true);
                // Sync returns once W = 2 of the 3 copies exist; what follows reads every copy
                org.awaitility.Awaitility.await().atMost(TimeScale.seconds(10)).until(() -> rings.nodes.stream()
                        .allMatch(n -> "1".equals(s(held(n, "a").value()))));
                ok.subPut(utf8("t"), utf8("s"), utf8("2"));
                assertThat(s(ok.get(utf8("a")).value())).isEqualTo("1");
            }
            try (GodClient bad = GodClient.builder().endpoints(rings.address(0)).token("wrong").gateway(true).build()) {
                assertThatThrownBy(() -> bad.put(utf8("a"), utf8("2")))
                        .isInstanceOfSatisfying(GodRequestException.class, e -> assertThat(e.status()).isEqualTo(401));
            }
            // an authenticated connection still needs the call's Authorization for a write (as over HTTP)
            DataCall put = new DataCall(DataCall.PUT, utf8("a"), null, utf8("3"), false, null, 0, Call.ROUTE, 0);
            DataCall.Reply r = raw(rings.address(1), "s3cret-token", put);
            assertThat(r.status()).isEqualTo(401);
            assertThat(r.message()).contains("DHash.Put needs Authorization");
            DataCall get = new DataCall(DataCall.GET, utf8("a"), null, null, false, null, 0, Call.EXECUTE, 0);
            assertThat(s(raw(rings.address(1), "s3cret-token", get).value())).isEqualTo("1");
            for (GodNode n : rings.nodes) {
                assertThat(s(held(n, "a").value())).isEqualTo("1");
            }
        }
    }
}
