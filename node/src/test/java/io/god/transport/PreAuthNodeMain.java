package io.god.transport;

import io.god.node.GodNode;
import io.god.node.NodeSettings;
import java.util.Map;

/** A bare node in a child process for {@link PreAuthMemoryTest}: args port, token; runs until killed. */
public final class PreAuthNodeMain {

    private PreAuthNodeMain() {
    }

    public static void main(String[] args) throws Exception {
        GodNode node = GodNode.start(NodeSettings.of(Map.of("god.node.port", args[0], "god.node.advertise", "127.0.0.1:" + args[0],
                "god.auth.token", args[1], "god.limits.auth-timeout", "5m", "god.redundancy", "1")));
        new io.god.api.JsonRpc(node); // installs the handlers of the binary data calls
        System.out.println("started");
        Thread.sleep(Long.MAX_VALUE);
    }
}
