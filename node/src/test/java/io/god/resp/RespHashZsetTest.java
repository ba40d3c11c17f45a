package io.god.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.params.ZAddParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.resps.Tuple;

/**
 * Hashes and sorted sets through Jedis: the type model, scores at the edges (negative, −0, ±inf, ties), LIMIT
 * paging, HSCAN, refusals that change nothing, and a 3-node ring where a write through one node is read through the
 * others and concurrent ZINCRBYs through every node all count (they run at the key's owner).
 */
class RespHashZsetTest {

    /**
     * On a node alone whose writes wait for nothing (fsync everysec), a hash or sorted-set write — one SubUpdate — runs
     * on the network event loop, as a SET does, refusals too; under fsync always it waits for its fsync on a worker.
     */
    @ParameterizedTest
    @ValueSource(strings = {"everysec", "always"})
    void aHashOrSortedSetWriteRunsOnTheEventLoopWhenItWaitsForNothing(String fsync, @TempDir Path dir)
            throws Exception {
        try (RespNodes n = new RespNodes(Map.of("god.data-dir", dir.toString(), "god.persistence.fsync", fsync))
                .start(1)) {
            List<String> threads = new java.util.concurrent.CopyOnWriteArrayList<>();
            io.god.api.JsonRpc observed = new io.god.api.JsonRpc(n.rings.nodes.get(0),
                    (method, status, nanos) -> threads.add(method + " " + status + " " + Thread.currentThread().getName()));
            try (RespServer server = new RespServer(n.vertx, observed, true, 10, 2, 1);
                    Jedis j = new Jedis("127.0.0.1", server.start("127.0.0.1", 0))) {
                assertThat(j.zadd("z", 1.5, "a")).isEqualTo(1);
                assertThat(j.zincrby("z", 2, "a")).isEqualTo(3.5);
                assertThat(j.hset("h", Map.of("f", "v", "g", "w"))).isEqualTo(2);
                assertThat(j.hdel("h", "f")).isEqualTo(1);
                assertThatThrownBy(() -> j.hset("z", "f", "v")).hasMessageStartingWith("WRONGTYPE");
                assertThat(j.zscore("z", "a")).isEqualTo(3.5);
                assertThat(j.hgetAll("h")).isEqualTo(Map.of("g", "w"));
                assertThat(threads).filteredOn(t -> t.startsWith("SubUpdate ")).hasSize(5)
                        .allSatisfy(t -> assertThat(t).contains(fsync.equals("always") ? "god-resp-" : "eventloop"));
            }
        }
    }

    @Test
    void scoresAtTheEdgesOrderAsRedisOrdersThem() throws Exception {
        try (RespNodes n = new RespNodes(Map.of()).start(1); Jedis j = RespTest.jedis(n, 0)) {
            assertThat(j.zadd("z", Map.of("m", 1.0, "a", 1.0, "neg", -2.5, "zero", -0.0, "top", Double.POSITIVE_INFINITY,
                    "bottom", Double.NEGATIVE_INFINITY, "tiny", -1e-300))).isEqualTo(7);
            assertThat(j.zrange("z", 0, -1)).containsExactly("bottom", "neg", "tiny", "zero", "a", "m", "top");
            assertThat(j.zscore("z", "zero")).isEqualTo(0.0);
            assertThat(j.zrank("z", "a")).isEqualTo(4);
            assertThat(j.zrevrank("z", "a")).isEqualTo(2);
            assertThat(j.zcount("z", "-inf", "(0")).isEqualTo(3);
            assertThat(j.zrangeByScore("z", "(-inf", "+inf")).containsExactly("neg", "tiny", "zero", "a", "m", "top");
            List<String> paged = new ArrayList<>();
            for (int offset = 0; offset < 7; offset += 2) {
                paged.addAll(j.zrangeByScore("z", "-inf", "+inf", offset, 2));
            }
            assertThat(paged).as("LIMIT pages the whole range once").containsExactlyElementsOf(j.zrange("z", 0, -1));
            assertThat(j.zrevrangeByScoreWithScores("z", "1", "-1", 0, 2)).containsExactly(new Tuple("m", 1.0),
                    new Tuple("a", 1.0));
            assertThat(j.sendCommand(() -> "ZSCORE".getBytes(), "z", "top")).isEqualTo("inf".getBytes());
            assertThat(j.zincrby("z", 0.1, "m")).isEqualTo(1.1);
            assertThat(new String((byte[]) j.sendCommand(() -> "ZSCORE".getBytes(), "z", "m")))
                    .as("Redis 7.0's %.17g").isEqualTo("1.1000000000000001");
            assertThat(j.zadd("z", 5, "m", ZAddParams.zAddParams().lt())).isZero();
            assertThat(j.zadd("z", 0.5, "m", ZAddParams.zAddParams().lt().ch())).isEqualTo(1);
            assertThat(j.zpopmin("z")).isEqualTo(new Tuple("bottom", Double.NEGATIVE_INFINITY));
            assertThat(j.zpopmax("z", 2)).containsExactly(new Tuple("top", Double.POSITIVE_INFINITY),
                    new Tuple("a", 1.0));
            assertThat(j.zcard("z")).isEqualTo(4);
        }
    }

