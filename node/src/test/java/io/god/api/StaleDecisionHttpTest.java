package io.god.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.god.cluster.Rings;
import io.god.node.GodNode;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.time.NanoClock;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * N=1 (DESIGN §7): a member whose data is stale holds the only copy, so it does not quarantine it by
 * itself: it stays out as STALE with the reason in {@code /admin/status}, its data on disk, serving
 * nothing, until {@code POST /admin/stale-decision}. Over HTTP on the node's management routes.
 */
@ScaledTimeout(120)
class StaleDecisionHttpTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration WAIT = TimeScale.seconds(30);

    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TimeScale.seconds(5)).build();

    private HttpResponse<String> send(String base, String method, String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(TimeScale.seconds(10))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aStaleMemberWithTheOnlyCopyWaitsForAnExplicitDecision() throws Exception {
        for (String decision : new String[] {"keep", "quarantine"}) {
            AtomicLong offset = new AtomicLong();
            Vertx vertx = Vertx.vertx();
            try (Rings rings = new Rings()) {
                NanoClock system = NanoClock.system();
                rings.clock = () -> system.nanos() + offset.get();
                rings.extra.put("god.redundancy", "1");
                rings.extra.put("god.tombstone-window", "1h");
                rings.extra.put("god.sync.interval", "50ms");
                String seeds = rings.address(0) + "," + rings.address(1);
                Path dir0 = tmp.resolve(decision + "0");
                Path dir1 = tmp.resolve(decision + "1");
                rings.start(0, dir0, seeds);
                rings.start(1, dir1, seeds);
                await().atMost(WAIT).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 2);
                GodNode away = rings.nodes.get(1);
                JsonRpc rpc0 = new JsonRpc(rings.nodes.get(0), (m, s, n) -> { });
                for (int k = 0; k < 40; k++) {
                    call(rpc0, "Put", "{\"Key\":\"" + b64("k" + k) + "\",\"Value\":\"" + b64("v") + "\",\"Sync\":true}");
                }
                // migration balances the two members' ranges (keys are not hashed): wait until it settled with
                // data on the member that goes away, else it has nothing that could be stale
                await().atMost(WAIT).during(TimeScale.millis(500)).until(() -> away.quarantine().lastAliveAt() > 0
                        && away.store().state().size() > 0 && away.position() != null
                        && java.util.Arrays.equals(away.position(), n0Position(rings, away)));
                away.close();
                GodNode n0 = rings.nodes.get(0);
                await().atMost(WAIT).until(() -> n0.membership().ring().size() == 1);
                n0.removeMember(rings.address(1)); // collection resumes (the admin call)
                for (int k = 0; k < 40; k++) { // N=1: the survivor now owns every key and deletes it
                    call(rpc0, "Del", "{\"Key\":\"" + b64("k" + k) + "\"}");
                }
                offset.addAndGet(Duration.ofHours(2).toNanos());
                await().atMost(WAIT).until(() -> {
                    n0.collectGarbage();
                    return n0.store().state().realSize() == n0.store().state().size();
                });
                assertThat(n0.quarantine().collectedUpTo()).isGreaterThan(away.quarantine().lastAliveAt());

                GodNode back = rings.start(1, dir1, seeds);
                Router router = Router.router(vertx);
                AdminRoutes.mount(router, () -> back);
                HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.3")
                        .toCompletionStage().toCompletableFuture().get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
                String base = "http://127.0.0.3:" + server.actualPort();
                AtomicReference<JsonNode> status = new AtomicReference<>();
                await().atMost(WAIT).until(() -> {
                    status.set(JSON.readTree(send(base, "GET", "/admin/status", null).body()));
                    return status.get().get("state").asText().equals("STALE");
                });
                assertThat(status.get().get("stale").asText()).contains("god.redundancy=1")
                        .contains("POST /admin/stale-decision");
                long held = back.store().state().size();
                assertThat(held).as("data kept on disk").isPositive();
                assertThat(back.ready()).isFalse();
                assertThat(n0.membership().ring().size()).as("out of the ring").isEqualTo(1);
                JsonRpc rpc1 = new JsonRpc(back, (m, s, n) -> { });
                JsonRpc.Response refused = rpc1.handle("DHash.Get", ("{\"Key\":\"" + b64("k1") + "\"}")
                        .getBytes(StandardCharsets.UTF_8), null);
                assertThat(refused.status()).isEqualTo(503);
                assertThat(refused.text()).contains("STALE");

                HttpResponse<String> bad = send(base, "POST", "/admin/stale-decision", "{\"decision\":\"maybe\"}");
                assertThat(bad.statusCode()).isEqualTo(400);
                assertThat(bad.body()).contains("keep").contains("quarantine").contains("'maybe'");
                assertThat(back.store().state().size()).as("nothing exchanged while STALE").isEqualTo(held);
                HttpResponse<String> ok = send(base, "POST", "/admin/stale-decision",
                        "{\"decision\":\"" + decision + "\"}");
                assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
                assertThat(send(base, "POST", "/admin/stale-decision", "{\"decision\":\"keep\"}").statusCode())
                        .isEqualTo(409);
                await().atMost(WAIT).until(() -> rings.converged() && n0.membership().ring().size() == 2);
                if (decision.equals("keep")) {
                    assertThat(back.quarantine().quarantines()).isZero();
                    assertThat(back.store().state().size()).as("kept data").isPositive();
                } else {
                    assertThat(back.quarantine().quarantines()).isEqualTo(1);
                    assertThat(back.quarantine().lastQuarantine()).exists();
                    await().atMost(WAIT).until(() -> back.store().state().realSize() == 0);
                }
                server.close();
            } finally {
                vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            }
        }
    }

    /** The position the other member's view has for {@code member} (equal to its own once migration settled). */
    private static byte[] n0Position(Rings rings, GodNode member) {
        var m = rings.nodes.get(0).membership().ring().byAddress(member.address());
        return m == null ? null : m.position();
    }

    private static String b64(String s) {
        return java.util.Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static void call(JsonRpc rpc, String method, String body) {
        JsonRpc.Response r = rpc.handle("DHash." + method, body.getBytes(StandardCharsets.UTF_8), null);
        assertThat(r.status()).as(method + " " + r.text()).isEqualTo(200);
    }
}
