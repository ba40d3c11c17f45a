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
 * {@code /ws} frames relayed by this node over the binary protocol, so the browser needs to reach this node only: a port-forward of
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
     * Relays a ring member's {@code /ws} frames to the browser over the binary protocol: this node polls the
     * member's feed ({@link Ops#EVENTS}, every {@link #RELAY_POLL_MILLIS} ms) and writes each frame to the
     * browser, until the browser goes or the member stops answering (then the browser's socket closes and the
     * page tries again later). Only ring members: an address that is not one is a 404, never a call. The member
     * needs no reachable HTTP port (a management port may be fenced): node to node is the binary port only.
     */
    static void relay(io.vertx.ext.web.RoutingContext ctx, io.vertx.core.Vertx vertx, GodNode node) {
        String refused = new io.god.command.Admission(node).refuseRead("/ws/peer",
                io.god.api.RequestCredential.of(ctx.request()));
        if (refused != null) {
            ctx.response().setStatusCode(401).end(refused);
            return;
        }
        String addr = ctx.queryParams().get("addr");
        if (addr == null || node.membership().ring().byAddress(addr) == null) {
            ctx.response().setStatusCode(404).putHeader("Content-Type", "application/json; charset=UTF-8")
                    .end(JSON.createObjectNode().put("error", "not a ring member: " + addr).toString());
            return;
        }
        ctx.request().toWebSocket().onSuccess(browser -> poll(vertx, node, addr, browser, 0));
    }

    static final long RELAY_POLL_MILLIS = 250;

    private static void poll(io.vertx.core.Vertx vertx, GodNode node, String addr,
                             io.vertx.core.http.ServerWebSocket browser, long cursor) {
        if (browser.isClosed()) {
            return;
        }
        byte[] ask = new io.god.wire.WireWriter().varint(cursor).varint(MAX_IN_FLIGHT).toBytes();
        node.transport().call(addr, Ops.EVENTS, ask, node.settings().cluster().rpcTimeout()).whenComplete((reply, e) ->
                vertx.runOnContext(v -> {
                    if (browser.isClosed()) {
                        return;
                    }
                    if (e != null) {
                        browser.close((short) 1011, "no events from " + addr);
                        return;
                    }
                    long next;
                    try {
                        io.god.wire.WireReader r = new io.god.wire.WireReader(reply);
                        next = r.varint();
                        int n = r.count(MAX_IN_FLIGHT);
                        for (int i = 0; i < n; i++) {
                            String frame = r.string();
                            if (frame != null && !browser.writeQueueFull()) {
                                browser.writeTextMessage(frame);
                            }
                        }
                    } catch (io.god.wire.WireException bad) {
                        browser.close((short) 1011, "bad events from " + addr + ": " + bad.getMessage());
                        return;
                    }
                    vertx.setTimer(RELAY_POLL_MILLIS, id -> poll(vertx, node, addr, browser, next));
                }));
    }

    /** Frames asked of a peer per poll (a browser that cannot keep up loses the rest, as on {@code /ws}). */
    private static final int MAX_IN_FLIGHT = io.god.api.ws.EventStream.MAX_IN_FLIGHT;

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
