package io.god.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import io.god.testing.TimeScale;
import redis.clients.jedis.params.ClientKillParams;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/** The RESP listener through Jedis (RESP2 and RESP3, pipelining, AUTH) and raw sockets (inline, protocol errors). */
public class RespTest {

    static Jedis jedis(RespNodes n, int i) {
        // a read timeout that scales: a ring's pipelined commands on a loaded host take longer than Jedis' 2 s default
        return new Jedis("127.0.0.1", n.port(i), (int) TimeScale.seconds(30).toMillis());
    }

    @Test
    void clientListShowsEveryConnectionAndClientKillClosesThem() throws Exception {
        try (RespNodes n = new RespNodes(Map.of()).start(1); Jedis me = jedis(n, 0); Jedis other = jedis(n, 0);
             Jedis third = jedis(n, 0)) {
            other.clientSetname("victim");
            third.ping();
            String list = me.clientList();
            assertThat(list.lines()).as(list).hasSize(3);
            String victimLine = list.lines().filter(l -> l.contains(" name=victim ")).findFirst().orElseThrow();
            assertThat(victimLine).contains("cmd=client", "db=0", "resp=2");
            String victimAddr = victimLine.replaceAll(".* addr=(\\S+) .*", "$1");
            long thirdId = third.clientId();
            assertThat(me.clientList(thirdId)).contains("id=" + thirdId + " ").doesNotContain("name=victim");
            assertThat(me.clientKill(victimAddr)).isEqualTo("OK");
            assertThatThrownBy(other::ping).as("its connection is closed").isInstanceOf(JedisConnectionException.class);
            assertThat(me.clientKill(new ClientKillParams().id(Long.toString(thirdId)))).isEqualTo(1);
            assertThatThrownBy(third::ping).isInstanceOf(JedisConnectionException.class);
            assertThat(me.clientKill(new ClientKillParams().id("999999"))).isZero();
            assertThatThrownBy(() -> me.clientKill("10.9.9.9:1")).hasMessageContaining("No such client");
            assertThat(me.clientKill(new ClientKillParams().skipMe(ClientKillParams.SkipMe.YES))).isZero();
            await().atMost(TimeScale.seconds(10)).until(() -> me.clientList().lines().count() == 1);
            assertThat(me.ping()).isEqualTo("PONG");
        }
    }

