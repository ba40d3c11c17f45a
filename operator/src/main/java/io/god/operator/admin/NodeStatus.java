package io.god.operator.admin;

/**
 * The parts of a node's /admin/status the operator reads (DESIGN §6; the node issues define the whole document).
 * Timestamps are kept as the node sent them (RFC 3339 text or epoch millis), or null when absent. {@code leave} is
 * present only while the node is LEAVING or LEFT. {@code redundancy} is the node's N ({@code god.redundancy}), null
 * from a node too old to report it.
 */
public record NodeStatus(String state, String position, String ringHash, int ringSize, boolean replicated,
        long ownedEntries, long heldEntries, long dataBytes, String lastSyncAt, String lastAliveAt,
        String collectedUpTo, String quarantinedAt, LeaveProgress leave, java.util.List<RingMember> ring,
        Integer redundancy) {

    public static final String JOINING = "JOINING";
    public static final String ACTIVE = "ACTIVE";
    public static final String LEAVING = "LEAVING";
    public static final String LEFT = "LEFT";
    /** The leave phase of a node that handed everything over, had it confirmed, left and dropped its data. */
    public static final String LEAVE_DONE = "DONE";

    /**
     * Progress of a leave: its phase (HANDING_OFF, LEFT_RING, DONE) and how many of the node's ranges their future
     * holders have confirmed.
     */
    public record LeaveProgress(String phase, String startedAt, long rangesTotal, long rangesConfirmed,
            String lastError) {

        public LeaveProgress(String phase, String startedAt, long rangesTotal, long rangesConfirmed) {
            this(phase, startedAt, rangesTotal, rangesConfirmed, null);
        }
    }

    /** A member of the node's ring view: its position (hex) and the address it advertises. */
    public record RingMember(String position, String address) {
    }

    /** Without the node's N (a node that does not report it). */
    public NodeStatus(String state, String position, String ringHash, int ringSize, boolean replicated,
            long ownedEntries, long heldEntries, long dataBytes, String lastSyncAt, String lastAliveAt,
            String collectedUpTo, String quarantinedAt, LeaveProgress leave, java.util.List<RingMember> ring) {
        this(state, position, ringHash, ringSize, replicated, ownedEntries, heldEntries, dataBytes, lastSyncAt,
                lastAliveAt, collectedUpTo, quarantinedAt, leave, ring, null);
    }

    public NodeStatus(String state, String position, String ringHash, int ringSize, boolean replicated,
            long ownedEntries, long heldEntries, long dataBytes, String lastSyncAt, String lastAliveAt,
            String collectedUpTo, String quarantinedAt, LeaveProgress leave) {
        this(state, position, ringHash, ringSize, replicated, ownedEntries, heldEntries, dataBytes, lastSyncAt,
                lastAliveAt, collectedUpTo, quarantinedAt, leave, java.util.List.of());
    }

    /** This status with another ring view. */
    public NodeStatus withRing(java.util.List<RingMember> members) {
        return new NodeStatus(state, position, ringHash, members.size(), replicated, ownedEntries, heldEntries,
                dataBytes, lastSyncAt, lastAliveAt, collectedUpTo, quarantinedAt, leave, members, redundancy);
    }

    /** This status with another N. */
    public NodeStatus withRedundancy(Integer n) {
        return new NodeStatus(state, position, ringHash, ringSize, replicated, ownedEntries, heldEntries, dataBytes,
                lastSyncAt, lastAliveAt, collectedUpTo, quarantinedAt, leave, ring, n);
    }

    /**
     * Whether the node's ring view holds the member at this position (when known) or advertising an address that
     * starts with {@code addressPrefix} (e.g. "demo-3.").
     */
    public boolean sees(String memberPosition, String addressPrefix) {
        return ring != null && ring.stream().anyMatch(m -> (memberPosition != null
                && memberPosition.equalsIgnoreCase(m.position()))
                || (m.address() != null && m.address().startsWith(addressPrefix)));
    }

    public NodeStatus(String state, String position, String ringHash, int ringSize, boolean replicated,
            long ownedEntries, long heldEntries, long dataBytes, String lastSyncAt, String lastAliveAt,
            String collectedUpTo, String quarantinedAt) {
        this(state, position, ringHash, ringSize, replicated, ownedEntries, heldEntries, dataBytes, lastSyncAt,
                lastAliveAt, collectedUpTo, quarantinedAt, null, java.util.List.of());
    }

    /**
     * The node confirms a finished drain: LEFT, its leave phase DONE and no entry held. LEFT alone is not enough: a
     * node that is shutting down reports LEFT too, holding all its data.
     */
    public boolean drainDone() {
        return LEFT.equals(state) && leave != null && LEAVE_DONE.equals(leave.phase()) && heldEntries == 0;
    }

    /** Why {@link #drainDone()} is false, for the Progressing message. */
    public String drainNotDoneReason() {
        return "state " + state + ", leave phase " + (leave == null ? "none" : leave.phase()) + ", " + heldEntries
                + " entries held";
    }
}
