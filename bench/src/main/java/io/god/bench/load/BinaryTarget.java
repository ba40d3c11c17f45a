package io.god.bench.load;

import io.god.client.GodClient;
import java.time.Duration;
import java.util.List;

/**
 * The binary protocol through {@link GodClient} (ring-aware: keyed calls go to the owner, Get asks every
 * replica). By default each worker has a client of its own with one connection per node, so every
 * connection carries one request at a time, like {@code redis-benchmark -c} (no pipelining);
 * {@code --connections N} shares one client with N pipelined connections per node between all workers.
 */
final class BinaryTarget implements Target {

    private final GodClient client;

    private BinaryTarget(GodClient client) {
        this.client = client;
    }

    /** @param connectionsPerNode 0: a client per worker with one connection per node; else one shared client */
    static Factory factory(List<String> endpoints, int connectionsPerNode, int redundancy, String token) {
        List<GodClient> clients = new java.util.concurrent.CopyOnWriteArrayList<>();
        GodClient shared = connectionsPerNode > 0 ? client(endpoints, connectionsPerNode, redundancy, token) : null;
        if (shared != null) {
            clients.add(shared);
        }
        return new Factory() {
            @Override
            public Target open(int worker) {
                if (shared != null) {
                    return new BinaryTarget(shared);
                }
                GodClient own = client(endpoints, 1, redundancy, token);
                clients.add(own);
                return new BinaryTarget(own);
            }

            @Override
            public String describe() {
                return "binary protocol via GodClient (" + (shared == null ? "a client and connection per worker"
                        : "one client, " + connectionsPerNode + " pipelined connections per node") + ") to " + endpoints;
            }

            @Override
            public void close() {
                clients.forEach(GodClient::close);
            }
        };
    }

    private static GodClient client(List<String> endpoints, int connections, int redundancy, String token) {
        GodClient.Builder b = GodClient.builder().endpoints(endpoints.toArray(String[]::new))
                .connectionsPerNode(connections).redundancy(redundancy).deadline(Duration.ofSeconds(10));
        if (token != null) {
            b.token(token);
        }
        return b.build();
    }

    @Override
    public void put(byte[] key, byte[] value) {
        client.put(key, value);
    }

    @Override
    public boolean get(byte[] key) {
        return client.get(key).exists();
    }

    @Override
    public void subPut(byte[] tree, byte[] subKey, byte[] value) {
        client.subPut(tree, subKey, value);
    }

    @Override
    public int slice(byte[] tree, int len) {
        return client.sliceLen(tree, null, true, len).size();
    }

    @Override
    public int setExpression(String code, int len) {
        return client.setExpression(code, null, null, true, true, len, null).size();
    }

    @Override
    public void close() {
        // the shared client is closed by the factory
    }
}
