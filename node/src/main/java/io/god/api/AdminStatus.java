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
 */
@JsonPropertyOrder({"state", "position", "address", "ringHash", "ring", "replicated", "ownedEntries", "heldEntries",
        "dataBytes", "lastSyncAt", "lastAliveAt", "collectedUpTo", "quarantinedAt", "uptimeSeconds"})
@JsonInclude(JsonInclude.Include.ALWAYS)
public record AdminStatus(String state, String position, String address, String ringHash, List<Member> ring,
                          boolean replicated, long ownedEntries, long heldEntries, long dataBytes, String lastSyncAt,
                          String lastAliveAt, String collectedUpTo, String quarantinedAt, long uptimeSeconds) {

    /** One ring member. */
    @JsonPropertyOrder({"position", "address"})
    public record Member(String position, String address) {
    }

    /** Ring views that stayed unchanged this many intervals count as settled for {@code replicated}. */
    public static final int STABLE_TICKS = 5;

    /**
     * This node's status and ring view. {@code replicated}: true on a one-node ring, else when the
     * node is ACTIVE, its view has not changed for {@link #STABLE_TICKS} ring intervals and the last
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
        if (ring.isEmpty()) {
            ring.add(new Member(position, node.address()));
        }
        var ae = node.antiEntropy();
        boolean replicated = ring.size() == 1 || (node.state() == GodNode.State.ACTIVE
                && membership.stableTicks() >= STABLE_TICKS && ae != null && ae.lastSyncAt() != 0 && ae.replicated());
        long owned = s.realSize();
        var range = node.cluster() == null ? null : node.cluster().ownedRange();
        if (range != null) {
            int c = java.util.Arrays.compareUnsigned(range[0], range[1]);
            owned = c < 0 ? s.realSizeBetween(range[0], range[1])
                    : s.realSizeBetween(range[0], null) + s.realSizeBetween(null, range[1]);
        }
        long collected = node.store().collectedUpTo();
        long now = node.clock().nanos();
        return new AdminStatus(node.state().name(), position, node.address(), ringHash(ring), ring, replicated,
                owned, s.realSize(), node.store().dataBytes(),
                ae == null || ae.lastSyncAt() == 0 ? null : JsonRpc.rfc3339(ae.lastSyncAt()), JsonRpc.rfc3339(now),
                collected == 0 ? null : JsonRpc.rfc3339(collected), null, node.uptime().toSeconds());
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
