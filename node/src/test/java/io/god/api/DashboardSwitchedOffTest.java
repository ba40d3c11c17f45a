package io.god.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code god.dashboard.enabled=false} in the real app: the page, its assets, /api/*, /ws, /ws/peer and Swagger UI
 * answer 404 ahead of Quarkus' own static and Swagger UI handlers; /rpc stays.
 */
@QuarkusTest
@TestProfile(DashboardSwitchedOffTest.Off.class)
class DashboardSwitchedOffTest extends RpcTestSupport {

    public static class Off implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("god.dashboard.enabled", "false");
        }
    }

    @Test
    void theBrowserSurfaceIs404AndTheApiStays() {
        for (String path : List.of("/", "/index.html", "/dashboard.js", "/dashboard.css", "/api/methods", "/ws",
                "/ws/peer?addr=x", "/q/swagger-ui/", "/q/swagger-ui/index.html")) {
            var r = given().get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(404);
            assertThat(r.body().asString()).as(path).contains("god.dashboard.enabled=false");
        }
        assertThat(given().contentType("application/json").body("{\"token\":\"" + TOKEN + "\"}").post("/api/login")
                .statusCode()).isEqualTo(404);
        assertThat(send("Nodes", "{}", null).statusCode()).isEqualTo(200);
    }
}
