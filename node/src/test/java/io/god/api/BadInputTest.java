package io.god.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every kind of bad input is a 400 with a JSON message and changes nothing (the state is checked
 * after each); unknown methods are 404; with the token configured, mutating calls need it (401).
 * The test profile sets god.limits.key-size=1K, value-size=4K, body-size=16K and a token.
 */
@QuarkusTest
class BadInputTest extends RpcTestSupport {

    String before;

    @BeforeEach
    void seed() {
        call("Clear", "{}");
        call("Put", "{\"Key\":\"" + s("k") + "\",\"Value\":\"" + s("v") + "\"}");
        subPut(s("a"), s("1"), b(0, 0, 0, 0, 0, 0, 0, 6));
        subPut(s("zero"), s("1"), b(0, 0, 0, 0, 0, 0, 0, 0));
        before = call("DescribeTree", "{}");
    }

    void unchanged() {
        assertThat(call("DescribeTree", "{}")).isEqualTo(before);
    }

    @Test
    void malformedJson() {
        badRequest("Put", "{\"Key\":", "bad request body for DHash.Put");
        badRequest("Put", "{\"Key\":\"" + s("x") + "\"} trailing", "bad request body");
        badRequest("Put", "[1,2]", "expected a JSON object");
        badRequest("Put", "\"text\"", "expected a JSON object");
        badRequest("SubPut", "not json at all", "bad request body");
        unchanged();
    }

    @Test
    void badBase64() {
        badRequest("Put", "{\"Key\":\"!!!\",\"Value\":\"dmFs\"}", "Key");
        badRequest("Put", "{\"Key\":\"" + s("x") + "\",\"Value\":\"dmF\"}", "Value");
        badRequest("SubPut", "{\"Key\":\"" + s("x") + "\",\"SubKey\":5,\"Value\":\"dmFs\"}", "SubKey");
        badRequest("Get", "{\"Key\":\"%%%\"}", "Key");
        unchanged();
    }

    /** Jackson's own words, which mean nothing to a caller of the JSON contract. */
    static final List<String> JACKSON_WORDS = List.of("`byte[]`", "MIME-NO-LINEFEEDS", "Base64Variant", "CoercionConfig",
            "JsonToken", "VALUE_", "offset -1", "com.fasterxml", "Cannot deserialize", "[Source:");

    static String message(String method, String body) {
        Response r = post(method, body);
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(400);
        assertThat(r.contentType()).startsWith("application/json");
        String m = r.asString();
        for (String word : JACKSON_WORDS) {
            assertThat(m).as("no Jackson internals in the message").doesNotContain(word);
        }
        return m;
    }

    @Test
    void badBase64AndTypesSayWhatTheFieldShouldBe() {
        assertThat(message("Put", "{\"Key\":\"!!!\",\"Value\":\"dmFs\"}"))
                .contains("field Key: expected a base64 string").contains("got a string that is not valid base64");
        assertThat(message("Put", "{\"Key\":\"a2V5\",\"Value\":\"dmF\"}"))
                .contains("field Value: expected a base64 string").contains("got a string that is not valid base64");
        assertThat(message("Put", "{\"Key\":5,\"Value\":\"dmFs\"}"))
                .contains("field Key: expected a base64 string (standard alphabet, with = padding), got a number");
        assertThat(message("Put", "{\"Key\":\"a2V5\",\"Value\":\"dmFs\",\"Sync\":\"x\"}"))
                .contains("field Sync: expected true or false, got a string");
        assertThat(message("SliceLen", "{\"Key\":\"a2V5\",\"Len\":\"x\"}")).contains("field Len: expected an integer");
        assertThat(message("Put", "{\"Key\":\"a2V5\",")).contains("bad request body for DHash.Put: Unexpected end-of-input");
        assertThat(message("Put", "{\"Key\" \"a2V5\"}")).contains("at line 1, column");
        unchanged();
    }

