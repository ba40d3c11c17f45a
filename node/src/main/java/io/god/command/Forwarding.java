package io.god.command;

import io.god.cluster.Cluster;
import io.god.request.BinaryResults;
import io.god.request.Command.Flag;
import io.god.request.Command;
import io.god.request.Request;
import io.god.request.Result;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Routing of a command on a ring: to its key's owner (failing over to the next replica, {@link Cluster#forward}), or
 * to every member with their answers combined (BROADCAST). Forwarded commands travel as typed binary commands, or as
 * JSON calls to members of an older version ({@link PeerCommands}), so the answer is the result object a front end
 * needs — an older member's comes back as {@link Executor.Relayed} and is decoded only for a front end that needs the
 * result object ({@link #typed}). The binary point commands have their own forwarding ({@link Executor#point}).
 */
final class Forwarding {

    /** This member's part of a broadcast, answered as another member would. */
    @FunctionalInterface
    interface Local {
        BinaryResults.Reply run(Request request, String authorization, long stamp);
    }

    /** Another member's answer to a routed command (null is a result: a SetExpression with Dest). */
    record Answer(Object result) {
    }

    static final Map<String, String> NOTHING = Map.of();

    private final Admission admission;
    private final SetSources sources;
    private final PeerCommands peers;
    private final Local local;

    Forwarding(Admission admission, SetSources sources, PeerCommands peers, Local local) {
        this.admission = admission;
        this.sources = sources;
        this.peers = peers;
        this.local = local;
    }

    /** The command's answer from the member(s) it belongs to, or null when it runs here. */
    Answer route(Cluster cluster, Request request, String authorization, int hops, long stamp) {
        Command command = request.command();
        if (command.is(Flag.LOCAL)) {
            return null;
        }
        if (command.is(Flag.BROADCAST)) {
            return new Answer(broadcast(cluster, request, authorization, stamp));
        }
        byte[] key;
        boolean read = !command.is(Flag.MUTATING);
        if (request instanceof Request.SetExpression q) {
            key = q.dest();
            read = key == null || hops > 0; // with Dest it writes there; a forwarded one already reached Dest's owner
            if (key == null) {
                key = hops > 0 ? null : sources.largest(cluster, q, authorization);
                if (key == null) {
                    return null;
                }
            }
        } else if (request instanceof Request.SubAddConfiguration q) {
            admission.checkKey(q.treeKey(), "TreeKey");
            key = orEmpty(q.treeKey());
        } else {
            Request.Keyed q = (Request.Keyed) request; // every other routed command is addressed by its Key
            admission.checkKey(q.key(), "Key");
            key = orEmpty(q.key());
        }
        return peers.route(cluster, request, authorization, hops, key, stamp, read);
    }

    private Object broadcast(Cluster cluster, Request request, String authorization, long stamp) {
        Command command = request.command();
        List<BinaryResults.Reply> replies = cluster.broadcast(peers.broadcastPart(cluster, request, authorization, stamp),
                () -> local.run(request, authorization, stamp));
        for (BinaryResults.Reply r : replies) {
            PeerCommands.result(r);
        }
        switch (command) {
            case SIZE, KEY_COUNT -> {
                long sum = 0;
                for (BinaryResults.Reply r : replies) {
                    sum += ((Number) r.result()).longValue();
                }
                return sum;
            }
            case NEXT, PREV, KEY_NEXT -> { // the nearest key any member has
                Result.ValueRes best = null;
                byte[] bestKey = null;
                for (BinaryResults.Reply r : replies) {
                    Result.ValueRes v = (Result.ValueRes) r.result();
                    if (!v.exists()) {
                        continue;
                    }
                    byte[] k = orEmpty(v.key());
                    int c = bestKey == null ? 0 : Arrays.compareUnsigned(k, bestKey);
                    if (bestKey == null || (command != Command.PREV ? c < 0 : c > 0)) {
                        best = v;
                        bestKey = k;
                    }
                }
                return best == null ? new Result.ValueRes(null, null, false) : best;
            }
            default -> {
                return NOTHING;
            }
        }
    }

    /** Another member's JSON answer (an older node's) as the result object {@link Executor#execute} returns. */
    Object typed(Command command, Executor.Relayed r, boolean stamped) {
        return peers.typed(command, r, stamped);
    }

    private static byte[] orEmpty(byte[] b) {
        return b == null ? new byte[0] : b;
    }
}
