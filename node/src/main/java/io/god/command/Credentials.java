package io.god.command;

import io.god.node.NodeSettings;
import io.god.wire.Ops;
import java.nio.charset.StandardCharsets;

/**
 * The node's three credentials (client, peer, admin; issue 32) and what each allows on the binary port: a
 * connection's hello makes it a {@link Caller}; ring traffic needs the peer credential, and only a peer may forward
 * a call (a write stamp, hops). The HTTP and RESP front ends ask {@link Admission}, which uses this. A fourth, the
 * metrics credential (issue 34), only reads {@code GET /q/metrics}: it is no {@link Caller} right, so it opens no data
 * call, no ring traffic and no other management route.
 */
public final class Credentials {

    private final Auth client;
    private final Auth peer;
    private final Auth admin;
    private final Auth metrics;

    public Credentials(NodeSettings settings) {
        this.client = new Auth(settings.acceptedTokens());
        this.peer = new Auth(settings.peerTokens().accepted());
        this.admin = new Auth(settings.adminTokens().accepted());
        this.metrics = new Auth(settings.metricsTokens().accepted());
    }

    /** Whether any credential is set: callers must then say who they are (a hello first on the binary port). */
    public boolean required() {
        return client.enabled() || peer.enabled() || admin.enabled();
    }

    boolean clientRequired() {
        return client.enabled();
    }

    boolean adminRequired() {
        return admin.enabled();
    }

    /** Whether this header carries the metrics credential (never while {@code god.auth.metrics-token} is unset). */
    boolean metrics(String authorization) {
        return metrics.enabled() && metrics.allows(authorization);
    }

    /** The rights of an {@code Authorization} header (each credential that is not set is granted). */
    public Caller of(String authorization) {
        return new Caller(client.allows(authorization), peer.allows(authorization), admin.allows(authorization));
    }

    /** Whether this header carries a token of a credential that is set (a known caller, maybe of another kind). */
    boolean recognises(String authorization) {
        return authorization != null && (client.enabled() && client.allows(authorization)
                || peer.enabled() && peer.allows(authorization) || admin.enabled() && admin.allows(authorization)
                || metrics(authorization));
    }

    /** The caller a binary connection's hello makes it, or null when the token is none of the node's. */
    public Caller ofHello(byte[] token) {
        Caller c = of("Bearer " + new String(token, StandardCharsets.UTF_8));
        return c.known() ? c : null;
    }

    /**
     * Why a binary request of {@code op} is refused to this caller, or null when it may go on: everything but the
     * data calls (CALL, DATA, COMMAND) is ring traffic, for peers only — except what god-backup sends (a backup's reads,
     * {@link Ops#BACKUP}, and a restore's replication with the records' own timestamps, {@link Ops#REPLICATE}),
     * which the admin credential may send too: backup and restore are an operator's work, and the operator holds
     * the admin credential. Only an admin credential that is set counts (an unset one is no one's here).
     */
    public String refuseOp(Caller caller, int op) {
        if (caller.peer() || op == Ops.CALL || op == Ops.DATA || op == Ops.COMMAND) {
            return null;
        }
        if (op == Ops.BACKUP || op == Ops.REPLICATE) {
            return caller.admin() && admin.enabled() ? null : Ops.name(op) + " is ring traffic, refused (403): it "
                    + "needs the peer credential (god.auth.peer-token) or the admin credential (god.auth.admin-token)";
        }
        return Ops.name(op) + " is ring traffic, refused (403): it needs the peer credential (god.auth.peer-token)";
    }

    /**
     * Why a data call is refused to this caller, or null: a write stamp or a hop count says "forwarded by a ring
     * member", which only a peer may claim (a client that stamped its own writes could make them win over newer
     * ones).
     */
    public String refuseForwarded(Caller caller, long stamp, int hops) {
        if (caller.peer() || stamp == 0 && hops == 0) {
            return null;
        }
        return "only a ring member (god.auth.peer-token) may forward a call: " + (stamp != 0 ? "a write stamp"
                : "hops " + hops) + " from a client is refused";
    }
}
