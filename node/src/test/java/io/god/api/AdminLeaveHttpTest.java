package io.god.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.god.cluster.Rings;
import io.god.node.GodNode;
import io.god.persist.Record;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code POST/DELETE /admin/leave} and {@code GET /admin/status} over HTTP (the management routes on
 * a node's own Vert.x server) in a 3-node ring: a leave that cannot finish (a future holder is down)
 * is cancelled; the next one finishes with LEFT.
 */
@ScaledTimeout(120)
class AdminLeaveHttpTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration WAIT = TimeScale.seconds(30);

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TimeScale.seconds(5)).build();
    private String base;

    private HttpResponse<String> send(String method, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(TimeScale.seconds(10))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode json(HttpResponse<String> r) throws Exception {
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        return JSON.readTree(r.body());
    }

    @Test
    void aStuckLeaveIsCancelledAndTheNextOneEndsLeft() throws Exception {
        Vertx vertx = Vertx.vertx();
        HttpServer server = null;
        try (Rings rings = new Rings()) {
            rings.extra.put("god.ring.failures", "1000"); // a down member stays in the views
            rings.extra.put("god.sync.interval", "1h");
            String seeds = rings.address(0) + "," + rings.address(1);
            for (int i = 0; i < 3; i++) {
                rings.start(i, null, seeds);
            }
            await().atMost(WAIT).until(rings::converged);
            GodNode node = rings.nodes.get(0);
            List<Record> records = new ArrayList<>();
            long ts = node.timestamps().next();
            for (int k = 0; k < 300; k++) {
                records.add(Record.put(("key-" + k).getBytes(StandardCharsets.UTF_8), new byte[] {(byte) k}, ts + k));
            }
            for (GodNode n : rings.nodes) {
                n.store().applyAll(records); // N=3 on 3 nodes: every node holds every key
            }
            Router router = Router.router(vertx);
            AdminRoutes.mount(router, () -> node);
            server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.2")
                    .toCompletionStage().toCompletableFuture().get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
            base = "http://127.0.0.2:" + server.actualPort();

            // a future holder is down: the hand-off cannot be confirmed
            String downAddress = rings.nodes.get(2).address();
            rings.nodes.get(2).close();
            HttpResponse<String> r = send("POST", "/admin/leave");
            assertThat(r.statusCode()).isEqualTo(202);
            assertThat(json(r).get("state").asText()).isEqualTo("LEAVING");
            assertThat(send("POST", "/admin/leave").statusCode()).isEqualTo(202); // idempotent
            await().atMost(WAIT).until(() -> {
                JsonNode leave = json(send("GET", "/admin/status")).get("leave");
                return leave.get("passes").asInt() > 0 && leave.get("lastError").asText().contains(downAddress);
            });
            JsonNode leaving = json(send("GET", "/admin/status"));
            assertThat(leaving.get("state").asText()).isEqualTo("LEAVING");
            assertThat(leaving.get("leave").get("phase").asText()).isEqualTo("HANDING_OFF");
            assertThat(leaving.get("leave").get("startedAt").asText()).endsWith("Z");
            assertThat(leaving.get("leave").get("rangesTotal").asInt()).isPositive();
            assertThat(leaving.get("replicated").asBoolean()).isFalse();

            r = send("DELETE", "/admin/leave");
            assertThat(r.statusCode()).isEqualTo(200);
            JsonNode cancelled = json(r);
            assertThat(cancelled.get("state").asText()).isEqualTo("ACTIVE");
            assertThat(cancelled.get("leave").isNull()).isTrue();
            assertThat(cancelled.get("heldEntries").asLong()).isEqualTo(300);
            assertThat(send("DELETE", "/admin/leave").statusCode()).isEqualTo(200); // no-op when ACTIVE
            assertThat(node.ready()).isTrue();
            assertThat(rings.nodes.get(1).membership().ring().byAddress(node.address())).isNotNull();

            // the holder comes back (empty, at a new position); now the leave finishes
            rings.start(2, null, seeds);
            await().atMost(WAIT).until(rings::converged);
            r = send("POST", "/admin/leave");
            assertThat(r.statusCode()).isIn(200, 202);
            await().atMost(WAIT).until(() -> send("POST", "/admin/leave").statusCode() == 200);
            JsonNode left = json(send("GET", "/admin/status"));
            assertThat(left.get("state").asText()).isEqualTo("LEFT");
            assertThat(left.get("heldEntries").asLong()).isZero();
            assertThat(left.get("ring")).isEmpty();
            assertThat(left.get("leave").get("phase").asText()).isEqualTo("DONE");
            assertThat(left.get("leave").get("rangesConfirmed").asInt()).isEqualTo(left.get("leave").get("rangesTotal").asInt());
            assertThat(left.get("leave").get("finishedAt").asText()).endsWith("Z");
            assertThat(node.ready()).isFalse();
            r = send("DELETE", "/admin/leave");
            assertThat(r.statusCode()).isEqualTo(409);
            assertThat(json(r).get("error").asText()).contains("already left");
            for (int i = 1; i < 3; i++) {
                assertThat(rings.nodes.get(i).store().state().size()).as("node " + i).isEqualTo(300);
                assertThat(rings.nodes.get(i).membership().ring().byAddress(node.address())).isNull();
            }
        } finally {
            if (server != null) {
                server.close().toCompletionStage().toCompletableFuture().get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
            }
            vertx.close().toCompletionStage().toCompletableFuture().get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}
