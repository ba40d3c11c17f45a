package io.god.client;

import static io.god.client.Json.bytes;
import static io.god.client.Json.orEmpty;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.god.client.GodClient.Member;
import io.god.client.GodClient.SubValue;
import io.god.request.Command;
import io.god.request.Request;
import io.god.wire.Call;
import io.god.wire.DataCall;
import io.god.wire.LastWriteWins;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads that ask every replica of a key and keep the newest answer by the store's last-write-wins rule
 * ({@link LastWriteWins}, the very comparison the node's trees apply): Get and SubGet, and the First, Last,
 * SubNext and SubPrev walks. Replicas the view marks as catching up are left out while a majority remains
 * ({@link RingView#readable}); a minority of answers is no answer. {@link MergedSlices} builds on
 * {@link #fromReplicas}.
 */
final class ReplicaReads {

    /** One attempt at one node (a JSON or a binary data call), in two steps: send, then wait for the answer. */
    interface AtNode<T> {
        Connections.Sent<T> send(String address, Duration budget) throws GodException;
    }

    /** The calls of one attempt, made for the replicas it asks (e.g. one asked for entries, the others digests). */
    interface PerAttempt<T> {
        AtNode<T> at(List<Member> replicas);
    }

    /** Rounds a First/Last/SubNext/SubPrev walk may skip entries deleted on a newer replica. */
    private static final int MAX_WALK_ROUNDS = 64;

    private final Routing routing;
    private final RingView view;
    private final NodeCalls calls;
    /** The walks' steps: binary commands (JSON calls to a node older than them). */
    private final BinaryCommands commands;

    ReplicaReads(Routing routing, RingView view, NodeCalls calls, BinaryCommands commands) {
        this.routing = routing;
        this.view = view;
        this.calls = calls;
        this.commands = commands;
    }

    /**
     * A binary Get/SubGet: every replica in parallel, the newest timestamp wins (ties: a tombstone, then
     * the larger value; {@link #newer}), tombstones included. Gateway mode: the node routes it.
     */
    DataCall.Reply newestData(int kind, byte[] key, byte[] subKey) {
        String method = DataCall.methodOf(kind);
        if (routing.gateway()) {
            return routing.retrying(method, (i, budget) -> calls.data(view.nextSeed(),
                    calls.dataCall(kind, key, subKey, null, false, Call.ROUTE), budget));
        }
        DataCall call = calls.dataCall(kind, key, subKey, null, false, Call.EXECUTE);
        DataCall routed = calls.dataCall(kind, key, subKey, null, false, Call.ROUTE);
        DataCall.Reply best = null;
        for (DataCall.Reply r : fromReplicas(method, key, (address, budget) -> calls.sendData(address, call, budget),
                (address, budget) -> calls.sendData(address, routed, budget))) {
            if (best == null || newer(r.timestamp(), r.exists(), r.value(), best.timestamp(), best.exists(),
                    best.value())) {
                best = r;
            }
        }
        return best;
    }

    /** Whether Stamped answer a beats b under last-write-wins (a missing Timestamp is 0, never written). */
    static boolean newer(JsonNode a, JsonNode b) {
        return newer(a.path("Timestamp").asLong(0), a.path("Exists").asBoolean(), bytes(a.get("Value")),
                b.path("Timestamp").asLong(0), b.path("Exists").asBoolean(), bytes(b.get("Value")));
    }

    /** {@link LastWriteWins} over answers that say whether the key exists; an existing null value is empty. */
    static boolean newer(long ta, boolean existsA, byte[] valueA, long tb, boolean existsB, byte[] valueB) {
        return LastWriteWins.newer(ta, existsA ? orEmpty(valueA) : null, tb, existsB ? orEmpty(valueB) : null);
    }

    /** The answers of the replicas that answered (a majority of them, else retried), asked in parallel. */
    List<JsonNode> fromReplicas(String method, byte[] key, ObjectNode body) {
        return fromReplicas(method, key,
                (address, budget) -> calls.sendOnce(address, method, body, Call.EXECUTE, budget), null);
    }

    /**
     * As above; {@code routed} (may be null): the same call in ROUTE mode, sent to a configured endpoint
     * (e.g. the Service) on the attempt after one where no replica of the view answered at all.
     */
    <T> List<T> fromReplicas(String method, byte[] key, AtNode<T> call, AtNode<T> routed) {
        return fromReplicas(method, key, (PerAttempt<T>) replicas -> call, routed);
    }

    /** As above, with each attempt's calls made for the replicas it asks. */
    <T> List<T> fromReplicas(String method, byte[] key, PerAttempt<T> perAttempt, AtNode<T> routed) {
        boolean[] noAnswer = {false};
        // After an attempt short of a read quorum, later attempts ask the key's whole replica set over the expected
        // membership, absent members included: the view may lack a member that is up (it came from a node that just
        // restarted and has not seen it yet) while one it holds is stopping — a rolling restart (RealNodesIT).
        boolean[] wholeSet = {false};
        return routing.retrying(method, (i, budget) -> {
            if (noAnswer[0] && routed != null) {
                noAnswer[0] = false;
                return List.of(routed.send(view.fallback(), budget).answer());
            }
            RingView.Reads reads = view.readReplicas(key);
            List<Member> reps = wholeSet[0] ? reads.set() : reads.ask();
            if (reps.isEmpty()) {
                throw new GodUnavailableException("no ring known yet", null);
            }
            // Every replica is asked from this thread: all requests are sent first, then the answers
            // read one after the other (they travel in parallel). JFR profiles of Get-heavy loads showed
            // hand-offs to a pool costing a third of the client's CPU.
            List<Object> sent = new ArrayList<>(reps.size()); // a Sent, or the GodException of its send
            AtNode<T> call = perAttempt.at(reps);
            for (Member m : reps) {
                try {
                    sent.add(call.send(m.address(), budget));
                } catch (GodException e) {
                    sent.add(e);
                }
            }
            List<T> answers = new ArrayList<>(reps.size());
            GodException failure = null;
            GodRequestException refused = null;
            for (Object o : sent) {
                try {
                    if (o instanceof GodException e) {
                        throw e;
                    }
                    @SuppressWarnings("unchecked")
                    Connections.Sent<T> s = (Connections.Sent<T>) o;
                    answers.add(s.answer()); // every sent request is awaited, so none is left pending
                } catch (GodRequestException e) {
                    refused = refused == null ? e : refused;
                } catch (GodException e) {
                    failure = e;
                }
            }
            if (refused != null) {
                throw refused;
            }
            if (answers.size() < reads.quorum()) {
                wholeSet[0] = true;
            }
            if (answers.isEmpty()) {
                noAnswer[0] = refused == null;
                throw failure;
            }
            if (failure != null && answers.size() < reads.quorum()) {
                // Fewer may all be replicas that have not received the key yet (a member that just joined, moved,
                // took over a leaving node's range or was partitioned away): their "not found" is no answer. An
                // acknowledged Sync write is on W replicas, so a read quorum always includes one that applied it.
                throw new GodUnavailableException("only " + answers.size() + " of " + reps.size()
                        + " replicas answered (" + reads.quorum() + " needed): " + failure.getMessage(), failure);
            }
            return answers;
        });
    }

    /**
     * Newest-of-replicas walks: each replica proposes its answer; the best proposal (smallest going up,
     * largest going down) is checked with a newest-of-replicas SubGet. If a newer replica deleted it,
     * the walk goes on strictly after it. Correct under last-write-wins: the true answer's newest copy
     * is live on some replica, which therefore proposes it or something before it.
     */
    SubValue walkNewest(byte[] key, Command command, byte[] subKey, boolean up) {
        if (routing.gateway()) {
            return Json.subValue(key, routing.anyNode(walkStep(command, key, subKey)));
        }
        Command step = command;
        byte[] cursor = subKey;
        for (int round = 0; round < MAX_WALK_ROUNDS; round++) {
            Request q = walkStep(step, key, cursor);
            byte[] candidate = null;
            for (JsonNode n : fromReplicas(step.method(), key,
                    (address, budget) -> commands.send(address, q, Call.EXECUTE, budget), null)) {
                if (n.path("Exists").asBoolean()) {
                    byte[] k = orEmpty(bytes(n.get("Key")));
                    int c = candidate == null ? 0 : Arrays.compareUnsigned(k, candidate);
                    if (candidate == null || (up ? c < 0 : c > 0)) {
                        candidate = k;
                    }
                }
            }
            if (candidate == null) {
                return new SubValue(key, null, null, 0, false);
            }
            DataCall.Reply v = newestData(DataCall.SUB_GET, key, candidate);
            if (v.exists()) {
                return new SubValue(key, candidate, v.value(), 0, true);
            }
            step = up ? Command.SUB_NEXT : Command.SUB_PREV;
            cursor = candidate;
        }
        throw new GodUnavailableException("more than " + MAX_WALK_ROUNDS + " deleted entries in a row differ "
                + "between the replicas of this tree; retry after anti-entropy", null);
    }

    /** One step of a walk: First/Last of the tree, or SubNext/SubPrev after the cursor. */
    private static Request walkStep(Command c, byte[] key, byte[] cursor) {
        return c == Command.FIRST || c == Command.LAST ? new Request.First(c, key) : new Request.SubNext(c, key, cursor);
    }
}
