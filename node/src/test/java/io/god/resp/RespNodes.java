package io.god.resp;

import static org.awaitility.Awaitility.await;

import io.god.cluster.Rings;
import io.god.testing.TimeScale;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * n god nodes in one JVM (the cluster tests' {@link Rings}), each with a RESP listener on a free port (over TLS when
 * the settings have god.tls.*).
 */
final class RespNodes implements AutoCloseable {

    final Rings rings;
    final Vertx vertx = Vertx.vertx();
    final List<RespServer> servers = new ArrayList<>();
    final List<Integer> ports = new ArrayList<>();

    RespNodes(Map<String, String> settings) throws Exception {
        rings = new Rings();
        rings.extra.putAll(settings);
        rings.extra.put("god.rpc.timeout", TimeScale.setting("300ms"));
    }

    RespNodes start(int n) {
        for (int i = 0; i < n; i++) {
            rings.start(i, null, rings.address(0));
            await().atMost(TimeScale.seconds(20)).until(rings::converged);
            RespServer s = new RespServer(vertx, rings.rpc(i), true, 100, 4, 2).secure(rings.nodes.get(i).tls());
            servers.add(s);
            ports.add(s.start("127.0.0.1", 0));
        }
        return this;
    }

    int port(int i) {
        return ports.get(i);
    }

    @Override
    public void close() {
        servers.forEach(RespServer::close);
        rings.close();
        vertx.close();
    }
}
