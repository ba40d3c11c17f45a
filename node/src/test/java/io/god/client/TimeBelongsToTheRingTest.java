package io.god.client;

import static io.god.client.GodClient.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.api.AdminStatus;
import io.god.api.JsonRpc;
import io.god.cluster.Rings;
import io.god.node.GodNode;
import io.god.persist.Record;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.tree.Item;
import io.god.wire.Call;
import io.god.wire.DataCall;
import io.god.wire.Ops;
import io.god.wire.WireWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import io.god.metrics.NodeMeters;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, end to end over TCP on an injected clock: clients cannot choose stamps (binary DATA and
 * CALL, the JSON contract), a peer's record from the future is applied by last-write-wins but moves
 * the stamp floor at most by god.time.max-skew, and a restart over such data reports it.
 */
@ScaledTimeout(90)
class TimeBelongsToTheRingTest {

    static final long SKEW = Duration.ofMinutes(1).toNanos();
    static final long YEAR_2200 = nanos("2200-01-01T00:00:00Z");

    @TempDir
    Path tmp;

    final AtomicLong now = new AtomicLong(nanos("2026-11-24T12:00:00Z"));

    static long nanos(String instant) {
        Instant i = Instant.parse(instant);
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }

    static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    /** One node on 127.0.0.2 with the test's clock (a data directory when dir is not null). */
    Rings oneNode(Path dir) throws Exception {
        Rings rings = new Rings();
        rings.clock = now::get;
        rings.start(0, dir, rings.address(0));
        await().atMost(TimeScale.seconds(20)).until(rings::converged);
        return rings;
    }

    static byte[] call(String address, int op, byte[] payload) throws Exception {
        try (NodeConnection c = new NodeConnection(address, null, 2000)) {
            return c.call(op, payload, TimeScale.seconds(5).toNanos());
        }
    }

    static DataCall.Reply data(String address, DataCall call) throws Exception {
        return DataCall.Reply.decode(call(address, Ops.DATA, call.encode()));
    }

    static DataCall put(String key, String value, int hops, long stamp) {
        return new DataCall(DataCall.PUT, utf8(key), null, utf8(value), false, null, hops, Call.ROUTE, stamp);
    }

    /** What a replicating peer sends ({@link Ops#REPLICATE}: a count, then each record's bytes). */
    static byte[] replicate(List<Record> records) {
        WireWriter w = new WireWriter().varint(records.size());
        for (Record r : records) {
            w.bytes(r.encode());
        }
        return w.toBytes();
    }

    static Item held(GodNode n, String key) {
        return n.store().state().get(utf8(key));
    }

