package io.god.operator.admin;

/**
 * The parts of a node's /admin/status the operator reads (DESIGN §6; the node issues define the whole document).
 * Timestamps are kept as the node sent them (RFC 3339 text or epoch millis), or null when absent. {@code leave} is
 * present only while the node is LEAVING or LEFT.
 */
public record NodeStatus(String state, String position, String ringHash, int ringSize, boolean replicated,
        long ownedEntries, long heldEntries, long dataBytes, String lastSyncAt, String lastAliveAt,
        String collectedUpTo, String quarantinedAt, LeaveProgress leave) {

    public static final String JOINING = "JOINING";
    public static final String ACTIVE = "ACTIVE";
    public static final String LEAVING = "LEAVING";
    public static final String LEFT = "LEFT";

    /** Progress of a leave: how many of the node's ranges its successors have confirmed. */
    public record LeaveProgress(String startedAt, long rangesTotal, long rangesConfirmed) {
    }

    public NodeStatus(String state, String position, String ringHash, int ringSize, boolean replicated,
            long ownedEntries, long heldEntries, long dataBytes, String lastSyncAt, String lastAliveAt,
            String collectedUpTo, String quarantinedAt) {
        this(state, position, ringHash, ringSize, replicated, ownedEntries, heldEntries, dataBytes, lastSyncAt,
                lastAliveAt, collectedUpTo, quarantinedAt, null);
    }

    /** A member in the ring: it counts as seen for the tombstone guard. */
    public boolean inRing() {
        return ACTIVE.equals(state) || LEAVING.equals(state);
    }
}
