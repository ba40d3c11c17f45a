package io.god.client;

import static org.awaitility.Awaitility.await;

import io.god.cluster.Rings;
import io.god.node.GodNode;
import io.god.testing.TimeScale;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** n GodNodes in one JVM on 127.0.0.x over TCP (the cluster tests' {@link Rings}), started one by one. */
final class ClientRings implements AutoCloseable {

    private final Rings rings;
    final int port;
    final List<GodNode> nodes;
    final Map<String, String> extra;

    ClientRings() throws Exception {
        rings = new Rings();
        port = rings.port;
        nodes = rings.nodes;
        extra = rings.extra;
        extra.put("god.rpc.timeout", TimeScale.setting("300ms"));
    }

    /** The JSON contract handler of node i (what its HTTP route serves). */
    io.god.api.JsonRpc rpc(int i) {
        return rings.rpc(i);
    }

    String address(int i) {
        return rings.address(i);
    }

    ClientRings start(int n) {
        for (int i = 0; i < n; i++) {
            rings.start(i, null, address(0));
            await().atMost(TimeScale.seconds(20)).until(this::converged);
        }
        return this;
    }

    /** Starts node i with a data directory (a durable store), seeded by node 0. */
    GodNode startDurable(int i, java.nio.file.Path dir) {
        GodNode n = rings.start(i, dir, address(0));
        await().atMost(TimeScale.seconds(20)).until(this::converged);
        return n;
    }

    /** Starts node i seeded by node 0 without waiting: while node 0 is not started, it stays JOINING. */
    GodNode startJoining(int i) {
        return rings.start(i, null, address(0));
    }

    GodNode byAddress(String address) {
        return nodes.stream().filter(n -> n.address().equals(address)).findFirst().orElseThrow();
    }

    /**
     * Every node ACTIVE in one ring and no node still listing a member as catching up: a member's end of catching up
     * reaches the others a ring interval later, and a client whose view comes from one of them meanwhile leaves that
     * member out of its reads (clean-clone CI j3: DigestSliceReadTest merged without the one replica holding a delete).
     */
    boolean converged() {
        return rings.converged() && rings.running().stream().allMatch(n -> n.memberStates().catchingUp().isEmpty());
    }

    @Override
    public void close() {
        rings.close();
    }
}
