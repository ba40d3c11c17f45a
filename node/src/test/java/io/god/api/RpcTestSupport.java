package io.god.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.RestAssured;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** Helpers for the black-box JSON tests: base64 literals, calls with and without the token. */
abstract class RpcTestSupport {

    static final String TOKEN = "test-secret-token";
    static final String BEARER = "Bearer " + TOKEN;
    static final ObjectMapper JSON = new ObjectMapper();

    /** base64 of raw bytes. */
    static String b(int... bytes) {
        byte[] out = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = (byte) bytes[i];
        }
        return Base64.getEncoder().encodeToString(out);
    }

    /** base64 of UTF-8 text. */
    static String s(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    static String f(double d) {
        return Base64.getEncoder().encodeToString(ByteBuffer.allocate(8).putDouble(d).array());
    }

    static double decodeFloat(String b64) {
        return ByteBuffer.wrap(Base64.getDecoder().decode(b64)).getDouble();
    }

    /** One plain HTTP/1.1 client with keep-alive: much cheaper per call than RestAssured for bulk cases. */
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** A response: status, body text and Content-Type. */
    record Response(int statusCode, String asString, String contentType) {
    }

    /** POST /rpc/DHash.method with the token; returns the raw response. */
    static Response post(String method, String body) {
        return send(method, body, BEARER);
    }

    static Response postAnonymous(String method, String body) {
        return send(method, body, null);
    }

    static Response send(String method, String body, String authorization) {
        HttpRequest.Builder b = HttpRequest.newBuilder(
                        URI.create("http://localhost:" + RestAssured.port + "/rpc/DHash." + method))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        try {
            HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(r.statusCode(), r.body(), r.headers().firstValue("Content-Type").orElse(""));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** A successful call's body text. */
    static String call(String method, String body) {
        Response r = post(method, body);
        assertThat(r.statusCode()).as(method + " " + body + " -> " + r.asString()).isEqualTo(200);
        return r.asString();
    }

    static JsonNode json(String method, String body) {
        try {
            return JSON.readTree(call(method, body));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Asserts a 400 whose JSON string message contains the fragment. */
    static void badRequest(String method, String body, String fragment) {
        Response r = post(method, body);
        assertThat(r.statusCode()).as(method + " " + body + " -> " + r.asString()).isEqualTo(400);
        assertThat(r.contentType()).startsWith("application/json");
        String message;
        try {
            JsonNode n = JSON.readTree(r.asString());
            assertThat(n.isTextual()).as("error body is a JSON string: " + r.asString()).isTrue();
            message = n.asText();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        assertThat(message).contains(fragment);
    }

    static long number(String method, String body) {
        return Long.parseLong(call(method, body));
    }

    static void subPut(String tree, String key, String value) {
        assertThat(call("SubPut", "{\"Key\":\"" + tree + "\",\"SubKey\":\"" + key + "\",\"Value\":\"" + value
                + "\",\"Sync\":true}")).isEqualTo("{}");
    }

    static void mirror(String tree) {
        assertThat(call("SubAddConfiguration", "{\"TreeKey\":\"" + tree + "\",\"Key\":\"mirrored\",\"Value\":\"yes\"}"))
                .isEqualTo("{}");
    }

    /** The Key fields of a list result. */
    static List<String> keys(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(n -> out.add(n.get("Key").isNull() ? null : n.get("Key").asText()));
        return out;
    }

    static List<String> values(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(n -> out.add(n.get("Value").isNull() ? null : n.get("Value").asText()));
        return out;
    }

    /** base64 of the single bytes given. */
    static List<String> bytes(int... each) {
        List<String> out = new ArrayList<>();
        for (int i : each) {
            out.add(b(i));
        }
        return out;
    }

    static int[] range(int fromInclusive, int toInclusive) {
        int step = fromInclusive <= toInclusive ? 1 : -1;
        int[] out = new int[Math.abs(toInclusive - fromInclusive) + 1];
        for (int i = 0, v = fromInclusive; i < out.length; i++, v += step) {
            out[i] = v;
        }
        return out;
    }
}
