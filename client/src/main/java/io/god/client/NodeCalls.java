package io.god.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.god.wire.Call;
import io.god.wire.DataCall;
import io.god.wire.Ops;
import io.god.wire.SliceCall;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * One attempt at one node, no retry: a JSON-contract {@link Call} ({@link Ops#CALL}) or a binary {@link DataCall}
 * ({@link Ops#DATA}) sent on a pooled connection, and its reply turned into the answer or the exception (4xx: a
 * {@link GodRequestException}, never retried; anything else not 200: a {@link GodUnavailableException}).
 */
final class NodeCalls {

    private static final String SERVICE = "DHash.";

    private final Connections connections;
    /** Nodes that refused a binary slice call as an unknown data operation (older nodes): asked in JSON. */
    private final Set<String> noBinarySlices = ConcurrentHashMap.newKeySet();
    /** Nodes that refused a slice digest as an unknown data operation: asked for the entries instead. */
    private final Set<String> noSliceDigests = ConcurrentHashMap.newKeySet();

    NodeCalls(Connections connections) {
        this.connections = connections;
    }

    String authorization() {
        return connections.authorization();
    }

    /** One JSON call at one node within the budget. */
    JsonNode once(String address, String method, ObjectNode body, int mode, Duration budget) {
        return sendOnce(address, method, body, mode, budget).answer();
    }

    Connections.Sent<JsonNode> sendOnce(String address, String method, ObjectNode body, int mode, Duration budget) {
        byte[] json;
        try {
            json = Json.MAPPER.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        Connections.Sent<byte[]> sent = connections.exchange(address, method, Ops.CALL,
                new Call(SERVICE + method, json, authorization(), 0, mode).encode(), budget);
        return () -> json(address, sent.answer());
    }

    private static JsonNode json(String address, byte[] payload) {
        Call.Reply r = decoded(address, payload, Call.Reply::decode);
        if (r.status() != 200) {
            refused(address, r.status(), message(new String(r.body(), StandardCharsets.UTF_8)));
        }
        try {
            return Json.MAPPER.readTree(r.body());
        } catch (IOException e) {
            throw new GodUnavailableException("malformed JSON from " + address + ": " + e.getMessage(), e);
        }
    }

    private static String message(String text) {
        try {
            JsonNode n = Json.MAPPER.readTree(text);
            return n.isTextual() ? n.asText() : text;
        } catch (IOException e) {
            return text;
        }
    }

    /** A binary data call of this client (its authorization, no stamp, no hops) in the given mode. */
    DataCall dataCall(int kind, byte[] key, byte[] subKey, byte[] value, boolean sync, int mode) {
        return new DataCall(kind, key, subKey, value, sync, authorization(), 0, mode, 0);
    }

    /** One binary data call at one node within the budget: its 200 reply, or the error (4xx: not retried). */
    DataCall.Reply data(String address, DataCall call, Duration budget) {
        return sendData(address, call, budget).answer();
    }

    Connections.Sent<DataCall.Reply> sendData(String address, DataCall call, Duration budget) {
        Connections.Sent<byte[]> sent = connections.exchange(address, call.method(), Ops.DATA, call.encode(), budget);
        return () -> dataReply(address, sent.answer());
    }

    private static DataCall.Reply dataReply(String address, byte[] payload) {
        DataCall.Reply r = decoded(address, payload, DataCall.Reply::decode);
        refused(address, r.status(), r.message());
        return r;
    }

    /**
     * A Stamped SliceLen/ReverseSliceLen at one node: the binary {@link SliceCall}, or the JSON call (the same body
     * with {@code Stamped}, made only then) at a node older than it — one that answered the binary form 400
     * "unknown data operation" is remembered and asked in JSON from then on.
     */
    Connections.Sent<StampedSlice> sendSlice(String address, SliceCall call, Supplier<ObjectNode> json,
                                             Duration budget) {
        if (noBinarySlices.contains(address)) {
            return stampedJson(address, json.get(), call.mode(), budget, call.method());
        }
        Connections.Sent<byte[]> sent = connections.exchange(address, call.method(), Ops.DATA, call.encode(), budget);
        return () -> {
            byte[] payload = sent.answer();
            SliceCall.Reply r = decoded(address, payload, SliceCall.Reply::decode);
            if (olderNode(r.status(), r.message(), call.kind())) {
                noBinarySlices.add(address);
                return stampedJson(address, json.get(), call.mode(), budget, call.method()).answer();
            }
            refused(address, r.status(), r.message());
            return new StampedSlice(r.entries(), payload);
        };
    }

    /** Whether a node is asked for slice digests: it knows them (or has not said it does not). */
    boolean digests(String address) {
        return !noBinarySlices.contains(address) && !noSliceDigests.contains(address);
    }

    /**
     * The digest of a Stamped slice at one node ({@link SliceCall#digest()} kinds), or null from a node older than
     * them (it answered 400 "unknown data operation"; remembered, and not asked for digests again).
     */
    Connections.Sent<byte[]> sendSliceDigest(String address, SliceCall call, Duration budget) {
        Connections.Sent<byte[]> sent = connections.exchange(address, call.method(), Ops.DATA, call.encode(), budget);
        return () -> {
            SliceCall.DigestReply r = decoded(address, sent.answer(), SliceCall.DigestReply::decode);
            if (olderNode(r.status(), r.message(), call.kind())) {
                noSliceDigests.add(address);
                return null;
            }
            refused(address, r.status(), r.message());
            return r.digest();
        };
    }

    /** A binary reply decoded; a reply that does not decode is the node's fault (unavailable, retried elsewhere). */
    static <R> R decoded(String address, byte[] payload, java.util.function.Function<byte[], R> decode) {
        try {
            return decode.apply(payload);
        } catch (RuntimeException e) {
            throw new GodUnavailableException("malformed reply from " + address + ": " + e.getMessage(), e);
        }
    }

    /** An older node's answer to a data kind it does not know (DataCall's decoding refuses it). */
    private static boolean olderNode(int status, String message, int kind) {
        return status == 400 && message.contains("unknown data operation " + kind);
    }

    /** Throws what a non-200 status means (4xx: the request is refused, not retried). */
    static void refused(String address, int status, String message) {
        if (status >= 400 && status < 500) {
            throw new GodRequestException(status, message);
        }
        if (status != 200) {
            throw new GodUnavailableException(address + " answered " + status + ": " + message, null, status);
        }
    }

    /**
     * A node's Stamped slice answer: its entries and the {@link SliceCall#digest} of its binary reply (computed
     * when first asked; of the same entries encoded as the binary reply when the node answered in JSON).
     */
    static final class StampedSlice {
        final List<SliceCall.Stamped> entries;
        private final byte[] reply;
        private byte[] digest;

        StampedSlice(List<SliceCall.Stamped> entries, byte[] reply) {
            this.entries = entries;
            this.reply = reply;
        }

        byte[] digest() {
            if (digest == null) {
                digest = SliceCall.digest(reply != null ? reply : SliceCall.Reply.ok(entries).encode());
            }
            return digest;
        }
    }

    private Connections.Sent<StampedSlice> stampedJson(String address, ObjectNode json, int mode, Duration budget,
                                                       String method) {
        Connections.Sent<JsonNode> sent = sendOnce(address, method, json, mode, budget);
        return () -> new StampedSlice(stamped(sent.answer()), null);
    }

    /** A Stamped JSON slice answer as typed entries. */
    static List<SliceCall.Stamped> stamped(JsonNode answer) {
        List<SliceCall.Stamped> out = new ArrayList<>(answer.size());
        for (JsonNode e : answer) {
            boolean exists = e.path("Exists").asBoolean();
            out.add(new SliceCall.Stamped(Json.orEmpty(Json.bytes(e.get("Key"))), exists,
                    e.path("Timestamp").asLong(0), exists ? Json.orEmpty(Json.bytes(e.get("Value"))) : null));
        }
        return out;
    }
}
