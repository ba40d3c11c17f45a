package io.god.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every /v1 route over HTTP: results, key encodings (percent, base64url), raw and JSON bodies, paging,
 * mirror order, set expressions, configuration; bad input is a 400 {"error"} with nothing changed,
 * missing keys 404, writes without the token 401; the OpenAPI document lists the routes.
 */
@QuarkusTest
class V1ApiTest extends RpcTestSupport {

    record R(int status, String body, String type) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (java.io.IOException e) {
                throw new AssertionError(body, e);
            }
        }
    }

    static R http(String method, String path, String contentType, byte[] body, boolean token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        if (token) {
            b.header("Authorization", BEARER);
        }
        try {
            HttpResponse<byte[]> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new R(r.statusCode(), new String(r.body(), StandardCharsets.UTF_8),
                    r.headers().firstValue("Content-Type").orElse(""));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** A request whose target java.net.URI would refuse (malformed percent-encoding), over a plain socket. */
    static R rawRequest(String method, String target, String body) {
        try (java.net.Socket socket = new java.net.Socket("localhost", RestAssured.port)) {
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            String head = method + " " + target + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: " + BEARER
                    + "\r\nContent-Type: text/plain\r\nContent-Length: " + b.length + "\r\nConnection: close\r\n\r\n";
            socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(b);
            socket.getOutputStream().flush();
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int status = Integer.parseInt(response.substring(9, 12));
            int split = response.indexOf("\r\n\r\n");
            String headers = response.substring(0, split).toLowerCase(java.util.Locale.ROOT);
            int ct = headers.indexOf("content-type: ");
            String type = ct < 0 ? "" : headers.substring(ct + 14, headers.indexOf("\r\n", ct) < 0 ? headers.length()
                    : headers.indexOf("\r\n", ct));
            return new R(status, response.substring(split + 4), type);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    static R get(String path) {
        return http("GET", path, null, null, false);
    }

    static R put(String path, String text) {
        return http("PUT", path, "text/plain", text.getBytes(StandardCharsets.UTF_8), true);
    }

    static R putJson(String path, String json) {
        return http("PUT", path, "application/json", json.getBytes(StandardCharsets.UTF_8), true);
    }

    static R delete(String path) {
        return http("DELETE", path, null, null, true);
    }

    static R postV1(String path, String json) {
        return http("POST", path, "application/json", json.getBytes(StandardCharsets.UTF_8), true);
    }

    static String b64url(byte[] b) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    String before;

    @BeforeEach
    void clear() {
        call("Clear", "{}");
    }

    void snapshot() {
        before = call("DescribeTree", "{}");
    }

    void unchanged() {
        assertThat(call("DescribeTree", "{}")).isEqualTo(before);
    }

    static void bad(R r, String fragment) {
        assertThat(r.status()).as(r.body()).isEqualTo(400);
        assertThat(r.type()).startsWith("application/json");
        assertThat(r.json().get("error").asText()).contains(fragment);
    }

    /**
     * A request line with malformed percent-encoding is refused by the HTTP server (Vert.x) before any
     * route sees it: 400, empty body, connection closed.
     */
    static void refused(R r) {
        assertThat(r.status()).as(r.body()).isEqualTo(400);
    }

    static List<String> subKeys(JsonNode page) {
        List<String> out = new ArrayList<>();
        page.get("entries").forEach(e -> out.add(e.get("subKey").asText()));
        return out;
    }

    // ------------------------------------------------------------------ keys

    @Test
    void keysRawAndJsonBodies() {
        assertThat(put("/v1/keys/hello", "world").status()).isEqualTo(204);
        R r = get("/v1/keys/hello");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().get("key").asText()).isEqualTo("hello");
        assertThat(r.json().get("keyBase64").asText()).isEqualTo(s("hello"));
        assertThat(r.json().get("value").asText()).isEqualTo("world");
        assertThat(r.json().get("valueBase64").asText()).isEqualTo(s("world"));
        // the JSON contract sees the same data
        assertThat(json("Get", "{\"Key\":\"" + s("hello") + "\"}").get("Value").asText()).isEqualTo(s("world"));

        assertThat(putJson("/v1/keys/j", "{\"value\":\"text ü\",\"sync\":true}").status()).isEqualTo(204);
        assertThat(get("/v1/keys/j").json().get("value").asText()).isEqualTo("text ü");
        assertThat(putJson("/v1/keys/bin", "{\"valueBase64\":\"" + b(0xff, 0, 1) + "\"}").status()).isEqualTo(204);
        JsonNode bin = get("/v1/keys/bin").json();
        assertThat(bin.get("value").isNull()).isTrue(); // not UTF-8
        assertThat(bin.get("valueBase64").asText()).isEqualTo(b(0xff, 0, 1));
        R raw = get("/v1/keys/bin?raw=true");
        assertThat(raw.type()).startsWith("application/octet-stream");
        // octet-stream bodies are stored as they are
        assertThat(http("PUT", "/v1/keys/oct", "application/octet-stream", new byte[] {1, 2, (byte) 0xfe}, true)
                .status()).isEqualTo(204);
        assertThat(get("/v1/keys/oct").json().get("valueBase64").asText()).isEqualTo(b(1, 2, 0xfe));

        assertThat(delete("/v1/keys/hello").status()).isEqualTo(204);
        R gone = get("/v1/keys/hello");
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.json().get("error").asText()).contains("hello");
    }

    @Test
    void keyEncodings() {
        // percent-encoded UTF-8, a slash, a plus and arbitrary bytes
        assertThat(put("/v1/keys/a%2Fb%20c+d%C3%BC", "1").status()).isEqualTo(204);
        assertThat(json("Get", "{\"Key\":\"" + s("a/b c+dü") + "\"}").get("Value").asText()).isEqualTo(s("1"));
        assertThat(put("/v1/keys/%FF%00", "2").status()).isEqualTo(204);
        assertThat(json("Get", "{\"Key\":\"" + b(0xff, 0) + "\"}").get("Value").asText()).isEqualTo(s("2"));
        JsonNode k = get("/v1/keys/%FF%00").json();
        assertThat(k.get("key").isNull()).isTrue();
        assertThat(k.get("keyBase64").asText()).isEqualTo(b(0xff, 0));
        // ?b64=true: path segments are base64url (with or without padding)
        byte[] binary = {(byte) 0xfb, (byte) 0xff, 0x3e};
        assertThat(put("/v1/keys/" + b64url(binary) + "?b64=true", "3").status()).isEqualTo(204);
        assertThat(get("/v1/keys/" + b64url(binary) + "?b64=true").json().get("value").asText()).isEqualTo("3");
        assertThat(get("/v1/keys/" + Base64.getUrlEncoder().encodeToString(new byte[] {1}) + "?b64=true").status())
                .isEqualTo(404);
    }

    @Test
    void badKeysAndLimits() {
        put("/v1/keys/k", "v");
        snapshot();
        refused(rawRequest("PUT", "/v1/keys/a%zz", "x"));
        refused(rawRequest("PUT", "/v1/keys/a%4", "x"));
        bad(put("/v1/keys/!!!?b64=true", "x"), "base64url");
        bad(put("/v1/keys/k?b64=maybe", "x"), "b64 must be true or false");
        bad(put("/v1/keys/k?color=red", "x"), "unknown query parameter");
        bad(put("/v1/keys/" + "k".repeat(1025), "x"), "god.limits.key-size");
        bad(put("/v1/keys/k", "v".repeat(4097)), "god.limits.value-size");
        bad(put("/v1/keys/k", "v".repeat(17 * 1024)), "god.limits.body-size");
        bad(putJson("/v1/keys/k", "{\"value\":"), "bad JSON");
        bad(putJson("/v1/keys/k", "{\"valueBase64\":\"!!\"}"), "base64");
        bad(putJson("/v1/keys/k", "{\"value\":\"a\",\"valueBase64\":\"YQ==\"}"), "not both");
        bad(putJson("/v1/keys/k", "{\"other\":1}"), "unknown field");
        bad(putJson("/v1/keys/k", "{\"value\":\"a\"} trailing"), "bad JSON");
        bad(putJson("/v1/keys/k", "{\"value\":\"a\",\"value\":\"b\"}"), "Duplicate field");
        bad(putJson("/v1/keys/k", "{\"value\":\"a\",\"sync\":\"yes\"}"), "sync must be true or false");
        bad(putJson("/v1/keys/k", "[1]"), "JSON value body");
        bad(putJson("/v1/keys/k", "{}"), "needs value");
        refused(rawRequest("GET", "/v1/keys/a%zz", ""));
        unchanged();
    }

    @Test
    void writesNeedTheToken() {
        put("/v1/keys/k", "v");
        put("/v1/trees/t/a", "1");
        snapshot();
        for (R r : List.of(http("PUT", "/v1/keys/k", "text/plain", "x".getBytes(), false),
                http("DELETE", "/v1/keys/k", null, null, false),
                http("PUT", "/v1/trees/t/a", "text/plain", "x".getBytes(), false),
                http("DELETE", "/v1/trees/t/a", null, null, false),
                http("DELETE", "/v1/trees/t", null, null, false),
                http("PUT", "/v1/trees/t/config", "application/json", "{\"mirrored\":\"yes\"}".getBytes(), false),
                http("POST", "/v1/setops", "application/json", "{\"expr\":\"(U t)\",\"dest\":\"d\"}".getBytes(),
                        false))) {
            assertThat(r.status()).as(r.body()).isEqualTo(401);
            assertThat(r.json().get("error").asText()).contains("Authorization");
        }
        unchanged();
        // reads stay open
        assertThat(get("/v1/keys/k").status()).isEqualTo(200);
        assertThat(get("/v1/trees/t").status()).isEqualTo(200);
        assertThat(http("POST", "/v1/setops", "application/json", "{\"expr\":\"(U t)\"}".getBytes(), false).status())
                .isEqualTo(200);
    }

    // ------------------------------------------------------------------ sub trees

    @Test
    void subTreeValues() {
        assertThat(put("/v1/trees/users/alice", "30").status()).isEqualTo(204);
        assertThat(putJson("/v1/trees/users/bob", "{\"value\":\"25\"}").status()).isEqualTo(204);
        JsonNode a = get("/v1/trees/users/alice").json();
        assertThat(a.get("key").asText()).isEqualTo("users");
        assertThat(a.get("subKey").asText()).isEqualTo("alice");
        assertThat(a.get("value").asText()).isEqualTo("30");
        assertThat(number("SubSize", "{\"Key\":\"" + s("users") + "\"}")).isEqualTo(2);
        assertThat(get("/v1/trees/users/carol").status()).isEqualTo(404);
        assertThat(get("/v1/trees/nobody/carol").status()).isEqualTo(404);
        assertThat(delete("/v1/trees/users/alice").status()).isEqualTo(204);
        assertThat(get("/v1/trees/users/alice").status()).isEqualTo(404);
        assertThat(delete("/v1/trees/users").status()).isEqualTo(204);
        assertThat(number("SubSize", "{\"Key\":\"" + s("users") + "\"}")).isZero();
        // b64 applies to both segments
        put("/v1/trees/t/config?b64=false", "never"); // "config" is the configuration route, not a sub key
        assertThat(put("/v1/trees/" + b64url("t".getBytes()) + "/" + b64url("config".getBytes()) + "?b64=true", "c")
                .status()).isEqualTo(204);
        assertThat(get("/v1/trees/t/" + b64url("config".getBytes()) + "?b64=true").status()).isEqualTo(400);
        assertThat(get("/v1/trees/dA/Y29uZmln?b64=true").json().get("value").asText()).isEqualTo("c");
    }

    @Test
    void paging() {
        for (char c = 'a'; c <= 'j'; c++) {
            put("/v1/trees/p/" + c, String.valueOf((char) ('j' - c + 'a')));
        }
        JsonNode all = get("/v1/trees/p").json();
        assertThat(subKeys(all)).containsExactly("a", "b", "c", "d", "e", "f", "g", "h", "i", "j");
        assertThat(all.get("more").asBoolean()).isFalse();
        assertThat(all.get("by").asText()).isEqualTo("key");
        JsonNode range = get("/v1/trees/p?from=c&to=f").json();
        assertThat(subKeys(range)).containsExactly("c", "d", "e");
        assertThat(subKeys(get("/v1/trees/p?from=c&to=f&fromInc=false&toInc=true").json()))
                .containsExactly("d", "e", "f");
        JsonNode limited = get("/v1/trees/p?from=c&limit=2").json();
        assertThat(subKeys(limited)).containsExactly("c", "d");
        assertThat(limited.get("more").asBoolean()).isTrue();
        assertThat(subKeys(get("/v1/trees/p?from=c&to=e&limit=2").json())).containsExactly("c", "d");
        assertThat(get("/v1/trees/p?from=c&to=e&limit=2").json().get("more").asBoolean()).isFalse();
        assertThat(subKeys(get("/v1/trees/p?reverse=true&limit=3").json())).containsExactly("j", "i", "h");
        assertThat(subKeys(get("/v1/trees/p?reverse=true&from=c&to=f").json())).containsExactly("e", "d", "c");
        // ordinal paging
        JsonNode page2 = get("/v1/trees/p?offset=3&limit=3").json();
        assertThat(subKeys(page2)).containsExactly("d", "e", "f");
        assertThat(page2.get("more").asBoolean()).isTrue();
        assertThat(get("/v1/trees/p?offset=9&limit=3").json().get("more").asBoolean()).isFalse();
        assertThat(subKeys(get("/v1/trees/p?offset=1&limit=2&reverse=true").json())).containsExactly("i", "h");
        // by value: needs the mirror
        assertThat(subKeys(get("/v1/trees/p?by=value").json())).isEmpty();
        JsonNode conf = putJson("/v1/trees/p/config", "{\"mirrored\":\"yes\"}").json();
        assertThat(conf.get("data").get("mirrored").asText()).isEqualTo("yes");
        JsonNode byValue = get("/v1/trees/p?by=value&limit=3").json();
        assertThat(subKeys(byValue)).containsExactly("j", "i", "h"); // values a, b, c
        assertThat(byValue.get("entries").get(0).get("value").asText()).isEqualTo("a");
        assertThat(subKeys(get("/v1/trees/p?by=value&from=b&to=d").json())).containsExactly("i", "h");
        assertThat(subKeys(get("/v1/trees/p?by=value&reverse=true&limit=2").json())).containsExactly("a", "b");
        assertThat(subKeys(get("/v1/trees/p?by=value&offset=8").json())).containsExactly("b", "a");
        // b64 bounds
        assertThat(subKeys(get("/v1/trees/cA?b64=true&from=aA&to=ag").json())).containsExactly("h", "i");
        // unknown tree: empty page
        assertThat(get("/v1/trees/none").json().get("entries")).isEmpty();

        snapshot();
        bad(get("/v1/trees/p?limit=0"), "limit");
        bad(get("/v1/trees/p?limit=10001"), "limit");
        bad(get("/v1/trees/p?limit=x"), "limit must be an integer");
        bad(get("/v1/trees/p?offset=-1"), "offset");
        bad(get("/v1/trees/p?offset=1&from=a"), "cannot be combined");
        bad(get("/v1/trees/p?by=size"), "by must be key or value");
        bad(get("/v1/trees/p?reverse=yes"), "reverse must be true or false");
        refused(rawRequest("GET", "/v1/trees/p?from=%zz", ""));
        bad(get("/v1/trees/p?b64=true&from=***"), "base64url");
        bad(get("/v1/trees/p?from=a&from=b"), "given twice");
        unchanged();
    }

    @Test
    void configuration() {
        JsonNode empty = get("/v1/trees/c/config").json();
        assertThat(empty.get("data")).isEmpty();
        assertThat(empty.get("key").asText()).isEqualTo("c");
        JsonNode set = putJson("/v1/trees/c/config", "{\"mirrored\":\"yes\",\"note\":\"x\"}").json();
        assertThat(set.get("data").get("mirrored").asText()).isEqualTo("yes");
        assertThat(set.get("timestamp").asLong()).isPositive();
        assertThat(json("SubConfiguration", "{\"Key\":\"" + s("c") + "\"}").get("Data").get("note").asText())
                .isEqualTo("x");
        snapshot();
        bad(putJson("/v1/trees/c/config", "{\"mirrored\":true}"), "must be a string");
        bad(putJson("/v1/trees/c/config", "{\"a\":\"1\",\"b\":2}"), "must be a string"); // nothing of a applied
        bad(putJson("/v1/trees/c/config", "[]"), "JSON object");
        bad(putJson("/v1/trees/c/config", "{}"), "JSON object");
        bad(putJson("/v1/trees/c/config", "{\"k\":\"" + "v".repeat(4097) + "\"}"), "limits");
        unchanged();
        assertThat(get("/v1/trees/c/config").json().get("data").has("a")).isFalse();
    }

    /**
     * enc= on /v1: numbers in and out as the merges read them (int, float) or as they sort (ordered-int,
     * also by value with negatives); a numeric merge over a value that is not 8 bytes is a 400 naming the
     * key and its tree, with dest nothing written — while the god JSON contract keeps the original's
     * behaviour (such a value is skipped).
     */
    @Test
    void encodingsAndExactNumericMerges() throws Exception {
        assertThat(put("/v1/trees/s/ada?enc=int", "17").status()).isEqualTo(204);
        assertThat(putJson("/v1/trees/s/bob?enc=int", "{\"value\":\"-5\"}").status()).isEqualTo(204);
        assertThat(put("/v1/trees/t/ada?enc=int", "25\n").status()).isEqualTo(204);
        assertThat(put("/v1/keys/pi?enc=float", "3.5").status()).isEqualTo(204);
        JsonNode ada = get("/v1/trees/s/ada?enc=int").json();
        assertThat(ada.get("value").asText()).isEqualTo("17");
        assertThat(Base64.getDecoder().decode(ada.get("valueBase64").asText())).containsExactly(0, 0, 0, 0, 0, 0, 0, 17);
        assertThat(get("/v1/keys/pi?enc=float").json().get("value").asText()).isEqualTo("3.5");
        assertThat(get("/v1/keys/pi?enc=int").json().get("value").asLong()).isEqualTo(Double.doubleToLongBits(3.5));

        JsonNode sum = postV1("/v1/setops?enc=int", "{\"expr\":\"(U:IntegerSum s t)\"}").json();
        assertThat(sum.get("results").get(0).get("key").asText()).isEqualTo("ada");
        assertThat(sum.get("results").get(0).get("values").get(0).get("value").asText()).isEqualTo("42");
        assertThat(sum.get("results").get(1).get("values").get(0).get("value").asText()).isEqualTo("-5");

        // a text value where a number was meant: named, nothing stored
        put("/v1/trees/t/bob", "ten");
        snapshot();
        bad(postV1("/v1/setops?enc=int", "{\"expr\":\"(U:IntegerSum s t)\"}"),
                "the value of key bob in t is 3 bytes: IntegerSum merges 8-byte numbers (write them with enc=int)");
        bad(postV1("/v1/setops", "{\"expr\":\"(I:FloatSum s (U:ConCat t t))\",\"dest\":\"sums\"}"),
                "FloatSum merges 8-byte numbers");
        unchanged();
        assertThat(get("/v1/trees/sums").json().get("entries")).isEmpty();
        // the JSON contract: the original's behaviour, the short value is skipped
        JsonNode rpc = JSON.readTree(call("SetExpression", "{\"Code\":\"(U:IntegerSum s t)\"}"));
        assertThat(rpc).hasSize(2);
        Response exact = post("SetExpression",
                "{\"Code\":\"(U:IntegerSum s t)\",\"ExactNumbers\":true}");
        assertThat(exact.statusCode()).isEqualTo(400);
        assertThat(exact.asString()).contains("the value of key bob in t is 3 bytes");

        // bad enc or value: 400, nothing written
        bad(put("/v1/trees/s/cy?enc=int", "twelve"), "body: 'twelve' is not a valid int value");
        bad(put("/v1/trees/s/cy?enc=roman", "XII"), "enc: expected string, int, float, big, ordered-int");
        bad(putJson("/v1/trees/s/cy?enc=float", "{\"value\":\"x\"}"), "value: 'x' is not a valid float value");
        unchanged();

        // ordered-int: a mirrored tree by value sorts negatives first; from/to are numbers too
        putJson("/v1/trees/ordered-mirror/config", "{\"mirrored\":\"yes\"}");
        for (String[] kv : new String[][] {{"a", "-20"}, {"b", "3"}, {"c", "-1"}, {"d", "100"}}) {
            assertThat(put("/v1/trees/ordered-mirror/" + kv[0] + "?enc=ordered-int", kv[1]).status()).isEqualTo(204);
        }
        JsonNode byValue = get("/v1/trees/ordered-mirror?by=value&enc=ordered-int&from=-5&to=50").json();
        List<String> values = new ArrayList<>();
        byValue.get("entries").forEach(e -> values.add(e.get("subKey").asText() + "=" + e.get("value").asText()));
        assertThat(values).containsExactly("c=-1", "b=3");
        // int: the merges' encoding, whose bytes sort -1 after 100
        putJson("/v1/trees/int-mirror/config", "{\"mirrored\":\"yes\"}");
        put("/v1/trees/int-mirror/minus?enc=int", "-1");
        put("/v1/trees/int-mirror/hundred?enc=int", "100");
        assertThat(get("/v1/trees/int-mirror?by=value&enc=int").json().get("entries").get(0).get("subKey").asText())
                .isEqualTo("hundred");
    }

    @Test
    void setOps() {
        put("/v1/trees/a/x", "1");
        put("/v1/trees/a/y", "2");
        put("/v1/trees/b/y", "3");
        put("/v1/trees/b/z", "4");
        JsonNode u = postV1("/v1/setops", "{\"expr\":\"(U a b)\"}").json();
        List<String> keys = new ArrayList<>();
        u.get("results").forEach(r -> keys.add(r.get("key").asText()));
        assertThat(keys).containsExactly("x", "y", "z");
        assertThat(u.get("results").get(1).get("values").get(0).get("value").asText()).isEqualTo("2");
        assertThat(u.get("results").get(1).get("values").get(1).get("valueBase64").asText()).isEqualTo(s("3"));
        JsonNode i = postV1("/v1/setops", "{\"expr\":\"(I a b)\"}").json();
        assertThat(i.get("results")).hasSize(1);
        JsonNode ranged = postV1("/v1/setops", "{\"expr\":\"(U a b)\",\"min\":\"y\",\"limit\":1}").json();
        assertThat(ranged.get("results")).hasSize(1);
        assertThat(ranged.get("results").get(0).get("key").asText()).isEqualTo("y");
        assertThat(postV1("/v1/setops", "{\"expr\":\"(U a b)\",\"max\":\"y\"}").json().get("results")).hasSize(1);
        assertThat(postV1("/v1/setops", "{\"expr\":\"(U a b)\",\"minBase64\":\"" + s("z") + "\"}").json()
                .get("results")).hasSize(1);
        assertThat(postV1("/v1/setops", "{\"expr\":\"(U:First a b)\",\"dest\":\"d\"}").status()).isEqualTo(204);
        assertThat(subKeys(get("/v1/trees/d").json())).containsExactly("x", "y", "z");

        snapshot();
        bad(postV1("/v1/setops", "{\"expr\":\"(U a\"}"), "Unexpected EOF");
        bad(postV1("/v1/setops", "{\"expr\":\"(U:Foo a)\"}"), "Unknown SetOpType Foo");
        bad(postV1("/v1/setops", "{\"expr\":\"(U a)\",\"dest\":\"e\"}"), "Append merge function is not allowed");
        bad(postV1("/v1/setops", "{}"), "expr must be a string");
        bad(postV1("/v1/setops", "{\"expr\":\"(U a)\",\"limit\":-1}"), "limit");
        bad(postV1("/v1/setops", "{\"expr\":\"(U a)\",\"limit\":1.5}"), "limit");
        bad(postV1("/v1/setops", "{\"expr\":\"(U a)\",\"minBase64\":\"**\"}"), "base64");
        bad(postV1("/v1/setops", "{\"expr\":\"(U a)\",\"bogus\":1}"), "unknown field");
        bad(postV1("/v1/setops", "not json"), "bad JSON");
        bad(postV1("/v1/setops", ""), "needs a JSON body");
        bad(postV1("/v1/setops", "{\"expr\":\"(U:First a)\",\"dest\":\"" + "d".repeat(1025) + "\"}"),
                "god.limits.key-size");
        unchanged();
    }

    @Test
    void concurrentRequestsSeeTheirOwnPaths() throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            List<java.util.concurrent.Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 40; i++) {
                        String k = "c" + thread + "-" + i;
                        assertThat(put("/v1/trees/conc/" + k, k).status()).isEqualTo(204);
                        JsonNode r = get("/v1/trees/conc/" + k).json();
                        assertThat(r.get("subKey").asText()).isEqualTo(k);
                        assertThat(r.get("value").asText()).isEqualTo(k);
                    }
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(number("SubSize", "{\"Key\":\"" + s("conc") + "\"}")).isEqualTo(320);
    }

    // ------------------------------------------------------------------ OpenAPI

    @Test
    void openApiDocumentListsTheRoutes() {
        R doc = get("/q/openapi?format=json");
        assertThat(doc.status()).isEqualTo(200);
        JsonNode api = doc.json();
        assertThat(api.get("openapi").asText()).startsWith("3.");
        JsonNode paths = api.get("paths");
        assertThat(paths.has("/v1/keys/{key}")).isTrue();
        assertThat(paths.get("/v1/keys/{key}").has("put")).isTrue();
        assertThat(paths.get("/v1/keys/{key}").has("get")).isTrue();
        assertThat(paths.get("/v1/keys/{key}").has("delete")).isTrue();
        assertThat(paths.get("/v1/trees/{key}/{subkey}").has("put")).isTrue();
        assertThat(paths.get("/v1/trees/{key}").has("get")).isTrue();
        assertThat(paths.get("/v1/trees/{key}").has("delete")).isTrue();
        assertThat(paths.get("/v1/trees/{key}/config").has("put")).isTrue();
        assertThat(paths.get("/v1/setops").has("post")).isTrue();
        List<String> params = new ArrayList<>();
        paths.get("/v1/trees/{key}").get("get").get("parameters").forEach(p -> params.add(p.get("name").asText()));
        assertThat(params).contains("from", "to", "offset", "limit", "reverse", "by", "b64");
        assertThat(api.get("components").get("schemas").has("Page")).isTrue();
        R yaml = get("/q/openapi");
        assertThat(yaml.status()).isEqualTo(200);
        assertThat(yaml.body()).contains("/v1/setops:");
        assertThat(get("/q/swagger-ui/").status()).isEqualTo(200);
    }

    @Test
    void unknownV1PathsAreJson404s() {
        for (String[] c : new String[][] {{"GET", "/v1/keys"}, {"GET", "/v1/"}, {"GET", "/v1/nothing/here"},
                {"PUT", "/v1/keys"}, {"POST", "/v1/tree/x"}, {"DELETE", "/v1/keys/a/b/c"}}) {
            R r = http(c[0], c[1], null, c[0].equals("GET") || c[0].equals("DELETE") ? null : new byte[] {'x'}, true);
            assertThat(r.status()).as(c[0] + " " + c[1] + ": " + r.body()).isEqualTo(404);
            assertThat(r.type()).as(c[0] + " " + c[1]).startsWith("application/json");
            assertThat(r.json().get("error").asText()).contains("no such /v1 route: " + c[0] + " " + c[1]);
        }
        // a real route with a method it does not have: also a JSON error; the routes themselves still answer
        R wrongMethod = http("PUT", "/v1/setops", "application/json", "{}".getBytes(StandardCharsets.UTF_8), true);
        assertThat(wrongMethod.status()).isIn(404, 405);
        assertThat(wrongMethod.type()).startsWith("application/json");
        assertThat(get("/v1/keys/surely-missing").json().get("error")).isNotNull();
        // the catch-all is not part of the documented API
        assertThat(get("/q/openapi?format=json").json().get("paths").toString()).doesNotContain("unknown");
    }

    @Test
    void swaggerTextKeepsAngleBracketPlaceholders() {
        // Swagger UI renders descriptions as Markdown: a bare <Name> or <token> is an HTML tag and vanishes
        JsonNode api = get("/q/openapi?format=json").json();
        List<String> texts = new ArrayList<>();
        collectTexts(api, texts);
        assertThat(String.join("\n", texts)).contains("`POST /rpc/DHash.<Name>`").contains("`Authorization: Bearer <token>`");
        for (String text : texts) {
            String outsideCode = text.replaceAll("`[^`]*`", "");
            assertThat(outsideCode).as("placeholder outside a code span: " + text).doesNotContainPattern("<[A-Za-z]");
        }
    }

    static void collectTexts(JsonNode n, List<String> into) {
        n.fields().forEachRemaining(e -> {
            if ((e.getKey().equals("description") || e.getKey().equals("summary")) && e.getValue().isTextual()) {
                into.add(e.getValue().asText());
            } else {
                collectTexts(e.getValue(), into);
            }
        });
        if (n.isArray()) {
            n.forEach(c -> collectTexts(c, into));
        }
    }
}
