package io.god.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.god.wire.Call;
import io.god.wire.DataCall;
import io.god.wire.Ops;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * One attempt at one node, no retry: a JSON-contract {@link Call} ({@link Ops#CALL}) or a binary {@link DataCall}
 * ({@link Ops#DATA}) sent on a pooled connection, and its reply turned into the answer or the exception (4xx: a
 * {@link GodRequestException}, never retried; anything else not 200: a {@link GodUnavailableException}).
 */
final class NodeCalls {

    private static final String SERVICE = "DHash.";

    private final Connections connections;

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
        Call.Reply r;
        try {
            r = Call.Reply.decode(payload);
        } catch (RuntimeException e) {
            throw new GodUnavailableException("malformed reply from " + address + ": " + e.getMessage(), e);
        }
        String text = new String(r.body(), StandardCharsets.UTF_8);
        if (r.status() >= 400 && r.status() < 500) {
            throw new GodRequestException(r.status(), message(text));
        }
        if (r.status() != 200) {
            throw new GodUnavailableException(address + " answered " + r.status() + ": " + message(text), null,
                    r.status());
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
        DataCall.Reply r;
        try {
            r = DataCall.Reply.decode(payload);
        } catch (RuntimeException e) {
            throw new GodUnavailableException("malformed reply from " + address + ": " + e.getMessage(), e);
        }
        if (r.status() >= 400 && r.status() < 500) {
            throw new GodRequestException(r.status(), r.message());
        }
        if (r.status() != 200) {
            throw new GodUnavailableException(address + " answered " + r.status() + ": " + r.message(), null,
                    r.status());
        }
        return r;
    }
}
