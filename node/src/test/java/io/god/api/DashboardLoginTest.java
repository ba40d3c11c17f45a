package io.god.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.api.web.DashboardRoutes;
import io.god.api.web.DashboardSwitch;
import io.god.api.web.LoginRoutes;
import io.god.api.ws.EventStream;
import io.god.cluster.Rings;
import io.god.node.GodNode;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 32: the dashboard's login over plain HTTP — {@code POST /api/login} sets the god_token cookie only for a
 * token the node accepts, the cookie stands in for Authorization on /rpc and /ws, logout clears it, and
 * {@code god.dashboard.enabled=false} hides the browser surface behind 404s.
 */
class DashboardLoginTest {

    private static final String TOKEN = "s3cret-token";

    private Rings rings;
    private Vertx vertx;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void ring() throws Exception {
        rings = new Rings();
        rings.extra.put("god.auth.token", TOKEN);
        rings.extra.put("god.auth.reads", "true");
        rings.extra.put("god.limits.body-size", "1024");
        rings.start(0, null, rings.address(0));
        vertx = Vertx.vertx();
    }

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        rings.close();
    }

    private String serve(Map<String, String> config) throws Exception {
        GodNode node = rings.nodes.get(0);
        JsonRpc rpc = rings.rpc(0);
        Router router = Router.router(vertx);
        DashboardSwitch.mount(router, key -> Optional.ofNullable(config.get(key)));
        LoginRoutes.mount(router, () -> node);
        RpcRoutes.mount(router, () -> rpc, node.settings().bodySize());
        EventStream.mount(router, vertx, () -> rpc, 200);
        DashboardRoutes.mount(router, vertx, () -> node);
        int port = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
        return "http://127.0.0.1:" + port;
    }

    private HttpResponse<String> post(String url, String body, String cookie) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String get(String key) {
        return "{\"Key\":\"" + Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.UTF_8)) + "\"}";
    }

    @Test
    void theRightTokenSetsAStrictHttpOnlyCookieThatOpensRpcAndWs() throws Exception {
        String base = serve(Map.of());
        HttpResponse<String> wrong = post(base + "/api/login", "{\"token\":\"wrong\"}", null);
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.body()).contains("token refused");
        assertThat(wrong.headers().firstValue("Set-Cookie")).isEmpty();

        HttpResponse<String> ok = post(base + "/api/login", "{\"token\":\"" + TOKEN + "\"}", null);
        assertThat(ok.statusCode()).isEqualTo(204);
        String setCookie = ok.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(setCookie).isEqualTo("god_token=" + TOKEN + "; HttpOnly; SameSite=Strict; Path=/")
                .as("plain HTTP: not Secure").doesNotContain("Secure");
        String cookie = "god_token=" + TOKEN;

        assertThat(post(base + "/rpc/DHash.Get", get("k"), null).statusCode()).isEqualTo(401);
        assertThat(post(base + "/rpc/DHash.Get", get("k"), cookie).statusCode()).isEqualTo(200);
        assertThat(post(base + "/rpc/DHash.Get", get("k"), "god_token=wrong").statusCode()).isEqualTo(401);

        String ws = base.replace("http:", "ws:") + "/ws";
        assertThatThrownBy(() -> http.newWebSocketBuilder().buildAsync(URI.create(ws), new WebSocket.Listener() { })
                .join()).isInstanceOf(CompletionException.class).cause().isInstanceOf(WebSocketHandshakeException.class)
                .satisfies(e -> assertThat(((WebSocketHandshakeException) e).getResponse().statusCode()).isEqualTo(401));
        WebSocket open = http.newWebSocketBuilder().header("Cookie", cookie)
                .buildAsync(URI.create(ws), new WebSocket.Listener() { }).get(10, TimeUnit.SECONDS);
        open.abort();

        HttpResponse<String> out = post(base + "/api/logout", "", cookie);
        assertThat(out.statusCode()).isEqualTo(204);
        assertThat(out.headers().firstValue("Set-Cookie").orElseThrow())
                .isEqualTo("god_token=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0");
    }

    @Test
    void badLoginBodiesAre400sNamingTheProblem() throws Exception {
        String base = serve(Map.of());
        HttpResponse<String> notJson = post(base + "/api/login", "{token", null);
        assertThat(notJson.statusCode()).isEqualTo(400);
        assertThat(notJson.body()).contains("body is not JSON");
        HttpResponse<String> noToken = post(base + "/api/login", "{\"tok\":1}", null);
        assertThat(noToken.statusCode()).isEqualTo(400);
        assertThat(noToken.body()).contains("token: a JSON body");
        HttpResponse<String> big = post(base + "/api/login", "{\"token\":\"" + "x".repeat(2000) + "\"}", null);
        assertThat(big.statusCode()).isEqualTo(400);
        assertThat(big.body()).contains("god.limits.body-size (1024 bytes)");
        for (HttpResponse<String> r : List.of(notJson, noToken, big)) {
            assertThat(r.headers().firstValue("Set-Cookie")).isEmpty();
        }
    }

    @Test
    void aSwitchedOffDashboardAnswers404ButRpcStays() throws Exception {
        String base = serve(Map.of(DashboardSwitch.ENABLED, "false"));
        for (String path : List.of("/", "/dashboard.js", "/api/methods", "/api/peers", "/ws", "/ws/peer?addr=x",
                "/q/swagger-ui/")) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(path).isEqualTo(404);
            assertThat(r.body()).as(path).contains("god.dashboard.enabled=false");
        }
        assertThat(post(base + "/api/login", "{\"token\":\"" + TOKEN + "\"}", null).statusCode()).isEqualTo(404);
        assertThat(post(base + "/rpc/DHash.Get", get("k"), "god_token=" + TOKEN).statusCode()).isEqualTo(200);
    }

    @Test
    void aDashboardSettingThatIsNotABooleanFailsTheStart() {
        assertThatThrownBy(() -> DashboardSwitch.enabled(key -> Optional.of("yes")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("god.dashboard.enabled: must be true or false, was 'yes'");
        assertThat(DashboardSwitch.enabled(key -> Optional.empty())).isTrue();
    }
}
