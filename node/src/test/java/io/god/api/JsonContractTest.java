package io.god.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Black-box tests of the god JSON contract over HTTP: the verified exchanges of reference §2.2 byte
 * for byte, and the one-node cases of §9.8 (TestClient, JSON half) and §9.9 (client examples).
 */
@QuarkusTest
class JsonContractTest extends RpcTestSupport {

    @BeforeEach
    void clear() {
        assertThat(call("Clear", "{}")).isEqualTo("{}");
    }

    @Test
    void verifiedExampleExchange() {
        assertThat(call("Put", "{\"Key\":\"a2V5\",\"Value\":\"dmFs\"}")).isEqualTo("{}");
        assertThat(call("Get", "{\"Key\":\"a2V5\"}")).isEqualTo("{\"Key\":\"a2V5\",\"Value\":\"dmFs\",\"Exists\":true}");
        assertThat(call("Get", "{\"Key\":\"bm9wZQ==\"}"))
                .isEqualTo("{\"Key\":\"bm9wZQ==\",\"Value\":null,\"Exists\":false}");
        assertThat(call("SubPut", "{\"Key\":\"dHJlZQ==\",\"SubKey\":\"YQ==\",\"Value\":\"MQ==\"}")).isEqualTo("{}");
        assertThat(call("SubPut", "{\"Key\":\"dHJlZQ==\",\"SubKey\":\"Yg==\",\"Value\":\"Mg==\"}")).isEqualTo("{}");
        assertThat(call("Slice", "{\"Key\":\"dHJlZQ==\"}")).isEqualTo(
                "[{\"Key\":\"YQ==\",\"Value\":\"MQ==\",\"Exists\":true},{\"Key\":\"Yg==\",\"Value\":\"Mg==\",\"Exists\":true}]");
        assertThat(call("SliceIndex", "{\"Key\":\"dHJlZQ==\",\"MinIndex\":1}"))
                .isEqualTo("[{\"Key\":\"Yg==\",\"Value\":\"Mg==\",\"Exists\":true}]");
        assertThat(call("IndexOf", "{\"Key\":\"dHJlZQ==\",\"SubKey\":\"Yg==\"}")).isEqualTo("{\"N\":1,\"Existed\":true}");
        assertThat(call("NextIndex", "{\"Key\":\"dHJlZQ==\",\"Index\":0}"))
                .isEqualTo("{\"Key\":\"Yg==\",\"SubKey\":null,\"Value\":\"Mg==\",\"Index\":1,\"Exists\":true}");
        assertThat(call("First", "{\"Key\":\"dHJlZQ==\"}"))
                .isEqualTo("{\"Key\":\"YQ==\",\"SubKey\":null,\"Value\":\"MQ==\",\"Exists\":true}");
        assertThat(call("SetExpression", "{\"Code\":\"(U tree tree)\"}")).isEqualTo(
                "[{\"Key\":\"YQ==\",\"Values\":[\"MQ==\",\"MQ==\"]},{\"Key\":\"Yg==\",\"Values\":[\"Mg==\",\"Mg==\"]}]");
        badRequest("SetExpression", "{\"Code\":\"(U tree)\",\"Dest\":\"ZA==\"}",
                "When storing results of Set expressions the Append merge function is not allowed");
        assertThat(call("Nodes", "{}")).matches("\\[\\{\"Pos\":\"[A-Za-z0-9+/]{22}==\",\"Addr\":\"127.0.0.1:9191\"}]");
        mirror("dHJlZQ==");
        assertThat(call("SubConfiguration", "{\"Key\":\"dHJlZQ==\"}"))
                .matches("\\{\"TreeKey\":\"dHJlZQ==\",\"Data\":\\{\"mirrored\":\"yes\"},\"Timestamp\":\\d{19}}");
        assertThat(call("Describe", "{}")).matches("\\{\"Addr\":\"127.0.0.1:9191\",\"Pos\":\"[A-Za-z0-9+/]{22}==\","
                + "\"LastReroute\":\"\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z\",\"LastSync\":\"1970-01-01T00:00:00Z\","
                + "\"LastMigrate\":\"1970-01-01T00:00:00Z\",\"Timer\":\"[0-9T:.-]+Z\",\"OwnedEntries\":3,"
                + "\"HeldEntries\":3,\"Load\":0.0,\"Nodes\":\\[\\{\"Pos\":\"[A-Za-z0-9+/]{22}==\",\"Addr\":\"127.0.0.1:9191\"}]}");
    }

