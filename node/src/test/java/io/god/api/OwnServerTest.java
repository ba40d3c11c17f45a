package io.god.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.node.GodNode;
import io.god.node.NodeSettings;
import io.god.testing.TimeScale;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The same JSON handler mounted on each GodNode's own Vert.x HTTP server (no Quarkus), several nodes
 * on 127.0.0.x loopback addresses in one JVM: what multi-node tests will do.
 */
class OwnServerTest {

    @Test
    void threeNodesOnLoopbackAddressesServeTheirOwnTrees() throws Exception {
        Vertx vertx = Vertx.vertx();
        List<GodNode> nodes = new ArrayList<>();
        List<HttpServer> servers = new ArrayList<>();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try {
            for (int i = 2; i <= 4; i++) {
                GodNode node = GodNode.start(NodeSettings.of(Map.of("god.node.advertise", "127.0.0." + i + ":9191",
                        "god.auth.token", "secret-" + i + "-token", "god.limits.body-size", "1K")));
                nodes.add(node);
                JsonRpc rpc = new JsonRpc(node);
                Router router = Router.router(vertx);
                RpcRoutes.mount(router, () -> rpc, node.settings().bodySize());
                servers.add(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0." + i)
                        .toCompletionStage().toCompletableFuture().get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS));
            }
            for (int i = 0; i < 3; i++) {
                String base = "http://127.0.0." + (i + 2) + ":" + servers.get(i).actualPort() + "/rpc/DHash.";
                HttpResponse<String> put = http.send(HttpRequest.newBuilder(URI.create(base + "Put"))
                        .header("Authorization", "Bearer secret-" + (i + 2) + "-token")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"Key\":\"a2V5\",\"Value\":\"" + b64("n" + i) + "\"}"))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertThat(put.statusCode()).isEqualTo(200);
                assertThat(put.body()).isEqualTo("{}");
                assertThat(put.headers().firstValue("Content-Type")).hasValue("application/json; charset=UTF-8");
                HttpResponse<String> wrongToken = http.send(HttpRequest.newBuilder(URI.create(base + "Put"))
                        .header("Authorization", "Bearer secret-9-token")
                        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(wrongToken.statusCode()).isEqualTo(401);
                HttpResponse<String> tooBig = http.send(HttpRequest.newBuilder(URI.create(base + "Get"))
                        .POST(HttpRequest.BodyPublishers.ofString("{\"Key\":\"" + "A".repeat(2000) + "\"}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(tooBig.statusCode()).isEqualTo(400);
                assertThat(tooBig.body()).contains("god.limits.body-size");
            }
            for (int i = 0; i < 3; i++) {
                String base = "http://127.0.0." + (i + 2) + ":" + servers.get(i).actualPort() + "/rpc/DHash.";
                HttpResponse<String> get = http.send(HttpRequest.newBuilder(URI.create(base + "Get"))
                        .POST(HttpRequest.BodyPublishers.ofString("{\"Key\":\"a2V5\"}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(get.body()).isEqualTo("{\"Key\":\"a2V5\",\"Value\":\"" + b64("n" + i) + "\",\"Exists\":true}");
                HttpResponse<String> nodesAnswer = http.send(HttpRequest.newBuilder(URI.create(base + "Nodes"))
                        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(nodesAnswer.body()).contains("\"Addr\":\"127.0.0." + (i + 2) + ":9191\"");
            }
        } finally {
            for (HttpServer s : servers) {
                s.close().toCompletionStage().toCompletableFuture().get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
            }
            nodes.forEach(GodNode::close);
            vertx.close().toCompletionStage().toCompletableFuture().get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    static String b64(String s) {
        return java.util.Base64.getEncoder().encodeToString(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
