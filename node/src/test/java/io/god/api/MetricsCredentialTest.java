package io.god.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.net.URL;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The metrics credential in the real app (issue 34): {@code god.auth.metrics-token} reads {@code GET /q/metrics} —
 * Micrometer's own route, behind the management port's admission — and nothing else: no {@code /admin} route, no data
 * write. The admin credential still reads the metrics; the client's does not (403), none at all is 401.
 */
@QuarkusTest
@TestProfile(MetricsCredentialTest.Credentials.class)
class MetricsCredentialTest extends RpcTestSupport {

    static final String ADMIN = "admin-token-for-the-operator";
    static final String METRICS = "metrics-token-for-prometheus";

    public static class Credentials implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("god.auth.admin-token", ADMIN, "god.auth.metrics-token", METRICS);
        }
    }

    @TestHTTPResource(value = "metrics", management = true)
    URL metrics;

    URL status() throws Exception {
        return new URL(metrics, "/admin/status");
    }

    @Test
    void theMetricsTokenReadsTheMetricsAndNothingElse() throws Exception {
        String text = given().header("Authorization", "Bearer " + METRICS).get(metrics).then().statusCode(200)
                .extract().asString();
        assertThat(text).contains("god_node_state").contains("jvm_memory_used_bytes");
        given().header("Authorization", "Bearer " + ADMIN).get(metrics).then().statusCode(200);
        given().header("Authorization", BEARER).get(metrics).then().statusCode(403);
        given().get(metrics).then().statusCode(401);

        given().header("Authorization", "Bearer " + METRICS).get(status()).then().statusCode(403);
        given().header("Authorization", "Bearer " + METRICS).post(new URL(metrics, "/admin/leave")).then()
                .statusCode(403);
        given().header("Authorization", "Bearer " + ADMIN).get(status()).then().statusCode(200);

        String put = "{\"Key\":\"" + s("metrics-write") + "\",\"Value\":\"" + s("v") + "\"}";
        assertThat(send("Put", put, "Bearer " + METRICS).statusCode()).as("a data write with the metrics token")
                .isEqualTo(401);
        given().header("Authorization", "Bearer " + METRICS).body("v").put("/v1/keys/metrics-write").then()
                .statusCode(401);
        assertThat(send("Put", put, BEARER).statusCode()).as("the client's").isEqualTo(200);
    }
}
