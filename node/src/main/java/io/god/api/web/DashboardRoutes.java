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
 * The dashboard's dynamic routes: {@code GET /api/methods} (the API console's method list) and
 * {@code GET /api/peers} (where each ring member serves HTTP, as that member itself reports it over
 * the binary protocol, {@link Ops#INFO}); the page itself is static
 * ({@code META-INF/resources/index.html}, {@code dashboard.js}, {@code dashboard.css}) and talks to
 * {@code /ws} (its own node's and each peer's) and {@code /rpc/DHash.<Name>}.
 */
@ApplicationScoped
public class DashboardRoutes {

    private static final String METHODS = ApiMethods.json();
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    NodeBean bean;

    void init(@Observes Router router) {
        mount(router, bean::node);
    }

    public static void mount(Router router, Supplier<GodNode> node) {
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
