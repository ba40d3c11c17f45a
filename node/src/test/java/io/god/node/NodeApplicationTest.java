package io.god.node;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import org.junit.jupiter.api.Test;

/** The packaged node boots and answers health and metrics on the management interface. */
@QuarkusTest
class NodeApplicationTest {

    @TestHTTPResource(value = "/q/health/live", management = true)
    URL live;

    @TestHTTPResource(value = "/q/metrics", management = true)
    URL metrics;

    @Test
    void healthIsUpOnTheManagementPort() {
        given().when().get(live).then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void prometheusMetricsAreServed() {
        given().when().get(metrics).then().statusCode(200)
                .body(org.hamcrest.Matchers.containsString("jvm_memory_used_bytes"));
    }
}
