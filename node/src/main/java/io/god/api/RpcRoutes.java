package io.god.api;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.function.Supplier;

/**
 * Mounts the god JSON contract: {@code POST /rpc/:method} on a Vert.x router, handled on a worker
 * thread (writes may wait for an fsync, routed calls for a peer), except the point reads of a node
 * alone in its ring, which never wait ({@link JsonRpc#answersOnEventLoop}). Any Accept header and chunked bodies are accepted; a body
 * over {@code god.limits.body-size} is a 400.
 */
@ApplicationScoped
public class RpcRoutes {

    static final String JSON = "application/json; charset=UTF-8";

    @Inject
    NodeBean bean;

    void init(@Observes Router router) {
        mount(router, () -> bean.rpc(), bean.node().settings().bodySize());
    }

    /** Adds the route to any router (the Quarkus app's, or a test's own Vert.x server per node). */
    public static void mount(Router router, Supplier<JsonRpc> rpc, long bodyLimit) {
        // a route of its own: Vert.x allows no user handler before the body handler on one route
        router.post("/rpc/:method").handler(RpcRoutes::bodyIsJson);
        router.post("/rpc/:method")
                .handler(BodyHandler.create(false).setBodyLimit(bodyLimit))
                .handler(ctx -> {
                    // no hop to a worker for what cannot block (a JFR profile showed the worker pool's
                    // hand-off as 40 % of a Get's node samples)
                    if (rpc.get().answersOnEventLoop(ctx.pathParam("method"))) {
                        handle(ctx, rpc.get());
                    } else {
                        ctx.next();
                    }
                })
                .blockingHandler(ctx -> handle(ctx, rpc.get()), false)
                .failureHandler(ctx -> {
                    if (ctx.statusCode() == 413) {
                        rpc.get().limitRefused(io.god.node.NodeSettings.BODY_SIZE);
                        send(ctx, 400, ("\"request body exceeds god.limits.body-size (" + bodyLimit + " bytes)\"")
                                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    } else {
                        // never the framework's HTML error page on the JSON contract
                        int status = ctx.statusCode() >= 400 && ctx.statusCode() < 500 ? ctx.statusCode() : 500;
                        String why = ctx.failure() == null ? "request failed" : ctx.failure().getMessage();
                        send(ctx, status, io.vertx.core.json.Json.encode("cannot read the request: " + why)
                                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    }
                });
    }

    /**
     * Every body is the contract's JSON, whatever its Content-Type: curl's {@code -d} sends
     * {@code application/x-www-form-urlencoded}, and a form decoder would parse (and, past a few KB,
     * refuse) the JSON as form fields. The Content-Type is dropped before the body handler sees it.
     */
    static void bodyIsJson(RoutingContext ctx) {
        String type = ctx.request().getHeader("Content-Type");
        if (type != null) {
            String t = type.toLowerCase(java.util.Locale.ROOT);
            if (t.contains("application/x-www-form-urlencoded") || t.contains("multipart/")) {
                ctx.request().headers().remove("Content-Type");
            }
        }
        ctx.next();
    }

    private static void handle(RoutingContext ctx, JsonRpc rpc) {
        Buffer body = ctx.body().buffer();
        JsonRpc.Response r = rpc.handle(ctx.pathParam("method"), body == null ? new byte[0] : body.getBytes(),
                io.god.api.RequestCredential.of(ctx.request()));
        send(ctx, r.status(), r.body());
    }

    static void send(RoutingContext ctx, int status, byte[] body) {
        if (ctx.response().ended()) {
            return;
        }
        if (status == 503) { // busy (god.limits.expensive-*), joining, or a Sync write not confirmed: retry soon
            ctx.response().putHeader("Retry-After", "1");
        }
        ctx.response().setStatusCode(status).putHeader("Content-Type", JSON).end(Buffer.buffer(body));
    }
}
