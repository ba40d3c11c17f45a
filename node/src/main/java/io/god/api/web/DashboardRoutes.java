package io.god.api.web;

import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The dashboard's one dynamic route, {@code GET /api/methods} (the API console's method list); the
 * page itself is static ({@code META-INF/resources/index.html}, {@code dashboard.js},
 * {@code dashboard.css}) and talks to {@code /ws} and {@code /rpc/DHash.<Name>}.
 */
@ApplicationScoped
public class DashboardRoutes {

    private static final String METHODS = ApiMethods.json();

    void init(@Observes Router router) {
        mount(router);
    }

    public static void mount(Router router) {
        router.get("/api/methods").handler(ctx -> ctx.response().putHeader("Content-Type",
                "application/json; charset=UTF-8").end(METHODS));
    }
}
