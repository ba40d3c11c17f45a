package io.god.bench.load;

import io.god.client.GodClient;
import java.time.Duration;
import java.util.List;

/**
 * The binary protocol through {@link GodClient} (ring-aware: keyed calls go to the owner, Get asks every
 * replica). All workers share one client and its pool of pipelined connections per node.
 */
final class BinaryTarget implements Target {

    private final GodClient client;

    private BinaryTarget(GodClient client) {
        this.client = client;
    }

    static Factory factory(List<String> endpoints, int connectionsPerNode, int redundancy, String token) {
        GodClient.Builder b = GodClient.builder().endpoints(endpoints.toArray(String[]::new))
                .connectionsPerNode(connectionsPerNode).redundancy(redundancy).deadline(Duration.ofSeconds(10));
        if (token != null) {
            b.token(token);
        }
        GodClient client = b.build();
        return new Factory() {
            @Override
            public Target open(int worker) {
                return new BinaryTarget(client);
            }

            @Override
            public String describe() {
                return "binary protocol via GodClient (" + connectionsPerNode + " connections per node) to " + endpoints;
            }

            @Override
            public void close() {
                client.close();
            }
        };
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
