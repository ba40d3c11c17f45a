package io.god.api;

import io.god.command.ProtectedMode;
import io.quarkus.vertx.http.ManagementInterface;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * Protected mode on the HTTP and management ports ({@link ProtectedMode}): a request from another machine is
 * answered 403 {@code {"error": ...}} saying why and what to set, before any route.
 */
@ApplicationScoped
public class ProtectedModeRoutes {

    @Inject
    NodeBean bean;

    void init(@Observes Router router) {
        mount(router, bean.node().settings().protectedMode());
    }

    void init(@Observes ManagementInterface management) {
        mount(management.router(), bean.node().settings().protectedMode());
    }

    /** With protected mode on, refuses requests from other machines (also used on a plain router in tests). */
    public static void mount(Router router, boolean on) {
        if (!on) {
            return;
        }
        router.route().order(Integer.MIN_VALUE).handler(ctx -> {
            if (ProtectedMode.refuses(ctx.request().remoteAddress().hostAddress())) {
                ctx.response().setStatusCode(403).putHeader("Content-Type", "application/json")
                        .putHeader("Connection", "close")
                        .end(new JsonObject().put("error", ProtectedMode.MESSAGE).encode());
            } else {
                ctx.next();
            }
        });
    }
}