    @Test
    void refusalsNameTheProblemAndChangeNothing() throws Exception {
        try (RespNodes n = new RespNodes(Map.of()).start(1); Jedis j = RespTest.jedis(n, 0)) {
            j.zadd("z", 1, "a");
            j.hset("h", "f", "v");
            j.set("s", "x");
            assertThat(List.of(j.type("z"), j.type("h"), j.type("s"), j.type("none"))).containsExactly("zset", "hash",
                    "string", "none");
            assertThatThrownBy(() -> j.sendCommand(() -> "ZADD".getBytes(), "z", "nan", "b"))
                    .hasMessage("ERR value is not a valid float");
            assertThatThrownBy(() -> j.sendCommand(() -> "ZADD".getBytes(), "z", "1", "b", "x", "c"))
                    .hasMessage("ERR value is not a valid float");
            j.zadd("z", Double.POSITIVE_INFINITY, "i");
            assertThatThrownBy(() -> j.zincrby("z", Double.NEGATIVE_INFINITY, "i"))
                    .hasMessage("ERR resulting score is not a number (NaN)");
            assertThat(j.zrangeWithScores("z", 0, -1)).as("nothing changed").containsExactly(new Tuple("a", 1.0),
                    new Tuple("i", Double.POSITIVE_INFINITY));
            assertThatThrownBy(() -> j.hset("z", "f", "v")).hasMessageStartingWith("WRONGTYPE");
            assertThatThrownBy(() -> j.zadd("h", 1, "m")).hasMessageStartingWith("WRONGTYPE");
            assertThatThrownBy(() -> j.zadd("s", 1, "m")).hasMessageStartingWith("WRONGTYPE");
            n.rings.calls.clear();
            assertThatThrownBy(() -> j.get("h")).hasMessageStartingWith("WRONGTYPE");
            assertThat(j.get("none")).isNull();
            assertThat(n.rings.calls).as("a node alone tells nil from WRONGTYPE on the copy its GET read")
                    .doesNotContain("0:SubSize");
            assertThatThrownBy(() -> j.hget("s", "f")).hasMessageStartingWith("WRONGTYPE");
            assertThatThrownBy(() -> j.zunionstore("d", "z", "h")).hasMessageStartingWith("WRONGTYPE");
            assertThat(List.of(j.type("z"), j.type("h"), j.type("s"), j.type("d"))).as("nothing changed")
                    .containsExactly("zset", "hash", "string", "none");
            assertThatThrownBy(() -> j.sendCommand(() -> "ZRANGE".getBytes(), "z", "0", "-1", "LIMIT", "0",
                    "99999999999999999999")).hasMessage("ERR value is not an integer or out of range");
            assertThatThrownBy(() -> j.sendCommand(() -> "ZADD".getBytes(), "z")).hasMessage(
                    "ERR wrong number of arguments for 'zadd' command");
            assertThat(j.del("z", "h", "s")).isEqualTo(3);
            assertThat(j.exists("z", "h", "s")).isZero();
            assertThat(j.zadd("h", 1, "now a zset")).as("a deleted hash's key takes another type").isEqualTo(1);
            assertThat(j.type("h")).isEqualTo("zset");
        }
    }

