package io.god.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.vertx.http.ManagementInterface;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * The management port (9000): {@code GET /admin/status}, and with {@code god.auth.token} set, the
 * token check for everything on the port except {@code /q/health/*} (probes stay anonymous).
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
        Auth auth = new Auth(bean.node().settings().authToken());
        if (auth.enabled()) {
            router.route().order(Integer.MIN_VALUE).handler(ctx -> {
                String path = ctx.normalizedPath();
                if (path.startsWith("/q/health") || auth.allows(ctx.request().getHeader("Authorization"))) {
                    ctx.next();
                } else {
                    RpcRoutes.send(ctx, 401, "\"the management port needs Authorization: Bearer <god.auth.token>\""
                            .getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
            });
        }
        router.get("/admin/status").blockingHandler(ctx -> {
            try {
                byte[] body = JSON.writeValueAsBytes(AdminStatus.of(bean.node()));
                ctx.response().setStatusCode(200).putHeader("Content-Type", "application/json")
                        .end(Buffer.buffer(body));
            } catch (JsonProcessingException e) {
                ctx.fail(e);
            }
        }, false);
    }
}
