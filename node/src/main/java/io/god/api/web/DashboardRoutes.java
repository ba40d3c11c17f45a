package io.god.api.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.god.api.NodeBean;
import io.god.node.GodNode;
import io.god.ring.Member;
import io.god.wire.Ops;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The dashboard's dynamic routes: {@code GET /api/methods} (the API console's method list),
 * {@code GET /api/peers} (where each ring member serves HTTP, as that member itself reports it over
 * the binary protocol, {@link Ops#INFO}) and {@code GET /ws/peer?addr=<member>} (that member's
 * {@code /ws} relayed by this node, so the browser needs to reach this node only: a port-forward of
 * one pod shows the whole ring). The page itself is static ({@code META-INF/resources/index.html},
 * {@code dashboard.js}, {@code dashboard.css}) and talks to {@code /ws}, {@code /ws/peer} and
 * {@code /rpc/DHash.<Name>}.
 */
@ApplicationScoped
public class DashboardRoutes {

    private static final String METHODS = ApiMethods.json();
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    NodeBean bean;

    @Inject
    io.vertx.core.Vertx vertx;

    void init(@Observes Router router) {
        mount(router, vertx, bean::node);
    }

    public static void mount(Router router, io.vertx.core.Vertx vertx, Supplier<GodNode> node) {
        router.get("/ws/peer").handler(ctx -> relay(ctx, vertx, node.get()));
        router.get("/api/methods").handler(ctx -> ctx.response().putHeader("Content-Type",
                "application/json; charset=UTF-8").end(METHODS));
        router.get("/api/peers").handler(ctx -> peers(node.get()).whenComplete((peers, e) -> {
            ObjectNode out = JSON.createObjectNode();
            if (peers != null) {
                peers.forEach(out::put);
            }
            ctx.response().putHeader("Content-Type", "application/json; charset=UTF-8").end(out.toString());
        }));
    }

    /**
     * Relays a ring member's {@code /ws} text frames to the browser: the member is asked where it serves
     * HTTP ({@link Ops#INFO}), this node connects there and forwards each frame until either side
     * closes. Only ring members: an address that is not one is a 404, never a connection.
     */
    static void relay(io.vertx.ext.web.RoutingContext ctx, io.vertx.core.Vertx vertx, GodNode node) {
        String addr = ctx.queryParams().get("addr");
        if (addr == null || node.membership().ring().byAddress(addr) == null) {
            ctx.response().setStatusCode(404).putHeader("Content-Type", "application/json; charset=UTF-8")
                    .end(JSON.createObjectNode().put("error", "not a ring member: " + addr).toString());
            return;
        }
        ctx.request().toWebSocket().onSuccess(browser -> {
            CompletableFuture<byte[]> info = addr.equals(node.address())
                    ? CompletableFuture.completedFuture(node.httpAddress() == null ? new byte[0]
                    : node.httpAddress().getBytes(StandardCharsets.UTF_8))
                    : node.transport().call(addr, Ops.INFO, new byte[0], node.settings().cluster().rpcTimeout());
            info.whenComplete((reply, e) -> {
                String http = e == null && reply != null && reply.length > 0 ? new String(reply, StandardCharsets.UTF_8) : null;
                if (http == null) {
                    browser.close((short) 1011, "no HTTP address from " + addr);
                    return;
                }
                // one client per relay, closed with it (no Origin header: the peer sees a node, not a browser)
                io.vertx.core.http.WebSocketClient client = vertx.createWebSocketClient();
                client.connect(new io.vertx.core.http.WebSocketConnectOptions()
                        .setAbsoluteURI(http.replaceFirst("^http", "ws") + "/ws").setAllowOriginHeader(false)).onComplete(ar -> {
                            if (ar.failed()) {
                                client.close();
                                browser.close((short) 1011, "cannot reach " + http);
                                return;
                            }
                            io.vertx.core.http.WebSocket peer = ar.result();
                            peer.textMessageHandler(t -> {
                                if (!browser.isClosed()) {
                                    browser.writeTextMessage(t);
                                }
                            });
                            peer.closeHandler(v -> {
                                browser.close();
                                client.close();
                            });
                            peer.exceptionHandler(x -> browser.close());
                            browser.closeHandler(v -> peer.close());
                            if (browser.isClosed()) {
                                peer.close();
                            }
                        });
            });
        });
    }

    /**
     * Every ring member's binary address → its HTTP address ({@code http://host:port}); members that
     * do not answer in time, serve no HTTP or are too old to know {@link Ops#INFO} are left out.
     */
    static CompletableFuture<Map<String, String>> peers(GodNode node) {
        List<Member> members = node.membership().ring().members();
        Map<String, String> out = new TreeMap<>();
        String own = node.httpAddress();
        if (own != null) {
            out.put(node.address(), own);
        }
        CompletableFuture<?>[] calls = members.stream().filter(m -> !m.address().equals(node.address()))
                .map(m -> node.transport()
                .call(m.address(), Ops.INFO, new byte[0], node.settings().cluster().rpcTimeout())
                .handle((reply, e) -> {
                    if (e == null && reply != null && reply.length > 0) {
                        synchronized (out) {
                            out.put(m.address(), new String(reply, StandardCharsets.UTF_8));
                        }
                    }
                    return null;
                })).toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(calls).thenApply(x -> {
            synchronized (out) {
                return new TreeMap<>(out);
            }
        });
    }
}
