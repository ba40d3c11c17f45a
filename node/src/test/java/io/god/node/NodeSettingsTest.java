package io.god.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.persist.FsyncPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeSettingsTest {

    @Test
    void defaults() {
        NodeSettings s = NodeSettings.of(Map.of());
        assertThat(s.nodePort()).isEqualTo(9191);
        assertThat(s.advertise()).endsWith(":9191");
        assertThat(s.inMemory()).isTrue();
        assertThat(s.seeds()).isEmpty();
        assertThat(s.redundancy()).isEqualTo(3);
        assertThat(s.tombstoneWindow()).isEqualTo(Duration.ofHours(24));
        assertThat(s.fsync()).isEqualTo(FsyncPolicy.EVERYSEC);
        assertThat(s.snapshotThreshold()).isEqualTo(64L << 20);
        assertThat(s.keySize()).isEqualTo(64 << 10);
        assertThat(s.valueSize()).isEqualTo(4 << 20);
        assertThat(s.bodySize()).isEqualTo(8 << 20);
        assertThat(s.authToken()).isNull();
        assertThat(s.gcInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(s.quarantineKeep()).isEqualTo(3);
        assertThat(NodeSettings.of(Map.of("god.quarantine.keep", "7")).quarantineKeep()).isEqualTo(7);
        NodeSettings.Cluster c = s.cluster();
        assertThat(c.ringInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.ringFailures()).isEqualTo(3);
        assertThat(c.forgetAfter()).isEqualTo(Duration.ofHours(1));
        assertThat(c.rpcTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(c.rpcAttempts()).isEqualTo(3);
        assertThat(c.replicationQueue()).isEqualTo(10_000);
        assertThat(c.bindHost()).as("the advertise host").isEqualTo(s.advertise().substring(0, s.advertise().lastIndexOf(':')));
    }

    @Test
    void theDefaultAdvertiseHostIsHostnameWhenItResolvesElseLoopback() {
        // a pod or container: $HOSTNAME resolves (here: a name every machine resolves)
        assertThat(NodeSettings.defaultHost("localhost")).isEqualTo("localhost");
        // a laptop shell without $HOSTNAME exported, or a name this machine cannot resolve: loopback,
        // never the machine's host name that peers and a browser may not reach
        assertThat(NodeSettings.defaultHost(null)).isEqualTo("127.0.0.1");
        assertThat(NodeSettings.defaultHost(" ")).isEqualTo("127.0.0.1");
        assertThat(NodeSettings.defaultHost("no-such-host.invalid")).isEqualTo("127.0.0.1");
        String env = System.getenv("HOSTNAME");
        assertThat(NodeSettings.of(Map.of("god.node.port", "7001")).advertise())
                .isEqualTo(NodeSettings.defaultHost(env) + ":7001");
    }

    @Test
    void ringKeysAreRead() {
        NodeSettings.Cluster c = NodeSettings.of(Map.of("god.node.advertise", "10.0.0.7:9191", "god.ring.interval", "20ms",
                "god.ring.failures", "5", "god.ring.forget-after", "10m", "god.rpc.timeout", "300ms",
                "god.rpc.attempts", "2", "god.replication.queue", "50")).cluster();
        assertThat(c).isEqualTo(new NodeSettings.Cluster("10.0.0.7", Duration.ofMillis(20), 5, Duration.ofMinutes(10),
                Duration.ofMillis(300), 2, 50, Duration.ofSeconds(10), 10_000));
        assertThat(NodeSettings.of(Map.of("god.node.host", "0.0.0.0")).cluster().bindHost()).isEqualTo("0.0.0.0");
    }

    @Test
    void everyKeyIsRead() {
        NodeSettings s = NodeSettings.of(Map.ofEntries(Map.entry("god.node.port", "7000"),
                Map.entry("god.node.advertise", "god-0.god-peers.ns.svc:7000"), Map.entry("god.data-dir", "/tmp/x"),
                Map.entry("god.seeds", "a:1, b:2,,"), Map.entry("god.redundancy", "2"),
                Map.entry("god.tombstone-window", "90m"), Map.entry("god.persistence.fsync", "ALWAYS"),
                Map.entry("god.persistence.snapshot-threshold", "1024"), Map.entry("god.limits.key-size", "1K"),
                Map.entry("god.limits.value-size", "2m"), Map.entry("god.limits.body-size", "3M"),
                Map.entry("god.auth.token", "s3cret-token"), Map.entry("god.gc.interval", "PT0.5S"),
                Map.entry("god.gc.budget", "7")));
        assertThat(s.nodePort()).isEqualTo(7000);
        assertThat(s.advertise()).isEqualTo("god-0.god-peers.ns.svc:7000");
        assertThat(s.dataDir()).isEqualTo(Path.of("/tmp/x"));
        assertThat(s.seeds()).isEqualTo(List.of("a:1", "b:2"));
        assertThat(s.redundancy()).isEqualTo(2);
        assertThat(s.tombstoneWindow()).isEqualTo(Duration.ofMinutes(90));
        assertThat(s.fsync()).isEqualTo(FsyncPolicy.ALWAYS);
        assertThat(s.snapshotThreshold()).isEqualTo(1024);
        assertThat(s.keySize()).isEqualTo(1024);
        assertThat(s.valueSize()).isEqualTo(2 << 20);
        assertThat(s.bodySize()).isEqualTo(3 << 20);
        assertThat(s.authToken()).isEqualTo("s3cret-token");
        assertThat(s.gcInterval()).isEqualTo(Duration.ofMillis(500));
        assertThat(s.gcBudget()).isEqualTo(7);
        assertThat(s.toString()).doesNotContain("s3cret");
    }

    @Test
    void durationsGoStyleAndIso() {
        assertThat(Durations.parse("24h")).isEqualTo(Duration.ofHours(24));
        assertThat(Durations.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
        assertThat(Durations.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("250us")).isEqualTo(Duration.ofNanos(250_000));
        assertThat(Durations.parse("PT24H")).isEqualTo(Duration.ofHours(24));
        assertThat(Durations.parse("P1D")).isEqualTo(Duration.ofDays(1));
        assertThat(Durations.parse("30")).isEqualTo(Duration.ofSeconds(30));
        assertThatThrownBy(() -> Durations.parse("24 hours")).hasMessageContaining("not a duration");
        assertThatThrownBy(() -> Durations.parse("h")).hasMessageContaining("not a duration");
        assertThat(Sizes.parse("64K")).isEqualTo(65536);
        assertThat(Sizes.parse("8MiB")).isEqualTo(8 << 20);
    }

    @Test
    void invalidValuesNameTheirKey() {
        invalid("god.tombstone-window", "0s", "god.tombstone-window: must be at least 1s, was 0s");
        invalid("god.tombstone-window", "soon", "god.tombstone-window: not a duration: 'soon'");
        invalid("god.node.port", "70000", "god.node.port: must be a port between 0 and 65535, was 70000");
        invalid("god.node.port", "x", "god.node.port: not an integer: 'x'");
        invalid("god.node.advertise", "no-port", "god.node.advertise: must be host:port, was 'no-port'");
        invalid("god.node.advertise", "host:0", "god.node.advertise: must be a port between 1 and 65535, was 0");
        invalid("god.seeds", "a:1,b", "god.seeds: must be host:port, was 'b'");
        invalid("god.redundancy", "0", "god.redundancy: must be between 1 and 64, was 0");
        invalid("god.persistence.fsync", "sometimes", "god.persistence.fsync: must be always, everysec or no");
        invalid("god.persistence.snapshot-threshold", "-1", "god.persistence.snapshot-threshold: not a size");
        invalid("god.limits.key-size", "0", "god.limits.key-size: must be between 1");
        invalid("god.limits.value-size", "4G", "god.limits.value-size: must be at most");
        invalid("god.limits.body-size", "2G", "god.limits.body-size: must be between 64 bytes and 1G");
        invalid("god.auth.token", "short", "god.auth.token: must be at least 8 characters");
        invalid("god.gc.interval", "1ms", "god.gc.interval: must be at least 10ms, was 1ms");
        invalid("god.gc.budget", "0", "god.gc.budget: must be between 1 and 1000000, was 0");
        invalid("god.quarantine.keep", "0", "god.quarantine.keep: must be between 1 and 1000, was 0");
        invalid("god.quarantine.keep", "many", "god.quarantine.keep: not an integer: 'many'");
        invalid("god.ring.interval", "1ms", "god.ring.interval: must be at least 5ms, was 1ms");
        invalid("god.ring.failures", "0", "god.ring.failures: must be between 1 and 1000, was 0");
        invalid("god.rpc.timeout", "1ms", "god.rpc.timeout: must be at least 10ms, was 1ms");
        invalid("god.rpc.attempts", "0", "god.rpc.attempts: must be between 1 and 20, was 0");
        invalid("god.replication.queue", "0", "god.replication.queue: must be between 1 and 10000000, was 0");
        invalid("god.ring.neighbours", "0", "god.ring.neighbours: must be between 1 and 64, was 0");
        invalid("god.ring.neighbours", "few", "god.ring.neighbours: not an integer: 'few'");
        invalid("god.ring.fanout", "-1", "god.ring.fanout: must be between 0 and 64, was -1");
        invalid("god.ring.probes", "0", "god.ring.probes: must be between 1 and 1000, was 0");
        assertThatThrownBy(() -> NodeSettings.of(Map.of("god.redundancy", "5", "god.ring.neighbours", "3")))
                .hasMessage("god.ring.neighbours: must be at least god.redundancy - 1 (4: every replica holder"
                        + " watches the others), was 3");
    }

    @Test
    void theRingPingSetIsConfigurable() {
        NodeSettings.Cluster c = NodeSettings.of(Map.of()).cluster();
        assertThat(List.of(c.ringNeighbours(), c.ringFanout(), c.ringProbes())).isEqualTo(List.of(3, 2, 2));
        assertThat(NodeSettings.of(Map.of("god.redundancy", "6")).cluster().ringNeighbours())
                .as("default: every replica holder pings the others").isEqualTo(5);
        c = NodeSettings.of(Map.of("god.ring.neighbours", "4", "god.ring.fanout", "0", "god.ring.probes", "9")).cluster();
        assertThat(List.of(c.ringNeighbours(), c.ringFanout(), c.ringProbes())).isEqualTo(List.of(4, 0, 9));
    }

    @Test
    void blankMeansDefault() {
        assertThat(NodeSettings.of(Map.of("god.data-dir", " ", "god.auth.token", "")).inMemory()).isTrue();
        assertThat(NodeSettings.of(Map.of("god.auth.token", "  ")).authToken()).isNull();
    }

    private static void invalid(String key, String value, String message) {
        assertThatThrownBy(() -> NodeSettings.of(Map.of(key, value))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void environmentVariablesThroughQuarkusConfig() {
        var config = new io.smallrye.config.SmallRyeConfigBuilder()
                .withSources(new io.smallrye.config.EnvConfigSource(Map.of("GOD_DATA_DIR", "/data",
                        "GOD_TOMBSTONE_WINDOW", "48h", "GOD_NODE_ADVERTISE", "god-1.peers:9191",
                        "GOD_LIMITS_VALUE_SIZE", "1M"), 300))
                .build();
        NodeSettings s = NodeSettings.from(key -> config.getOptionalValue(key, String.class));
        assertThat(s.dataDir()).isEqualTo(Path.of("/data"));
        assertThat(s.tombstoneWindow()).isEqualTo(Duration.ofHours(48));
        assertThat(s.advertise()).isEqualTo("god-1.peers:9191");
        assertThat(s.valueSize()).isEqualTo(1 << 20);
        var bad = new io.smallrye.config.SmallRyeConfigBuilder()
                .withSources(new io.smallrye.config.EnvConfigSource(Map.of("GOD_TOMBSTONE_WINDOW", "0s"), 300)).build();
        assertThatThrownBy(() -> NodeSettings.from(key -> bad.getOptionalValue(key, String.class)))
                .hasMessage("god.tombstone-window: must be at least 1s, was 0s");
    }

    @Test
    void everyInvalidKeyIsReportedAtOnce() {
        java.util.Map<String, String> bad = new java.util.LinkedHashMap<>();
        bad.put("god.redundancy", "0");
        bad.put("god.persistence.fsync", "sometimes");
        bad.put("god.limits.key-size", "huge");
        bad.put("god.rpc.attempts", "99");
        bad.put("god.limits.json-depth", "0");
        assertThatThrownBy(() -> NodeSettings.of(bad)).hasMessageStartingWith("god.redundancy: ")
                .hasMessageContaining("god.redundancy: must be between 1 and 64, was 0")
                .hasMessageContaining("god.persistence.fsync: must be always, everysec or no, was 'sometimes'")
                .hasMessageContaining("god.limits.key-size: ")
                .hasMessageContaining("god.rpc.attempts: must be between 1 and 20, was 99")
                .hasMessageContaining("god.limits.json-depth: ")
                .satisfies(e -> assertThat(e.getMessage().split("; ")).hasSize(5));
        // good keys beside bad ones are not reported
        assertThatThrownBy(() -> NodeSettings.of(Map.of("god.redundancy", "2", "god.gc.budget", "0")))
                .hasMessage("god.gc.budget: must be between 1 and 1000000, was 0");
    }

    /**
     * Three credentials: peer and admin fall back to the client's while unset (the metrics one never does); each has
     * its own file and previous tokens (the names the operator mounts Secrets under); god.auth.clear is client or
     * admin.
     */
    @Test
    void peerAndAdminCredentialsFallBackToTheClientsAndReadTheirOwnFiles(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        NodeSettings one = NodeSettings.of(Map.of("god.auth.token", "client-token-1"));
        assertThat(one.peerTokens().accepted()).containsExactly("client-token-1");
        assertThat(one.adminTokens().accepted()).containsExactly("client-token-1");
        assertThat(one.metricsTokens().set()).as("the metrics credential has no fallback").isFalse();
        assertThat(one.clearNeedsAdmin()).isFalse();

        java.nio.file.Path peer = tmp.resolve("peer");
        java.nio.file.Files.writeString(peer, "peer-token-new\npeer-token-old\n");
        NodeSettings three = NodeSettings.of(Map.of("god.auth.token", "client-token-1", "god.auth.peer-token-file",
                peer.toString(), "god.auth.admin-token", "admin-token-new", "god.auth.admin-previous-tokens",
                "admin-token-old", "god.auth.clear", "admin"));
        assertThat(three.acceptedTokens()).containsExactly("client-token-1");
        assertThat(three.peerTokens().current()).isEqualTo("peer-token-new");
        assertThat(three.peerTokens().accepted()).containsExactly("peer-token-new", "peer-token-old");
        assertThat(three.adminTokens().accepted()).containsExactly("admin-token-new", "admin-token-old");
        assertThat(three.clearNeedsAdmin()).isTrue();

        java.nio.file.Path metrics = tmp.resolve("metrics");
        java.nio.file.Files.writeString(metrics, "metrics-token-new\nmetrics-token-old\n");
        assertThat(NodeSettings.of(Map.of("god.auth.metrics-token-file", metrics.toString())).metricsTokens()
                .accepted()).containsExactly("metrics-token-new", "metrics-token-old");
        assertThatThrownBy(() -> NodeSettings.of(Map.of("god.auth.metrics-token", "short")))
                .hasMessage("god.auth.metrics-token: must be at least 8 characters when set");

        NodeSettings peerOnly = NodeSettings.of(Map.of("god.auth.peer-token", "peer-token-22"));
        assertThat(peerOnly.acceptedTokens()).as("clients stay open").isEmpty();
        assertThat(peerOnly.peerTokens().accepted()).containsExactly("peer-token-22");

        assertThatThrownBy(() -> NodeSettings.of(Map.of("god.auth.clear", "anyone")))
                .hasMessage("god.auth.clear: must be client or admin, was 'anyone'");
        assertThatThrownBy(() -> NodeSettings.of(Map.of("god.auth.peer-token", "short")))
                .hasMessage("god.auth.peer-token: must be at least 8 characters when set");
        assertThatThrownBy(() -> NodeSettings.of(Map.of("god.auth.admin-previous-tokens", "admin-token-old")))
                .hasMessageContaining("god.auth.admin-previous-tokens: is set but god.auth.admin-token is not");
        assertThatThrownBy(() -> NodeSettings.of(Map.of("god.auth.peer-token-file", tmp.resolve("none").toString())))
                .hasMessageContaining("god.auth.peer-token-file: cannot be read");
    }

    /** A rotation: the current token and previous ones, from settings or from a mounted Secret's file. */
    @Test
    void tokensForARotationFromSettingsOrAFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        NodeSettings s = NodeSettings.of(Map.of("god.auth.token", "new-token-2",
                "god.auth.previous-tokens", "old-token-1, older-token-0"));
        assertThat(s.authToken()).isEqualTo("new-token-2");
        assertThat(s.acceptedTokens()).containsExactly("new-token-2", "old-token-1", "older-token-0");
        assertThat(NodeSettings.of(Map.of()).acceptedTokens()).isEmpty();

        java.nio.file.Path file = tmp.resolve("token");
        java.nio.file.Files.writeString(file, "from-file-new\n\nfrom-file-old\n");
        NodeSettings f = NodeSettings.of(Map.of("god.auth.token-file", file.toString()));
        assertThat(f.authToken()).isEqualTo("from-file-new");
        assertThat(f.acceptedTokens()).containsExactly("from-file-new", "from-file-old");

        assertThatThrownBy(() -> NodeSettings.of(Map.of("god.auth.token-file", file.toString(),
                "god.auth.token", "also-a-token"))).hasMessageContaining("god.auth.token-file")
                .hasMessageContaining("both set");
        assertThatThrownBy(() -> NodeSettings.of(Map.of("god.auth.token-file", tmp.resolve("none").toString())))
                .hasMessageContaining("god.auth.token-file").hasMessageContaining("cannot be read");
        assertThatThrownBy(() -> NodeSettings.of(Map.of("god.auth.previous-tokens", "old-token-1")))
                .hasMessageContaining("god.auth.previous-tokens").hasMessageContaining("needs a current one");
        assertThatThrownBy(() -> NodeSettings.of(Map.of("god.auth.token", "new-token-2",
                "god.auth.previous-tokens", "short"))).hasMessageContaining("at least 8 characters");
        assertThatThrownBy(() -> NodeSettings.of(Map.of("god.auth.reads", "true")))
                .hasMessageContaining("god.auth.reads").hasMessageContaining("god.auth.token is not set");
    }
}