    @Test
    void hashesAndHscanPaging() throws Exception {
        try (RespNodes n = new RespNodes(Map.of()).start(1); Jedis j = RespTest.jedis(n, 0)) {
            for (int i = 0; i < 25; i++) {
                j.hset("h", String.format("f%02d", i), "v" + i);
            }
            assertThat(j.hsetnx("h", "f00", "other")).isZero();
            assertThat(j.hsetnx("h", "new", "n")).isEqualTo(1);
            assertThat(j.hget("h", "f00")).isEqualTo("v0");
            assertThat(j.hlen("h")).isEqualTo(26);
            assertThat(j.hstrlen("h", "f10")).isEqualTo(3);
            assertThat(j.hkeys("h")).hasSize(26);
            List<String> fields = new ArrayList<>();
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<Map.Entry<String, String>> page = j.hscan("h", cursor, new ScanParams().match("f*").count(7));
                page.getResult().forEach(e -> fields.add(e.getKey()));
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            assertThat(fields).as("every field once, in byte order").hasSize(25).isSorted().doesNotHaveDuplicates();
            assertThat(j.hdel("h", "f00", "missing")).isEqualTo(1);
            assertThat(j.hmget("h", "f00", "f01")).containsExactly(null, "v1");
        }
    }

    @Test
    void zscanPagesMembersInByteOrderAndZrandmemberCountsAsRedis() throws Exception {
        try (RespNodes n = new RespNodes(Map.of("god.limits.result-rows", "50")).start(1);
                Jedis j = RespTest.jedis(n, 0)) {
            for (int i = 0; i < 30; i++) {
                j.zadd("z", 30 - i, String.format("m%02d", i));
            }
            List<String> members = new ArrayList<>();
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<Tuple> page = j.zscan("z", cursor, new ScanParams().match("m*").count(7));
                page.getResult().forEach(t -> {
                    members.add(t.getElement());
                    assertThat(t.getScore()).isEqualTo(30 - Integer.parseInt(t.getElement().substring(1)));
                });
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            assertThat(members).as("every member once, in byte order").hasSize(30).isSorted().doesNotHaveDuplicates();

            assertThat(j.zrandmember("z")).startsWith("m");
            assertThat(j.zrandmember("none")).isNull();
            assertThat(j.zrandmember("z", 10)).as("positive: distinct").hasSize(10).doesNotHaveDuplicates();
            assertThat(j.zrandmember("z", 40)).as("positive over the size: all").hasSize(30)
                    .containsExactlyInAnyOrderElementsOf(members);
            List<String> repeats = j.zrandmember("z", -45);
            assertThat(repeats).as("negative: |count|, repeats allowed").hasSize(45).isSubsetOf(members);
            assertThat(repeats.stream().distinct().count()).as("45 picks of 30 repeat").isLessThan(45);
            List<Tuple> scored = j.zrandmemberWithScores("z", 3);
            assertThat(scored).hasSize(3).allMatch(t -> t.getScore() == 30 - Integer.parseInt(t.getElement()
                    .substring(1)));
            assertThat(j.zrandmember("z", 0)).isEmpty();
            assertThat(j.zrandmember("none", -3)).isEmpty();
            assertThatThrownBy(() -> j.zrandmember("z", -51)).as("over god.limits.result-rows")
                    .hasMessageContaining("god.limits.result-rows");
            assertThatThrownBy(() -> j.sendCommand(() -> "ZRANDMEMBER".getBytes(), "z", "1", "SCORES"))
                    .hasMessage("ERR syntax error");
            j.set("s", "x");
            assertThatThrownBy(() -> j.zrandmember("s")).hasMessageStartingWith("WRONGTYPE");
            assertThat(j.zcard("z")).as("nothing taken").isEqualTo(30);

            for (int i = 0; i < 30; i++) {
                j.hset("h", String.format("f%02d", i), "v" + i);
            }
            assertThat(j.hrandfield("h")).startsWith("f");
            assertThat(j.hrandfield("none")).isNull();
            assertThat(j.hrandfield("h", 10)).as("positive: distinct").hasSize(10).doesNotHaveDuplicates();
            assertThat(j.hrandfield("h", 40)).as("positive over the size: all").hasSize(30)
                    .containsExactlyInAnyOrderElementsOf(j.hkeys("h"));
            assertThat(j.hrandfield("h", -45)).as("negative: |count|, repeats allowed").hasSize(45)
                    .isSubsetOf(j.hkeys("h"));
            assertThat(j.hrandfieldWithValues("h", 4)).hasSize(4)
                    .allMatch(e -> e.getValue().equals("v" + Integer.parseInt(e.getKey().substring(1))));
            assertThat(j.hrandfield("h", 51)).as("a positive count over the bound answers the 30 there are").hasSize(30);
            assertThatThrownBy(() -> j.hrandfield("h", -51)).hasMessageContaining("god.limits.result-rows");
            assertThatThrownBy(() -> j.hrandfield("z")).hasMessageStartingWith("WRONGTYPE");
            assertThatThrownBy(() -> j.sendCommand(() -> "HRANDFIELD".getBytes(), "h", "1", "WITHSCORES"))
                    .hasMessage("ERR syntax error");
            assertThat(j.hlen("h")).as("nothing taken").isEqualTo(30);
        }
    }

