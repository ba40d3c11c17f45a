package io.god.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.god.cluster.Rings;
import io.god.node.GodNode;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /admin/remove-member} over HTTP, as the operator calls it on every live member: a member
 * that died for good stops counting in the expected membership (DESIGN §5), so {@code god.sync.acks=all}
 * writes go on; a live member is refused (409); a second call is a no-op (idempotent); no name is a 400.
 */
@ScaledTimeout(120)
class RemoveMemberHttpTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration WAIT = TimeScale.seconds(30);

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TimeScale.seconds(5)).build();

    private HttpResponse<String> post(String base, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + "/admin/remove-member"))
                .timeout(TimeScale.seconds(10)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aDeadMemberIsRemovedOnceALiveOneIsRefused() throws Exception {
        Vertx vertx = Vertx.vertx();
        try (Rings rings = new Rings()) {
            rings.extra.put("god.sync.acks", "all");
            String seeds = rings.address(0) + "," + rings.address(1) + "," + rings.address(2);
            for (int i = 0; i < 3; i++) {
                rings.start(i, null, seeds);
            }
            await().atMost(WAIT).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 3);
            GodNode n0 = rings.nodes.get(0);
            Router router = Router.router(vertx);
            AdminRoutes.mount(router, () -> n0);
            HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
                    .toCompletionStage().toCompletableFuture().get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
            String base = "http://127.0.0.1:" + server.actualPort();
            JsonRpc rpc0 = new JsonRpc(n0, (m, s, n) -> { });

            HttpResponse<String> unnamed = post(base, "{}");
            assertThat(unnamed.statusCode()).isEqualTo(400);
            assertThat(unnamed.body()).contains("member");
            HttpResponse<String> alive = post(base, "{\"member\":\"" + rings.address(2) + "\"}");
            assertThat(alive.statusCode()).as(alive.body()).isEqualTo(409);
            assertThat(alive.body()).contains("alive").contains("/admin/leave");
            assertThat(n0.membership().expected().size()).as("nothing changed").isEqualTo(3);

            String position = HexFormat.of().formatHex(rings.nodes.get(2).position());
            rings.nodes.get(2).close();
            await().atMost(WAIT).until(() -> n0.membership().ring().size() == 2);
            assertThat(put(rpc0, "before").status()).as("all of E = 3 cannot confirm").isEqualTo(503);

            HttpResponse<String> removed = post(base, "{\"member\":\"" + position + "\"}");
            assertThat(removed.statusCode()).as(removed.body()).isEqualTo(200);
            JsonNode answer = JSON.readTree(removed.body());
            assertThat(answer.get("removed").get("address").asText()).isEqualTo(rings.address(2));
            assertThat(answer.get("expectedMembers").asInt()).isEqualTo(2);
            await().atMost(WAIT).until(() -> rings.nodes.get(1).membership().expected().size() == 2);
            JsonRpc.Response after = put(rpc0, "after");
            assertThat(after.status()).as(after.text()).isEqualTo(200);

            HttpResponse<String> again = post(base, "{\"member\":\"" + position + "\"}");
            assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
            assertThat(JSON.readTree(again.body()).get("removed").isNull()).isTrue();
            assertThat(again.body()).contains("nothing to do");
            server.close();
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    private static JsonRpc.Response put(JsonRpc rpc, String key) {
        String b64 = Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.UTF_8));
        return rpc.handle("DHash.Put", ("{\"Key\":\"" + b64 + "\",\"Value\":\"" + b64 + "\",\"Sync\":true}")
                .getBytes(StandardCharsets.UTF_8), null);
    }
}
