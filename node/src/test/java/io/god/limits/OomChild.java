package io.god.limits;

import io.god.api.JsonRpc;
import io.god.api.RpcRoutes;
import io.god.node.GodNode;
import io.god.node.NodeSettings;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Child process of {@link OutOfMemoryExitTest}: one in-memory node behind its own HTTP server, with
 * the settings given as {@code key=value} arguments; prints {@code PORT <n>} and serves until killed.
 */
public final class OomChild {

    private OomChild() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> settings = new HashMap<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            settings.put(a.substring(0, eq), a.substring(eq + 1));
        }
        GodNode node = GodNode.start(NodeSettings.of(settings));
        JsonRpc rpc = new JsonRpc(node);
        Vertx vertx = Vertx.vertx();
        Router router = Router.router(vertx);
        RpcRoutes.mount(router, () -> rpc, node.settings().bodySize());
        int port = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage()
                .toCompletableFuture().get(30, TimeUnit.SECONDS).actualPort();
        System.out.println("PORT " + port);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
