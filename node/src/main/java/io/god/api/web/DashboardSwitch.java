package io.god.api.web;

import io.god.node.SettingValues;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * {@code god.dashboard.enabled} (default true): false hides the browser surface of the data port — the dashboard
 * page and its assets, {@code /api/*}, {@code /ws}, {@code /ws/peer} and Swagger UI — behind 404s, for a node whose
 * clients are programs only. {@code /rpc}, {@code /v1} and the OpenAPI document stay.
 */
@ApplicationScoped
public class DashboardSwitch {

    public static final String ENABLED = "god.dashboard.enabled";

    /** The paths a disabled dashboard answers 404 on: these exactly, and everything under {@link #PREFIXES}. */
    static final java.util.Set<String> PATHS = java.util.Set.of("/", "/index.html", "/dashboard.js", "/dashboard.css",
            "/ws", "/ws/peer");
    static final String[] PREFIXES = {"/api/", "/q/swagger-ui"};

    void init(@Observes Router router) {
        mount(router, key -> ConfigProvider.getConfig().getOptionalValue(key, String.class));
    }

    /** Mounts the 404s ahead of every other route when the setting is false; a value not true/false fails the start. */
    public static void mount(Router router, Function<String, Optional<String>> config) {
        if (enabled(config)) {
            return;
        }
        // one route matching by hand: a Vert.x route "/" would match every path as a prefix
        router.route().order(-1000).handler(ctx -> {
            String path = ctx.normalizedPath();
            if (PATHS.contains(path) || java.util.Arrays.stream(PREFIXES).anyMatch(path::startsWith)) {
                ctx.response().setStatusCode(404).putHeader("Content-Type", "application/json; charset=UTF-8")
                        .end("{\"error\":\"the dashboard is switched off (" + ENABLED + "=false)\"}");
            } else {
                ctx.next();
            }
        });
    }

    public static boolean enabled(Function<String, Optional<String>> config) {
        String v = config.apply(ENABLED).map(String::trim).orElse("true");
        if (!v.equals("true") && !v.equals("false")) {
            throw SettingValues.invalid(ENABLED, "must be true or false, was '" + v + "'");
        }
        return v.equals("true");
    }
}
