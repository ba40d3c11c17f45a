package io.god.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.god.api.web.ApiMethods;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The dashboard's files are served by the node (no CDN), and the console's method list is complete. */
@QuarkusTest
class DashboardTest extends RpcTestSupport {

    static HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void pageAndAssetsAreServedWithoutExternalReferences() throws Exception {
        HttpResponse<String> index = get("/");
        assertThat(index.statusCode()).isEqualTo(200);
        assertThat(index.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
        assertThat(index.body()).contains("<canvas id=\"ring\"", "id=\"nodes\"", "id=\"method\"", "dashboard.js",
                "dashboard.css");
        for (String asset : new String[] {"/dashboard.js", "/dashboard.css"}) {
            HttpResponse<String> r = get(asset);
            assertThat(r.statusCode()).as(asset).isEqualTo(200);
            assertThat(r.body()).doesNotContain("http://", "https://", "cdn");
        }
        assertThat(index.body()).doesNotContain("http://", "https://");
    }

    @Test
    void peersAreListedAtTheHttpAddressTheyReport() throws Exception {
        // one node: itself, at its advertise host and the port its HTTP server listens on
        HttpResponse<String> r = get("/api/peers");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json; charset=UTF-8");
        assertThat(JSON.readTree(r.body()).toString())
                .isEqualTo("{\"127.0.0.1:9191\":\"http://127.0.0.1:" + RestAssured.port + "\"}");
    }

    @Test
    void consoleListsEveryMethod() throws Exception {
        assertThat(ApiMethods.parameters().keySet()).isEqualTo(new TreeSet<>(JsonRpc.METHODS));
        HttpResponse<String> r = get("/api/methods");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode m = JSON.readTree(r.body());
        Set<String> names = new TreeSet<>();
        m.fieldNames().forEachRemaining(names::add);
        assertThat(names).isEqualTo(new TreeSet<>(JsonRpc.METHODS));
        assertThat(m.get("Put").get("parameter").get("Key").asText()).isEqualTo("[]byte");
        assertThat(m.get("Put").get("parameter").get("Sync").asText()).isEqualTo("bool");
        assertThat(m.get("Put").get("mutating").asBoolean()).isTrue();
        assertThat(m.get("NextIndex").get("parameter").get("Index").asText()).isEqualTo("int");
        assertThat(m.get("SetExpression").get("parameter").get("Code").asText()).isEqualTo("string");
        assertThat(m.get("Get").get("mutating").asBoolean()).isFalse();
    }
}
