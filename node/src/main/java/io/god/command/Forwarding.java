package io.god.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.type.TypeFactory;
import io.god.cluster.Cluster;
import io.god.command.Command.Flag;
import io.god.transport.TransportException;
import io.god.wire.Call;
import io.god.wire.Ops;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Routing of a command on a ring: to its key's owner (failing over to the next replica, {@link Cluster#forward}), or
 * to every member with their answers combined (BROADCAST). Forwarded commands travel as typed binary commands
 * ({@link io.god.wire.Ops#COMMAND}: {@link BinaryRequests}, answered in {@link BinaryResults}), so the answer is the
 * result object a front end needs without JSON on either side. A peer that refuses them as an unknown operation (a
 * node of an older version) is sent the JSON contract's {@link Call} instead, and is remembered as older for
 * {@link #OLDER_FOR_NANOS} (a rolling upgrade replaces it meanwhile); its answer comes back as {@link Executor.Relayed}
 * and is decoded only for a front end that needs the result object ({@link #typed}). The binary point commands have
 * their own forwarding ({@link Executor#point}).
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

    /** How long a peer that refused {@link io.god.wire.Ops#COMMAND} is sent JSON calls before it is asked again. */
    static final long OLDER_FOR_NANOS = java.util.concurrent.TimeUnit.MINUTES.toNanos(1);

    /** Older peers known at most (a ring's members; departed ones are forgotten when this fills). */
    private static final int OLDER_PEERS_MAX = 1024;

    private final io.god.node.GodNode node;
    private final Admission admission;
    private final SetSources sources;
    private final Local local;
    private final ObjectMapper json;
    /** Peers that refused binary commands, and until when (node clock, ns) they are sent JSON calls. */
    private final Map<String, Long> olderUntil = new ConcurrentHashMap<>();
    private final AtomicLong jsonFallbacks = new AtomicLong();

    Forwarding(io.god.node.GodNode node, Admission admission, SetSources sources, Local local) {
        this.node = node;
        this.admission = admission;
        this.sources = sources;
        this.local = local;
        this.json = Wire.constrained(node.settings().limits());
    }

    /** Forwarded commands sent as JSON calls because the peer refused binary ones (an older node). */
    long jsonFallbacks() {
        return jsonFallbacks.get();
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
        Cluster.Routed<Answer> r = cluster.forward(key, hops, read,
                (to, mode) -> attempt(cluster, to, request, authorization, hops + 1, mode, stamp));
        if (r == null) {
            return null;
        }
        if (r.reply() == null) {
            throw new CommandError(r.status(), r.message());
        }
        return r.reply();
    }

    /** One attempt at one member: binary, or JSON for an older one; its refusal thrown as the same CommandError. */
    private Answer attempt(Cluster cluster, String to, Request request, String authorization, int hops, int mode,
                           long stamp) {
        if (!older(to)) {
            try {
                byte[] reply = cluster.call(to, Ops.COMMAND,
                        new BinaryRequests.Envelope(request, authorization, hops, mode, stamp).encode());
                return new Answer(result(BinaryResults.Reply.decode(reply)));
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
        return new Answer(relayed(Call.Reply.decode(reply)));
    }

    /** A binary reply's result, or its refusal thrown as the same CommandError. */
    private static Object result(BinaryResults.Reply r) {
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

    private static final System.Logger LOG = System.getLogger(Forwarding.class.getName());

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

    private Object broadcast(Cluster cluster, Request request, String authorization, long stamp) {
        Command command = request.command();
        List<BinaryResults.Reply> replies = cluster.broadcast(new BroadcastPart(cluster, request, authorization, stamp),
                () -> local.run(request, authorization, stamp));
        for (BinaryResults.Reply r : replies) {
            result(r);
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
                Wire.ValueRes best = null;
                byte[] bestKey = null;
                for (BinaryResults.Reply r : replies) {
                    Wire.ValueRes v = (Wire.ValueRes) r.result();
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
                return best == null ? new Wire.ValueRes(null, null, false) : best;
            }
            default -> {
                return NOTHING;
            }
        }
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

    /** A relayed answer as the result object {@link Executor#execute} returns. */
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
            case GET, NEXT, PREV, KEY_NEXT -> types.constructType(Wire.ValueRes.class);
            case SUB_GET, SUB_NEXT, SUB_PREV, SUB_MIRROR_NEXT, SUB_MIRROR_PREV, FIRST, LAST, MIRROR_FIRST, MIRROR_LAST ->
                    types.constructType(Wire.SubValueRes.class);
            case NEXT_INDEX, PREV_INDEX, MIRROR_NEXT_INDEX, MIRROR_PREV_INDEX ->
                    types.constructType(Wire.SubValueIndexRes.class);
            case INDEX_OF, REVERSE_INDEX_OF, MIRROR_INDEX_OF, MIRROR_REVERSE_INDEX_OF ->
                    types.constructType(Wire.IndexRes.class);
            case COUNT, MIRROR_COUNT, SIZE, KEY_COUNT, SUB_SIZE, OWNED -> types.constructType(Long.class);
            case SUB_UPDATE -> types.constructType(Wire.UpdateRes.class);
            case SET_EXPRESSION -> types.constructCollectionType(List.class, Wire.SetOpResult.class);
            case SUB_CONFIGURATION, CONFIGURATION -> types.constructType(Wire.Conf.class);
            default -> command.method().contains("Slice") ? types.constructCollectionType(List.class, Wire.ValueRes.class)
                    : types.constructMapType(Map.class, String.class, String.class);
        };
    }

    /** A request in the JSON contract's encoding (the shape {@link JsonRequests#toWire} gives it). */
    byte[] encode(Request r) {
        return encode(JsonRequests.toWire(r));
    }

    /** A result or message in the JSON contract's encoding. */
    byte[] encode(Object o) {
        try {
            return json.writeValueAsBytes(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise " + o.getClass(), e);
        }
    }

    private static byte[] orEmpty(byte[] b) {
        return b == null ? new byte[0] : b;
    }
}
