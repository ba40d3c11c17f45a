package io.god.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.god.request.BinaryRequests;
import io.god.request.BinaryResults;
import io.god.request.JsonBodies;
import io.god.request.Request;
import io.god.wire.Ops;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One attempt at one node of a typed command as a binary command ({@link Ops#COMMAND}: the node's own
 * {@link Request} records and codecs, {@link BinaryRequests} and {@link BinaryResults}), or as the JSON contract's
 * call to a node older than binary commands: one that refused them as an unknown operation is remembered and asked
 * in JSON from then on (as the binary slices' fallback in {@link NodeCalls}), with the body {@link JsonBodies} gives
 * the record — the one a member forwarding to an older member sends.
 *
 * <p>The answer is the JSON contract's tree of the typed result: the result records carry the contract's field
 * names, so a binary answer and an older node's JSON answer are read by the same code and give the same values.
 */
final class BinaryCommands {

    private final Connections connections;
    private final NodeCalls calls;
    /** Nodes that refused binary commands as an unknown operation (older nodes): asked in JSON. */
    private final Set<String> jsonOnly = ConcurrentHashMap.newKeySet();

    BinaryCommands(Connections connections, NodeCalls calls) {
        this.connections = connections;
        this.calls = calls;
    }

    JsonNode once(String address, Request q, int mode, Duration budget) {
        return send(address, q, mode, budget).answer();
    }

    /** As {@link #once}, in two steps (send, then wait for the answer), so a read can ask its replicas in parallel. */
    Connections.Sent<JsonNode> send(String address, Request q, int mode, Duration budget) {
        String method = q.command().method();
        if (jsonOnly.contains(address)) {
            return calls.sendOnce(address, method, JsonBodies.of(q), mode, budget);
        }
        long start = System.nanoTime();
        byte[] payload = new BinaryRequests.Envelope(q, calls.authorization(), 0, mode, 0).encode();
        Connections.Sent<byte[]> sent = connections.exchange(address, method, Ops.COMMAND, payload, budget);
        return () -> {
            byte[] reply;
            try {
                reply = sent.answer();
            } catch (GodUnavailableException e) {
                if (!refusedAsUnknown(e)) {
                    throw e;
                }
                jsonOnly.add(address);
                Duration left = budget.minusNanos(System.nanoTime() - start); // one attempt's budget for both
                if (left.isNegative() || left.isZero()) {
                    throw e;
                }
                return calls.once(address, method, JsonBodies.of(q), mode, left);
            }
            return answer(address, reply);
        };
    }

    /** An older node's error frame for an operation it does not know (GodNode's dispatch). */
    private static boolean refusedAsUnknown(GodUnavailableException e) {
        return e.getCause() instanceof NodeConnection.NodeErrorException
                && e.getMessage() != null && e.getMessage().contains("unknown operation " + Ops.COMMAND);
    }

    private static JsonNode answer(String address, byte[] payload) {
        BinaryResults.Reply r = NodeCalls.decoded(address, payload, BinaryResults.Reply::decode);
        NodeCalls.refused(address, r.status(), r.message());
        return r.result() == null ? NullNode.instance : Json.MAPPER.valueToTree(r.result());
    }
}
