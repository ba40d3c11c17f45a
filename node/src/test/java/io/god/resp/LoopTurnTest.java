package io.god.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.persist.PersistenceObserver;
import io.god.testing.TimeScale;
import io.netty.util.concurrent.EventExecutor;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * The SETs and GETs that several connections' commands bring to an event loop in one turn run together
 * ({@link LoopTurn}): their keys prefetched side by side, one log append per loop and turn instead of one a SET, each
 * command still checked and answered as it would be alone.
 */
class LoopTurnTest {

    private static final String TOKEN = "loop-token";

    @Test
    void setsOfManyConnectionsReadInOneTurnAreOneAppendAndEachIsCheckedAlone(@TempDir Path dir) throws Exception {
        try (RespNodes n = new RespNodes(Map.of("god.data-dir", dir.toString(), "god.persistence.fsync", "everysec",
                "god.limits.value-size", "1k", "god.auth.token", TOKEN)).start(1)) {
            List<Socket> clients = new ArrayList<>();
            try {
                connect(n, clients, 15);
                AtomicInteger appends = new AtomicInteger();
                AtomicInteger records = new AtomicInteger();
                n.rings.nodes.get(0).store().observe(new PersistenceObserver() {
                    @Override
                    public void appended(long nanos, int count) {
                        appends.incrementAndGet();
                        records.addAndGet(count);
                    }
                });
                String big = "x".repeat(2000);
                CountDownLatch release = new CountDownLatch(1);
                int loops = stopEventLoops(n, release);
                try { // every client's SET waits in its socket until the loops go on: one turn reads them all
                    for (int i = 0; i < 16; i++) {
                        clients.get(i).getOutputStream().write(command("SET", "k" + i, i == 7 ? big : "v" + i));
                    }
                } finally {
                    release.countDown();
                }
                for (int i = 0; i < 16; i++) {
                    String reply = reply(clients.get(i));
                    if (i == 7) {
                        assertThat(reply).startsWith("-ERR ").contains("god.limits.value-size");
                    } else if (i == 15) {
                        assertThat(reply).startsWith("-NOAUTH");
                    } else {
                        assertThat(reply).as("client %d", i).isEqualTo("+OK");
                    }
                }
                assertThat(records.get()).as("the admitted SETs, each logged").isEqualTo(14);
                assertThat(appends.get()).as("appends of 14 SETs read in one turn of the listener's two event loops"
                        + " (%d loops held)", loops).isLessThanOrEqualTo(2);
            } finally {
                for (Socket s : clients) {
                    s.close();
                }
            }
            try (Jedis j = RespTest.jedis(n, 0)) {
                j.auth(TOKEN);
                for (int i = 0; i < 15; i++) {
                    assertThat(j.get("k" + i)).as("k%d", i).isEqualTo(i == 7 ? null : "v" + i);
                }
                assertThat(j.get("k15")).as("the anonymous SET wrote nothing").isNull();
            }
        }
    }

    @Test
    void getsAndSetsOfManyConnectionsReadInOneTurnRunTogetherAndEachAnswersAsAlone() throws Exception {
        try (RespNodes n = new RespNodes(Map.of("god.auth.token", TOKEN, "god.auth.reads", "true")).start(1)) {
            try (Jedis j = RespTest.jedis(n, 0)) {
                j.auth(TOKEN);
                for (int i = 0; i < 6; i++) {
                    j.set("g" + i, "v" + i);
                }
                j.hset("h", "f", "x");
            }
            List<Socket> clients = new ArrayList<>();
            try {
                connect(n, clients, 13);
                long before = n.servers.get(0).keysPrefetchedInTurns();
                CountDownLatch release = new CountDownLatch(1);
                stopEventLoops(n, release);
                try { // one turn reads them all: GETs of present keys, SETs, a miss, a hash, a GET after a SET
                    for (int i = 0; i < 16; i++) {
                        byte[] c = i < 6 ? command("GET", "g" + i) : i < 11 ? command("SET", "s" + i, "w" + i)
                                : i == 11 ? command("GET", "missing") : i == 12 ? command("GET", "h")
                                : i == 13 ? command("GET", "g0") : i == 14 ? concat(command("SET", "p", "1"),
                                command("GET", "p")) : command("GET", "s6");
                        clients.get(i).getOutputStream().write(c);
                    }
                } finally {
                    release.countDown();
                }
                for (int i = 0; i < 6; i++) {
                    assertThat(bulk(clients.get(i))).as("client %d", i).isEqualTo("v" + i);
                }
                for (int i = 6; i < 11; i++) {
                    assertThat(reply(clients.get(i))).as("client %d", i).isEqualTo("+OK");
                }
                assertThat(bulk(clients.get(11))).as("a GET of a missing key").isNull();
                assertThat(reply(clients.get(12))).as("a GET of a hash").startsWith("-WRONGTYPE");
                assertThat(reply(clients.get(13))).as("an anonymous GET").startsWith("-NOAUTH");
                assertThat(reply(clients.get(14))).isEqualTo("+OK");
                assertThat(bulk(clients.get(14))).as("a GET after its connection's SET sees it").isEqualTo("1");
                assertThat(bulk(clients.get(15))).as("a GET of a key another connection sets in the same turn")
                        .isIn(null, "w6");
                // without the GETs in the group only the SETs' keys (six at most) would have been prefetched
                assertThat(n.servers.get(0).keysPrefetchedInTurns() - before)
                        .as("keys of the turn's GETs and SETs read side by side").isGreaterThanOrEqualTo(14);
                clients.get(15).getOutputStream().write(command("GET", "s6"));
                assertThat(bulk(clients.get(15))).as("the SET is there after the turn").isEqualTo("w6");
            } finally {
                for (Socket s : clients) {
                    s.close();
                }
            }
        }
    }

