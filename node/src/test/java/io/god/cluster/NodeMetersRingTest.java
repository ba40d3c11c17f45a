package io.god.cluster;

import static io.god.cluster.Rings.b64;
import static io.god.cluster.Rings.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.metrics.NodeMeters;
import io.god.node.GodNode;
import io.god.persist.Record;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node metrics that follow the ring, replication and the data directory change when their event
 * happens: two durable nodes on loopback, node 0's metrics scraped in the Prometheus text format.
 */
@ScaledTimeout(120)
class NodeMetersRingTest {

    static final Duration CONVERGE = TimeScale.seconds(20);

    @TempDir
    Path tmp;

    /** The value of one series in a Prometheus scrape ({@code name{tags}} exactly as printed), or NaN. */
    static double value(PrometheusMeterRegistry r, String series) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(r.scrape());
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }

    @Test
    void ringReplicationWalSnapshotsAndTombstonesAreCounted() throws Exception {
        try (Rings rings = new Rings()) {
            rings.extra.put("god.persistence.fsync", "always");
            rings.extra.put("god.persistence.snapshot-threshold", "2K");
            rings.extra.put("god.tombstone-window", "1s");
            rings.extra.put("god.redundancy", "2");
            rings.extra.put("god.sync.interval", "1h"); // rounds driven by the test
            GodNode n0 = rings.start(0, tmp.resolve("r0"), rings.address(0));
            PrometheusMeterRegistry r = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            NodeMeters.bind(n0, r, OptionalInt.of(2));
            await().atMost(CONVERGE).until(rings::converged);
            assertThat(value(r, "god_ring_members{state=\"live\",}")).isEqualTo(1);
            assertThat(value(r, "god_ring_expected_members")).isEqualTo(2);
            assertThat(value(r, "god_node_state{state=\"ACTIVE\",}")).isEqualTo(1);
            assertThat(value(r, "god_replicated")).isEqualTo(1);
            double changes = value(r, "god_ring_changes_total");

            // a second member: the ring view changes
            GodNode n1 = rings.start(1, tmp.resolve("r1"), rings.address(0));
            PrometheusMeterRegistry r1 = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            NodeMeters.bind(n1, r1, OptionalInt.empty());
            await().atMost(CONVERGE).until(() -> rings.converged() && n0.membership().ring().size() == 2);
            await().atMost(CONVERGE).until(() -> value(r, "god_ring_members{state=\"live\",}") == 2);
            assertThat(value(r, "god_ring_changes_total")).isGreaterThan(changes);

            // writes: log appends and fsyncs (fsync=always: one per write), a snapshot past 2K of log
            double appends = value(r, "god_wal_append_seconds_count");
            double fsyncs = value(r, "god_wal_fsync_seconds_count");
            for (int k = 0; k < 40; k++) {
                call(rings.rpcs.get(0), "Put", "{\"Key\":\"" + b64("key" + k) + "\",\"Value\":\"" + b64("v".repeat(100))
                        + "\",\"Sync\":true}");
            }
            assertThat(value(r, "god_wal_append_seconds_count")).isGreaterThanOrEqualTo(appends + 20);
            assertThat(value(r, "god_wal_fsync_seconds_count")).isGreaterThanOrEqualTo(fsyncs + 20);
            assertThat(value(r, "god_wal_fsync_records_count")).isGreaterThanOrEqualTo(20);
            assertThat(value(r, "god_wal_fsync_records_sum")).isGreaterThanOrEqualTo(20);
            assertThat(value(r, "god_wal_fsync_seconds_bucket{le=\"+Inf\",}")).isGreaterThanOrEqualTo(20);
            await().atMost(CONVERGE).until(() -> value(r, "god_snapshot_seconds_count") >= 1);
            await().atMost(CONVERGE).until(() -> value(r, "god_snapshot_size_bytes") > 0);

            // anti-entropy: a record only node 1 holds is a difference one of the two rounds pulls or pushes
            double rounds = value(r, "god_sync_rounds_total");
            long ts = rings.nodes.get(1).timestamps().next();
            for (int k = 0; k < 5; k++) {
                rings.nodes.get(1).store().apply(Record.put(utf8("only1-" + k), utf8("x"), ts + k));
            }
            for (int pass = 0; pass < 5; pass++) {
                n0.syncRound();
                rings.nodes.get(1).syncRound();
            }
            assertThat(value(r, "god_sync_rounds_total")).isGreaterThan(rounds);
            assertThat(value(r, "god_sync_pulled_total") + value(r, "god_sync_pushed_total")
                    + value(r1, "god_sync_pulled_total") + value(r1, "god_sync_pushed_total")).isGreaterThanOrEqualTo(5);
            assertThat(value(r, "god_sync_sent_bytes_total") + value(r, "god_sync_received_bytes_total")).isPositive();

            // a delete leaves a tombstone pending; after the window it is collected
            call(rings.rpcs.get(0), "Del", "{\"Key\":\"" + b64("key0") + "\",\"Sync\":true}");
            assertThat(value(r, "god_tree_tombstone_markers")).isGreaterThanOrEqualTo(1);
            await().atMost(CONVERGE).until(() -> {
                n0.collectGarbage();
                return value(r, "god_tombstones_collected_total") >= 1;
            });

            // node 1 dies: node 0 suspects, then removes it; the live ring is below the expected size
            rings.nodes.get(1).close();
            await().atMost(CONVERGE).until(() -> value(r, "god_ring_members{state=\"down\",}") >= 1);
            assertThat(value(r, "god_ring_members{state=\"live\",}")).isLessThan(value(r, "god_ring_expected_members"));
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
