package io.god.limits;

import io.god.api.JsonRpc;
import io.god.api.RpcRoutes;
import io.god.metrics.NodeMeters;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.god.node.GodNode;
import io.god.node.NodeSettings;
import io.god.time.NanoClock;
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
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/** One in-memory node behind its own HTTP server (the god JSON contract), with the given settings. */
final class LimitServer implements AutoCloseable {

    static final String TOKEN = "limits-test-token";

    final GodNode node;
    final JsonRpc rpc;
    /** The node's metrics (NodeMeters), observing every call like in the Quarkus app. */
    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final Vertx vertx;
    private final HttpServer server;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final String base;

    LimitServer(Map<String, String> settings, NanoClock clock) throws Exception {
        Map<String, String> all = new HashMap<>();
        all.put("god.node.advertise", "127.0.0.1:9191");
        all.put("god.node.port", "0");
        all.put("god.auth.token", TOKEN);
        all.putAll(settings); // a test that reaches the binary port names it (and the advertised address)
        node = GodNode.start(NodeSettings.of(all), clock);
        rpc = new JsonRpc(node, NodeMeters.bind(node, meters, OptionalInt.empty()));
        vertx = Vertx.vertx();
        Router router = Router.router(vertx);
        RpcRoutes.mount(router, () -> rpc, node.settings().bodySize());
        server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage()
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
        base = "http://127.0.0.1:" + server.actualPort() + "/rpc/DHash.";
    }

    /** The URL of the god JSON contract's method {@code method}. */
    URI uri(String method) {
        return URI.create(base + method);
    }

    HttpResponse<String> call(String method, String body) throws Exception {
        return call(method, body, Duration.ofSeconds(30));
    }

    HttpResponse<String> call(String method, String body, Duration deadline) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + method)).timeout(deadline)
                .header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void close() throws Exception {
        server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        node.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