    /**
     * A turn whose log append fails (the disk is full) refuses each of its SETs with the append's error and applies
     * none of them; the GETs read in the same turn answer as alone: the values before, also of the keys the refused
     * SETs named. Once the disk has room the next SET is acknowledged, and a restart finds only what was.
     */
    @Test
    void aTurnWhoseAppendFailsRefusesItsSetsAndItsGetsReadTheValuesBefore(@TempDir Path dir) throws Exception {
        Map<String, String> settings = Map.of("god.data-dir", dir.toString(), "god.persistence.fsync", "everysec",
                "god.auth.token", TOKEN);
        io.god.persist.ForwardingDisk disk = new io.god.persist.ForwardingDisk();
        try (RespNodes n = new RespNodes(settings)) {
            n.rings.disk = disk;
            n.start(1);
            try (Jedis j = RespTest.jedis(n, 0)) {
                j.auth(TOKEN);
                for (int i = 0; i < 16; i++) {
                    j.set("f" + i, "old" + i);
                }
            }
            List<Socket> clients = new ArrayList<>();
            try {
                connect(n, clients, -1);
                CountDownLatch release = new CountDownLatch(1);
                stopEventLoops(n, release);
                try { // one turn a loop: the even clients SET a key, each odd one GETs the key its neighbour SETs
                    disk.logBudget.set(10); // the next append writes 10 bytes, then the disk is full
                    for (int i = 0; i < 16; i++) {
                        clients.get(i).getOutputStream().write(i % 2 == 0 ? command("SET", "f" + i, "new" + i)
                                : command("GET", "f" + (i - 1)));
                    }
                } finally {
                    release.countDown();
                }
                for (int i = 0; i < 16; i += 2) {
                    assertThat(reply(clients.get(i))).as("client %d", i).startsWith("-ERR ")
                            .contains("No space left on device");
                    assertThat(bulk(clients.get(i + 1))).as("client %d", i + 1).isEqualTo("old" + i);
                }
                disk.logBudget.set(-1);
                assertThat(roundTrip(clients.get(0), command("SET", "f0", "newer"))).isEqualTo("+OK");
            } finally {
                for (Socket s : clients) {
                    s.close();
                }
            }
        }
        try (RespNodes n = new RespNodes(settings).start(1); Jedis j = RespTest.jedis(n, 0)) {
            j.auth(TOKEN);
            for (int i = 0; i < 16; i++) {
                assertThat(j.get("f" + i)).as("f%d after a restart", i).isEqualTo(i == 0 ? "newer" : "old" + i);
            }
        }
    }

    /**
     * Opens sixteen connections into {@code clients}, each authenticated but {@code anonymous}'s: every connection is
     * open and served before the loops stop.
     */
    private static void connect(RespNodes n, List<Socket> clients, int anonymous) throws Exception {
        for (int i = 0; i < 16; i++) {
            Socket s = new Socket("127.0.0.1", n.port(0));
            s.setSoTimeout((int) TimeScale.seconds(30).toMillis());
            clients.add(s);
            assertThat(roundTrip(s, i == anonymous ? command("PING") : command("AUTH", TOKEN)))
                    .isEqualTo(i == anonymous ? "+PONG" : "+OK");
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    /** A bulk string reply, or null for a nil one. */
    private static String bulk(Socket s) throws Exception {
        String head = reply(s);
        assertThat(head).as("a bulk reply").startsWith("$");
        return head.equals("$-1") ? null : reply(s);
    }

    /** Holds every event loop of the RESP listeners' Vert.x until {@code release}; returns how many it holds. */
    private static int stopEventLoops(RespNodes n, CountDownLatch release) throws InterruptedException {
        List<EventExecutor> loops = new ArrayList<>();
        n.vertx.nettyEventLoopGroup().forEach(loops::add);
        CountDownLatch held = new CountDownLatch(loops.size());
        for (EventExecutor loop : loops) {
            loop.execute(() -> {
                held.countDown();
                try {
                    release.await(TimeScale.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        assertThat(held.await(TimeScale.seconds(30).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        return loops.size();
    }

    private static byte[] command(String... args) {
        StringBuilder b = new StringBuilder("*").append(args.length).append("\r\n");
        for (String a : args) {
            b.append('$').append(a.length()).append("\r\n").append(a).append("\r\n");
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String roundTrip(Socket s, byte[] request) throws Exception {
        s.getOutputStream().write(request);
        return reply(s);
    }

    /** One line reply, without its CRLF. */
    private static String reply(Socket s) throws Exception {
        InputStream in = s.getInputStream();
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            assertThat(c).as("the connection closed before a reply").isNotNegative();
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }
}
