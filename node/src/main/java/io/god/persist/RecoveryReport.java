package io.god.persist;

import java.util.List;

/**
 * What recovery read: the snapshot used (null = none), how many records came from it and from the
 * logs, the bytes cut off torn or corrupt log tails, the snapshots rejected, and how long it took.
 */
public record RecoveryReport(String snapshot, long snapshotRecords, List<String> logs, long logRecords,
                             long truncatedBytes, List<String> rejectedSnapshots, List<String> warnings,
                             long durationNanos) {

    @Override
    public String toString() {
        return "recovered " + (snapshot == null ? "no snapshot" : "snapshot " + snapshot + " (" + snapshotRecords + " records)")
                + " + " + logs.size() + " log(s) (" + logRecords + " records)"
                + (truncatedBytes > 0 ? ", cut " + truncatedBytes + " corrupt/torn bytes" : "")
                + (rejectedSnapshots.isEmpty() ? "" : ", rejected snapshots " + rejectedSnapshots)
                + " in " + durationNanos / 1_000_000 + " ms";
    }
}
