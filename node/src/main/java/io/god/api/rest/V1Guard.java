package io.god.api.rest;

import io.god.api.NodeBean;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * Refuses a /v1 request whose declared body exceeds {@code god.limits.body-size} before JAX-RS reads
 * it: 400 {@code {"error": ...}} (chunked bodies are checked by {@link V1Resource} once read). A
 * request line with malformed percent-encoding never gets here: the HTTP server refuses it (400).
 */
@ApplicationScoped
public class V1Guard {

    @Inject
    NodeBean bean;

    void init(@Observes Router router) {
        long limit = bean.node().settings().bodySize();
        router.route("/v1/*").order(Integer.MIN_VALUE + 1).handler(ctx -> {
            if (!check(ctx, limit)) {
                bean.rpc().limitRefused(io.god.node.NodeSettings.BODY_SIZE);
            }
        });
    }

    /** Passes the request on, or refuses it and returns false when its body is over the limit. */
    static boolean check(RoutingContext ctx, long limit) {
        String length = ctx.request().getHeader("Content-Length");
        if (length != null) {
            try {
                if (Long.parseLong(length.trim()) > limit) {
                    fail(ctx, 400, "request body of " + length.trim() + " bytes exceeds god.limits.body-size ("
                            + limit + " bytes)");
                    return false;
                }
            } catch (NumberFormatException e) {
                fail(ctx, 400, "bad Content-Length " + length);
                return true;
            }
        }
        ctx.next();
        return true;
    }

    static void fail(RoutingContext ctx, int status, String message) {
        ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                .putHeader("Connection", "close")
                .end(new JsonObject().put("error", message).encode());
    }
}