    @Test
    void stringsAndTheOrderedKeySpaceAsRedisClientsSeeThem() throws Exception {
        try (RespNodes n = new RespNodes(Map.of()).start(1); Jedis j = jedis(n, 0)) {
            assertThat(j.ping()).isEqualTo("PONG");
            assertThat(j.echo("hi")).isEqualTo("hi");
            assertThat(j.set("b", "2")).isEqualTo("OK");
            assertThat(j.get("b")).isEqualTo("2");
            assertThat(j.get("missing")).isNull();
            assertThat(j.mset("a", "1", "c", "3", "d", "4")).isEqualTo("OK");
            assertThat(j.mget("a", "missing", "c")).containsExactly("1", null, "3");
            assertThat(j.exists("a", "b", "missing", "a")).isEqualTo(3);
            assertThat(j.strlen("c")).isEqualTo(1);
            assertThat(j.type("a")).isEqualTo("string");
            assertThat(j.type("missing")).isEqualTo("none");
            assertThat(j.dbSize()).isEqualTo(4);
            assertThat(j.del("d", "missing")).isEqualTo(1);
            assertThat(j.unlink("c")).isEqualTo(1);
            assertThat(j.keys("*")).containsExactlyInAnyOrder("a", "b");
            assertThat(j.select(0)).isEqualTo("OK");
            assertThatThrownBy(() -> j.select(1)).hasMessageContaining("DB index is out of range");
            assertThat(j.clientSetname("app")).isEqualTo("OK");
            assertThat(j.clientGetname()).isEqualTo("app");
            assertThat(j.clientId()).isPositive();
            assertThat(j.info()).contains("redis_version:", "db0:keys=2");

            for (int i = 0; i < 57; i++) {
                j.set(String.format("k%03d", i), "v" + i);
            }
            List<String> scanned = new ArrayList<>();
            String cursor = ScanParams.SCAN_POINTER_START;
            int calls = 0;
            do {
                ScanResult<String> page = j.scan(cursor, new ScanParams().match("k*").count(10));
                scanned.addAll(page.getResult());
                cursor = page.getCursor();
                calls++;
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            assertThat(scanned).as("every key once, in byte order").hasSize(57).isSorted();
            assertThat(calls).isGreaterThan(5);
            assertThat(j.keys("k00?")).hasSize(10);
            assertThat(j.keys("k0[0-1]0")).containsExactlyInAnyOrder("k000", "k010");
        }
    }

    @Test
    void whatGodDoesNotOfferIsRefusedNamingIt() throws Exception {
        try (RespNodes n = new RespNodes(Map.of()).start(1); Jedis j = jedis(n, 0)) {
            assertThatThrownBy(() -> j.setex("k", 10, "v")).isInstanceOf(JedisDataException.class)
                    .hasMessageContaining("god keeps no TTL");
            assertThatThrownBy(() -> j.setnx("k", "v")).hasMessageContaining("SETNX is not offered");
            assertThatThrownBy(() -> j.incr("k")).hasMessageContaining("INCR is not offered");
            assertThatThrownBy(() -> j.sendCommand(() -> "NOPE".getBytes(StandardCharsets.UTF_8), "x"))
                    .hasMessageContaining("unknown command 'NOPE', with args beginning with: 'x'");
            assertThatThrownBy(() -> j.sendCommand(() -> "GET".getBytes(StandardCharsets.UTF_8)))
                    .hasMessageContaining("wrong number of arguments for 'get' command");
            assertThat(j.get("k")).as("nothing was written").isNull();
        }
    }

    @Test
    void pipelinedCommandsAreAnsweredInOrder() throws Exception {
        try (RespNodes n = new RespNodes(Map.of()).start(1); Jedis j = jedis(n, 0)) {
            Pipeline p = j.pipelined();
            for (int i = 0; i < 2000; i++) {
                p.set("p" + i, "v" + i);
                p.get("p" + i);
            }
            List<Object> replies = p.syncAndReturnAll();
            assertThat(replies).hasSize(4000);
            for (int i = 0; i < 2000; i++) {
                assertThat(replies.get(2 * i)).isEqualTo("OK");
                assertThat(replies.get(2 * i + 1)).isEqualTo("v" + i);
            }
            // one pipelined read whose keys' descents are taken together (RespCommands#prefetch): keys that are
            // prefixes of each other, binary keys, absent keys between present ones, a key written then read again
            byte[][] keys = {"q".getBytes(), "qq".getBytes(), "qqq".getBytes(), {(byte) 0xff, 0}, {(byte) 0xff},
                    {0, 0, 0}, "qa".getBytes()};
            Pipeline q = j.pipelined();
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < keys.length; i++) {
                    q.get(keys[i]);
                    if ((i + round) % 2 == 0) {
                        q.set(keys[i], ("r" + round + "k" + i).getBytes());
                    }
                }
            }
            List<Object> got = q.syncAndReturnAll();
            List<Object> expected = new ArrayList<>();
            Map<Integer, String> model = new java.util.HashMap<>();
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < keys.length; i++) {
                    expected.add(model.get(i));
                    if ((i + round) % 2 == 0) {
                        expected.add("OK");
                        model.put(i, "r" + round + "k" + i);
                    }
                }
            }
            assertThat(got.stream().map(o -> o instanceof byte[] b ? new String(b) : o).toList())
                    .isEqualTo(expected);
        }
    }

    /**
     * A pipelined run of plain SETs on a durable node is one log append ({@link RespCommands#setsTogether}) — under
     * fsync always also one fsync, on a worker — each SET still checked on its own: the one over
     * god.limits.value-size gets the error a lone SET gets and is not written, the others are; a GET between runs
     * sees the run before it.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"everysec", "always"})
    void aPipelinedRunOfSetsIsOneLogAppendAndEachSetIsCheckedAlone(String fsync,
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        try (RespNodes n = new RespNodes(Map.of("god.data-dir", dir.toString(), "god.limits.value-size", "1k",
                "god.persistence.fsync", fsync)).start(1); Jedis j = jedis(n, 0)) {
            java.util.concurrent.atomic.AtomicInteger appends = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicInteger records = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicLong synced = new java.util.concurrent.atomic.AtomicLong();
            java.util.concurrent.atomic.AtomicInteger fsyncs = new java.util.concurrent.atomic.AtomicInteger();
            n.rings.nodes.get(0).store().observe(new io.god.persist.PersistenceObserver() {
                @Override
                public void appended(long nanos, int count) {
                    appends.incrementAndGet();
                    records.addAndGet(count);
                }

                @Override
                public void synced(long nanos, long count) {
                    synced.addAndGet(count);
                    fsyncs.incrementAndGet();
                }
            });
            String big = "x".repeat(2000);
            String alone = catchError(() -> j.set("alone", big));
            assertThat(alone).startsWith("ERR ").contains("god.limits.value-size");
            Pipeline p = j.pipelined();
            for (int i = 0; i < 100; i++) {
                p.set("run" + i, i == 40 ? big : "v" + i);
            }
            p.get("run41");
            for (int i = 0; i < 20; i++) {
                p.set("run" + i, "w" + i);
            }
            List<Object> replies = p.syncAndReturnAll();
            for (int i = 0; i < 100; i++) {
                Object r = replies.get(i);
                if (i == 40) {
                    assertThat(r).isInstanceOf(JedisDataException.class);
                    assertThat(((JedisDataException) r).getMessage()).isEqualTo(alone);
                } else {
                    assertThat(r).isEqualTo("OK");
                }
            }
            assertThat(replies.get(100)).isEqualTo("v41");
            assertThat(replies.subList(101, 121)).containsOnly("OK");
            assertThat(j.get("run40")).as("the refused SET wrote nothing").isNull();
            assertThat(j.get("run5")).isEqualTo("w5");
            assertThat(j.get("run99")).isEqualTo("v99");
            assertThat(records.get()).isEqualTo(119);
            assertThat(appends.get()).as("appends for 119 records in two runs").isLessThanOrEqualTo(10);
            if (fsync.equals("always")) {
                assertThat(synced.get()).as("records made durable before their SETs were answered").isEqualTo(119);
                assertThat(fsyncs.get()).as("fsyncs for two runs").isLessThanOrEqualTo(10);
            }
        }
    }

    /**
     * A pipelined run of SETs whose log append fails (the disk is full after a partial write) is refused whole: every
     * SET of the run gets the append's error, none is applied, and the log is cut back so that the SETs after the disk
     * has room again are there after a restart — next to the values the refused run did not replace.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"everysec", "always"})
    void aRunOfSetsWhoseAppendFailsIsRefusedWholeAndChangesNothing(String fsync,
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        Map<String, String> settings = Map.of("god.data-dir", dir.toString(), "god.persistence.fsync", fsync);
        io.god.persist.ForwardingDisk disk = new io.god.persist.ForwardingDisk();
        try (RespNodes n = new RespNodes(settings)) {
            n.rings.disk = disk;
            n.start(1);
            try (Jedis j = jedis(n, 0)) {
                Pipeline p = j.pipelined();
                for (int i = 0; i < 50; i++) {
                    p.set("run" + i, "old" + i);
                }
                assertThat(p.syncAndReturnAll()).hasSize(50).containsOnly("OK");
                disk.logBudget.set(100); // the next append writes 100 bytes, then the disk is full
                for (int i = 0; i < 50; i++) {
                    p.set("run" + i, "new" + i);
                }
                p.get("run0");
                p.get("run49");
                List<Object> replies = p.syncAndReturnAll();
                for (Object r : replies.subList(0, 50)) {
                    assertThat(r).isInstanceOf(JedisDataException.class);
                    assertThat(((JedisDataException) r).getMessage()).startsWith("ERR ")
                            .contains("write not acknowledged").contains("No space left on device");
                }
                assertThat(replies.subList(50, 52)).containsExactly("old0", "old49");
                disk.logBudget.set(-1);
                for (int i = 0; i < 50; i += 2) {
                    p.set("run" + i, "newer" + i);
                }
                assertThat(p.syncAndReturnAll()).hasSize(25).containsOnly("OK");
            }
        }
        try (RespNodes n = new RespNodes(settings).start(1); Jedis j = jedis(n, 0)) {
            for (int i = 0; i < 50; i++) {
                assertThat(j.get("run" + i)).as("run%d after the restart", i).isEqualTo((i % 2 == 0 ? "newer" : "old") + i);
            }
        }
    }

    private static String catchError(Runnable r) {
        try {
            r.run();
        } catch (JedisDataException e) {
            return e.getMessage();
        }
        throw new AssertionError("no error reply");
    }

    @Test
    void writesNeedTheTokenAndResp3HelloCarriesIt() throws Exception {
        try (RespNodes n = new RespNodes(Map.of("god.auth.token", "s3cret-token")).start(1)) {
            try (Jedis anonymous = jedis(n, 0)) {
                assertThatThrownBy(() -> anonymous.set("k", "v")).hasMessageStartingWith("NOAUTH");
                assertThatThrownBy(() -> anonymous.auth("wrong")).hasMessageStartingWith("WRONGPASS");
                assertThat(anonymous.auth("s3cret-token")).isEqualTo("OK");
                assertThat(anonymous.set("k", "v")).isEqualTo("OK");
            }
            try (Jedis resp3 = new Jedis(new HostAndPort("127.0.0.1", n.port(0)), DefaultJedisClientConfig.builder()
                    .protocol(RedisProtocol.RESP3).password("s3cret-token").build())) {
                assertThat(resp3.get("k")).isEqualTo("v");
                assertThat(resp3.set("k2", "v2")).isEqualTo("OK");
                assertThat(resp3.get("missing")).isNull();
                assertThat(resp3.flushAll()).isEqualTo("OK");
                assertThat(resp3.dbSize()).isZero();
            }
        }
    }

    /**
     * Three credentials over RESP: AUTH takes the client or the admin token, not the peer's (ring traffic only); with
     * god.auth.clear=admin FLUSHALL needs the admin token (-NOPERM for a client's) and changes nothing otherwise.
     */
    @Test
    void authTakesClientOrAdminAndFlushAllNeedsAdminByPolicy() throws Exception {
        try (RespNodes n = new RespNodes(Map.of("god.auth.token", "client-token-1", "god.auth.peer-token",
                "peer-token-22", "god.auth.admin-token", "admin-token-333", "god.auth.clear", "admin")).start(1)) {
            try (Jedis j = jedis(n, 0)) {
                assertThatThrownBy(() -> j.auth("peer-token-22")).hasMessageStartingWith("WRONGPASS");
                assertThat(j.auth("client-token-1")).isEqualTo("OK");
                assertThat(j.set("k", "v")).isEqualTo("OK");
                assertThatThrownBy(j::flushAll).hasMessage("NOPERM DHash.Clear needs Authorization: Bearer"
                        + " <god.auth.admin-token> (god.auth.clear=admin)");
                assertThat(j.get("k")).as("nothing changed").isEqualTo("v");
                assertThat(j.auth("admin-token-333")).isEqualTo("OK");
                assertThat(j.flushAll()).isEqualTo("OK");
                assertThat(j.dbSize()).isZero();
            }
        }
    }

    @Test
    void withProtectedReadsAGetNeedsAuthToo() throws Exception {
        try (RespNodes n = new RespNodes(Map.of("god.auth.token", "s3cret-token", "god.auth.reads", "true")).start(1);
                Jedis j = jedis(n, 0)) {
            assertThatThrownBy(() -> j.get("k")).hasMessageStartingWith("NOAUTH");
            assertThat(j.ping()).isEqualTo("PONG");
            assertThat(j.auth("s3cret-token")).isEqualTo("OK");
            assertThat(j.set("k", "v")).isEqualTo("OK");
            assertThat(j.get("k")).isEqualTo("v");
        }
    }

    /** Any node takes any key: it forwards to the owner, and the other nodes read it back. */
    @Test
    void aRingServesEveryKeyFromEveryNode() throws Exception {
        try (RespNodes n = new RespNodes(Map.of()).start(3); Jedis a = jedis(n, 0); Jedis c = jedis(n, 2)) {
            for (int i = 0; i < 100; i++) {
                a.set("r" + i, "v" + i);
            }
            for (int i = 0; i < 100; i++) {
                assertThat(c.get("r" + i)).isEqualTo("v" + i);
            }
            assertThat(c.dbSize()).isEqualTo(100);
            TreeSet<String> all = new TreeSet<>();
            String cursor = "0";
            do {
                ScanResult<String> page = c.scan(cursor, new ScanParams().count(37));
                all.addAll(page.getResult());
                cursor = page.getCursor();
            } while (!cursor.equals("0"));
            assertThat(all).hasSize(100);
        }
    }

    @Test
    void inlineCommandsAndProtocolErrorsAsRedisAnswersThem() throws Exception {
        try (RespNodes n = new RespNodes(Map.of()).start(1)) {
            assertThat(raw(n.port(0), "PING\r\nSET a b\r\nGET a\r\n", 3)).isEqualTo("+PONG\r\n+OK\r\n$1\r\nb\r\n");
            for (String bad : List.of("*2\r\n$3\r\nGET\r\n$-5\r\n", "*1\r\n$99999999999\r\n", "*abc\r\n",
                    "*9999999\r\n", "*1\r\n:3\r\n")) {
                String answer = rawUntilClosed(n.port(0), bad);
                assertThat(answer).as(bad).startsWith("-ERR Protocol error:");
            }
            assertThat(raw(n.port(0), "PING\r\n", 1)).as("still serving").isEqualTo("+PONG\r\n");
        }
    }

    /**
     * Connections beyond god.resp.max-connections (100 here) are refused with Redis' message; idle connections
     * holding half a command cost little, and the node keeps serving; a command larger than god.limits.body-size is
     * a protocol error however its arguments are split.
     */
    @Test
    void connectionsAndCommandSizesAreBounded() throws Exception {
        try (RespNodes n = new RespNodes(Map.of("god.limits.body-size", "64K")).start(1)) {
            List<Socket> idle = new ArrayList<>();
            try {
                for (int i = 0; i < 99; i++) {
                    Socket s = new Socket("127.0.0.1", n.port(0));
                    s.getOutputStream().write("*2\r\n$3\r\nGET\r\n$10\r\nhalf".getBytes(StandardCharsets.UTF_8));
                    idle.add(s);
                }
                org.awaitility.Awaitility.await().atMost(io.god.testing.TimeScale.seconds(10))
                        .until(() -> n.servers.get(0).connections() == 99);
                try (Jedis last = jedis(n, 0)) {
                    assertThat(last.ping()).as("the 100th connection is served").isEqualTo("PONG");
                    assertThat(rawUntilClosed(n.port(0), "PING\r\n")).as("the 101st")
                            .isEqualTo("-ERR max number of clients reached (god.resp.max-connections)\r\n");
                }
            } finally {
                for (Socket s : idle) {
                    s.close();
                }
            }
            org.awaitility.Awaitility.await().atMost(io.god.testing.TimeScale.seconds(10))
                    .until(() -> n.servers.get(0).connections() == 0);
            StringBuilder big = new StringBuilder("*40\r\n");
            for (int i = 0; i < 40; i++) {
                big.append("$2048\r\n").append("x".repeat(2048)).append("\r\n");
            }
            assertThat(rawUntilClosed(n.port(0), big.toString())).startsWith("-ERR Protocol error: command of more than");
            assertThat(raw(n.port(0), "PING\r\n", 1)).isEqualTo("+PONG\r\n");
        }
    }

    public static String raw(int port, String request, int replies) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            InputStream in = s.getInputStream();
            StringBuilder out = new StringBuilder();
            int lines = 0;
            while (lines < replies + (request.contains("GET") ? 1 : 0)) {
                int c = in.read();
                if (c < 0) {
                    break;
                }
                out.append((char) c);
                if (c == '\n') {
                    lines++;
                }
            }
            return out.toString();
        }
    }

    static String rawUntilClosed(int port, String request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            OutputStream o = s.getOutputStream();
            o.write(request.getBytes(StandardCharsets.UTF_8));
            o.flush();
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
