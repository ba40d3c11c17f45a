package io.god.api.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.god.api.NodeBean;
import io.god.api.RequestCredential;
import io.god.command.Admission;
import io.god.node.GodNode;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.function.Supplier;

/**
 * The dashboard's login (issue 32): a browser cannot set Authorization on a WebSocket, so {@code POST /api/login}
 * with {@code {"token": "..."}} turns a credential the node accepts into the {@code god_token} cookie, which
 * {@link RequestCredential} reads wherever the header is missing; {@code POST /api/logout} clears it. The cookie is
 * HttpOnly (no script reads it), {@code SameSite=Strict} (the CSRF guard: no other site's page makes the browser
 * send it) and Secure when the request came over TLS.
 */
@ApplicationScoped
public class LoginRoutes {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    NodeBean bean;

    void init(@Observes Router router) {
        mount(router, bean::node);
    }

    public static void mount(Router router, Supplier<GodNode> node) {
        long limit = node.get().settings().bodySize();
        router.post("/api/login").handler(BodyHandler.create(false).setBodyLimit(limit))
                .handler(ctx -> login(ctx, node.get()))
                .failureHandler(ctx -> error(ctx, 400, ctx.statusCode() == 413
                        ? "request body exceeds god.limits.body-size (" + limit + " bytes)"
                        : "cannot read the request: " + (ctx.failure() == null ? "request failed" : ctx.failure().getMessage())));
        router.post("/api/logout").handler(ctx -> {
            ctx.response().putHeader("Set-Cookie", cookie("", ctx) + "; Max-Age=0").setStatusCode(204).end();
        });
    }

    private static void login(RoutingContext ctx, GodNode node) {
        String token;
        try {
            JsonNode body = JSON.readTree(ctx.body().buffer() == null ? new byte[0] : ctx.body().buffer().getBytes());
            JsonNode t = body == null ? null : body.get("token");
            if (t == null || !t.isTextual() || t.asText().isBlank()) {
                error(ctx, 400, "token: a JSON body {\"token\": \"...\"} with a non-empty string is required");
                return;
            }
            token = t.asText().trim();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            error(ctx, 400, "body is not JSON: " + e.getOriginalMessage());
            return;
        } catch (java.io.IOException e) {
            error(ctx, 400, "body is not JSON: " + e.getMessage());
            return;
        }
        Admission admission = new Admission(node);
        // a cookie value cannot hold these; such a token could never come back in a cookie anyway
        if (!admission.enabled() || token.matches(".*[\\s;,\"\\\\].*") || !admission.allows("Bearer " + token)) {
            error(ctx, 401, admission.enabled() ? "token refused: it is neither god.auth.token nor god.auth.admin-token"
                    : "this node asks for no credential (god.auth.token is not set): nothing to log in to");
            return;
        }
        ctx.response().putHeader("Set-Cookie", cookie(token, ctx)).setStatusCode(204).end();
    }

    private static String cookie(String value, RoutingContext ctx) {
        return RequestCredential.COOKIE + "=" + value + "; HttpOnly; SameSite=Strict; Path=/"
                + (ctx.request().isSSL() ? "; Secure" : "");
    }

    private static void error(RoutingContext ctx, int status, String why) {
        if (!ctx.response().ended()) {
            ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json; charset=UTF-8")
                    .end(JSON.createObjectNode().put("error", why).toString());
        }
    }
}
