package io.god.command;

import io.god.node.GodNode;
import io.god.node.NodeSettings;
import io.god.request.Command;
import io.god.ring.Membership;

/**
 * The rules every front end applies before a command runs, in one place (DESIGN §4): the credential of mutating
 * commands, the node's state (stale, joining, left), the size of keys and values, and the write stamp. The JSON contract, {@code /v1}, the binary
 * data calls and the admin routes call these; nothing else checks a credential or stamps a write (ArchitectureTest).
 */
public final class Admission {

    private final GodNode node;
    private final Credentials credentials;
    private final java.util.function.Consumer<String> limitRefused;

    /** @param limitRefused told the setting of each size limit that refused a command (metrics) */
    public Admission(GodNode node, java.util.function.Consumer<String> limitRefused) {
        this.node = node;
        this.credentials = new Credentials(node.settings());
        this.limitRefused = limitRefused;
    }

    public Admission(GodNode node) {
        this(node, limit -> { });
    }

    /** A key or sub key within {@code god.limits.key-size} (null: absent, allowed): 400 naming the field otherwise. */
    public void checkKey(byte[] key, String field) {
        check(key, field, node.settings().keySize(), NodeSettings.KEY_SIZE);
    }

    /** A value within {@code god.limits.value-size} (null: absent, allowed): 400 naming the field otherwise. */
    public void checkValue(byte[] value, String field) {
        check(value, field, node.settings().valueSize(), NodeSettings.VALUE_SIZE);
    }

    private void check(byte[] b, String field, long max, String setting) {
        if (b != null && b.length > max) {
            limitRefused.accept(setting);
            throw new CommandError(400, field + " of " + b.length + " bytes exceeds " + setting + " (" + max
                    + " bytes)");
        }
    }

    /** Whether the node asks clients for a credential ({@code god.auth.token} or {@code god.auth.admin-token} set). */
    public boolean enabled() {
        return credentials.clientRequired() || credentials.adminRequired();
    }

    /** Whether this Authorization header carries a client or admin credential (always true when auth is off). */
    public boolean allows(String authorization) {
        Caller c = credentials.of(authorization);
        return c.client() || c.admin();
    }

    /**
     * A mutating command needs the client (or admin) credential: 401 otherwise. With {@code god.auth.reads} every
     * command does, except the ring view (RING_VIEW: Nodes, Describe), which a client needs to route before it sends
     * anything else. Clear needs the admin credential when {@code god.auth.clear=admin} (403 for a client's). A
     * forwarded call is judged by the client credential it carries: a forwarding node adds no rights.
     */
    public void authorize(Command c, String authorization) {
        if (c == Command.CLEAR && node.settings().clearNeedsAdmin()) {
            Caller caller = credentials.of(authorization);
            if (!caller.admin()) {
                throw new CommandError(credentials.recognises(authorization) ? 403 : 401, "DHash.Clear needs Authorization:"
                        + " Bearer <god.auth.admin-token> (god.auth.clear=admin)");
            }
        } else if (c.is(Command.Flag.MUTATING) || readsProtected() && !c.is(Command.Flag.RING_VIEW)) {
            authorizeWrite(c.method(), authorization);
        }
    }

    /** Whether reads need the credential too ({@code god.auth.reads}): also for the dashboard's event streams. */
    public boolean readsProtected() {
        return node.settings().authReads();
    }

    /**
     * A read that is no command (the dashboard's {@code /ws} streams, which carry keys): null when it may go on,
     * else why not.
     */
    public String refuseRead(String what, String authorization) {
        return !readsProtected() || allows(authorization) ? null
                : what + " needs Authorization: Bearer <god.auth.token> (god.auth.reads is on)";
    }

    /** A write that is not a mutating command of its own (a set expression with Dest): 401 without the credential. */
    public void authorizeWrite(String method, String authorization) {
        if (!allows(authorization)) {
            throw new CommandError(401, "DHash." + method + " needs Authorization: Bearer <god.auth.token>");
        }
    }

    /**
     * Time belongs to the ring (issue 23): the entry node stamps every write; only a forwarding peer (hops > 0) passes
     * its stamp on, and even that moves this node's clock at most by god.time.max-skew. A client's stamp: 400.
     */
    public void refuseClientStamp(Command c, long given) {
        if (given != 0) {
            throw new CommandError(400, "stamp: a client may not choose the timestamp of DHash." + c.method()
                    + " (the entry node stamps every write); send the call without a stamp");
        }
    }

    /**
     * The management port ({@code /admin/*}, metrics: {@link #refuseMetrics}) needs the admin credential: null when this header carries it,
     * else the refusal (401 without a credential, 403 with another one).
     */
    public CommandError refuseAdmin(String authorization) {
        Caller caller = credentials.of(authorization);
        if (caller.admin()) {
            return null;
        }
        return new CommandError(credentials.recognises(authorization) ? 403 : 401, "the management port needs Authorization: Bearer <god.auth.admin-token>");
    }

    /**
     * {@code GET /q/metrics} takes the admin credential or the metrics one ({@code god.auth.metrics-token}, for
     * Prometheus): null when this header carries either, else the refusal (401 without a credential, 403 with another).
     */
    public CommandError refuseMetrics(String authorization) {
        return credentials.metrics(authorization) ? null : refuseAdmin(authorization);
    }

    /**
     * The node serves the command in its state: 503 while it is STALE, still joining its ring, or after it left
     * (its data handed over: a write here would be dropped). LOCAL commands are answered, except that one answering
     * with the ring view (RING_VIEW) is refused while the node is stale or joining: "just me" would make a client
     * route to a ring of one.
     */
    public void admit(Command c) {
        if (c.is(Command.Flag.RING_VIEW)) {
            if (node.state() == GodNode.State.STALE) {
                throw new CommandError(503, "this node is STALE and out of the ring; ask another member");
            }
            if (node.state() == GodNode.State.JOINING && !node.settings().seeds().isEmpty()) {
                throw new CommandError(503, "this node is still joining the ring (god.seeds); ask another member");
            }
        }
        if (c.is(Command.Flag.LOCAL)) {
            return;
        }
        if (node.state() == GodNode.State.STALE) {
            throw new CommandError(503, "this node is STALE and serves nothing: " + node.staleReason());
        }
        if (node.state() == GodNode.State.JOINING && !node.settings().seeds().isEmpty()) {
            throw new CommandError(503, "this node is still joining the ring (god.seeds); retry shortly");
        }
        if (node.membership() != null && node.membership().state() == Membership.State.LEFT) {
            throw new CommandError(503, "this node has left the ring (/admin/leave); call a ring member");
        }
    }

    /**
     * The stamp of a STAMPED command (0 for others: they stamp when they execute), {@code given} a forwarding
     * peer's. A client's write (hops 0) that this node began to handle at {@code since} is refused (503) when the
     * process was paused meanwhile: its client may have written elsewhere since, and a fresh stamp would let the
     * late write win ({@link GodNode#pauseRefusal}). A forwarded write arriving within the forwarding timeout is
     * stamped afresh, so the owner keeps ordering its keys' writes; a later one keeps the first node's stamp, so it
     * can only repeat that write ({@link io.god.node.Timestamps#forWrite}).
     */
    public long stamp(Command c, long given, int hops, long since) {
        if (!c.is(Command.Flag.STAMPED)) {
            return 0;
        }
        String paused = hops == 0 ? node.pauseRefusal(since) : null;
        if (paused != null) {
            throw new CommandError(503, paused);
        }
        return node.timestamps().forWrite(given, node.settings().cluster().rpcTimeout().toNanos());
    }
}
