package io.god.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.limits.NodeChild;
import io.god.testing.TimeScale;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * Hostile connections against a node in its own process (issue 30): 5 000 connections that never send a byte, 200
 * that stop in the middle of a large argument, 100 that send garbage. The garbage ones are answered with a Redis-style
 * protocol error and closed; the node's resident memory grows by a bounded amount; one more client is served at
 * once, writes and reads included.
 */
class RespIdleConnectionsTest {

    static final int IDLE = 5_000;
    static final int PARTIAL = 200;
    static final int GARBAGE = 100;
    /** Bytes of a 1 MiB argument each partial connection sends before it stops. */
    static final int PARTIAL_BYTES = 64 * 1024;

    @TempDir
    Path tmp;

    @Test
    void idlePartialAndGarbageConnectionsLeaveTheNodeServingWithinBoundedMemory() throws Exception {
        long fds = ((com.sun.management.UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getMaxFileDescriptorCount();
        int total = IDLE + PARTIAL + GARBAGE;
        Assumptions.assumeTrue(fds > total + 1_000L, "this process may open " + fds + " files; the test needs "
                + (total + 1_000) + " (ulimit -n)");
        Path out = tmp.resolve("node.out");
        NodeChild.Started child = NodeChild.start(out, "-Xmx256m", NodeChild.RESP + "=" + (total + 100),
                "god.resp.port=0");
        List<SocketChannel> open = new ArrayList<>(total);
        try {
            int port = NodeChild.respPort(out);
            assertThat(port).as("RESP port printed in " + out).isPositive();
            int timeout = (int) TimeScale.seconds(30).toMillis(); // a fresh child JVM on a loaded machine is slow
            try (Jedis j = new Jedis("127.0.0.1", port, timeout)) {
                assertThat(j.set("before", "1")).isEqualTo("OK"); // warm: the baseline includes a served command
            }
            long before = rssKiB(child.process().pid());
            for (int i = 0; i < IDLE; i++) {
                open.add(SocketChannel.open(new InetSocketAddress("127.0.0.1", port)));
            }
            byte[] partial = ("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1048576\r\n" + "x".repeat(PARTIAL_BYTES))
                    .getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < PARTIAL; i++) {
                SocketChannel c = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
                writeAll(c, partial);
                open.add(c);
            }
            List<Socket> garbage = new ArrayList<>();
            try {
                for (int i = 0; i < GARBAGE; i++) {
                    Socket c = new Socket("127.0.0.1", port);
                    c.setSoTimeout((int) TimeScale.seconds(20).toMillis());
                    garbage.add(c);
                    c.getOutputStream().write("*x\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                for (Socket c : garbage) { // answered, then closed by the node (read until end of stream)
                    assertThat(new String(c.getInputStream().readAllBytes(), StandardCharsets.US_ASCII))
                            .startsWith("-ERR Protocol error: invalid multibulk length");
                }
            } finally {
                for (Socket c : garbage) {
                    c.close();
                }
            }
            try (Jedis j = new Jedis("127.0.0.1", port, timeout)) {
                assertThat(j.ping()).isEqualTo("PONG");
                assertThat(j.set("after", "2")).isEqualTo("OK");
                assertThat(j.get("before")).isEqualTo("1");
                assertThat(j.get("after")).isEqualTo("2");
                await().atMost(TimeScale.seconds(20)).untilAsserted(() -> assertThat(j.info("clients"))
                        .contains("connected_clients:" + (IDLE + PARTIAL + 1)));
            }
            long grown = rssKiB(child.process().pid()) - before;
            System.out.printf("RESP: %d idle, %d partial (%d KiB each), %d garbage connections: RSS +%d MiB%n", IDLE,
                    PARTIAL, PARTIAL_BYTES / 1024, GARBAGE, grown / 1024);
            // 200 partial arguments hold 12.5 MiB; the rest is per-connection state and heap the JVM touched (-Xmx256m)
            assertThat(grown).as("RSS growth in KiB").isLessThan(256 * 1024L);
            assertThat(child.process().isAlive()).isTrue();
        } finally {
            for (SocketChannel c : open) {
                try {
                    c.close();
                } catch (IOException e) {
                    // closing our own sockets: nothing to do
                }
            }
            child.process().destroyForcibly();
            child.process().waitFor();
        }
    }

    private static void writeAll(SocketChannel c, byte[] bytes) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
            c.write(b);
        }
    }

    private static long rssKiB(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no VmRSS for " + pid);
    }
}
