package io.god.cluster;

import io.god.api.JsonRpc;
import io.god.node.GodNode;
import io.god.node.NodeSettings;
import io.god.testing.TimeScale;
import io.god.time.NanoClock;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** Several nodes in one JVM on 127.0.0.x, short intervals, forced teardown. */
public final class Rings implements AutoCloseable {

    public final int port;
    public final List<GodNode> nodes = new ArrayList<>();
    final List<JsonRpc> rpcs = new ArrayList<>();
    public final Map<String, String> extra = new HashMap<>();
    /** "node index:method" of every call each node's JSON handler completed (local or forwarded). */
    public final List<String> calls = new java.util.concurrent.CopyOnWriteArrayList<>();
    GodNode.TransportFactory transports;
    /** The clock every node started from now on uses (tests that move time replace it). */
    public NanoClock clock = NanoClock.system();
    /** The disk under the data directories of the nodes started from now on (null: the real one). */
    public io.god.persist.Disk disk;

    public Rings() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.2"))) {
            port = s.getLocalPort();
        }
    }

    /** The JSON contract handler (the node's executor) of node i. */
    public JsonRpc rpc(int i) {
        return rpcs.get(i);
    }

    public String address(int i) {
        return "127.0.0." + (2 + i) + ":" + port;
    }

    NodeSettings settings(int i, Path dir, String seeds) {
        Map<String, String> m = new HashMap<>(Map.of(
                "god.node.advertise", address(i),
                "god.node.port", String.valueOf(port),
                "god.seeds", seeds,
                "god.ring.interval", "20ms",
                "god.ring.failures", "3",
                "god.rpc.timeout", TimeScale.setting("500ms"),
                "god.gc.interval", "1s"));
        if (dir != null) {
            m.put("god.data-dir", dir.toString());
        }
        m.putAll(extra);
        return NodeSettings.of(m);
    }

    public GodNode start(int i, Path dir, String seeds) {
        return start(i, dir, seeds, n -> { });
    }

    /** As {@link #start(int, Path, String)}; {@code beforeJoin} runs after the node's handlers exist, before it joins. */
    public GodNode start(int i, Path dir, String seeds, java.util.function.Consumer<GodNode> beforeJoin) {
        JsonRpc[] made = new JsonRpc[1];
        io.god.node.NodeRuntime runtime = io.god.node.NodeRuntime.production(clock, transports);
        if (disk != null) {
            runtime = new io.god.node.NodeRuntime(runtime.clock(), runtime.loops(), runtime.handlers(), runtime.seeds(),
                    disk, runtime.transports(), runtime.awaiter(), runtime.monotonic());
        }
        GodNode n = GodNode.start(settings(i, dir, seeds), runtime,
                node -> {
                    made[0] = new JsonRpc(node, (method, status, nanos) -> calls.add(i + ":" + method));
                    beforeJoin.accept(node);
                });
        JsonRpc rpc = made[0];
        synchronized (this) {
            while (nodes.size() <= i) {
                nodes.add(null);
                rpcs.add(null);
            }
            nodes.set(i, n);
            rpcs.set(i, rpc);
        }
        return n;
    }

    /** The transports of the nodes started from now on (null: TCP). */
    public void setTransports(GodNode.TransportFactory factory) {
        this.transports = factory;
    }

    public List<GodNode> running() {
        return nodes.stream().filter(n -> n != null && !n.closed()).toList();
    }

    /** Every running node is ACTIVE and sees exactly the running nodes, with one ring hash. */
    public boolean converged() {
        List<GodNode> live = running();
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

    static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * One call as a client makes it: a write refused because the node was paused (PauseWatch: a stall of the test
     * JVM under load looks like one; nothing was written) is retried, at most 10 times with a growing back-off.
     */
    static JsonRpc.Response handle(JsonRpc rpc, String method, String body) {
        JsonRpc.Response r = rpc.handle("DHash." + method, body.getBytes(StandardCharsets.UTF_8), null);
        for (int attempt = 1; attempt <= 10 && r.status() == 503 && r.text().contains("was paused"); attempt++) {
            try {
                Thread.sleep(50L * attempt);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            r = rpc.handle("DHash." + method, body.getBytes(StandardCharsets.UTF_8), null);
        }
        return r;
    }

    /** As {@link #handle}, for a call that must succeed: its answer's text. */
    static String call(JsonRpc rpc, String method, String body) {
        JsonRpc.Response r = handle(rpc, method, body);
        if (r.status() != 200) {
            throw new AssertionError(method + " " + body + " → " + r.status() + " " + r.text());
        }
        return r.text();
    }

    @Override
    public void close() {
        for (GodNode n : nodes) {
            if (n != null) {
                try {
                    n.close();
                } catch (RuntimeException e) {
                    // teardown: keep closing the others
                }
            }
        }
    }
}
