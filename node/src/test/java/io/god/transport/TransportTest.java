package io.god.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.testing.TimeScale;
import io.god.time.NanoClock;
import io.god.time.Scheduler;
import io.god.wire.Frame;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** TCP and in-memory transports: round trips, deadlines, retries, malformed frames, auth, partitions. */
class TransportTest {

    Vertx vertx;
    ExecutorService workers;
    ScheduledExecutorService timers;
    final java.util.List<Transport> open = new java.util.ArrayList<>();

    @BeforeEach
    void setUp() {
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(2));
        workers = Executors.newCachedThreadPool();
        timers = Executors.newSingleThreadScheduledExecutor();
    }

    @AfterEach
    void tearDown() throws Exception {
        open.forEach(Transport::close);
        workers.shutdownNow();
        timers.shutdownNow();
        vertx.close().toCompletionStage().toCompletableFuture().get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
    }

    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    TcpTransport tcp(int port, String token) {
        return tcp(port, token, 1 << 16);
    }

    TcpTransport tcp(int port, String token, int maxFrame) {
        TcpTransport t = new TcpTransport(vertx, "127.0.0.1", port, "127.0.0.1:" + port, token, maxFrame,
                Duration.ofSeconds(1), workers);
        open.add(t);
        return t;
    }

    static Transport.Handler echo() {
        return (op, payload) -> op == 99 ? new CompletableFuture<>()
                : op == 98 ? CompletableFuture.failedFuture(new IllegalArgumentException("no such thing"))
                : CompletableFuture.completedFuture(payload);
    }

    static TransportException failure(CompletableFuture<?> f) {
        try {
            f.get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            return TransportException.of(e);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("expected a failure");
    }

    @Test
    void tcpRoundTripsPipelinedCallsAndReportsRemoteErrors() throws Exception {
        int port = freePort();
        TcpTransport server = tcp(port, null);
        server.serve(echo());
        TcpTransport client = tcp(0, null);
        List<CompletableFuture<byte[]>> calls = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) {
            calls.add(client.call("127.0.0.1:" + port, 5, new byte[] {(byte) i}, TimeScale.seconds(5)));
        }
        for (int i = 0; i < 200; i++) {
            assertThat(calls.get(i).get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS)).containsExactly((byte) i);
        }
        TransportException e = failure(client.call("127.0.0.1:" + port, 98, new byte[0], TimeScale.seconds(5)));
        assertThat(e.reason()).isEqualTo(TransportException.Reason.REMOTE);
        assertThat(e.getMessage()).isEqualTo("no such thing");
    }

    /**
     * A handler learns when its request can have arrived at the earliest: the previous read of its connection
     * ({@link Arrival}), on the network thread and on the handler pool alike — what the pause watch needs to tell a
     * request that waited in the socket through a pause from one sent after it, however late either is read.
     */
    @Test
    void handlersLearnTheirConnectionsPreviousRead() throws Exception {
        int port = freePort();
        TcpTransport server = tcp(port, null);
        java.util.Map<Integer, Long> after = new java.util.concurrent.ConcurrentHashMap<>();
        server.serve((op, payload) -> {
            after.put((int) payload[0], Arrival.after());
            return CompletableFuture.completedFuture(payload);
        }, (op, payload) -> {
            if (payload[0] % 2 == 0) { // even: answered on the network thread
                after.put((int) payload[0], Arrival.after());
                return payload;
            }
            return null;
        });
        TcpTransport client = tcp(0, null);
        long[] sent = new long[4];
        long[] answered = new long[4];
        for (int i = 0; i < 4; i++) {
            sent[i] = System.nanoTime();
            client.call("127.0.0.1:" + port, 5, new byte[] {(byte) i}, TimeScale.seconds(5))
                    .get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
            answered[i] = System.nanoTime();
        }
        assertThat(after.get(0)).as("the first request: when its connection (made for it) was accepted")
                .isBetween(sent[0], answered[0]);
        for (int i = 1; i < 4; i++) {
            assertThat(after.get(i)).as("request " + i + ": when request " + (i - 1) + " was read")
                    .isBetween(sent[i - 1], answered[i - 1]);
        }
        assertThat(Arrival.after()).as("no request on this thread").isEqualTo(Arrival.UNKNOWN);
    }

    @Test
    void deadlinesAndUnreachablePeers() throws Exception {
        int port = freePort();
        TcpTransport server = tcp(port, null);
        server.serve(echo());
        TcpTransport client = tcp(0, null);
        long start = System.nanoTime();
        TransportException slow = failure(client.call("127.0.0.1:" + port, 99, new byte[0], Duration.ofMillis(150)));
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(slow.reason()).isEqualTo(TransportException.Reason.TIMEOUT);
        assertThat(tookMs).isBetween(100L, TimeScale.seconds(2).toMillis());
        TransportException refused = failure(client.call("127.0.0.1:" + freePort(), 1, new byte[0], TimeScale.seconds(5)));
        assertThat(refused.reason()).isEqualTo(TransportException.Reason.UNREACHABLE);
        // the connection used by the timed-out call still works
        assertThat(client.call("127.0.0.1:" + port, 1, new byte[] {7}, TimeScale.seconds(5)).get(TimeScale.seconds(5).toMillis(), TimeUnit.MILLISECONDS))
                .containsExactly(7);
    }

    @Test
    void retriesWithBackoffReachAPeerThatStartsLateButStopWithinBounds() throws Exception {
        int port = freePort();
        TcpTransport client = tcp(0, null);
        Retry retry = new Retry(client, Scheduler.of(timers), NanoClock.system(), 8, Duration.ofMillis(20));
        CompletableFuture<byte[]> call = retry.call("127.0.0.1:" + port, 1, new byte[] {1}, TimeScale.seconds(5));
        Thread.sleep(150);
        tcp(port, null).serve(echo());
        assertThat(call.get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS)).containsExactly(1);

        Retry bounded = new Retry(client, Scheduler.of(timers), NanoClock.system(), 3, Duration.ofMillis(10));
        long start = System.nanoTime();
        TransportException e = failure(bounded.call("127.0.0.1:" + freePort(), 1, new byte[0], TimeScale.seconds(5)));
        assertThat(e.reason()).isEqualTo(TransportException.Reason.UNREACHABLE);
        assertThat((System.nanoTime() - start) / 1_000_000).as("3 attempts, not the whole deadline").isLessThan(TimeScale.seconds(2).toMillis());
    }

    /**
     * A retry due after its timers stopped (the node is closing) still ends: its next attempts run at once and fail.
     * Dropped, the call never completed and its caller (a replication lane, a Sync writer) waited for its own bound.
     */
    @Test
    void aRetryDueAfterItsTimersStoppedStillFails() throws Exception {
        TcpTransport client = tcp(0, null);
        ScheduledExecutorService stopped = Executors.newSingleThreadScheduledExecutor();
        stopped.shutdown();
        Retry retry = new Retry(client, Scheduler.of(stopped), NanoClock.system(), 3, Duration.ofMillis(10));
        TransportException e = failure(retry.call("127.0.0.1:" + freePort(), 1, new byte[0], TimeScale.seconds(60)));
        assertThat(e.reason()).isEqualTo(TransportException.Reason.UNREACHABLE);
    }

    @Test
    void malformedAndOversizedFramesCloseOnlyThatConnection() throws Exception {
        int port = freePort();
        tcp(port, null).serve(echo());
        for (byte[] junk : List.of(ByteBuffer.allocate(8).putInt(Integer.MAX_VALUE).putInt(0).array(),
                new byte[] {0, 0, 0, 2, 1, 1}, badKind())) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.setSoTimeout(5_000);
                OutputStream out = s.getOutputStream();
                out.write(junk);
                out.flush();
                InputStream in = s.getInputStream();
                assertThat(in.read()).as("server closes the connection").isEqualTo(-1);
            }
        }
        TcpTransport client = tcp(0, null);
        assertThat(client.call("127.0.0.1:" + port, 1, new byte[] {3}, TimeScale.seconds(5)).get(TimeScale.seconds(5).toMillis(), TimeUnit.MILLISECONDS))
                .as("the node still serves").containsExactly(3);
        TransportException big = failure(client.call("127.0.0.1:" + port, 1, new byte[1 << 17], TimeScale.seconds(5)));
        assertThat(big.reason()).isEqualTo(TransportException.Reason.UNREACHABLE);
        assertThat(client.call("127.0.0.1:" + port, 1, new byte[] {4}, TimeScale.seconds(5)).get(TimeScale.seconds(5).toMillis(), TimeUnit.MILLISECONDS))
                .as("a new connection after the oversized frame").containsExactly(4);
    }

    private static byte[] badKind() {
        byte[] f = Frame.request(1, 1, new byte[0]).encode();
        f[12] = 42;
        return f;
    }

    @Test
    void theTokenIsRequiredWhenSet() throws Exception {
        int port = freePort();
        tcp(port, "secret-token").serve(echo());
        assertThat(tcp(0, "secret-token").call("127.0.0.1:" + port, 1, new byte[] {1}, TimeScale.seconds(5))
                .get(TimeScale.seconds(5).toMillis(), TimeUnit.MILLISECONDS)).containsExactly(1);
        TransportException wrong = failure(tcp(0, "wrong-token!").call("127.0.0.1:" + port, 1, new byte[] {1},
                Duration.ofSeconds(5)));
        assertThat(wrong.getMessage()).contains("god.auth.token");
        TransportException none = failure(tcp(0, null).call("127.0.0.1:" + port, 1, new byte[] {1}, TimeScale.seconds(5)));
        assertThat(none.getMessage()).contains("god.auth.token");
    }

    /**
     * With a token, a connection that has not presented it may send frames of at most 64 KiB: a declared 200 KiB frame
     * closes it before anything is buffered. The credential lifts the limit at once — even for a large request sent
     * in the same write right behind it.
     */
    @Test
    void beforeTheTokenAFrameIsAtMost64KiB() throws Exception {
        int port = freePort();
        tcp(port, "secret-token", 1 << 20).serve(echo());
        int large = 200 * 1024;
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(5_000);
            byte[] header = ByteBuffer.allocate(4 + Frame.HEADER).putInt(Frame.HEADER + large).putLong(1)
                    .put(Frame.REQUEST).putShort((short) 1).array();
            s.getOutputStream().write(header);
            s.getOutputStream().flush();
            assertThat(s.getInputStream().read()).as("closed before the frame's bytes were buffered").isEqualTo(-1);
        }
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            byte[] hello = new Frame(7, Frame.HELLO, io.god.wire.Ops.HELLO,
                    "secret-token".getBytes(java.nio.charset.StandardCharsets.UTF_8)).encode();
            byte[] request = Frame.request(8, 1, new byte[large]).encode();
            byte[] both = ByteBuffer.allocate(hello.length + request.length).put(hello).put(request).array();
            s.getOutputStream().write(both); // the credential and a large request in one write
            s.getOutputStream().flush();
            io.god.wire.FrameDecoder replies = new io.god.wire.FrameDecoder(1 << 21);
            List<Frame> got = new java.util.ArrayList<>();
            byte[] buf = new byte[1 << 16];
            while (got.size() < 2) {
                int n = s.getInputStream().read(buf);
                assertThat(n).as("the server answers both frames").isPositive();
                got.addAll(replies.feed(buf, 0, n));
            }
            assertThat(got.get(1).payload()).as("the large request, echoed").hasSize(large);
        }
        assertThat(tcp(0, "secret-token", 1 << 20).call("127.0.0.1:" + port, 1, new byte[large], TimeScale.seconds(5))
                .get(TimeScale.seconds(5).toMillis(), TimeUnit.MILLISECONDS)).as("an authenticated client").hasSize(large);
    }

    /**
     * With a token, a connection that never presents it is closed after god.limits.auth-timeout; connections over
     * god.limits.connections are refused with an error frame naming the setting; the node keeps serving.
     */
    @Test
    void silentConnectionsAreClosedAndConnectionsCapped() throws Exception {
        int port = freePort();
        TcpTransport server = tcp(port, "secret-token");
        server.bounds(TimeScale.millis(300), 3);
        server.serve(echo());
        try (Socket silent = new Socket("127.0.0.1", port)) {
            silent.setSoTimeout((int) TimeScale.seconds(10).toMillis());
            assertThat(silent.getInputStream().read()).as("closed without a hello").isEqualTo(-1);
        }
        List<Socket> held = new java.util.ArrayList<>();
        try {
            TcpTransport client = tcp(0, "secret-token");
            assertThat(client.call("127.0.0.1:" + port, 1, new byte[] {1}, TimeScale.seconds(5))
                    .get(TimeScale.seconds(5).toMillis(), TimeUnit.MILLISECONDS)).containsExactly(1); // connection 1
            for (int i = 0; i < 2; i++) { // connections 2 and 3, authenticated so they stay
                Socket s = new Socket("127.0.0.1", port);
                s.getOutputStream().write(new Frame(1, Frame.HELLO, io.god.wire.Ops.HELLO,
                        "secret-token".getBytes(java.nio.charset.StandardCharsets.UTF_8)).encode());
                held.add(s);
            }
            org.awaitility.Awaitility.await().atMost(TimeScale.seconds(10)).untilAsserted(() -> {
                try (Socket fourth = new Socket("127.0.0.1", port)) {
                    fourth.setSoTimeout((int) TimeScale.seconds(10).toMillis());
                    String answer = new String(fourth.getInputStream().readAllBytes(),
                            java.nio.charset.StandardCharsets.UTF_8);
                    assertThat(answer).contains("more than 3 connections (god.limits.connections)");
                }
            });
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
        org.awaitility.Awaitility.await().atMost(TimeScale.seconds(10)).untilAsserted(() ->
                assertThat(tcp(0, "secret-token").call("127.0.0.1:" + port, 1, new byte[] {2}, TimeScale.seconds(5))
                        .get(TimeScale.seconds(5).toMillis(), TimeUnit.MILLISECONDS)).containsExactly(2));
    }

    @Test
    void inMemoryNetworkDelaysDropsAndPartitions() throws Exception {
        InMemoryNetwork net = new InMemoryNetwork(Scheduler.of(timers), workers, 1);
        Transport a = net.transport("a:1");
        Transport b = net.transport("b:1");
        b.serve(echo());
        a.serve(echo());
        assertThat(a.call("b:1", 1, new byte[] {1}, TimeScale.seconds(1)).get(TimeScale.seconds(5).toMillis(), TimeUnit.MILLISECONDS)).containsExactly(1);
        assertThat(failure(a.call("c:1", 1, new byte[0], TimeScale.seconds(1))).reason())
                .isEqualTo(TransportException.Reason.UNREACHABLE);
        net.partition(List.of("a:1"), List.of("b:1"));
        assertThat(failure(a.call("b:1", 1, new byte[0], Duration.ofMillis(50))).reason())
                .isEqualTo(TransportException.Reason.TIMEOUT);
        net.heal();
        net.delay(Duration.ofMillis(30));
        long start = System.nanoTime();
        assertThat(a.call("b:1", 1, new byte[] {2}, TimeScale.seconds(1)).get(TimeScale.seconds(5).toMillis(), TimeUnit.MILLISECONDS)).containsExactly(2);
        assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(55);
        net.delay(Duration.ZERO);
        net.loss(1.0);
        assertThat(failure(a.call("b:1", 1, new byte[0], Duration.ofMillis(50))).reason())
                .isEqualTo(TransportException.Reason.TIMEOUT);
        net.loss(0);
        assertThat(failure(a.call("b:1", 98, new byte[0], TimeScale.seconds(1))).getMessage()).isEqualTo("no such thing");
        b.close();
        assertThat(failure(a.call("b:1", 1, new byte[0], TimeScale.seconds(1))).reason())
                .isEqualTo(TransportException.Reason.UNREACHABLE);
    }
}
