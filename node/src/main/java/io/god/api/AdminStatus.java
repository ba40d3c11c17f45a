package io.god.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.google.common.hash.Hasher;
import com.google.common.hash.Hashing;
import io.god.node.GodNode;
import io.god.tree.TreeState;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;

/**
 * The {@code GET /admin/status} document (DESIGN §6), read by the operator. Positions and the ring
 * hash are lowercase hex; times are RFC 3339 text in UTC, or null when they never happened.
 * {@code lastAliveAt} is the value persisted in the data directory (null in memory or before the
 * node was first an in-sync member); {@code quarantinedAt} is persisted too; {@code leave} is the
 * drain's progress while LEAVING or LEFT by {@code /admin/leave} (else null); {@code futureStamps}
 * is the data stamped beyond the clock bound found at start (else null) and {@code timeClamps} how
 * often outside stamps or clock samples were limited by {@code god.time.max-skew} (issue 23).
 * {@code expectedMembers} is the size of the expected membership E (DESIGN §5), {@code absentMembers}
 * the expected members not in the view (down, restarting, unreachable; removed by
 * {@code POST /admin/remove-member}), {@code syncAcks} the {@code god.sync.acks} setting,
 * {@code tombstoneCollectionHeld} whether collection is held because members are absent,
 * {@code catchingUp} the addresses known to be catching up, {@code stale} why a single member is
 * STALE (else null), {@code redundancy} the node's {@code god.redundancy} N (the operator compares it with
 * the GodCluster's: N is fixed after creation).
 */
@JsonPropertyOrder({"state", "position", "address", "ringHash", "ring", "replicated", "ownedEntries", "heldEntries",
        "dataBytes", "lastSyncAt", "lastAliveAt", "collectedUpTo", "quarantinedAt", "leave", "uptimeSeconds", "futureStamps", "timeClamps",
        "expectedMembers", "absentMembers", "syncAcks", "tombstoneCollectionHeld", "catchingUp", "stale", "redundancy"})
