package io.god.client;

import static org.awaitility.Awaitility.await;

import io.god.api.JsonRpc;
import io.god.node.GodNode;
import io.god.node.NodeSettings;
import io.god.time.NanoClock;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** n GodNodes in one JVM on 127.0.0.x over TCP, one port, short ring intervals (like the cluster tests' Rings). */
final class ClientRings implements AutoCloseable {

    final int port;
    final List<GodNode> nodes = new ArrayList<>();
    final Map<String, String> extra = new HashMap<>();

    ClientRings() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.2"))) {
            port = s.getLocalPort();
        }
    }

    String address(int i) {
        return "127.0.0." + (2 + i) + ":" + port;
    }

    ClientRings start(int n) {
        for (int i = 0; i < n; i++) {
            Map<String, String> m = new HashMap<>(Map.of(
                    "god.node.advertise", address(i),
                    "god.node.port", String.valueOf(port),
                    "god.seeds", address(0),
                    "god.ring.interval", "20ms",
                    "god.ring.failures", "3",
                    "god.rpc.timeout", "300ms",
                    "god.gc.interval", "1s"));
            m.putAll(extra);
            GodNode node = GodNode.start(NodeSettings.of(m), NanoClock.system(), null);
            new JsonRpc(node);
            nodes.add(node);
            await().atMost(Duration.ofSeconds(20)).until(this::converged);
        }
        return this;
    }

    GodNode byAddress(String address) {
        return nodes.stream().filter(n -> n.address().equals(address)).findFirst().orElseThrow();
    }

    boolean converged() {
        List<GodNode> live = nodes.stream().filter(n -> !n.closed()).toList();
        Set<String> addresses = live.stream().map(GodNode::address).collect(Collectors.toSet());
        Set<String> hashes = new java.util.HashSet<>();
        for (GodNode n : live) {
            if (n.state() != GodNode.State.ACTIVE) {
                return false;
            }
            var ring = n.membership().ring();
            hashes.add(ring.hash());
            if (!ring.members().stream().map(io.god.ring.Member::address).collect(Collectors.toSet()).equals(addresses)) {
                return false;
            }
        }
        return hashes.size() == 1;
    }

    @Override
    public void close() {
        for (GodNode n : nodes) {
            try {
                n.close();
            } catch (RuntimeException e) {
                // keep closing
            }
        }
    }
}