    /** curl -d sends application/x-www-form-urlencoded: the body is still the contract's JSON, never a form. */
    static Response postAs(String contentType, String method, String body) {
        try {
            var r = HTTP.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                            "http://localhost:" + io.restassured.RestAssured.port + "/rpc/DHash." + method))
                    .header("Content-Type", contentType).header("Authorization", BEARER)
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            return new Response(r.statusCode(), r.body(), r.headers().firstValue("Content-Type").orElse(""));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void formEncodedBodiesAreTheJsonContract() {
        Response bad = postAs("application/x-www-form-urlencoded", "Put", "a=" + "x".repeat(12_000));
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.contentType()).startsWith("application/json");
        assertThat(bad.asString()).startsWith("\"bad request body for DHash.Put");
        Response huge = postAs("application/x-www-form-urlencoded", "Put", "{\"Key\":\"" + "A".repeat(300_000) + "\"}");
        assertThat(huge.statusCode()).isEqualTo(400);
        assertThat(huge.contentType()).startsWith("application/json");
        assertThat(huge.asString()).contains("god.limits.body-size");
        unchanged();
        // 3 KB value: over Quarkus' form attribute limit (2 KB), under god.limits.value-size (4K in tests)
        String value = java.util.Base64.getEncoder().encodeToString("v=1&w=2+".repeat(384).getBytes());
        for (String type : List.of("application/x-www-form-urlencoded", "multipart/form-data; boundary=x")) {
            Response put = postAs(type, "Put", "{\"Key\":\"" + s("form") + "\",\"Value\":\"" + value + "\"}");
            assertThat(put.statusCode()).as(type + ": " + put.asString()).isEqualTo(200);
            assertThat(json("Get", "{\"Key\":\"" + s("form") + "\"}").get("Value").asText()).isEqualTo(value);
        }
    }

    @Test
    void badIndexAndFlagTypes() {
        badRequest("NextIndex", "{\"Key\":\"" + s("a") + "\",\"Index\":\"1\"}", "Index");
        badRequest("NextIndex", "{\"Key\":\"" + s("a") + "\",\"Index\":1.5}", "Index");
        badRequest("SliceIndex", "{\"Key\":\"" + s("a") + "\",\"MinIndex\":\"x\"}", "MinIndex");
        badRequest("SliceLen", "{\"Key\":\"" + s("a") + "\",\"Len\":[]}", "Len");
        badRequest("Put", "{\"Key\":\"" + s("x") + "\",\"Value\":\"" + s("y") + "\",\"Sync\":\"yes\"}", "Sync");
        badRequest("Count", "{\"Key\":\"" + s("a") + "\",\"MinInc\":1}", "MinInc");
        badRequest("AddConfiguration", "{\"Key\":{},\"Value\":\"x\"}", "Key");
        unchanged();
    }

    @Test
    void badSetExpressions() {
        badRequest("SetExpression", "{\"Code\":\"(U tree\"}", "Unexpected EOF at 7 in (U tree.");
        badRequest("SetExpression", "{\"Code\":\"(U *2)\"}", "at ");
        badRequest("SetExpression", "{\"Code\":\"(U:Foo a)\"}", "Unknown SetOpType Foo");
        badRequest("SetExpression", "{\"Code\":\"(U a)\",\"Dest\":\"" + s("d") + "\"}",
                "the Append merge function is not allowed");
        badRequest("SetExpression", "{\"Op\":{\"Sources\":[{\"Key\":\"" + s("a") + "\"}],\"Type\":0,\"Merge\":99}}",
                "Merge 99");
        badRequest("SetExpression", "{\"Op\":{\"Sources\":[{\"Key\":\"" + s("a") + "\"}],\"Type\":7,\"Merge\":1}}",
                "Type 7");
        badRequest("SetExpression", "{\"Op\":{\"Sources\":[],\"Type\":0,\"Merge\":1}}", "without sources");
        badRequest("SetExpression", "{}", "needs Code or Op");
        // division by zero while storing: nothing of the destination is written
        badRequest("SetExpression", "{\"Code\":\"(U:IntegerDiv a zero)\",\"Dest\":\"" + s("d") + "\"}", "");
        badRequest("SetExpression", "{\"Code\":\"(U:IntegerDiv a zero)\"}", "");
        unchanged();
        assertThat(number("SubSize", "{\"Key\":\"" + s("d") + "\"}")).isZero();
    }

    @Test
    void sizeLimits() {
        String bigKey = java.util.Base64.getEncoder().encodeToString(new byte[1025]);
        String bigValue = java.util.Base64.getEncoder().encodeToString(new byte[4097]);
        badRequest("Put", "{\"Key\":\"" + bigKey + "\",\"Value\":\"" + s("v") + "\"}", "god.limits.key-size");
        badRequest("SubPut", "{\"Key\":\"" + s("a") + "\",\"SubKey\":\"" + bigKey + "\",\"Value\":\"" + s("v") + "\"}",
                "god.limits.key-size");
        badRequest("Put", "{\"Key\":\"" + s("k") + "\",\"Value\":\"" + bigValue + "\"}", "god.limits.value-size");
        badRequest("SubAddConfiguration", "{\"TreeKey\":\"" + bigKey + "\",\"Key\":\"mirrored\",\"Value\":\"yes\"}",
                "god.limits.key-size");
        badRequest("SetExpression", "{\"Code\":\"(U:ConCat a)\",\"Dest\":\"" + bigKey + "\"}", "god.limits.key-size");
        String hugeBody = "{\"Key\":\"" + s("k") + "\",\"Value\":\"" + "A".repeat(20_000) + "\"}";
        badRequest("Put", hugeBody, "god.limits.body-size");
        unchanged();
        // exactly at the limits is fine
        String maxKey = java.util.Base64.getEncoder().encodeToString(new byte[1024]);
        String maxValue = java.util.Base64.getEncoder().encodeToString(new byte[4096]);
        call("Put", "{\"Key\":\"" + maxKey + "\",\"Value\":\"" + maxValue + "\"}");
        assertThat(json("Get", "{\"Key\":\"" + maxKey + "\"}").get("Value").asText()).isEqualTo(maxValue);
    }

    @Test
    void unknownMethodsAre404() {
        var r = post("Foo", "{}");
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.asString()).isEqualTo("\"rpc: can't find method DHash.Foo\"");
        assertThat(given().header("Authorization", BEARER).body("{}").post("/rpc/Other.Put").statusCode())
                .isEqualTo(404);
        assertThat(given().body("{}").get("/rpc/DHash.Get").statusCode()).isIn(404, 405); // only POST is routed
        unchanged();
    }

    @Test
    void mutatingCallsNeedTheToken() {
        for (String[] c : new String[][] {
                {"Put", "{\"Key\":\"" + s("k") + "\",\"Value\":\"" + s("other") + "\"}"},
                {"Del", "{\"Key\":\"" + s("k") + "\"}"},
                {"SubPut", "{\"Key\":\"" + s("a") + "\",\"SubKey\":\"" + s("2") + "\",\"Value\":\"" + s("v") + "\"}"},
                {"SubDel", "{\"Key\":\"" + s("a") + "\",\"SubKey\":\"" + s("1") + "\"}"},
                {"SubClear", "{\"Key\":\"" + s("a") + "\"}"},
                {"Clear", "{}"},
                {"AddConfiguration", "{\"Key\":\"x\",\"Value\":\"y\"}"},
                {"SubAddConfiguration", "{\"TreeKey\":\"" + s("a") + "\",\"Key\":\"mirrored\",\"Value\":\"yes\"}"},
                {"SetExpression", "{\"Code\":\"(U:ConCat a)\",\"Dest\":\"" + s("d") + "\"}"}}) {
            var anonymous = postAnonymous(c[0], c[1]);
            assertThat(anonymous.statusCode()).as(c[0]).isEqualTo(401);
            var wrong = given().header("Authorization", "Bearer wrong-token-x").body(c[1]).post("/rpc/DHash." + c[0]);
            assertThat(wrong.statusCode()).as(c[0]).isEqualTo(401);
            var basic = given().header("Authorization", TOKEN).body(c[1]).post("/rpc/DHash." + c[0]);
            assertThat(basic.statusCode()).as(c[0] + " without the Bearer scheme").isEqualTo(401);
        }
        unchanged();
        // reads are open
        assertThat(postAnonymous("Get", "{\"Key\":\"" + s("k") + "\"}").asString())
                .isEqualTo("{\"Key\":\"" + s("k") + "\",\"Value\":\"" + s("v") + "\",\"Exists\":true}");
        assertThat(postAnonymous("SetExpression", "{\"Code\":\"(U a)\"}").statusCode()).isEqualTo(200);
        assertThat(postAnonymous("Size", "{}").asString()).isEqualTo("3");
    }
}