    /**
     * Clear is stamped once, by the node a client asked, and the stamp travels with the broadcast: a member it
     * reaches late (held up past god.rpc.timeout, e.g. a paused process) clears what was written before that
     * stamp, not the writes acknowledged since (before, each member stamped its part when it ran it).
     */
    @Test
    void aClearThatReachesAMemberLateKeepsTheWritesAcknowledgedAfterItWasStamped() throws Exception {
        try (Rings rings = oneNode(null)) {
            GodNode node = rings.nodes.get(0);
            String address = rings.address(0);
            assertThat(data(address, put("before", "v", 0, 0)).status()).isEqualTo(200);
            long clearStamp = node.timestamps().last() + 1; // where the entry node stamped its Clear
            now.addAndGet(Duration.ofSeconds(10).toNanos()); // the broadcast is held up far past the call deadline
            assertThat(data(address, put("after", "v", 0, 0)).status()).isEqualTo(200);
            Call.Reply r = Call.Reply.decode(call(address, Ops.CALL, new Call("DHash.Clear",
                    "{}".getBytes(StandardCharsets.UTF_8), null, io.god.cluster.Cluster.MAX_HOPS, Call.EXECUTE,
                    clearStamp).encode()));
            assertThat(r.status()).as(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(200);
            assertThat(node.store().state().get(utf8("before")).exists()).as("written before the Clear").isFalse();
            assertThat(node.store().state().get(utf8("after")).exists()).as("acknowledged after it was stamped")
                    .isTrue();
            // a client's Clear is stamped by the node it asks, now: everything written so far goes
            JsonRpc.Response c = new JsonRpc(node).handle("DHash.Clear", "{}".getBytes(StandardCharsets.UTF_8), null);
            assertThat(c.status()).as(c.text()).isEqualTo(200);
            assertThat(node.store().state().get(utf8("after")).exists()).isFalse();
        }
    }

    @Test
    void aClientStampIsRefusedOnEveryFrontEndAndTheNextWriteIsStampedNow() throws Exception {
        try (Rings rings = oneNode(null)) {
            GodNode node = rings.nodes.get(0);
            String address = rings.address(0);
            for (long stamp : new long[] {YEAR_2200, Long.MAX_VALUE - 1}) {
                DataCall.Reply r = data(address, put("k", "from the future", 0, stamp));
                assertThat(r.status()).isEqualTo(400);
                assertThat(r.message()).contains("stamp: a client may not choose the timestamp of DHash.Put");
                // the JSON contract over the binary port: a client's Call with a stamp
                Call.Reply c = Call.Reply.decode(call(address, Ops.CALL, new Call("DHash.Put",
                        ("{\"Key\":\"" + b64("k") + "\",\"Value\":\"" + b64("x") + "\"}").getBytes(StandardCharsets.UTF_8),
                        null, 0, Call.ROUTE, stamp).encode()));
                assertThat(c.status()).isEqualTo(400);
                assertThat(new String(c.body(), StandardCharsets.UTF_8)).contains("stamp: a client may not choose");
            }
            // the JSON contract (the handler /rpc mounts): a non-zero Timestamp in any letter case is refused
            JsonRpc rpc = new JsonRpc(node);
            for (String ts : new String[] {"\"Timestamp\":" + YEAR_2200, "\"timestamp\":" + (Long.MAX_VALUE - 1),
                    "\"Timestamp\":\"7258118400000000000\""}) {
                JsonRpc.Response r = rpc.handle("DHash.Put", ("{\"Key\":\"" + b64("k") + "\",\"Value\":\"" + b64("x")
                        + "\"," + ts + "}").getBytes(StandardCharsets.UTF_8), null);
                assertThat(r.status()).as(ts).isEqualTo(400);
                assertThat(r.text()).containsIgnoringCase("timestamp: a client may not choose the timestamp of DHash.Put");
            }
            assertThat(held(node, "k").exists()).as("nothing written").isFalse();
            assertThat(node.timestamps().last()).isLessThan(now.get() + 1_000_000);
            // a Go zero value and TTL are accepted and ignored, as by the original
            JsonRpc.Response ok = rpc.handle("DHash.Put", ("{\"Key\":\"" + b64("z") + "\",\"Value\":\"" + b64("v")
                    + "\",\"Timestamp\":0,\"TTL\":7}").getBytes(StandardCharsets.UTF_8), null);
            assertThat(ok.status()).as(ok.text()).isEqualTo(200);
            assertThat(held(node, "z").timestamp()).isBetween(now.get(), now.get() + 1_000_000);

            try (GodClient c = GodClient.builder().endpoints(address).redundancy(1).build()) {
                c.put(utf8("k"), utf8("now"));
                long stamp = c.get(utf8("k")).timestamp();
                assertThat(stamp).as("the next write is stamped now (the clock stands still: a few ns later)")
                        .isBetween(now.get(), now.get() + 1_000_000);
            }
            assertThat(node.timestamps().bound().clamps()).as("refused, so nothing was clamped").isZero();
        }
    }

    @Test
    void aPeerRecordFromTheFutureIsAppliedButMovesTheFloorAtMostByTheSkew() throws Exception {
        try (Rings rings = oneNode(null)) {
            GodNode node = rings.nodes.get(0);
            String address = rings.address(0);
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            NodeMeters.bind(node, meters, OptionalInt.empty());
            assertThat(meters.get("god.time.clamps").functionCounter().count()).isZero();
            for (int i = 0; i < 5; i++) { // repeated: measured against the clock, so it cannot ratchet
                call(address, Ops.REPLICATE, replicate(List.of(Record.put(utf8("future"), utf8("2200"), YEAR_2200),
                        Record.put(utf8("max"), utf8("m"), Long.MAX_VALUE - 1))));
            }
            assertThat(held(node, "future").timestamp()).as("applied by last-write-wins").isEqualTo(YEAR_2200);
            assertThat(held(node, "max").timestamp()).isEqualTo(Long.MAX_VALUE - 1);
            assertThat(node.timestamps().last()).isBetween(now.get(), now.get() + SKEW);
            assertThat(node.timestamps().bound().clamps()).isEqualTo(5);
            assertThat(meters.get("god.time.clamps").functionCounter().count()).as("god_time_clamps_total").isEqualTo(5);

            // a forwarded call (hops > 0: a peer) with a future stamp: the write gets a fresh stamp
            assertThat(data(address, put("fwd", "v", 1, YEAR_2200)).status()).isEqualTo(200);
            assertThat(held(node, "fwd").timestamp()).isBetween(now.get() + SKEW, now.get() + SKEW + 1_000_000);

            now.addAndGet(Duration.ofSeconds(30).toNanos());
            try (GodClient c = GodClient.builder().endpoints(address).redundancy(1).build()) {
                c.put(utf8("fresh"), utf8("v"));
                assertThat(c.get(utf8("fresh")).timestamp()).isBetween(now.get(), now.get() + SKEW);
                // the cost the durability docs describe: the future entry wins over later writes
                c.put(utf8("future"), utf8("now"));
                assertThat(new String(c.get(utf8("future")).value(), StandardCharsets.UTF_8)).isEqualTo("2200");
            }
            assertThat(AdminStatus.of(node).timeClamps()).isEqualTo(node.timestamps().bound().clamps()).isPositive();
        }
    }

    @Test
    void aRestartOverDataFromTheFutureReportsHowManyEntries() throws Exception {
        Path dir = tmp.resolve("node");
        try (Rings rings = oneNode(dir)) {
            String address = rings.address(0);
            call(address, Ops.REPLICATE, replicate(List.of(Record.put(utf8("a"), utf8("1"), YEAR_2200),
                    Record.delete(utf8("b"), YEAR_2200 + 1), Record.subPut(utf8("t"), utf8("s"), utf8("2"), YEAR_2200),
                    Record.put(utf8("c"), utf8("now"), now.get()))));
            assertThat(rings.nodes.get(0).futureStamps()).as("found at start only").isNull();
        }
        now.addAndGet(Duration.ofMinutes(5).toNanos());
        try (Rings rings = oneNode(dir)) {
            GodNode node = rings.nodes.get(0);
            assertThat(node.futureStamps()).isNotNull();
            assertThat(node.futureStamps().keys()).as("a, the tombstone b and t/s").isEqualTo(3);
            assertThat(node.futureStamps().newest()).isEqualTo(YEAR_2200 + 1);
            AdminStatus.FutureStamps reported = AdminStatus.of(node).futureStamps();
            assertThat(reported.keys()).isEqualTo(3);
            assertThat(reported.newest()).startsWith("2200-01-01T00:00:00");
            assertThat(node.timestamps().last()).as("the floor is bounded at start too")
                    .isBetween(now.get(), now.get() + SKEW);
            try (GodClient c = GodClient.builder().endpoints(rings.address(0)).redundancy(1).build()) {
                c.put(utf8("d"), utf8("v"));
                assertThat(c.get(utf8("d")).timestamp()).isBetween(now.get(), now.get() + SKEW + 1_000_000);
            }
        }
    }

    @Test
    void anOldLastTimestampFromTheFutureWithoutSuchEntriesIsForgotten() throws Exception {
        Path dir = tmp.resolve("old");
        long written;
        try (Rings rings = oneNode(dir)) {
            try (GodClient c = GodClient.builder().endpoints(rings.address(0)).redundancy(1).build()) {
                c.put(utf8("a"), utf8("1"));
                written = c.get(utf8("a")).timestamp();
            }
        }
        // what an older version left behind after a client's stamp of 2200 that no entry carries any more
        new io.god.persist.MetadataStore(io.god.persist.NioDisk.INSTANCE, dir)
                .putLong(GodNode.LAST_TIMESTAMP, YEAR_2200);
        try (Rings rings = oneNode(dir)) {
            GodNode node = rings.nodes.get(0);
            assertThat(node.futureStamps()).isNull();
            assertThat(AdminStatus.of(node).futureStamps()).isNull();
            assertThat(node.timestamps().last()).as("the newest entry's stamp, not 2200 nor the bound")
                    .isBetween(written, now.get() + 1_000_000);
        }
    }
}