    @Test
    void anyAcceptHeaderAndContentTypeAreAccepted() {
        call("Put", "{\"Key\":\"a2V5\",\"Value\":\"dmFs\"}");
        for (String accept : List.of("text/html", "*/*", "application/json; charset=utf-8", "text/html,application/json")) {
            String body = io.restassured.RestAssured.given().header("Accept", accept).contentType("text/plain")
                    .body("{\"Key\":\"a2V5\"}").post("/rpc/DHash.Get").then().statusCode(200)
                    .header("Content-Type", "application/json; charset=UTF-8").extract().asString();
            assertThat(body).isEqualTo("{\"Key\":\"a2V5\",\"Value\":\"dmFs\",\"Exists\":true}");
        }
    }

    @Test
    void chunkedBodiesAreRead() throws Exception {
        call("Put", "{\"Key\":\"a2V5\",\"Value\":\"dmFs\"}");
        var client = java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1).build();
        byte[] body = "{\"Key\":\"a2V5\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        var request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                        "http://localhost:" + io.restassured.RestAssured.port + "/rpc/DHash.Get"))
                .POST(java.net.http.HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(body)))
                .build();
        var response = client.send(request, java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"Key\":\"a2V5\",\"Value\":\"dmFs\",\"Exists\":true}");
    }

    @Test
    void emptyBodyIsTheZeroParameter() {
        assertThat(number("Size", "")).isZero();
        assertThat(call("Configuration", "")).matches("\\{\"TreeKey\":null,\"Data\":\\{.*},\"Timestamp\":\\d+}");
        assertThat(call("Get", "")).isEqualTo("{\"Key\":null,\"Value\":null,\"Exists\":false}");
    }

    @Test
    void getPutDel() {
        for (int i = 0; i < 200; i++) {
            String k = s("key" + i);
            String v = s("value" + i);
            assertThat(json("Get", "{\"Key\":\"" + k + "\"}").get("Exists").asBoolean()).isFalse();
            call("Put", "{\"Key\":\"" + k + "\",\"Value\":\"" + v + "\",\"Sync\":true}");
            assertThat(json("Get", "{\"Key\":\"" + k + "\"}").get("Value").asText()).isEqualTo(v);
            call("Del", "{\"Key\":\"" + k + "\",\"Sync\":true}");
            JsonNode gone = json("Get", "{\"Key\":\"" + k + "\"}");
            assertThat(gone.get("Exists").asBoolean()).isFalse();
            assertThat(gone.get("Value").isNull()).isTrue();
        }
        assertThat(number("Size", "{}")).isZero();
        assertThat(number("Owned", "{}")).isEqualTo(200); // the tombstones
    }

    @Test
    void subGetPutDelAndSubSize() {
        for (int i = 0; i < 20; i++) {
            for (int j = 0; j < 10; j++) {
                String req = "{\"Key\":\"" + s("t" + i) + "\",\"SubKey\":\"" + s("s" + j) + "\"";
                assertThat(json("SubGet", req + "}").get("Exists").asBoolean()).isFalse();
                subPut(s("t" + i), s("s" + j), s("v" + j));
                assertThat(call("SubGet", req + "}")).isEqualTo("{\"Key\":\"" + s("t" + i) + "\",\"SubKey\":\""
                        + s("s" + j) + "\",\"Value\":\"" + s("v" + j) + "\",\"Exists\":true}");
                call("SubDel", req + ",\"Sync\":true}");
                assertThat(call("SubGet", req + "}")).isEqualTo("{\"Key\":\"" + s("t" + i) + "\",\"SubKey\":\""
                        + s("s" + j) + "\",\"Value\":null,\"Exists\":false}");
            }
        }
        assertThat(number("Size", "{}")).isZero();
    }

    @Test
    void subClear() {
        for (int i = 0; i < 10; i++) {
            subPut(s("apa"), b(i), b(i));
        }
        assertThat(number("SubSize", "{\"Key\":\"" + s("apa") + "\"}")).isEqualTo(10);
        assertThat(number("Size", "{}")).isEqualTo(10);
        call("SubClear", "{\"Key\":\"" + s("apa") + "\",\"Sync\":true}");
        assertThat(number("SubSize", "{\"Key\":\"" + s("apa") + "\"}")).isZero();
        assertThat(json("Slice", "{\"Key\":\"" + s("apa") + "\"}")).isEmpty();
    }

    @Test
    void indices() {
        String ko = s("ko");
        mirror(ko);
        for (int i = 1; i < 9; i++) {
            subPut(ko, b(i), b(9 - i));
        }
        String base = "{\"Key\":\"" + ko + "\",\"SubKey\":\"";
        assertThat(call("ReverseIndexOf", base + b(9) + "\"}")).isEqualTo("{\"N\":0,\"Existed\":false}");
        assertThat(call("MirrorReverseIndexOf", base + b(9) + "\"}")).isEqualTo("{\"N\":0,\"Existed\":false}");
        assertThat(call("ReverseIndexOf", base + b(0) + "\"}")).isEqualTo("{\"N\":8,\"Existed\":false}");
        assertThat(call("MirrorReverseIndexOf", base + b(0) + "\"}")).isEqualTo("{\"N\":8,\"Existed\":false}");
        assertThat(call("IndexOf", base + b(9) + "\"}")).isEqualTo("{\"N\":8,\"Existed\":false}");
        assertThat(call("MirrorIndexOf", base + b(9) + "\"}")).isEqualTo("{\"N\":8,\"Existed\":false}");
        assertThat(call("IndexOf", base + b(0) + "\"}")).isEqualTo("{\"N\":0,\"Existed\":false}");
        assertThat(call("MirrorIndexOf", base + b(0) + "\"}")).isEqualTo("{\"N\":0,\"Existed\":false}");
        for (int i = 1; i < 9; i++) {
            assertThat(call("MirrorIndexOf", base + b(i) + "\"}")).isEqualTo("{\"N\":" + (i - 1) + ",\"Existed\":true}");
            assertThat(call("MirrorReverseIndexOf", base + b(i) + "\"}"))
                    .isEqualTo("{\"N\":" + (8 - i) + ",\"Existed\":true}");
            assertThat(call("IndexOf", base + b(i) + "\"}")).isEqualTo("{\"N\":" + (i - 1) + ",\"Existed\":true}");
            assertThat(call("ReverseIndexOf", base + b(i) + "\"}")).isEqualTo("{\"N\":" + (8 - i) + ",\"Existed\":true}");
        }
    }

    @Test
    void nextPrev() {
        call("Put", "{\"Key\":\"" + s("testNextPrev1") + "\",\"Value\":\"" + s("v1") + "\",\"Sync\":true}");
        call("Put", "{\"Key\":\"" + s("testNextPrev2") + "\",\"Value\":\"" + s("v2") + "\",\"Sync\":true}");
        subPut(s("testNextPrev15"), s("x"), s("y")); // a sub-tree-only key is skipped
        assertThat(call("Prev", "{\"Key\":\"" + s("testNextPrev2") + "\"}"))
                .isEqualTo("{\"Key\":\"" + s("testNextPrev1") + "\",\"Value\":\"" + s("v1") + "\",\"Exists\":true}");
        assertThat(call("Next", "{\"Key\":\"" + s("testNextPrev1") + "\"}"))
                .isEqualTo("{\"Key\":\"" + s("testNextPrev2") + "\",\"Value\":\"" + s("v2") + "\",\"Exists\":true}");
        assertThat(call("Next", "{\"Key\":\"" + s("testNextPrev2") + "\"}"))
                .isEqualTo("{\"Key\":null,\"Value\":null,\"Exists\":false}");
        assertThat(call("Prev", "{\"Key\":\"" + s("testNextPrev1") + "\"}"))
                .isEqualTo("{\"Key\":null,\"Value\":null,\"Exists\":false}");
    }

    @Test
    void counts() {
        String jaguar = s("jaguar");
        mirror(jaguar);
        for (int i = 1; i < 9; i++) {
            subPut(jaguar, b(i), b(19 - i));
        }
        boolean[] tf = {true, false};
        for (int i = 0; i < 10; i++) {
            for (int j = 0; j < 10; j++) {
                for (boolean minInc : tf) {
                    for (boolean maxInc : tf) {
                        long expected = Math.max(0, Math.min(maxInc ? j + 1 : j, 9) - Math.max(minInc ? i : i + 1, 1));
                        assertThat(number("Count", range(jaguar, b(i), b(j), minInc, maxInc)))
                                .as("Count %d %d %s %s", i, j, minInc, maxInc).isEqualTo(expected);
                        long mirrorExpected = Math.max(0, Math.min(maxInc ? j + 11 : j + 10, 19)
                                - Math.max(minInc ? i + 10 : i + 11, 11));
                        assertThat(number("MirrorCount", range(jaguar, b(i + 10), b(j + 10), minInc, maxInc)))
                                .as("MirrorCount %d %d %s %s", i, j, minInc, maxInc).isEqualTo(mirrorExpected);
                    }
                }
            }
        }
    }

    static String range(String key, String min, String max, boolean minInc, boolean maxInc) {
        return "{\"Key\":\"" + key + "\"" + (min == null ? "" : ",\"Min\":\"" + min + "\"")
                + (max == null ? "" : ",\"Max\":\"" + max + "\"") + ",\"MinInc\":" + minInc + ",\"MaxInc\":" + maxInc + "}";
    }

    @Test
    void nextPrevIndices() {
        String gris = s("gris");
        mirror(gris);
        for (int i = 1; i < 9; i++) {
            subPut(gris, b(i), b(9 - i));
        }
        for (String prefix : List.of("", "Mirror")) {
            assertThat(call(prefix + "NextIndex", "{\"Key\":\"" + gris + "\",\"Index\":-1}")).isEqualTo(
                    "{\"Key\":\"" + b(1) + "\",\"SubKey\":null,\"Value\":\"" + b(8) + "\",\"Index\":0,\"Exists\":true}");
            assertThat(json(prefix + "NextIndex", "{\"Key\":\"" + gris + "\",\"Index\":7}").get("Exists").asBoolean())
                    .isFalse();
            assertThat(call(prefix + "PrevIndex", "{\"Key\":\"" + gris + "\",\"Index\":8}")).isEqualTo(
                    "{\"Key\":\"" + b(8) + "\",\"SubKey\":null,\"Value\":\"" + b(1) + "\",\"Index\":7,\"Exists\":true}");
            assertThat(call(prefix + "PrevIndex", "{\"Key\":\"" + gris + "\",\"Index\":0}"))
                    .isEqualTo("{\"Key\":null,\"SubKey\":null,\"Value\":null,\"Index\":0,\"Exists\":false}");
            for (int j = 0; j < 7; j++) {
                JsonNode n = json(prefix + "NextIndex", "{\"Key\":\"" + gris + "\",\"Index\":" + j + "}");
                assertThat(n.get("Key").asText()).isEqualTo(b(j + 2));
                assertThat(n.get("Value").asText()).isEqualTo(b(7 - j));
                assertThat(n.get("Index").asLong()).isEqualTo(j + 1);
            }
            for (int j = 1; j < 8; j++) {
                JsonNode n = json(prefix + "PrevIndex", "{\"Key\":\"" + gris + "\",\"Index\":" + j + "}");
                assertThat(n.get("Key").asText()).isEqualTo(b(j));
                assertThat(n.get("Value").asText()).isEqualTo(b(9 - j));
                assertThat(n.get("Index").asLong()).isEqualTo(j - 1);
            }
        }
    }

    @Test
    void slices() {
        String banan = s("banan");
        mirror(banan);
        for (int i = 1; i < 9; i++) {
            subPut(banan, b(i), b(9 - i));
        }
        for (String m : List.of("", "Mirror")) {
            checkSlice(m + "Slice", range(banan, b(2), b(5), true, true), range(2, 5));
            checkSlice(m + "Slice", range(banan, b(2), b(5), true, false), range(2, 4));
            checkSlice(m + "Slice", range(banan, b(2), b(5), false, true), range(3, 5));
            checkSlice(m + "Slice", range(banan, b(2), b(5), false, false), range(3, 4));
            checkSlice(m + "ReverseSlice", range(banan, b(2), b(5), true, true), range(5, 2));
            checkSlice(m + "ReverseSlice", range(banan, b(2), b(5), true, false), range(4, 2));
            checkSlice(m + "ReverseSlice", range(banan, b(2), b(5), false, true), range(5, 3));
            checkSlice(m + "ReverseSlice", range(banan, b(2), b(5), false, false), range(4, 3));
            checkSlice(m + "Slice", range(banan, b(2), null, true, false), range(2, 8));
            checkSlice(m + "Slice", range(banan, b(2), null, false, false), range(3, 8));
            checkSlice(m + "ReverseSlice", range(banan, b(2), null, true, false), range(8, 2));
            checkSlice(m + "ReverseSlice", range(banan, b(2), null, false, false), range(8, 3));
            checkSlice(m + "Slice", range(banan, null, b(5), false, true), range(1, 5));
            checkSlice(m + "Slice", range(banan, null, b(5), false, false), range(1, 4));
            checkSlice(m + "ReverseSlice", range(banan, null, b(5), false, true), range(5, 1));
            checkSlice(m + "ReverseSlice", range(banan, null, b(5), false, false), range(4, 1));
            checkSlice(m + "Slice", range(banan, null, null, false, false), range(1, 8));
            checkSlice(m + "ReverseSlice", range(banan, null, null, false, false), range(8, 1));
        }
    }

    /** The data is [i] → [9-i], so mirror results equal plain ones: keys as listed, values 9-key. */
    static void checkSlice(String method, String body, int[] expectedKeys) {
        JsonNode list = json(method, body);
        int[] vals = new int[expectedKeys.length];
        for (int i = 0; i < vals.length; i++) {
            vals[i] = 9 - expectedKeys[i];
        }
        assertThat(keys(list)).as(method + " " + body).isEqualTo(bytes(expectedKeys));
        assertThat(values(list)).as(method + " " + body).isEqualTo(bytes(vals));
        list.forEach(n -> assertThat(n.get("Exists").asBoolean()).isTrue());
        list.forEach(n -> assertThat(n.size()).as("only Key, Value, Exists").isEqualTo(3));
    }

    @Test
    void sliceIndices() {
        String banan2 = s("banan2");
        mirror(banan2);
        for (int i = 1; i < 9; i++) {
            subPut(banan2, b(i), b(9 - i));
        }
        for (String m : List.of("", "Mirror")) {
            checkSlice(m + "SliceIndex", idx(banan2, 2, 5), range(3, 6));
            checkSlice(m + "SliceIndex", idx(banan2, null, 5), range(1, 6));
            checkSlice(m + "SliceIndex", idx(banan2, 2, null), range(3, 8));
            checkSlice(m + "SliceIndex", idx(banan2, null, null), range(1, 8));
            checkSlice(m + "ReverseSliceIndex", idx(banan2, 2, 5), range(6, 3));
            checkSlice(m + "ReverseSliceIndex", idx(banan2, null, 5), range(8, 3));
            checkSlice(m + "ReverseSliceIndex", idx(banan2, 2, null), range(6, 1));
            checkSlice(m + "ReverseSliceIndex", idx(banan2, null, null), range(8, 1));
        }
        // explicit nulls are unbounded too
        checkSlice("SliceIndex", "{\"Key\":\"" + banan2 + "\",\"MinIndex\":null,\"MaxIndex\":null}", range(1, 8));
    }

    static String idx(String key, Integer min, Integer max) {
        return "{\"Key\":\"" + key + "\"" + (min == null ? "" : ",\"MinIndex\":" + min)
                + (max == null ? "" : ",\"MaxIndex\":" + max) + "}";
    }

    @Test
    void sliceLen() {
        String jaguar2 = s("jaguar2");
        mirror(jaguar2);
        for (int i = 1; i < 9; i++) {
            subPut(jaguar2, b(i), b(9 - i));
            assertThat(number("SubSize", "{\"Key\":\"" + jaguar2 + "\"}")).isEqualTo(i);
        }
        for (String m : List.of("", "Mirror")) {
            checkSlice(m + "SliceLen", page(jaguar2, b(2), true, 3), range(2, 4));
            checkSlice(m + "SliceLen", page(jaguar2, b(2), false, 3), range(3, 5));
            checkSlice(m + "ReverseSliceLen", page(jaguar2, b(6), true, 3), range(6, 4));
            checkSlice(m + "ReverseSliceLen", page(jaguar2, b(6), false, 3), range(5, 3));
            checkSlice(m + "SliceLen", page(jaguar2, null, false, 100), range(1, 8));
            checkSlice(m + "ReverseSliceLen", page(jaguar2, null, false, 2), range(8, 7));
            // Len <= 0 returns nothing (the original returned one item)
            assertThat(json(m + "SliceLen", page(jaguar2, b(2), true, 0))).isEmpty();
            assertThat(json(m + "ReverseSliceLen", page(jaguar2, null, true, -1))).isEmpty();
        }
    }

    /** god extension: Stamped slices carry tombstones and timestamps (the Java client's merged slices). */
    @Test
    void stampedSlicesCarryTombstonesAndTimestamps() {
        String t = s("stampedslice");
        for (int i = 1; i < 6; i++) {
            subPut(t, b(i), b(9 - i));
        }
        call("SubDel", "{\"Key\":\"" + t + "\",\"SubKey\":\"" + b(3) + "\"}");
        String stamped = ",\"Stamped\":true}";
        JsonNode up = json("Slice", range(t, null, null, false, false).replaceAll("}$", stamped));
        assertThat(keys(up)).containsExactly(b(1), b(2), b(3), b(4), b(5));
        JsonNode dead = up.get(2);
        assertThat(dead.get("Value").isNull()).isTrue();
        assertThat(dead.get("Exists").asBoolean()).isFalse();
        assertThat(dead.get("Timestamp").asLong()).isGreaterThan(up.get(4).get("Timestamp").asLong());
        assertThat(up.get(0).toString()).matches("\\{\"Key\":\"AQ==\",\"Value\":\"CA==\",\"Exists\":true,"
                + "\"Timestamp\":\\d+}");
        assertThat(keys(json("ReverseSlice", range(t, b(2), b(4), true, false).replaceAll("}$", stamped))))
                .containsExactly(b(3), b(2));
        // Len counts live entries only; tombstones in between come along
        assertThat(keys(json("SliceLen", page(t, null, false, 3).replaceAll("}$", stamped))))
                .containsExactly(b(1), b(2), b(3), b(4));
        assertThat(keys(json("ReverseSliceLen", page(t, b(4), true, 2).replaceAll("}$", stamped))))
                .containsExactly(b(4), b(3), b(2));
        assertThat(json("SliceLen", page(t, null, false, 0).replaceAll("}$", stamped))).isEmpty();
        // without Stamped: unchanged, live entries only
        checkSlice("Slice", range(t, null, null, false, false), new int[] {1, 2, 4, 5});
        checkSlice("ReverseSliceLen", page(t, null, false, 2), new int[] {5, 4});
    }

    static String page(String key, String from, boolean fromInc, int len) {
        return "{\"Key\":\"" + key + "\"" + (from == null ? "" : ",\"From\":\"" + from + "\"") + ",\"FromInc\":"
                + fromInc + ",\"Len\":" + len + "}";
    }

    @Test
    void setExpressionsWithOpAndCodeAndDest() {
        for (int i = 0; i < 10; i++) {
            subPut(s("sete1"), b(i), b(1));
        }
        for (int i = 5; i < 15; i++) {
            subPut(s("sete2"), b(i), b(1));
        }
        String op = "\"Op\":{\"Sources\":[{\"Key\":\"" + s("sete1") + "\",\"SetOp\":null,\"Weight\":null},{\"Key\":\""
                + s("sete2") + "\"}],\"Type\":0,\"Merge\":8}";
        String code = "\"Code\":\"(U:BigIntAnd sete1 sete2)\"";
        for (String form : List.of(op, code)) {
            checkSet(json("SetExpression", "{" + form + "}"), range(0, 14));
            checkSet(json("SetExpression", "{" + form + ",\"Min\":\"" + b(2) + "\",\"Max\":\"" + b(6) + "\"}"),
                    range(3, 5));
            checkSet(json("SetExpression", "{" + form + ",\"Min\":\"" + b(2) + "\",\"Max\":\"" + b(6)
                    + "\",\"MinInc\":true,\"MaxInc\":true}"), range(2, 6));
            checkSet(json("SetExpression", "{" + form + ",\"Min\":\"" + b(2) + "\",\"Max\":\"" + b(6)
                    + "\",\"MinInc\":true,\"MaxInc\":true,\"Len\":3}"), range(2, 4));
            String dest = form == op ? s("sete3") : s("sete4");
            assertThat(call("SetExpression", "{" + form + ",\"Min\":\"" + b(2) + "\",\"Max\":\"" + b(6)
                    + "\",\"MinInc\":true,\"MaxInc\":true,\"Len\":3,\"Dest\":\"" + dest + "\"}")).isEqualTo("null");
            JsonNode stored = json("SliceIndex", "{\"Key\":\"" + dest + "\",\"MinIndex\":0,\"MaxIndex\":100}");
            assertThat(keys(stored)).isEqualTo(bytes(range(2, 4)));
            assertThat(values(stored)).isEqualTo(bytes(1, 1, 1));
        }
        // weights and nesting in the Op form
        JsonNode nested = json("SetExpression", "{\"Op\":{\"Sources\":[{\"SetOp\":{\"Sources\":[{\"Key\":\""
                + s("sete1") + "\"},{\"Key\":\"" + s("sete2") + "\"}],\"Type\":1,\"Merge\":2},\"Weight\":2}],"
                + "\"Type\":0,\"Merge\":2}}");
        assertThat(keys(nested)).isEqualTo(bytes(range(5, 9)));
        // IntegerSum: 1-byte values do not decode (skipped) -> 0, times weight 2 -> 0
        assertThat(nested.get(0).get("Values").get(0).asText()).isEqualTo(b(0, 0, 0, 0, 0, 0, 0, 0));
    }

    static void checkSet(JsonNode results, int[] expectedKeys) {
        assertThat(keys(results)).isEqualTo(bytes(expectedKeys));
        results.forEach(r -> {
            assertThat(r.get("Values").size()).isEqualTo(1);
            assertThat(r.get("Values").get(0).asText()).isEqualTo(b(1));
        });
    }

    @Test
    void exampleSetExpression() {
        subPut(s("myfriends"), s("alice"), f(10));
        subPut(s("myfriends"), s("bob"), f(5));
        subPut(s("yourfriends"), s("bob"), f(6));
        subPut(s("yourfriends"), s("charlie"), f(4));
        JsonNode r = json("SetExpression", "{\"Code\":\"(U:FloatSum myfriends yourfriends)\"}");
        assertThat(keys(r)).containsExactly(s("alice"), s("bob"), s("charlie"));
        assertThat(decodeFloat(r.get(0).get("Values").get(0).asText())).isEqualTo(10.0);
        assertThat(decodeFloat(r.get(1).get("Values").get(0).asText())).isEqualTo(11.0);
        assertThat(decodeFloat(r.get(2).get("Values").get(0).asText())).isEqualTo(4.0);
    }

    @Test
    void exampleTreeMirror() {
        String t = s("myfriends");
        mirror(t);
        subPut(t, s("alice"), f(10));
        subPut(t, s("bob"), f(5));
        subPut(t, s("charlie"), f(6));
        subPut(t, s("denise"), f(4));
        JsonNode r = json("MirrorReverseSlice", "{\"Key\":\"" + t + "\"}");
        assertThat(keys(r)).containsExactly(f(10), f(6), f(5), f(4));
        assertThat(values(r)).containsExactly(s("alice"), s("charlie"), s("bob"), s("denise"));
        assertThat(call("MirrorFirst", "{\"Key\":\"" + t + "\"}"))
                .isEqualTo("{\"Key\":\"" + f(4) + "\",\"SubKey\":null,\"Value\":\"" + s("denise") + "\",\"Exists\":true}");
        assertThat(json("MirrorLast", "{\"Key\":\"" + t + "\"}").get("Value").asText()).isEqualTo(s("alice"));
    }

    @Test
    void mirroredSubTrees() {
        String t = s("scores");
        subPut(t, s("a"), b(3));
        subPut(t, s("b"), b(1));
        subPut(t, s("c"), b(2));
        assertThat(json("MirrorSlice", "{\"Key\":\"" + t + "\"}")).as("not mirrored yet").isEmpty();
        mirror(t); // building the mirror from existing content
        assertThat(keys(json("MirrorSlice", "{\"Key\":\"" + t + "\"}"))).containsExactly(b(1), b(2), b(3));
        String q = "{\"Key\":\"" + t + "\",\"SubKey\":\"";
        // SubMirrorNext(v): first entry with value >= v; SubMirrorPrev(v): last with value < v
        assertThat(call("SubMirrorNext", q + b(2) + "\"}"))
                .isEqualTo("{\"Key\":\"" + b(2) + "\",\"SubKey\":null,\"Value\":\"" + s("c") + "\",\"Exists\":true}");
        assertThat(json("SubMirrorPrev", q + b(2) + "\"}").get("Value").asText()).isEqualTo(s("b"));
        // not-found mirror lookups are not-found, never a crash
        String notFound = "{\"Key\":null,\"SubKey\":null,\"Value\":null,\"Exists\":false}";
        assertThat(call("SubMirrorNext", q + b(9) + "\"}")).isEqualTo(notFound);
        assertThat(call("SubMirrorPrev", q + b(1) + "\"}")).isEqualTo(notFound);
        assertThat(call("MirrorFirst", "{\"Key\":\"" + s("nothing") + "\"}")).isEqualTo(notFound);
        assertThat(call("MirrorLast", "{\"Key\":\"" + s("nothing") + "\"}")).isEqualTo(notFound);
        assertThat(call("SubMirrorNext", "{\"Key\":\"" + s("nothing") + "\"}")).isEqualTo(notFound);
        // overwrite moves the mirror entry; delete removes it
        subPut(t, s("a"), b(0));
        call("SubDel", q + s("b") + "\"}");
        assertThat(keys(json("MirrorSlice", "{\"Key\":\"" + t + "\"}"))).containsExactly(b(0), b(2));
        // SubNext/SubPrev on the plain tree
        assertThat(call("SubNext", q + s("a") + "\"}"))
                .isEqualTo("{\"Key\":\"" + s("c") + "\",\"SubKey\":null,\"Value\":\"" + b(2) + "\",\"Exists\":true}");
        assertThat(json("SubPrev", q + s("c") + "\"}").get("Key").asText()).isEqualTo(s("a"));
        assertThat(json("Last", "{\"Key\":\"" + t + "\"}").get("Key").asText()).isEqualTo(s("c"));
        // turning the mirror off drops it
        call("SubAddConfiguration", "{\"TreeKey\":\"" + t + "\",\"Key\":\"mirrored\",\"Value\":\"no\"}");
        assertThat(json("MirrorSlice", "{\"Key\":\"" + t + "\"}")).isEmpty();
        assertThat(json("SubConfiguration", "{\"Key\":\"" + t + "\"}").get("Data").get("mirrored").asText()).isEqualTo("no");
    }

    @Test
    void prefixKeyOrdinals() {
        String t = s("prefixes");
        for (String k : List.of("a", "ab", "abc", "b", "")) {
            subPut(t, s(k), s(k.toUpperCase()));
        }
        String q = "{\"Key\":\"" + t + "\",\"SubKey\":\"";
        assertThat(call("IndexOf", q + s("ab") + "\"}")).isEqualTo("{\"N\":2,\"Existed\":true}");
        assertThat(call("ReverseIndexOf", q + s("ab") + "\"}")).isEqualTo("{\"N\":2,\"Existed\":true}");
        assertThat(call("IndexOf", q + s("aa") + "\"}")).isEqualTo("{\"N\":2,\"Existed\":false}");
        assertThat(call("ReverseIndexOf", q + s("abc") + "\"}")).isEqualTo("{\"N\":1,\"Existed\":true}");
        assertThat(keys(json("SliceIndex", idx(t, 1, 3)))).containsExactly(s("a"), s("ab"), s("abc"));
        assertThat(keys(json("ReverseSliceIndex", idx(t, 1, 2)))).containsExactly(s("abc"), s("ab"));
        assertThat(json("NextIndex", "{\"Key\":\"" + t + "\",\"Index\":1}").get("Key").asText()).isEqualTo(s("ab"));
        assertThat(json("PrevIndex", "{\"Key\":\"" + t + "\",\"Index\":4}").get("Key").asText()).isEqualTo(s("abc"));
        assertThat(number("Count", range(t, s("a"), s("abc"), false, false))).isEqualTo(1);
        assertThat(keys(json("SliceLen", page(t, s("a"), false, 2)))).containsExactly(s("ab"), s("abc"));
    }

    @Test
    void configurationSizeOwnedAndClear() {
        assertThat(call("AddConfiguration", "{\"Key\":\"owner\",\"Value\":\"me\"}")).isEqualTo("{}");
        JsonNode conf = json("Configuration", "{}");
        assertThat(conf.get("TreeKey").isNull()).isTrue();
        assertThat(conf.get("Data").get("owner").asText()).isEqualTo("me");
        assertThat(conf.get("Timestamp").asLong()).isPositive();
        assertThat(call("SubConfiguration", "{\"Key\":\"" + s("none") + "\"}"))
                .isEqualTo("{\"TreeKey\":\"" + s("none") + "\",\"Data\":{},\"Timestamp\":0}");
        call("Put", "{\"Key\":\"" + s("k1") + "\",\"Value\":\"" + s("v") + "\"}");
        call("Put", "{\"Key\":\"" + s("k2") + "\",\"Value\":\"" + s("v") + "\"}");
        call("Del", "{\"Key\":\"" + s("k2") + "\"}");
        subPut(s("k3"), s("a"), s("1"));
        subPut(s("k3"), s("b"), s("2"));
        assertThat(number("Size", "{}")).isEqualTo(3); // k1 + two sub entries
        assertThat(number("Owned", "{}")).isGreaterThan(3); // tombstone and sub-tree holder too
        assertThat(call("DescribeTree", "{}")).startsWith("\"<Tree size:3 ");
        assertThat(call("Clear", "{}")).isEqualTo("{}");
        assertThat(number("Size", "{}")).isZero();
        assertThat(number("Owned", "{}")).isZero();
        assertThat(json("Configuration", "{}").get("Data").get("owner").asText()).as("configuration kept").isEqualTo("me");
        call("AddConfiguration", "{\"Key\":\"owner\",\"Value\":\"\"}");
        assertThat(json("Configuration", "{}").get("Data").has("owner")).isFalse();
    }

    @Test
    void goStyleCaseInsensitiveFieldNamesAndUnknownFields() {
        // a Go Item's zero Timestamp and any TTL are ignored as by the original (a non-zero Timestamp: 400, below)
        call("Put", "{\"key\":\"" + s("ci") + "\",\"value\":\"" + s("v") + "\",\"Timestamp\":0,\"TTL\":3,\"Extra\":[1]}");
        JsonNode got = json("Get", "{\"KEY\":\"" + s("ci") + "\"}");
        assertThat(got.get("Value").asText()).isEqualTo(s("v"));
    }

    @Test
    void aClientTimestampIsRefusedAndWritesAreStampedIncreasing() {
        // issue 23: time belongs to the ring; the original ignored the field, here a non-zero one is refused
        Response r = post("SubPut", "{\"Key\":\"" + s("ts") + "\",\"SubKey\":\"" + s("a") + "\",\"Value\":\"" + s("new")
                + "\",\"Timestamp\":9223372036854775807}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.asString()).contains("Timestamp: a client may not choose the timestamp of DHash.SubPut");
        call("SubPut", "{\"Key\":\"" + s("ts") + "\",\"SubKey\":\"" + s("a") + "\",\"Value\":\"" + s("new") + "\"}");
        call("SubPut", "{\"Key\":\"" + s("ts") + "\",\"SubKey\":\"" + s("a") + "\",\"Value\":\"" + s("newer")
                + "\",\"Timestamp\":0}");
        assertThat(json("SubGet", "{\"Key\":\"" + s("ts") + "\",\"SubKey\":\"" + s("a") + "\"}").get("Value").asText())
                .isEqualTo(s("newer"));
    }
}
