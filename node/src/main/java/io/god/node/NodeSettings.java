package io.god.node;

import static io.god.node.SettingValues.duration;
import static io.god.node.SettingValues.invalid;
import static io.god.node.SettingValues.number;
import static io.god.node.SettingValues.size;

import io.god.persist.CorruptionPolicy;
import io.god.persist.FsyncPolicy;
import io.god.persist.PersistenceOptions;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Every setting of a node, validated. Build it with {@link #from(Function)} over any key lookup
 * (Quarkus config in the app, a map in tests); an invalid value fails with an
 * {@link IllegalArgumentException} whose message starts with the config key, e.g.
 * {@code god.tombstone-window: must be at least 1s, was 0s}; with several invalid keys it names them
 * all, joined by "; ".
 *
 * @param nodePort the binary protocol port (peers and the Java client; 0 = any free port)
 * @param advertise the {@code host:port} peers use to reach this node
 * @param dataDir the data directory, or null for an in-memory node
 * @param seeds addresses ({@code host:port}) of ring members to join (used by the ring)
 * @param redundancy N, the number of copies of each key
 * @param tombstoneWindow how long tombstones are kept before collection
 * @param fsync when the write-ahead log is forced to disk
 * @param snapshotThreshold log bytes since the last snapshot that start a new one (0 = never)
 * @param keySize largest key or sub key, in bytes
 * @param valueSize largest value, in bytes
 * @param bodySize largest HTTP request body, in bytes
 * @param authToken the shared secret, or null when auth is off
 * @param gcInterval how often the background tombstone collection runs
 * @param gcBudget how many expired markers one background collection may remove
 * @param cluster ring, RPC and replication settings
 * @param quarantineKeep how many stale-data quarantine directories are kept (the oldest go first)
 * @param limits what one request may cost ({@code god.limits.*} beyond the key, value and body sizes)
 * @param maxSkew how far ahead of the physical clock peers' stamps, time samples and the persisted last
 *                timestamp may move this node's time ({@code god.time.max-skew})
 * @param onCorruption what recovery does with a damaged data directory (refuse, repair, truncate)
 * @param syncAcks how many replicas of a key's expected replica set confirm a Sync write (quorum, all)
 * @param authReads whether reads need the token too ({@code god.auth.reads}; needs {@code god.auth.token})
 * @param acceptedTokens every token a caller may present: the current one and previous ones during a rotation
 * @param authTimeout how long a binary connection may stay without presenting the token ({@code god.limits.auth-timeout})
 * @param maxConnections binary connections at once, peers and clients ({@code god.limits.connections})
 * @param peerTokens the peer credential (ring traffic, write stamps): {@code god.auth.peer-token}, else the client's
 * @param adminTokens the admin credential ({@code /admin/*}): {@code god.auth.admin-token}, else the client's
 * @param metricsTokens the metrics credential ({@code GET /q/metrics} only): {@code god.auth.metrics-token}; no
 *                      fallback, unset means only the admin credential reads the metrics
 * @param clearNeedsAdmin whether Clear (FLUSHALL) needs the admin credential ({@code god.auth.clear=admin})
 * @param protectedMode no credential and no {@code god.node.host}: only loopback clients are served (as Redis does)
 * @param tls TLS on the binary and RESP ports ({@code god.tls.*}), or null when off
 * @param failFsync testing only ({@code god.testing.fail-fsync}): fsyncs in the data directory fail while the file
 *                  {@link #FAIL_FSYNC_TRIGGER} exists in it (the fault campaign's {@code fsync-fail} nemesis)
 */
public record NodeSettings(int nodePort, String advertise, Path dataDir, List<String> seeds, int redundancy,
                           Duration tombstoneWindow, FsyncPolicy fsync, long snapshotThreshold, int keySize,
                           int valueSize, long bodySize, String authToken, Duration gcInterval, int gcBudget,
                           Cluster cluster, int quarantineKeep, io.god.limits.Limits limits, Duration maxSkew,
                           CorruptionPolicy onCorruption, io.god.cluster.SyncAcks syncAcks, boolean authReads,
                           List<String> acceptedTokens, Duration authTimeout, int maxConnections,
                           AuthTokens peerTokens, AuthTokens adminTokens, AuthTokens metricsTokens,
                           boolean clearNeedsAdmin,
                           boolean protectedMode, TlsSettings tls, boolean failFsync) {

    public static final String TESTING_FAIL_FSYNC = "god.testing.fail-fsync";
    /** The trigger file of {@link #TESTING_FAIL_FSYNC}, in the data directory. */
    public static final String FAIL_FSYNC_TRIGGER = "fail-fsync";

    /**
     * @param bindHost the interface the binary protocol listens on (default: the advertise host)
     * @param ringInterval how often membership pings run
     * @param ringFailures failed pings in a row after which a member is removed from the view
     * @param forgetAfter how long a removed member is still probed before it is forgotten
     * @param rpcTimeout the deadline of one node-to-node call
     * @param rpcAttempts attempts of an idempotent node-to-node call (with back-off) within its deadline
     * @param replicationQueue async replication messages in flight at most (more are dropped)
     * @param syncInterval pause between anti-entropy rounds
     * @param syncBudget differing regions exchanged with one successor per round at most
     * @param ringNeighbours successors and predecessors a member pings every interval
     * @param ringFanout random other members a member pings every interval
     * @param ringProbes down members a member probes per interval at most
     */
    public record Cluster(String bindHost, Duration ringInterval, int ringFailures, Duration forgetAfter,
                          Duration rpcTimeout, int rpcAttempts, int replicationQueue, Duration syncInterval,
                          int syncBudget, int ringNeighbours, int ringFanout, int ringProbes) {

        /** With the default ring neighbours, fanout and probes. */
        public Cluster(String bindHost, Duration ringInterval, int ringFailures, Duration forgetAfter,
                       Duration rpcTimeout, int rpcAttempts, int replicationQueue, Duration syncInterval,
                       int syncBudget) {
            this(bindHost, ringInterval, ringFailures, forgetAfter, rpcTimeout, rpcAttempts, replicationQueue,
                    syncInterval, syncBudget, 3, 2, 2);
        }

        public Cluster(String bindHost, Duration ringInterval, int ringFailures, Duration forgetAfter,
                       Duration rpcTimeout, int rpcAttempts, int replicationQueue) {
            this(bindHost, ringInterval, ringFailures, forgetAfter, rpcTimeout, rpcAttempts, replicationQueue,
                    Duration.ofSeconds(10), 10_000);
        }
    }

    public static final String NODE_HOST = "god.node.host";
    public static final String RING_INTERVAL = "god.ring.interval";
    public static final String RING_FAILURES = "god.ring.failures";
    public static final String RING_FORGET_AFTER = "god.ring.forget-after";
    public static final String RING_NEIGHBOURS = "god.ring.neighbours";
    public static final String RING_FANOUT = "god.ring.fanout";
    public static final String RING_PROBES = "god.ring.probes";
    public static final String RPC_TIMEOUT = "god.rpc.timeout";
    public static final String RPC_ATTEMPTS = "god.rpc.attempts";
    public static final String REPLICATION_QUEUE = "god.replication.queue";
    public static final String SYNC_INTERVAL = "god.sync.interval";
    public static final String SYNC_BUDGET = "god.sync.budget";
    public static final String SYNC_ACKS = "god.sync.acks";

    public static final String NODE_PORT = "god.node.port";
    public static final String ADVERTISE = "god.node.advertise";
    public static final String DATA_DIR = "god.data-dir";
    public static final String SEEDS = "god.seeds";
    public static final String REDUNDANCY = "god.redundancy";
    public static final String TOMBSTONE_WINDOW = "god.tombstone-window";
    public static final String FSYNC = "god.persistence.fsync";
    public static final String SNAPSHOT_THRESHOLD = "god.persistence.snapshot-threshold";
    public static final String ON_CORRUPTION = "god.persistence.on-corruption";
    public static final String KEY_SIZE = "god.limits.key-size";
    public static final String VALUE_SIZE = "god.limits.value-size";
    public static final String BODY_SIZE = "god.limits.body-size";
    public static final String AUTH_TOKEN = "god.auth.token";
    public static final String AUTH_READS = "god.auth.reads";
    public static final String GC_INTERVAL = "god.gc.interval";
    public static final String GC_BUDGET = "god.gc.budget";
    public static final String QUARANTINE_KEEP = "god.quarantine.keep";
    public static final String TIME_MAX_SKEW = "god.time.max-skew";

    /** Defaults, as documented in docs/configuration.md. */
    public static final Map<String, String> DEFAULTS = Map.ofEntries(
            Map.entry(NODE_PORT, "9191"),
            Map.entry(REDUNDANCY, "3"),
            Map.entry(TOMBSTONE_WINDOW, "24h"),
            Map.entry(FSYNC, "everysec"),
            Map.entry(SNAPSHOT_THRESHOLD, "64M"),
            Map.entry(ON_CORRUPTION, "refuse"),
            Map.entry(KEY_SIZE, "64K"),
            Map.entry(VALUE_SIZE, "4M"),
            Map.entry(BODY_SIZE, "8M"),
            Map.entry(GC_INTERVAL, "10s"),
            Map.entry(GC_BUDGET, "1000"),
            Map.entry(RING_INTERVAL, "1s"),
            Map.entry(RING_FAILURES, "3"),
            Map.entry(RING_FORGET_AFTER, "1h"),
            Map.entry(RING_FANOUT, "2"),
            Map.entry(RING_PROBES, "2"),
            Map.entry(RPC_TIMEOUT, "2s"),
            Map.entry(RPC_ATTEMPTS, "3"),
            Map.entry(REPLICATION_QUEUE, "10000"),
            Map.entry(SYNC_INTERVAL, "10s"),
            Map.entry(SYNC_BUDGET, "10000"),
            Map.entry(SYNC_ACKS, "quorum"),
            Map.entry(QUARANTINE_KEEP, "3"),
            Map.entry(TIME_MAX_SKEW, "1m"));

    public NodeSettings {
        seeds = List.copyOf(seeds);
    }

    /**
     * Settings from a lookup of config keys (absent or blank = the default). Every invalid key is
     * reported at once: one message, the problems joined by "; ", each starting with its key.
     */
    public static NodeSettings from(Function<String, Optional<String>> config) {
        // validate, set the key that failed back to its default, validate again: each pass finds the
        // next bad key (checks that relate two keys see the default of the one already reported)
        List<String> problems = new ArrayList<>();
        java.util.Set<String> dropped = new java.util.HashSet<>();
        while (true) {
            try {
                NodeSettings settings = build(key -> dropped.contains(key) ? Optional.empty() : config.apply(key));
                if (problems.isEmpty()) {
                    return settings;
                }
                break;
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
                String message = String.valueOf(e.getMessage());
                int colon = message.indexOf(": ");
                String key = colon > 0 ? message.substring(0, colon) : null;
                if (key == null || !key.startsWith("god.") || !dropped.add(key)) {
                    break;
                }
            }
        }
        throw new IllegalArgumentException(String.join("; ", problems));
    }

    private static NodeSettings build(Function<String, Optional<String>> config) {
        Function<String, String> get = key -> config.apply(key).map(String::trim).filter(v -> !v.isEmpty())
                .orElse(DEFAULTS.get(key));
        int nodePort = port(NODE_PORT, get.apply(NODE_PORT), true);
        String advertise = get.apply(ADVERTISE);
        if (advertise == null) {
            advertise = hostname() + ":" + (nodePort == 0 ? 9191 : nodePort);
        }
        address(ADVERTISE, advertise);
        String dir = get.apply(DATA_DIR);
        Path dataDir = null;
        if (dir != null) {
            try {
                dataDir = Path.of(dir);
            } catch (RuntimeException e) {
                throw invalid(DATA_DIR, "not a path: '" + dir + "'");
            }
        }
        List<String> seeds = new ArrayList<>();
        String seedList = get.apply(SEEDS);
        if (seedList != null) {
            for (String s : seedList.split(",")) {
                if (!s.isBlank()) {
                    seeds.add(address(SEEDS, s.trim()));
                }
            }
        }
        long redundancy = number(REDUNDANCY, get.apply(REDUNDANCY));
        if (redundancy < 1 || redundancy > 64) {
            throw invalid(REDUNDANCY, "must be between 1 and 64, was " + redundancy);
        }
        Duration window = duration(TOMBSTONE_WINDOW, get.apply(TOMBSTONE_WINDOW));
        if (window.compareTo(Duration.ofSeconds(1)) < 0) {
            throw invalid(TOMBSTONE_WINDOW, "must be at least 1s, was " + Durations.format(window));
        }
        FsyncPolicy fsync;
        try {
            fsync = FsyncPolicy.parse(get.apply(FSYNC));
        } catch (IllegalArgumentException e) {
            throw invalid(FSYNC, "must be always, everysec or no, was '" + get.apply(FSYNC) + "'");
        }
        long snapshot = size(SNAPSHOT_THRESHOLD, get.apply(SNAPSHOT_THRESHOLD));
        CorruptionPolicy onCorruption;
        try {
            onCorruption = CorruptionPolicy.parse(get.apply(ON_CORRUPTION));
        } catch (IllegalArgumentException e) {
            throw invalid(ON_CORRUPTION, e.getMessage());
        }
        long keySize = size(KEY_SIZE, get.apply(KEY_SIZE));
        if (keySize < 1 || keySize > Integer.MAX_VALUE) {
            throw invalid(KEY_SIZE, "must be between 1 and " + Integer.MAX_VALUE + " bytes, was " + keySize);
        }
        long valueSize = size(VALUE_SIZE, get.apply(VALUE_SIZE));
        if (valueSize > Integer.MAX_VALUE) {
            throw invalid(VALUE_SIZE, "must be at most " + Integer.MAX_VALUE + " bytes, was " + valueSize);
        }
        long bodySize = size(BODY_SIZE, get.apply(BODY_SIZE));
        if (bodySize < 64 || bodySize > (1L << 30)) {
            throw invalid(BODY_SIZE, "must be between 64 bytes and 1G, was " + bodySize);
        }
        AuthTokens tokens = AuthTokens.from(config);
        String token = tokens.current();
        Duration gcInterval = duration(GC_INTERVAL, get.apply(GC_INTERVAL));
        if (gcInterval.compareTo(Duration.ofMillis(10)) < 0) {
            throw invalid(GC_INTERVAL, "must be at least 10ms, was " + Durations.format(gcInterval));
        }
        long gcBudget = number(GC_BUDGET, get.apply(GC_BUDGET));
        if (gcBudget < 1 || gcBudget > 1_000_000) {
            throw invalid(GC_BUDGET, "must be between 1 and 1000000, was " + gcBudget);
        }
        String bindHost = get.apply(NODE_HOST);
        if (bindHost == null) {
            bindHost = advertise.substring(0, advertise.lastIndexOf(':')).replace("[", "").replace("]", "");
        }
        Duration ringInterval = duration(RING_INTERVAL, get.apply(RING_INTERVAL));
        if (ringInterval.compareTo(Duration.ofMillis(5)) < 0) {
            throw invalid(RING_INTERVAL, "must be at least 5ms, was " + Durations.format(ringInterval));
        }
        long failures = number(RING_FAILURES, get.apply(RING_FAILURES));
        if (failures < 1 || failures > 1000) {
            throw invalid(RING_FAILURES, "must be between 1 and 1000, was " + failures);
        }
        Duration forget = duration(RING_FORGET_AFTER, get.apply(RING_FORGET_AFTER));
        if (forget.compareTo(ringInterval) < 0) {
            throw invalid(RING_FORGET_AFTER, "must be at least god.ring.interval, was " + Durations.format(forget));
        }
        // default: 3, or N - 1 when more, so every replica holder pings the other holders itself
        String n1 = get.apply(RING_NEIGHBOURS);
        long neighbours = n1 == null ? Math.max(3, redundancy - 1) : between(RING_NEIGHBOURS, n1, 1, 64);
        if (neighbours < Math.min(redundancy - 1, 64)) {
            throw invalid(RING_NEIGHBOURS, "must be at least god.redundancy - 1 (" + (redundancy - 1)
                    + ": every replica holder watches the others), was " + neighbours);
        }
        long fanout = between(RING_FANOUT, get.apply(RING_FANOUT), 0, 64);
        long probes = between(RING_PROBES, get.apply(RING_PROBES), 1, 1000);
        Duration rpcTimeout = duration(RPC_TIMEOUT, get.apply(RPC_TIMEOUT));
        if (rpcTimeout.compareTo(Duration.ofMillis(10)) < 0) {
            throw invalid(RPC_TIMEOUT, "must be at least 10ms, was " + Durations.format(rpcTimeout));
        }
        long attempts = number(RPC_ATTEMPTS, get.apply(RPC_ATTEMPTS));
        if (attempts < 1 || attempts > 20) {
            throw invalid(RPC_ATTEMPTS, "must be between 1 and 20, was " + attempts);
        }
        long queue = number(REPLICATION_QUEUE, get.apply(REPLICATION_QUEUE));
        if (queue < 1 || queue > 10_000_000) {
            throw invalid(REPLICATION_QUEUE, "must be between 1 and 10000000, was " + queue);
        }
        Duration syncInterval = duration(SYNC_INTERVAL, get.apply(SYNC_INTERVAL));
        if (syncInterval.compareTo(Duration.ofMillis(5)) < 0) {
            throw invalid(SYNC_INTERVAL, "must be at least 5ms, was " + Durations.format(syncInterval));
        }
        long syncBudget = number(SYNC_BUDGET, get.apply(SYNC_BUDGET));
        if (syncBudget < 1 || syncBudget > 10_000_000) {
            throw invalid(SYNC_BUDGET, "must be between 1 and 10000000, was " + syncBudget);
        }
        io.god.cluster.SyncAcks syncAcks;
        try {
            syncAcks = io.god.cluster.SyncAcks.parse(get.apply(SYNC_ACKS));
        } catch (IllegalArgumentException e) {
            throw invalid(SYNC_ACKS, e.getMessage());
        }
        long keep = number(QUARANTINE_KEEP, get.apply(QUARANTINE_KEEP));
        if (keep < 1 || keep > 1000) {
            throw invalid(QUARANTINE_KEEP, "must be between 1 and 1000, was " + keep);
        }
        Duration maxSkew = duration(TIME_MAX_SKEW, get.apply(TIME_MAX_SKEW));
        if (maxSkew.compareTo(Duration.ofSeconds(1)) < 0 || maxSkew.compareTo(Duration.ofDays(1)) > 0) {
            throw invalid(TIME_MAX_SKEW, "must be between 1s and 1d, was " + Durations.format(maxSkew));
        }
        Cluster cluster = new Cluster(bindHost, ringInterval, (int) failures, forget, rpcTimeout, (int) attempts,
                (int) queue, syncInterval, (int) syncBudget, (int) neighbours, (int) fanout, (int) probes);
        return new NodeSettings(nodePort, advertise, dataDir, seeds, (int) redundancy, window, fsync, snapshot,
                (int) keySize, (int) valueSize, bodySize, token, gcInterval, (int) gcBudget, cluster, (int) keep,
                io.god.limits.Limits.from(k -> config.apply(k).orElse(null)), maxSkew, onCorruption, syncAcks,
                authReads(config, token), tokens.accepted(), authTimeout(config), maxConnections(config),
                orClient(AuthTokens.from(config, AuthTokens.PEER), tokens),
                orClient(AuthTokens.from(config, AuthTokens.ADMIN), tokens), AuthTokens.from(config, AuthTokens.METRICS),
                clearNeedsAdmin(config),
                !tokens.set() && !AuthTokens.from(config, AuthTokens.PEER).set()
                        && !AuthTokens.from(config, AuthTokens.ADMIN).set() && get.apply(NODE_HOST) == null,
                TlsSettings.from(config), failFsync(config, dataDir));
    }

    private static boolean failFsync(Function<String, Optional<String>> config, Path dataDir) {
        String v = config.apply(TESTING_FAIL_FSYNC).map(String::trim).orElse("false");
        if (!v.equals("true") && !v.equals("false")) {
            throw invalid(TESTING_FAIL_FSYNC, "must be true or false, was '" + v + "'");
        }
        if (v.equals("true") && dataDir == null) {
            throw invalid(TESTING_FAIL_FSYNC, "is true but " + DATA_DIR + " is not set: an in-memory node has no fsync");
        }
        return v.equals("true");
    }

    public static final String AUTH_CLEAR = "god.auth.clear";

    /** An unset peer or admin credential is the client's: single-token setups keep working. */
    private static AuthTokens orClient(AuthTokens own, AuthTokens client) {
        return own.set() ? own : client;
    }

    private static boolean clearNeedsAdmin(Function<String, Optional<String>> config) {
        String v = config.apply(AUTH_CLEAR).map(String::trim).orElse("client");
        if (!v.equals("client") && !v.equals("admin")) {
            throw invalid(AUTH_CLEAR, "must be client or admin, was '" + v + "'");
        }
        return v.equals("admin");
    }

    /**
     * What the node's credentials are, for its start log: which of peer and admin fall back to the client
     * credential, and protected mode; null when there is nothing to say (every credential set apart).
     */
    public String credentialsNote() {
        if (protectedMode) {
            return "protected mode: no credential (god.auth.token, god.auth.peer-token, god.auth.admin-token) and no"
                    + " bind address (god.node.host) are set, so only clients on this machine (loopback) are served;"
                    + " set a token or god.node.host to serve others";
        }
        List<String> shared = new ArrayList<>();
        if (authToken != null && authToken.equals(peerTokens.current())) {
            shared.add("peers (god.auth.peer-token unset or equal)");
        }
        if (authToken != null && authToken.equals(adminTokens.current())) {
            shared.add("admin (god.auth.admin-token unset or equal)");
        }
        return shared.isEmpty() ? null : "the client credential god.auth.token also serves " + String.join(" and ", shared)
                + ": any client may do what they may; set them apart to separate the rights";
    }

    public static final String AUTH_TIMEOUT = "god.limits.auth-timeout";
    public static final String CONNECTIONS = "god.limits.connections";

    private static Duration authTimeout(Function<String, Optional<String>> config) {
        Duration d = duration(AUTH_TIMEOUT, config.apply(AUTH_TIMEOUT).orElse("10s"));
        if (d.compareTo(Duration.ofMillis(100)) < 0 || d.compareTo(Duration.ofMinutes(10)) > 0) {
            throw invalid(AUTH_TIMEOUT, "must be between 100ms and 10m, was " + Durations.format(d));
        }
        return d;
    }

    private static int maxConnections(Function<String, Optional<String>> config) {
        long n = number(CONNECTIONS, config.apply(CONNECTIONS).orElse("10000"));
        if (n < 1 || n > 1_000_000) {
            throw invalid(CONNECTIONS, "must be between 1 and 1000000, was " + n);
        }
        return (int) n;
    }

    private static boolean authReads(Function<String, Optional<String>> config, String token) {
        String v = config.apply(AUTH_READS).map(String::trim).orElse("false");
        if (!v.equals("true") && !v.equals("false")) {
            throw invalid(AUTH_READS, "must be true or false, was '" + v + "'");
        }
        if (v.equals("true") && token == null) {
            throw invalid(AUTH_READS, "is true but " + AUTH_TOKEN + " is not set: there is no credential to ask for");
        }
        return v.equals("true");
    }

    /** Settings from a map of overrides over the defaults (tests, embedding). */
    public static NodeSettings of(Map<String, String> values) {
        return from(key -> Optional.ofNullable(values.get(key)));
    }

    public boolean inMemory() {
        return dataDir == null;
    }

    public PersistenceOptions persistenceOptions() {
        // repair restores lost records from the ring: only a node with peers that hold copies can use it
        boolean peers = redundancy > 1 && seeds.stream().anyMatch(s -> !s.equals(advertise));
        return PersistenceOptions.defaults().withFsync(fsync).withSnapshotThreshold(snapshotThreshold)
                .withOnCorruption(onCorruption, peers);
    }

    @Override
    public String toString() {
        return "NodeSettings[advertise=" + advertise + ", dataDir=" + (dataDir == null ? "(in memory)" : dataDir)
                + ", seeds=" + seeds + ", redundancy=" + redundancy + ", tombstoneWindow="
                + Durations.format(tombstoneWindow) + ", fsync=" + fsync + ", auth=" + (authToken != null)
                + ", tls=" + (tls != null) + "]";
    }

    // ------------------------------------------------------------------ parsing helpers

    private static long between(String key, String v, long min, long max) {
        return SettingValues.between(key, number(key, v), min, max);
    }

    private static int port(String key, String v, boolean zeroAllowed) {
        long p = number(key, v);
        if (p < (zeroAllowed ? 0 : 1) || p > 65535) {
            throw invalid(key, "must be a port between " + (zeroAllowed ? 0 : 1) + " and 65535, was " + p);
        }
        return (int) p;
    }

    private static String address(String key, String a) {
        int colon = a.lastIndexOf(':');
        if (colon <= 0 || colon == a.length() - 1) {
            throw invalid(key, "must be host:port, was '" + a + "'");
        }
        String host = a.substring(0, colon);
        if (host.startsWith("[") != host.endsWith("]") || host.contains(" ")) {
            throw invalid(key, "must be host:port, was '" + a + "'");
        }
        port(key, a.substring(colon + 1), false);
        return a;
    }

    private static String hostname() {
        return defaultHost(System.getenv("HOSTNAME"));
    }

    /**
     * The host of the default advertise address: {@code $HOSTNAME} when set and resolvable (a pod's
     * name, a container's id), else 127.0.0.1 — never a name peers and browsers may not resolve.
     */
    static String defaultHost(String hostnameEnv) {
        if (hostnameEnv != null && !hostnameEnv.isBlank()) {
            try {
                InetAddress.getByName(hostnameEnv.trim());
                return hostnameEnv.trim();
            } catch (Exception e) {
                // not resolvable here: loopback below
            }
        }
        return "127.0.0.1";
    }
}
