package io.god.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.protocol.ProtocolVersion;
import io.god.testing.TimeScale;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Lettuce against a 3-node ring with a token: its RESP3 handshake (HELLO 3 AUTH default token, then CLIENT SETINFO) is
 * accepted, and strings, a hash, a sorted set, pipelined async commands (flushed together) and SCAN answer through any
 * node.
 */
class RespLettuceTest {

    private static final String TOKEN = "lettuce-token-1";

    @Test
    void lettuceSpeaksResp3WithAuthToEveryNodeOfARing() throws Exception {
        try (RespNodes n = new RespNodes(Map.of("god.auth.token", TOKEN)).start(3)) {
            RedisClient client = RedisClient.create();
            client.setOptions(ClientOptions.builder().protocolVersion(ProtocolVersion.RESP3).build());
            try {
                for (int i = 0; i < 3; i++) {
                    RedisURI uri = RedisURI.builder().withHost("127.0.0.1").withPort(n.port(i))
                            .withPassword(TOKEN.toCharArray()).withTimeout(TimeScale.seconds(30))
                            .build();
                    try (StatefulRedisConnection<String, String> c = client.connect(uri)) {
                        exercise(c, i);
                    }
                }
            } finally {
                client.shutdown(Duration.ZERO, TimeScale.seconds(10));
            }
        }
    }

    private static void exercise(StatefulRedisConnection<String, String> c, int node) throws Exception {
        RedisCommands<String, String> sync = c.sync();
        String p = "n" + node + ":";
        assertThat(sync.set(p + "s", "v")).isEqualTo("OK");
        assertThat(sync.get(p + "s")).isEqualTo("v");
        assertThat(sync.get(p + "missing")).isNull();
        assertThat(sync.hset(p + "h", Map.of("a", "1", "b", "2"))).isEqualTo(2);
        assertThat(sync.hgetall(p + "h")).containsExactlyInAnyOrderEntriesOf(Map.of("a", "1", "b", "2"));
        assertThat(sync.hincrby(p + "h", "a", 41)).isEqualTo(42);
        assertThat(sync.hincrbyfloat(p + "h", "b", 0.5)).isEqualTo(2.5);
        assertThat(sync.zadd(p + "z", ScoredValue.just(2, "b"), ScoredValue.just(-1.5, "a"),
                ScoredValue.just(Double.POSITIVE_INFINITY, "c"))).isEqualTo(3);
        assertThat(sync.zrangeWithScores(p + "z", 0, -1)).containsExactly(ScoredValue.just(-1.5, "a"),
                ScoredValue.just(2, "b"), ScoredValue.just(Double.POSITIVE_INFINITY, "c"));
        assertThat(sync.zscore(p + "z", "b")).isEqualTo(2.0);

        // pipelining: commands queued without flushing, then written together, answered in order
        RedisAsyncCommands<String, String> async = c.async();
        c.setAutoFlushCommands(false);
        List<RedisFuture<?>> futures = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            futures.add(async.set(p + "k" + i, "v" + i));
            futures.add(async.get(p + "k" + i));
        }
        futures.add(async.zincrby(p + "z", 1, "a"));
        c.flushCommands();
        c.setAutoFlushCommands(true);
        assertThat(LettuceFutures.awaitAll(TimeScale.seconds(30).toMillis(), TimeUnit.MILLISECONDS,
                futures.toArray(new RedisFuture[0]))).isTrue();
        for (int i = 0; i < 20; i++) {
            assertThat(futures.get(2 * i).get()).isEqualTo("OK");
            assertThat(futures.get(2 * i + 1).get()).isEqualTo("v" + i);
        }
        assertThat(futures.get(40).get()).isEqualTo(-0.5);

        // SCAN walks this node's prefix through every owner of the ring
        List<String> keys = new ArrayList<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> page = sync.scan(cursor, ScanArgs.Builder.matches(p + "*").limit(7));
            keys.addAll(page.getKeys());
            cursor = page;
        } while (!cursor.isFinished());
        assertThat(keys).as("every key of node %d's prefix once", node).hasSize(23).doesNotHaveDuplicates()
                .contains(p + "s", p + "h", p + "z", p + "k19");
    }
}