@JsonInclude(JsonInclude.Include.ALWAYS)
public record AdminStatus(String state, String position, String address, String ringHash, List<Member> ring,
                          boolean replicated, long ownedEntries, long heldEntries, long dataBytes, String lastSyncAt,
                          String lastAliveAt, String collectedUpTo, String quarantinedAt, Leave leave,
                          long uptimeSeconds, FutureStamps futureStamps, long timeClamps, int expectedMembers,
                          List<Member> absentMembers, String syncAcks, boolean tombstoneCollectionHeld,
                          List<String> catchingUp, String stale, int redundancy) {

    /** One ring member. */
    @JsonPropertyOrder({"position", "address"})
    public record Member(String position, String address) {
    }

    /**
     * Drain progress: {@code phase} HANDING_OFF (a member, handing its ranges over), LEFT_RING (left,
     * confirming once more), DONE; the ranges of the current pass it holds data of and how many of them
     * its future holders confirmed; records handed over; the last problem (null when none).
     */
    @JsonPropertyOrder({"phase", "startedAt", "rangesTotal", "rangesConfirmed", "passes", "handedOff", "lastError",
            "finishedAt"})
    public record Leave(String phase, String startedAt, int rangesTotal, int rangesConfirmed, int passes,
                        long handedOff, String lastError, String finishedAt) {
    }

    /**
     * Data stamped in the future, found at start: the persisted newest stamp, the bound then (physical
     * now + god.time.max-skew) and how many entries are stamped beyond it (docs/durability.md).
     */
    @JsonPropertyOrder({"newest", "bound", "keys"})
    public record FutureStamps(String newest, String bound, long keys) {
    }

    /** Whether a round that ended at {@code at} is recent: within max(5 sync intervals, 60 s). */
    static boolean recent(GodNode node, long at) {
        long window = Math.max(node.settings().cluster().syncInterval().multipliedBy(5).toNanos(),
                io.god.supervise.Supervisor.MIN_SILENCE.toNanos());
        return node.clock().nanos() - at <= window;
    }

    /** Neighbourhoods that stayed unchanged this many intervals count as settled for {@code replicated}. */
    public static final int STABLE_TICKS = 5;

    /**
     * This node's status and ring view. {@code replicated}: true on a one-node ring, else when the
     * node is ACTIVE, its neighbourhood in its view (the {@code god.ring.neighbours} nearest members on
     * each side) has not changed for {@link #STABLE_TICKS} ring intervals and the last
     * anti-entropy round found no difference with any successor ({@code lastSyncAt}: when it ran).
     */
    public static AdminStatus of(GodNode node) {
        TreeState s = node.store().state();
        String position = HexFormat.of().formatHex(node.position());
        List<Member> ring = new java.util.ArrayList<>();
        var membership = node.membership();
        if (membership != null) {
            for (io.god.ring.Member m : membership.ring().members()) {
                ring.add(new Member(m.hex(), m.address()));
            }
        }
        if (ring.isEmpty() && node.state() == GodNode.State.JOINING) {
            ring.add(new Member(position, node.address()));
        }
        var ae = node.antiEntropy();
        // never from a stale round: the sync loop must be alive and its last round recent
        boolean replicated = node.state() == GodNode.State.ACTIVE && (ring.size() == 1
                || membership.neighbourhoodStableTicks() >= STABLE_TICKS && ae != null && ae.lastSyncAt() != 0
                && ae.replicated() && recent(node, ae.lastSyncAt()) && node.supervisor().alive("sync"));
        long owned = s.realSize();
        var range = node.cluster() == null ? null : node.cluster().ownedRange();
        if (range != null) {
            int c = java.util.Arrays.compareUnsigned(range[0], range[1]);
            owned = c < 0 ? s.realSizeBetween(range[0], range[1])
                    : s.realSizeBetween(range[0], null) + s.realSizeBetween(null, range[1]);
        }
        long collected = node.quarantine() != null ? node.quarantine().collectedUpTo() : node.store().collectedUpTo();
        var q = node.quarantine();
        return new AdminStatus(node.state().name(), position, node.address(), ringHash(ring), ring, replicated,
                owned, s.realSize(), node.closed() ? 0 : node.store().dataBytes(),
                ae == null || ae.lastSyncAt() == 0 ? null : io.god.command.NodeViews.rfc3339(ae.lastSyncAt()),
                time(q == null ? 0 : q.lastAliveAt()), time(collected), time(q == null ? 0 : q.quarantinedAt()),
                leave(node), node.uptime().toSeconds(), future(node.futureStamps()),
                node.timestamps().bound().clamps(), membership == null ? 0 : membership.expected().size(),
                absent(node), node.settings().syncAcks().text(), node.collectionHeld(), catchingUp(node),
                node.staleReason(), node.settings().redundancy());
    }

    private static List<Member> absent(GodNode node) {
        List<Member> out = new java.util.ArrayList<>();
        if (node.membership() != null) {
            for (io.god.ring.Member m : node.membership().absent()) {
                out.add(new Member(m.hex(), m.address()));
            }
        }
        return out;
    }

    private static List<String> catchingUp(GodNode node) {
        if (node.memberStates() == null) {
            return List.of();
        }
        List<String> out = new java.util.ArrayList<>(node.memberStates().catchingUp());
        java.util.Collections.sort(out);
        return out;
    }

    private static FutureStamps future(io.god.node.FutureStamps f) {
        return f == null ? null : new FutureStamps(time(f.newest()), time(f.bound()), f.keys());
    }

    private static Leave leave(GodNode node) {
        var d = node.drain();
        if (d == null || (node.state() != GodNode.State.LEAVING && node.state() != GodNode.State.LEFT)) {
            return null;
        }
        var p = d.progress();
        if (p.phase() == io.god.cluster.Drain.Phase.IDLE) {
            return null;
        }
        return new Leave(p.phase().name(), time(p.startedAt()), p.rangesTotal(), p.rangesConfirmed(), p.passes(),
                p.handedOff(), p.lastError(), time(p.finishedAt()));
    }

    private static String time(long nanos) {
        return nanos == 0 ? null : io.god.command.NodeViews.rfc3339(nanos);
    }

    /** murmur3-128 over the members' positions and addresses in ring order (hex). */
    public static String ringHash(List<Member> ring) {
        Hasher h = Hashing.murmur3_128().newHasher();
        for (Member m : ring) {
            h.putString(m.position(), StandardCharsets.UTF_8).putByte((byte) 0)
                    .putString(m.address(), StandardCharsets.UTF_8).putByte((byte) 0);
        }
        return h.hash().toString();
    }
}
