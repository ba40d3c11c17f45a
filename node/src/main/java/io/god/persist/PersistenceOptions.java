package io.god.persist;

/**
 * @param fsync when the log reaches the disk
 * @param snapshotThresholdBytes a snapshot starts once the logs written since the newest snapshot
 *     exceed this many bytes (0 = never automatically)
 * @param retainedSnapshots how many complete snapshots (each with the logs written after it) are
 *     kept: 2 (the default) keeps one previous generation to fall back to if the newest snapshot is
 *     found corrupt; 1 keeps only the newest
 * @param onCorruption what recovery does with damage a crash cannot explain (default refuse)
 * @param repairPeers whether something can restore lost records (a node with ring peers); without,
 *     {@link CorruptionPolicy#REPAIR} refuses like {@link CorruptionPolicy#REFUSE}
 */
public record PersistenceOptions(FsyncPolicy fsync, long snapshotThresholdBytes, int retainedSnapshots,
                                 CorruptionPolicy onCorruption, boolean repairPeers) {

    public static final long DEFAULT_SNAPSHOT_THRESHOLD = 64L << 20;

    public PersistenceOptions {
        if (fsync == null) {
            throw new IllegalArgumentException("fsync policy is required");
        }
        if (snapshotThresholdBytes < 0) {
            throw new IllegalArgumentException("snapshot threshold must be >= 0, was " + snapshotThresholdBytes);
        }
        if (retainedSnapshots < 1) {
            throw new IllegalArgumentException("retained snapshots must be >= 1, was " + retainedSnapshots);
        }
        if (onCorruption == null) {
            throw new IllegalArgumentException("corruption policy is required");
        }
    }

    /** With the default corruption policy (refuse). */
    public PersistenceOptions(FsyncPolicy fsync, long snapshotThresholdBytes, int retainedSnapshots) {
        this(fsync, snapshotThresholdBytes, retainedSnapshots, CorruptionPolicy.REFUSE, false);
    }

    public static PersistenceOptions defaults() {
        return new PersistenceOptions(FsyncPolicy.EVERYSEC, DEFAULT_SNAPSHOT_THRESHOLD, 2);
    }

    public PersistenceOptions withFsync(FsyncPolicy p) {
        return new PersistenceOptions(p, snapshotThresholdBytes, retainedSnapshots, onCorruption, repairPeers);
    }

    public PersistenceOptions withSnapshotThreshold(long bytes) {
        return new PersistenceOptions(fsync, bytes, retainedSnapshots, onCorruption, repairPeers);
    }

    public PersistenceOptions withRetainedSnapshots(int n) {
        return new PersistenceOptions(fsync, snapshotThresholdBytes, n, onCorruption, repairPeers);
    }

    /** The corruption policy; repairPeers says whether ring peers can restore what repair loses. */
    public PersistenceOptions withOnCorruption(CorruptionPolicy p, boolean peers) {
        return new PersistenceOptions(fsync, snapshotThresholdBytes, retainedSnapshots, p, peers);
    }
}
