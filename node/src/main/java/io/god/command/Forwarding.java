package io.god.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.type.TypeFactory;
import io.god.cluster.Cluster;
import io.god.command.Command.Flag;
import io.god.wire.Call;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Routing of a command on a ring: to its key's owner (failing over to the next replica, {@link Cluster#route}), or
 * to every member with their answers combined (BROADCAST). Forwarded commands travel in the JSON contract's encoding
 * (the binary point commands in theirs, {@link Executor#point}); an answer comes back as {@link Executor.Relayed}
 * and is decoded only for a front end that needs the result object ({@link #typed}).
 */
final class Forwarding {

    /** This member's part of a broadcast, answered as another member would. */
    @FunctionalInterface
    interface Local {
        Call.Reply run(Request request, String authorization, long stamp);
    }

    static final Map<String, String> NOTHING = Map.of();

    private final io.god.node.GodNode node;
    private final Admission admission;
    private final SetSources sources;
    private final Local local;
    private final ObjectMapper json;

    Forwarding(io.god.node.GodNode node, Admission admission, SetSources sources, Local local) {
        this.node = node;
        this.admission = admission;
        this.sources = sources;
        this.local = local;
        this.json = Wire.constrained(node.settings().limits());
    }

    /** The command's answer from the member(s) it belongs to, or null when it runs here. */
    Object route(Cluster cluster, Request request, String authorization, int hops, long stamp) {
        Command command = request.command();
        if (command.is(Flag.LOCAL)) {
            return null;
        }
        if (command.is(Flag.BROADCAST)) {
            return broadcast(cluster, request, authorization, stamp);
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
        Call.Reply r = cluster.route(Command.SERVICE + command.method(), encode(request), authorization, hops, key,
                stamp, read);
        return r == null ? null : relayed(r);
    }

    /** A member's reply: its answer, or its refusal thrown as the same CommandError. */
    private Executor.Relayed relayed(Call.Reply r) {
        if (r.status() != 200) {
            String message;
            try {
                JsonNode msg = json.readTree(r.body());
                message = msg != null && msg.isTextual() ? msg.asText() : new String(r.body(), java.nio.charset.StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                message = new String(r.body(), java.nio.charset.StandardCharsets.UTF_8);
            }
            throw new CommandError(r.status(), message);
        }
        return new Executor.Relayed(r.body());
    }

    private Object broadcast(Cluster cluster, Request request, String authorization, long stamp) {
        Command command = request.command();
        String name = command.method();
        List<Call.Reply> replies = cluster.broadcast(Command.SERVICE + name, encode(request), authorization,
                stamp, () -> local.run(request, authorization, stamp));
        for (Call.Reply r : replies) {
            if (r.status() != 200) {
                relayed(r);
            }
        }
        try {
            switch (command) {
                case SIZE, KEY_COUNT -> {
                    long sum = 0;
                    for (Call.Reply r : replies) {
                        sum += json.readTree(r.body()).asLong();
                    }
                    return sum;
                }
                case NEXT, PREV, KEY_NEXT -> { // the nearest key any member has
                    Call.Reply best = null;
                    byte[] bestKey = null;
                    for (Call.Reply r : replies) {
                        JsonNode n = json.readTree(r.body());
                        if (!n.path("Exists").asBoolean(false)) {
                            continue;
                        }
                        byte[] k = n.get("Key").isNull() ? new byte[0] : n.get("Key").binaryValue();
                        int c = bestKey == null ? 0 : Arrays.compareUnsigned(k, bestKey);
                        if (bestKey == null || (command != Command.PREV ? c < 0 : c > 0)) {
                            best = r;
                            bestKey = k;
                        }
                    }
                    return best == null ? new Wire.ValueRes(null, null, false) : new Executor.Relayed(best.body());
                }
                default -> {
                    return NOTHING;
                }
            }
        } catch (java.io.IOException e) {
            throw new IllegalStateException("bad reply from a ring member: " + e, e);
        }
    }

    /** A relayed answer as the result object {@link Executor#execute} returns. */
    Object typed(Command command, Executor.Relayed r, boolean stamped) {
        try {
            if (stamped) {
                return json.readTree(r.body()); // keeps Timestamp (Stamped answers are god extensions)
            }
            return json.readValue(r.body(), resultType(command, json.getTypeFactory()));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("bad reply from a ring member for " + command.method() + ": " + e, e);
        }
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
