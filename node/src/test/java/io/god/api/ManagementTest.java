package io.god.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import org.junit.jupiter.api.Test;

/** The management port: health without a token, /admin/status and /q/metrics with it. */
@QuarkusTest
class ManagementTest extends RpcTestSupport {

    @TestHTTPResource(value = "health/live", management = true)
    URL live;

    @TestHTTPResource(value = "health/ready", management = true)
    URL ready;

    @TestHTTPResource(value = "metrics", management = true)
    URL metrics;

    URL status() throws Exception {
        return new URL(live, "/admin/status");
    }

    @Test
    void healthNeedsNoToken() {
        given().get(live).then().statusCode(200).body("status", equalTo("UP"));
        given().get(ready).then().statusCode(200).body("status", equalTo("UP"))
                .body("checks.find { it.name == 'god-node' }.data.state", equalTo("ACTIVE"));
    }

    @Test
    void adminStatusOfAOneNodeRing() throws Exception {
        call("Clear", "{}");
        call("Put", "{\"Key\":\"" + s("k") + "\",\"Value\":\"" + s("v") + "\"}");
        call("Del", "{\"Key\":\"" + s("k") + "\"}");
        subPut(s("t"), s("a"), s("1"));
        given().get(status()).then().statusCode(401);
        given().header("Authorization", "Bearer nope-nope-nope").get(status()).then().statusCode(401);
        String body = given().header("Authorization", BEARER).get(status()).then().statusCode(200)
                .contentType("application/json").extract().asString();
        JsonNode n = JSON.readTree(body);
        assertThat(n.get("state").asText()).isEqualTo("ACTIVE");
        assertThat(n.get("position").asText()).matches("[0-9a-f]{32}");
        assertThat(n.get("ringHash").asText()).matches("[0-9a-f]{32}");
        assertThat(n.get("ring")).hasSize(1);
        assertThat(n.get("ring").get(0).get("position").asText()).isEqualTo(n.get("position").asText());
        assertThat(n.get("ring").get(0).get("address").asText()).isEqualTo("127.0.0.1:9191");
        assertThat(n.get("replicated").asBoolean()).isTrue();
        assertThat(n.get("ownedEntries").asLong()).isEqualTo(2); // the tombstone and the sub-tree entry
        assertThat(n.get("heldEntries").asLong()).isEqualTo(2);
        assertThat(n.get("dataBytes").asLong()).isZero(); // in memory
        assertThat(n.get("lastSyncAt").isNull()).isTrue();
        assertThat(n.get("lastAliveAt").isNull()).isTrue(); // persisted only in a data directory
        assertThat(n.get("leave").isNull()).isTrue();
        assertThat(n.has("collectedUpTo")).isTrue();
        assertThat(n.get("quarantinedAt").isNull()).isTrue();
        assertThat(n.get("redundancy").asInt()).as("god.redundancy, which the operator compares").isEqualTo(3);
        // the operator's parser reads it
        var parsed = JSON.readTree(body);
        assertThat(parsed.get("ring").isArray()).isTrue();
        // the position is the one Nodes reports (base64 there, hex here)
        String pos = json("Nodes", "{}").get(0).get("Pos").asText();
        assertThat(java.util.HexFormat.of().formatHex(java.util.Base64.getDecoder().decode(pos)))
                .isEqualTo(n.get("position").asText());
    }

    @Test
    void theLastMemberHoldingDataCannotLeave() throws Exception {
        call("Put", "{\"Key\":\"" + s("stay") + "\",\"Value\":\"" + s("v") + "\"}");
        URL leave = new URL(live, "/admin/leave");
        given().post(leave).then().statusCode(401);
        String body = given().header("Authorization", BEARER).post(leave).then().statusCode(409)
                .contentType("application/json").extract().asString();
        assertThat(JSON.readTree(body).get("error").asText()).contains("last member").contains("live entries");
        given().header("Authorization", BEARER).delete(leave).then().statusCode(200)
                .body("state", equalTo("ACTIVE"));
        given().get(ready).then().statusCode(200);
    }

    @Test
    void metricsNeedTheTokenAndCountOperations() {
        call("Put", "{\"Key\":\"" + s("m") + "\",\"Value\":\"" + s("v") + "\"}");
        post("Put", "{\"Key\":");
        post("Nope", "{}");
        given().get(metrics).then().statusCode(401);
        String text = given().header("Authorization", BEARER).get(metrics).then().statusCode(200).extract().asString();
        assertThat(text).contains("god_rpc_requests_total{method=\"Put\",outcome=\"ok\"")
                .contains("god_rpc_requests_total{method=\"Put\",outcome=\"client_error\"")
                .contains("god_rpc_requests_total{method=\"unknown\",outcome=\"not_found\"")
                .contains("god_rpc_latency_seconds_bucket{kind=\"write\",le=\"0.001\"}")
                .contains("god_tree_entries ").contains("god_tree_real_entries ").contains("god_data_bytes ")
                .contains("jvm_memory_used_bytes");
    }
}
