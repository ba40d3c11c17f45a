package io.god.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON contract's request bodies and the typed forms of its answers. */
final class Json {

    static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    static ObjectNode body() {
        return MAPPER.createObjectNode();
    }

    static ObjectNode range(byte[] key, byte[] min, byte[] max, boolean minInc, boolean maxInc) {
        return body().put("Key", key).put("Min", min).put("Max", max).put("MinInc", minInc).put("MaxInc", maxInc);
    }

    static byte[] bytes(JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            return null;
        }
        try {
            return n.binaryValue();
        } catch (IOException e) {
            throw new GodUnavailableException("bad base64 in a reply: " + e.getMessage(), e);
        }
    }

    static byte[] orEmpty(byte[] b) {
        return b == null ? new byte[0] : b;
    }

    static GodClient.Value value(JsonNode n) {
        boolean exists = n.path("Exists").asBoolean();
        return new GodClient.Value(bytes(n.get("Key")), exists ? orEmpty(bytes(n.get("Value"))) : null, exists, 0);
    }

    static GodClient.SubValue subValue(byte[] key, JsonNode n) {
        boolean exists = n.path("Exists").asBoolean();
        return new GodClient.SubValue(key, exists ? orEmpty(bytes(n.get("Key"))) : null,
                exists ? orEmpty(bytes(n.get("Value"))) : null, n.path("Index").asLong(0), exists);
    }

    static GodClient.Index index(JsonNode n) {
        return new GodClient.Index(n.path("N").asLong(), n.path("Existed").asBoolean());
    }

    static List<GodClient.Entry> entries(JsonNode n) {
        List<GodClient.Entry> out = new ArrayList<>();
        for (JsonNode e : n) {
            out.add(new GodClient.Entry(orEmpty(bytes(e.get("Key"))), orEmpty(bytes(e.get("Value")))));
        }
        return out;
    }

    static Map<String, String> conf(JsonNode n) {
        Map<String, String> out = new LinkedHashMap<>();
        n.path("Data").fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    static String text(JsonNode n) {
        return n.isTextual() ? n.asText() : n.toString();
    }
}
