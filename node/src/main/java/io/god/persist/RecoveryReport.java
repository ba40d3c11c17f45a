package io.god.persist;

import java.util.List;

/**
 * What recovery read: the snapshot used (null = none), how many records came from it and from the
 * logs, the bytes cut off torn or damaged log tails, the snapshots rejected, and how long it took.
 *
 * @param damage every torn tail, corrupt region and gap found (in the order met)
 * @param lostRecords true when records were lost to corruption or a gap (the policy let the node start
 *                    anyway): the node must not claim to be complete; the ring has to restore it
 * @param completeUpTo with lostRecords, the newest timestamp of a record recovered before the first
 *                     loss (0 = nothing is known complete); Long.MAX_VALUE otherwise
 * @param setAside copies of damaged files kept for inspection ({@code *.damaged})
 */
public record RecoveryReport(String snapshot, long snapshotRecords, List<String> logs, long logRecords,
                             long truncatedBytes, List<String> rejectedSnapshots, List<String> warnings,
                             long durationNanos, List<Damage> damage, boolean lostRecords, long completeUpTo,
                             List<String> setAside) {

    @Override
    public String toString() {
        return "recovered " + (snapshot == null ? "no snapshot" : "snapshot " + snapshot + " (" + snapshotRecords + " records)")
                + " + " + logs.size() + " log(s) (" + logRecords + " records)"
                + (truncatedBytes > 0 ? ", cut " + truncatedBytes + " corrupt/torn bytes" : "")
                + (rejectedSnapshots.isEmpty() ? "" : ", rejected snapshots " + rejectedSnapshots)
                + (lostRecords ? ", RECORDS LOST (" + damage.stream().filter(d -> !d.tornTail()).count()
                + " damaged region(s) or gap(s); complete up to timestamp " + completeUpTo + ")" : "")
                + " in " + durationNanos / 1_000_000 + " ms";
    }
}
