package io.god.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.vertx.http.ManagementInterface;
import io.vertx.core.buffer.Buffer;
import io.god.node.GodNode;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * The management port (9000): {@code GET /admin/status}, {@code POST /admin/leave} (start draining;
 * 202 with the status while LEAVING, 200 once LEFT, 409 {@code {"error": ...}} when the node cannot
 * leave), {@code DELETE /admin/leave} (cancel: 200 with the status, 409 once the node has left the
 * ring), and with an admin credential set ({@code god.auth.admin-token}, else the client's {@code god.auth.token}),
 * its check for everything on the port except {@code /q/health/*} (probes stay anonymous); {@code GET /q/metrics}
 * also takes the metrics credential ({@code god.auth.metrics-token}, what Prometheus holds).
 */
@ApplicationScoped
public class AdminRoutes {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    NodeBean bean;

    void init(@Observes ManagementInterface management) {
        mount(management.router(), bean);
    }

    static void mount(Router router, NodeBean bean) {
        mount(router, bean::node);
    }

    /** Mounts the routes for the node {@code nodes} gives (also used on a plain Vert.x router in tests). */
    public static void mount(Router router, java.util.function.Supplier<GodNode> nodes) {
        io.god.command.Admission auth = new io.god.command.Admission(nodes.get());
        if (nodes.get().settings().adminTokens().set()) {
            router.route().order(Integer.MIN_VALUE).handler(ctx -> {
                String path = ctx.normalizedPath();
                String authorization = ctx.request().getHeader("Authorization");
                io.god.command.CommandError refused = path.startsWith("/q/health") ? null
                        : isMetricsRead(ctx) ? auth.refuseMetrics(authorization) : auth.refuseAdmin(authorization);
                if (refused == null) {
                    ctx.next();
                } else {
                    RpcRoutes.send(ctx, refused.status(), ("\"" + refused.getMessage() + "\"")
                            .getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
            });
        }
        router.get("/admin/status").blockingHandler(ctx -> status(ctx, 200, nodes.get()), false);
        router.post("/admin/leave").blockingHandler(ctx -> {
            GodNode node = nodes.get();
            String refused = node.leave();
            if (refused != null) {
                error(ctx, 409, "cannot leave: " + refused);
            } else {
                status(ctx, node.state() == GodNode.State.LEFT ? 200 : 202, node);
            }
        }, false);
        router.post("/admin/remove-member").handler(io.vertx.ext.web.handler.BodyHandler.create().setBodyLimit(4096));
        router.post("/admin/remove-member").blockingHandler(ctx -> {
            GodNode node = nodes.get();
            String name = memberName(ctx.body() == null ? null : ctx.body().asString());
            if (name == null) {
                error(ctx, 400, "name the member to remove: {\"member\": \"<address or position (hex)>\"}");
                return;
            }
            try {
                io.god.ring.Member gone = node.removeMember(name);
                java.util.Map<String, Object> answer = new java.util.LinkedHashMap<>();
                answer.put("removed", gone == null ? null
                        : java.util.Map.of("position", gone.hex(), "address", gone.address()));
                if (gone == null) {
                    answer.put("note", "no expected member is named '" + name + "' here (already removed, left, or"
                            + " never known): nothing to do");
                }
                answer.put("expectedMembers", node.membership().expected().size());
                send(ctx, 200, JSON.writeValueAsBytes(answer));
            } catch (IllegalArgumentException e) {
                error(ctx, 400, "cannot remove the member: " + e.getMessage());
            } catch (IllegalStateException e) {
                error(ctx, 409, "cannot remove the member: " + e.getMessage());
            } catch (JsonProcessingException e) {
                ctx.fail(e);
            }
        }, false);
        router.post("/admin/stale-decision").handler(io.vertx.ext.web.handler.BodyHandler.create().setBodyLimit(4096));
        router.post("/admin/stale-decision").blockingHandler(ctx -> {
            GodNode node = nodes.get();
            String decision = field(ctx.body() == null ? null : ctx.body().asString(), "decision");
            if (!"keep".equals(decision) && !"quarantine".equals(decision)) {
                error(ctx, 400, "the decision must be {\"decision\": \"keep\"} or {\"decision\": \"quarantine\"}, was "
                        + (decision == null ? "(none)" : "'" + decision + "'"));
                return;
            }
            String refused = node.decideStale("keep".equals(decision));
            if (refused != null) {
                error(ctx, 409, "nothing to decide: " + refused);
            } else {
                status(ctx, 200, node);
            }
        }, false);
        router.delete("/admin/leave").blockingHandler(ctx -> {
            GodNode node = nodes.get();
            if (node.cancelLeave()) {
                status(ctx, 200, node);
            } else {
                error(ctx, 409, "cannot cancel the leave: the node has already left the ring ("
                        + node.state().name() + "); restart it to join again as a new, empty node");
            }
        }, false);
    }

    /** {@code GET /q/metrics} (or a path under it): what the metrics credential may read, and nothing else. */
    static boolean isMetricsRead(RoutingContext ctx) {
        String path = ctx.normalizedPath();
        return ctx.request().method() == io.vertx.core.http.HttpMethod.GET
                && (path.equals("/q/metrics") || path.startsWith("/q/metrics/"));
    }

    /** The member named by a body {@code {"member": "..."}} (or the bare text); null when none is named. */
    static String memberName(String body) {
        return field(body, "member");
    }

    /** The text field {@code name} of a JSON object body (or the bare text); null when absent or blank. */
    static String field(String body, String name) {
        if (body == null || body.isBlank()) {
            return null;
        }
        String t = body.trim();
        if (!t.startsWith("{")) {
            return t;
        }
        try {
            var n = JSON.readTree(t).get(name);
            return n == null || !n.isTextual() || n.asText().isBlank() ? null : n.asText().trim();
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    private static void status(RoutingContext ctx, int code, GodNode node) {
        try {
            send(ctx, code, JSON.writeValueAsBytes(AdminStatus.of(node)));
        } catch (JsonProcessingException e) {
            ctx.fail(e);
        }
    }

    private static void error(RoutingContext ctx, int code, String message) {
        try {
            send(ctx, code, JSON.writeValueAsBytes(java.util.Map.of("error", message)));
        } catch (JsonProcessingException e) {
            ctx.fail(e);
        }
    }

    private static void send(RoutingContext ctx, int code, byte[] body) {
        ctx.response().setStatusCode(code).putHeader("Content-Type", "application/json").end(Buffer.buffer(body));
    }
}
