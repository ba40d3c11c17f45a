package io.god.operator.resources;

/** Environment variables the node reads (Quarkus config god.* in env-var form, issue 5). */
public final class NodeEnv {
    public static final String DATA_DIR = "GOD_DATA_DIR";
    public static final String SEEDS = "GOD_SEEDS";
    public static final String ADVERTISE = "GOD_NODE_ADVERTISE";
    public static final String REDUNDANCY = "GOD_REDUNDANCY";
    public static final String TOMBSTONE_WINDOW = "GOD_TOMBSTONE_WINDOW";
    public static final String FSYNC = "GOD_PERSISTENCE_FSYNC";
    public static final String SNAPSHOT_THRESHOLD = "GOD_PERSISTENCE_SNAPSHOT_THRESHOLD";
    /** The client credential file (the node's god.auth.token-file): current token first, previous ones after. */
    public static final String CLIENT_TOKEN_FILE = env("god.auth.token-file");
    /** The peers' credential file, same layout. */
    public static final String PEER_TOKEN_FILE = env("god.auth.peer-token-file");
    /** The management (/admin) credential file, same layout. */
    public static final String ADMIN_TOKEN_FILE = env("god.auth.admin-token-file");
    /** The metrics (GET /q/metrics only, for Prometheus) credential file, same layout. */
    public static final String METRICS_TOKEN_FILE = env("god.auth.metrics-token-file");
    public static final String TLS_CERT_FILE = env("god.tls.cert-file");
    public static final String TLS_KEY_FILE = env("god.tls.key-file");
    public static final String TLS_CA_FILE = env("god.tls.ca-file");
    public static final String TLS_PEER_SAN = env("god.tls.peer-san");
    /** Where the PVC is mounted; the only writable path besides /tmp. */
    public static final String DATA_PATH = "/var/lib/god";

    private NodeEnv() {
    }

    /** A Quarkus key in its environment form: god.auth.token-file → GOD_AUTH_TOKEN_FILE. */
    static String env(String key) {
        return key.toUpperCase(java.util.Locale.ROOT).replace('.', '_').replace('-', '_');
    }
}
