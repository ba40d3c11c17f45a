package io.god.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.type.TypeFactory;
import io.god.cluster.Cluster;
import io.god.request.BinaryRequests;
import io.god.request.BinaryResults;
import io.god.request.Command;
import io.god.request.Request;
import io.god.request.Result;
import io.god.transport.TransportException;
import io.god.wire.Call;
import io.god.wire.Ops;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Commands sent to other members — forwarded ({@link Forwarding}) or asked for a set expression's sources
 * ({@link SetSources}): as typed binary commands ({@link Ops#COMMAND}), or as the JSON contract's {@link Call} to a
 * member that refused them as an unknown operation (a node of an older version), which is remembered for
 * {@link #OLDER_FOR_NANOS} and then asked in binary again (a rolling upgrade replaces it meanwhile). Either way the
 * answer is the result object the executor would have built here, or the member's refusal as the same
 * {@link CommandError}.
 */
final class PeerCommands {

    /** How long a peer that refused {@link Ops#COMMAND} is sent JSON calls before it is asked again. */
    static final long OLDER_FOR_NANOS = java.util.concurrent.TimeUnit.MINUTES.toNanos(1);

    /** Older peers known at most (a ring's members; departed ones are forgotten when this fills). */
    private static final int OLDER_PEERS_MAX = 1024;

    private final io.god.node.GodNode node;
    private final ObjectMapper json;
    /** Peers that refused binary commands, and until when (node clock, ns) they are sent JSON calls. */
    private final Map<String, Long> olderUntil = new ConcurrentHashMap<>();
    private final AtomicLong jsonFallbacks = new AtomicLong();

    PeerCommands(io.god.node.GodNode node) {
        this.node = node;
        this.json = Wire.constrained(node.settings().limits());
    }

    /** Commands sent as JSON calls because the peer refused binary ones (an older node). */
    long jsonFallbacks() {
        return jsonFallbacks.get();
    }

    /**
     * A keyed command at its key's owner (failing over to the next replicas, {@link Cluster#forward}): its answer,
     * or null when it runs here; a member's refusal, or no member answering, thrown as a CommandError.
     */
    Forwarding.Answer route(Cluster cluster, Request request, String authorization, int hops, byte[] key, long stamp,
                            boolean read) {
        Cluster.Routed<Forwarding.Answer> r = cluster.forward(key, hops, read,
                (to, mode) -> ask(cluster, to, request, authorization, hops + 1, mode, stamp));
        if (r == null) {
            return null;
        }
        if (r.reply() == null) {
            throw new CommandError(r.status(), r.message());
        }
        return r.reply();
    }

    /** An answer's result as the result object: an older member's JSON answer decoded, a binary one as it is. */
    Object typedResult(Request request, Object result) {
        return result instanceof Executor.Relayed r ? typed(request.command(), r, request.stamped()) : result;
    }

    /** A broadcast command's part at one other member. */
    Cluster.Part<BinaryResults.Reply> broadcastPart(Cluster cluster, Request request, String authorization,
                                                    long stamp) {
        return new BroadcastPart(cluster, request, authorization, stamp);
    }

    /** One attempt at one member: binary, or JSON for an older one; its refusal thrown as the same CommandError. */
    Forwarding.Answer ask(Cluster cluster, String to, Request request, String authorization, int hops, int mode,
                           long stamp) {
        if (!older(to)) {
            try {
                byte[] reply = cluster.call(to, Ops.COMMAND,
                        new BinaryRequests.Envelope(request, authorization, hops, mode, stamp).encode());
                return new Forwarding.Answer(result(BinaryResults.Reply.decode(reply)));
            } catch (TransportException e) {
                if (!refusedAsUnknown(e)) {
                    throw e;
                }
                rememberOlder(to);
            }
        }
        jsonFallbacks.incrementAndGet();
        byte[] reply = cluster.call(to, Ops.CALL, new Call(Command.SERVICE + request.command().method(),
                encode(request), authorization, hops, mode, stamp).encode());
        return new Forwarding.Answer(relayed(Call.Reply.decode(reply)));
    }

    /** A binary reply's result, or its refusal thrown as the same CommandError. */
    static Object result(BinaryResults.Reply r) {
        if (r.status() != 200) {
            throw new CommandError(r.status(), r.message());
        }
        return r.result();
    }

    /** Whether a peer refused an operation it does not know: {@code Ops.COMMAND} at a node of an older version. */
    static boolean refusedAsUnknown(TransportException e) {
        return e.reason() == TransportException.Reason.REMOTE && e.getMessage() != null
                && e.getMessage().contains("unknown operation " + Ops.COMMAND);
    }

    private boolean older(String peer) {
        Long until = olderUntil.get(peer);
        if (until == null) {
            return false;
        }
        if (node.clock().nanos() - until < 0) {
            return true;
        }
        olderUntil.remove(peer, until); // asked in binary again: it may have been upgraded
        return false;
    }

    private void rememberOlder(String peer) {
        if (olderUntil.size() >= OLDER_PEERS_MAX) {
            olderUntil.clear();
        }
        if (olderUntil.put(peer, node.clock().nanos() + OLDER_FOR_NANOS) == null) {
            LOG.log(System.Logger.Level.INFO, peer + " refused binary commands (an older node): forwarding to it in"
                    + " JSON calls for " + java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(OLDER_FOR_NANOS) + " s");
        }
    }

    private static final System.Logger LOG = System.getLogger(PeerCommands.class.getName());

    /** A member's JSON reply: its answer, or its refusal thrown as the same CommandError. */
    private Executor.Relayed relayed(Call.Reply r) {
        if (r.status() != 200) {
            String message;
            try {
                JsonNode msg = json.readTree(r.body());
                message = msg != null && msg.isTextual() ? msg.asText() : new String(r.body(), StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                message = new String(r.body(), StandardCharsets.UTF_8);
            }
            throw new CommandError(r.status(), message);
        }
        return new Executor.Relayed(r.body());
    }

    /** A broadcast command at one other member: binary, or JSON for an older one, the answer typed either way. */
    private final class BroadcastPart implements Cluster.Part<BinaryResults.Reply> {
        private final Cluster cluster;
        private final Request request;
        private final String authorization;
        private final long stamp;
        private final java.util.Set<String> sentJson = ConcurrentHashMap.newKeySet();

        BroadcastPart(Cluster cluster, Request request, String authorization, long stamp) {
            this.cluster = cluster;
            this.request = request;
            this.authorization = authorization;
            this.stamp = stamp;
        }

        @Override
        public java.util.concurrent.CompletableFuture<byte[]> send(String to) {
            if (older(to)) {
                sentJson.add(to);
                jsonFallbacks.incrementAndGet();
                return cluster.send(to, Ops.CALL, jsonCall());
            }
            return cluster.send(to, Ops.COMMAND, new BinaryRequests.Envelope(request, authorization, Cluster.MAX_HOPS,
                    Call.EXECUTE, stamp).encode());
        }

        private byte[] jsonCall() {
            return new Call(Command.SERVICE + request.command().method(), encode(request), authorization,
                    Cluster.MAX_HOPS, Call.EXECUTE, stamp).encode();
        }

        @Override
        public BinaryResults.Reply answer(String from, byte[] reply) {
            if (!sentJson.contains(from)) {
                return BinaryResults.Reply.decode(reply);
            }
            try {
                Executor.Relayed r = relayed(Call.Reply.decode(reply));
                return BinaryResults.Reply.ok(typed(request.command(), r, false));
            } catch (CommandError e) {
                return BinaryResults.Reply.error(e.status(), e.getMessage());
            }
        }

        @Override
        public BinaryResults.Reply unanswered(String from, TransportException e) {
            if (!sentJson.contains(from) && refusedAsUnknown(e)) {
                rememberOlder(from);
                jsonFallbacks.incrementAndGet();
                sentJson.add(from);
                try {
                    return answer(from, cluster.call(from, Ops.CALL, jsonCall()));
                } catch (TransportException again) {
                    e = again;
                }
            }
            return BinaryResults.Reply.error(503, from + " did not answer: " + e.getMessage());
        }
    }

    /** An older member's JSON answer as the result object {@link Executor#execute} returns. */
    Object typed(Command command, Executor.Relayed r, boolean stamped) {
        try {
            if (stamped) { // Timestamp kept (Stamped answers are god extensions), in TreeReads' shapes
                JsonNode n = json.readTree(r.body());
                if (!n.isArray()) {
                    return stampedEntry(n);
                }
                List<Map<String, Object>> out = new java.util.ArrayList<>(n.size());
                for (JsonNode e : n) {
                    out.add(stampedEntry(e));
                }
                return out;
            }
            return json.readValue(r.body(), resultType(command, json.getTypeFactory()));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("bad reply from a ring member for " + command.method() + ": " + e, e);
        }
    }

    /** A stamped entry of a JSON answer as {@link TreeReads#stamped} builds it. */
    private static Map<String, Object> stampedEntry(JsonNode e) throws java.io.IOException {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("Key", binary(e.get("Key")));
        if (e.has("SubKey")) {
            m.put("SubKey", binary(e.get("SubKey")));
        }
        m.put("Value", binary(e.get("Value")));
        m.put("Exists", e.path("Exists").asBoolean(false));
        m.put("Timestamp", e.path("Timestamp").asLong(0));
        return m;
    }

    private static byte[] binary(JsonNode n) throws java.io.IOException {
        return n == null || n.isNull() ? null : n.binaryValue();
    }

    private static JavaType resultType(Command command, TypeFactory types) {
        return switch (command) {
            case GET, NEXT, PREV, KEY_NEXT -> types.constructType(Result.ValueRes.class);
            case SUB_GET, SUB_NEXT, SUB_PREV, SUB_MIRROR_NEXT, SUB_MIRROR_PREV, FIRST, LAST, MIRROR_FIRST, MIRROR_LAST ->
                    types.constructType(Result.SubValueRes.class);
            case NEXT_INDEX, PREV_INDEX, MIRROR_NEXT_INDEX, MIRROR_PREV_INDEX ->
                    types.constructType(Result.SubValueIndexRes.class);
            case INDEX_OF, REVERSE_INDEX_OF, MIRROR_INDEX_OF, MIRROR_REVERSE_INDEX_OF ->
                    types.constructType(Result.IndexRes.class);
            case COUNT, MIRROR_COUNT, SIZE, KEY_COUNT, SUB_SIZE, OWNED -> types.constructType(Long.class);
            case SUB_UPDATE -> types.constructType(Result.UpdateRes.class);
            case SET_EXPRESSION -> types.constructCollectionType(List.class, Result.SetOpResult.class);
            case SUB_CONFIGURATION, CONFIGURATION -> types.constructType(Result.Conf.class);
            default -> command.method().contains("Slice") ? types.constructCollectionType(List.class, Result.ValueRes.class)
                    : types.constructMapType(Map.class, String.class, String.class);
        };
    }

    /** A request in the JSON contract's encoding ({@link io.god.request.JsonBodies}, which the client sends too). */
    private byte[] encode(Request r) {
        Object o = io.god.request.JsonBodies.of(r);
        try {
            return json.writeValueAsBytes(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise " + o.getClass(), e);
        }
    }

}
