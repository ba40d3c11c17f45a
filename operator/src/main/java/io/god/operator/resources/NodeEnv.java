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
    /** Where the PVC is mounted; the only writable path besides /tmp. */
    public static final String DATA_PATH = "/var/lib/god";

    private NodeEnv() {
    }
}