    @Test
    void aRingServesEveryKeyThroughEveryNodeAndCountsEveryConcurrentIncrement() throws Exception {
        try (RespNodes n = new RespNodes(Map.of()).start(3)) {
            try (Jedis j0 = RespTest.jedis(n, 0)) {
                for (int k = 0; k < 12; k++) { // keys spread over the owners
                    j0.zadd("board" + k, Map.of("ann", (double) k, "bob", (double) -k, "cy", 0.5));
                    j0.hset("user" + k, Map.of("name", "n" + k, "age", String.valueOf(k)));
                }
                j0.zunionstore("all", "board3", "board4");
            }
            for (int i = 1; i < 3; i++) {
                try (Jedis j = RespTest.jedis(n, i)) {
                    for (int k = 0; k < 12; k++) {
                        assertThat(j.zrangeWithScores("board" + k, 0, -1)).as("board%d through node %d", k, i)
                                .containsExactlyInAnyOrder(new Tuple("ann", (double) k), new Tuple("bob", (double) -k),
                                        new Tuple("cy", 0.5));
                        assertThat(j.zscore("board" + k, "ann")).isEqualTo(k);
                        assertThat(j.hget("user" + k, "name")).isEqualTo("n" + k);
                        assertThat(j.type("board" + k)).isEqualTo("zset");
                    }
                    assertThat(j.zrangeWithScores("all", 0, -1)).containsExactly(new Tuple("bob", -7.0),
                            new Tuple("cy", 1.0), new Tuple("ann", 7.0));
                    // the key space counts and lists hashes and sorted sets as keys, whichever member owns them
                    assertThat(j.dbSize()).as("DBSIZE through node %d", i).isEqualTo(25);
                    List<String> scanned = new ArrayList<>();
                    String cursor = ScanParams.SCAN_POINTER_START;
                    do {
                        ScanResult<String> page = j.scan(cursor, new ScanParams().count(4));
                        scanned.addAll(page.getResult());
                        cursor = page.getCursor();
                    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
                    assertThat(scanned).hasSize(25).contains("all", "board0", "user11");
                    assertThat(j.keys("user*")).hasSize(12);
                    assertThat(j.scan(ScanParams.SCAN_POINTER_START, new ScanParams().count(100), "zset").getResult())
                            .hasSize(13).allMatch(k -> k.startsWith("board") || k.equals("all"));
                }
            }
            ExecutorService pool = Executors.newFixedThreadPool(3);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    int node = i;
                    done.add(pool.submit(() -> {
                        try (Jedis j = RespTest.jedis(n, node)) {
                            for (int x = 0; x < 100; x++) {
                                j.zincrby("counter", 1, "hits");
                                j.hsetnx("claims", "f" + x, "node" + node);
                                j.hincrBy("tally", "n", 1);
                                j.hincrByFloat("tally", "x", 0.5);
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(120, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            try (Jedis j = RespTest.jedis(n, 2)) {
                assertThat(j.zscore("counter", "hits")).as("no increment lost").isEqualTo(300.0);
                assertThat(j.hlen("claims")).as("each field claimed once").isEqualTo(100);
                assertThat(j.hmget("tally", "n", "x")).as("no HINCRBY/HINCRBYFLOAT lost").containsExactly("300", "150");
            }
        }
    }
}
