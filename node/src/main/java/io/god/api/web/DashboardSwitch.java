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

    /** The paths a disabled dashboard answers 404 on (Vert.x route paths; a trailing * is a prefix). */
    static final String[] PATHS = {"/", "/index.html", "/dashboard.js", "/dashboard.css", "/api/*", "/ws", "/ws/peer",
        "/q/swagger-ui*"};

    void init(@Observes Router router) {
        mount(router, key -> ConfigProvider.getConfig().getOptionalValue(key, String.class));
    }

    /** Mounts the 404s ahead of every other route when the setting is false; a value not true/false fails the start. */
    public static void mount(Router router, Function<String, Optional<String>> config) {
        if (enabled(config)) {
            return;
        }
        for (String path : PATHS) {
            router.route(path).order(-1000).handler(ctx -> ctx.response().setStatusCode(404)
                    .putHeader("Content-Type", "application/json; charset=UTF-8")
                    .end("{\"error\":\"the dashboard is switched off (" + ENABLED + "=false)\"}"));
        }
    }

    public static boolean enabled(Function<String, Optional<String>> config) {
        String v = config.apply(ENABLED).map(String::trim).orElse("true");
        if (!v.equals("true") && !v.equals("false")) {
            throw SettingValues.invalid(ENABLED, "must be true or false, was '" + v + "'");
        }
        return v.equals("true");
    }
}
