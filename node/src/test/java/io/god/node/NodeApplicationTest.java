package io.god.node;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import org.junit.jupiter.api.Test;

/** The packaged node boots and answers health and (with the test profile's token) metrics on the management interface. */
@QuarkusTest
class NodeApplicationTest {

    @TestHTTPResource(value = "health/live", management = true)
    URL live;

    @TestHTTPResource(value = "metrics", management = true)
    URL metrics;

    @Test
    void healthIsUpOnTheManagementPort() {
        org.assertj.core.api.Assertions.assertThat(live.getPath()).isEqualTo("/q/health/live");
        given().when().get(live).then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void prometheusMetricsAreServed() {
        given().when().get(metrics).then().statusCode(401);
        given().header("Authorization", "Bearer test-secret-token").when().get(metrics).then().statusCode(200)
                .body(org.hamcrest.Matchers.containsString("jvm_memory_used_bytes"));
    }
}
