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

    /**
     * The status of a node that is a one-node ring: it owns and holds its whole tree, is trivially
     * replicated (every copy that can exist exists) and in sync with its ring right now.
     */
    public static AdminStatus of(GodNode node) {
        TreeState s = node.store().state();
        String position = HexFormat.of().formatHex(node.position());
        List<Member> ring = List.of(new Member(position, node.address()));
        long collected = node.store().collectedUpTo();
        long now = node.clock().nanos();
        return new AdminStatus(node.state().name(), position, node.address(), ringHash(ring), ring, true,
                s.realSize(), s.realSize(), node.store().dataBytes(), null, JsonRpc.rfc3339(now),
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
