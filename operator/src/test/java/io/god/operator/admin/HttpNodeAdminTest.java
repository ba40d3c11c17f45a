package io.god.operator.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.god.testing.TimeScale;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The HTTP NodeAdmin against a JDK HttpServer standing in for a node's management port. */
class HttpNodeAdminTest {

    static final String STATUS = """
            {"state":"ACTIVE","position":"7f00000000000000000000000000000a","ringHash":"c0ffee",
             "ring":[{"position":"00","address":"a:9191"},{"position":"7f","address":"b:9191"}],
             "ownedEntries":12,"heldEntries":36,"replicated":true,"lastSyncAt":"2026-11-21T10:00:00Z",
             "lastAliveAt":"2026-11-21T10:00:01Z","collectedUpTo":1732183200000,"quarantinedAt":null,
             "dataBytes":4096,"redundancy":2,"somethingNew":{"x":1}}""";

    static final String LEAVING = """
            {"state":"LEAVING","position":"7f","ringHash":"c0ffee","ring":[],"replicated":true,"dataBytes":10,
             "leave":{"phase":"HANDING_OFF","startedAt":"2026-11-21T10:00:00Z","rangesTotal":6,"rangesConfirmed":2}}""";

    HttpServer server;
    final AtomicReference<String> body = new AtomicReference<>(STATUS);
    final AtomicReference<Integer> code = new AtomicReference<>(200);
    final AtomicReference<String> authorization = new AtomicReference<>();
    final AtomicReference<String> leaveBody = new AtomicReference<>(LEAVING);
    final AtomicReference<Integer> leaveCode = new AtomicReference<>(202);
    final AtomicReference<String> leaveMethod = new AtomicReference<>();
    final CountDownLatch hang = new CountDownLatch(1);
    final AtomicReference<String> removeRequest = new AtomicReference<>();
    final AtomicReference<String> removeBody = new AtomicReference<>("{\"removed\":null,\"expectedMembers\":2}");
    final AtomicReference<Integer> removeCode = new AtomicReference<>(200);

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/admin/status", exchange -> {
            authorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
            if (code.get() == 0) {
                try {
                    hang.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] bytes = body.get().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(code.get() == 0 ? 200 : code.get(), bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.createContext("/admin/leave", exchange -> {
            leaveMethod.set(exchange.getRequestMethod());
            byte[] bytes = leaveBody.get().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(leaveCode.get(), bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.createContext("/admin/remove-member", exchange -> {
            removeRequest.set(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] bytes = removeBody.get().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(removeCode.get(), bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
    }

    @AfterEach
    void stop() {
        hang.countDown();
        server.stop(0);
    }

    HttpNodeAdmin admin(Duration timeout, String token) {
        return new HttpNodeAdmin(timeout, server.getAddress().getPort(), Optional.ofNullable(token));
    }

    /** The node's contract: {"member": position (hex) or address}; 200 removed (or nothing to do), 409 refused. */
    @Test
    void removeMemberNamesTheMemberByPositionAndMapsTheAnswers() {
        HttpNodeAdmin admin = admin(Duration.ofSeconds(2), null);
        assertThat(admin.removeMember("127.0.0.1", "demo-3.demo-peers:9191", "7f").toCompletableFuture().join()
                .outcome()).isEqualTo(RemoveAnswer.Outcome.REMOVED);
        assertThat(removeRequest.get()).isEqualTo("{\"member\":\"7f\"}");
        admin.removeMember("127.0.0.1", "demo-3.demo-peers:9191", null).toCompletableFuture().join();
        assertThat(removeRequest.get()).isEqualTo("{\"member\":\"demo-3.demo-peers:9191\"}");
        removeCode.set(409);
        removeBody.set("{\"error\":\"cannot remove the member: member x is alive in this node's view\"}");
        RemoveAnswer refused = admin.removeMember("127.0.0.1", "a", "7f").toCompletableFuture().join();
        assertThat(refused.outcome()).isEqualTo(RemoveAnswer.Outcome.REFUSED);
        assertThat(refused.detail()).contains("alive");
        removeCode.set(404);
        assertThat(admin.removeMember("127.0.0.1", "a", "7f").toCompletableFuture().join().outcome())
                .isEqualTo(RemoveAnswer.Outcome.UNSUPPORTED);
    }

    @Test
    void readsTheStatusDocumentIgnoringUnknownFields() {
        NodeStatus s = admin(Duration.ofSeconds(2), null).status("127.0.0.1").toCompletableFuture().join();
        assertThat(s.state()).isEqualTo("ACTIVE");
        assertThat(s.drainDone()).isFalse();
        assertThat(s.position()).isEqualTo("7f00000000000000000000000000000a");
        assertThat(s.ringHash()).isEqualTo("c0ffee");
        assertThat(s.ringSize()).isEqualTo(2);
        assertThat(s.replicated()).isTrue();
        assertThat(s.ownedEntries()).isEqualTo(12);
        assertThat(s.heldEntries()).isEqualTo(36);
        assertThat(s.dataBytes()).isEqualTo(4096);
        assertThat(s.lastAliveAt()).isEqualTo("2026-11-21T10:00:01Z");
        assertThat(s.collectedUpTo()).isEqualTo("1732183200000");
        assertThat(s.quarantinedAt()).isNull();
        assertThat(s.redundancy()).isEqualTo(2);
        assertThat(authorization.get()).isNull();
    }

    /** A node of the previous version reports no N; a null or non-number is not a number either. */
    @Test
    void aStatusWithoutRedundancyHasNone() throws IOException {
        assertThat(HttpNodeAdmin.parse(LEAVING).redundancy()).isNull();
        assertThat(HttpNodeAdmin.parse(STATUS.replace("\"redundancy\":2", "\"redundancy\":null")).redundancy()).isNull();
        assertThat(HttpNodeAdmin.parse(STATUS.replace("\"redundancy\":2", "\"redundancy\":\"3\"")).redundancy())
                .isNull();
    }

    @Test
    void sendsTheTokenWhenConfigured() {
        admin(Duration.ofSeconds(2), "s3cret").status("127.0.0.1").toCompletableFuture().join();
        assertThat(authorization.get()).isEqualTo("Bearer s3cret");
    }

    /** Each cluster's calls carry its own admin token; the shared admin itself sends none. */
    @Test
    void withTokenSendsThatClustersToken() {
        HttpNodeAdmin shared = new HttpNodeAdmin(Duration.ofSeconds(2), server.getAddress().getPort());
        shared.withToken("cluster-a-admin").status("127.0.0.1").toCompletableFuture().join();
        assertThat(authorization.get()).isEqualTo("Bearer cluster-a-admin");
        shared.withToken("cluster-b-admin").status("127.0.0.1").toCompletableFuture().join();
        assertThat(authorization.get()).isEqualTo("Bearer cluster-b-admin");
        shared.status("127.0.0.1").toCompletableFuture().join();
        assertThat(authorization.get()).isNull();
        shared.withToken(null).status("127.0.0.1").toCompletableFuture().join();
        assertThat(authorization.get()).isNull();
    }

    @Test
    void failsOnErrorStatusAndOnJunk() {
        code.set(503);
        assertThatThrownBy(() -> admin(Duration.ofSeconds(2), null).status("127.0.0.1").toCompletableFuture().join())
                .isInstanceOf(CompletionException.class).hasMessageContaining("answered 503");
        code.set(200);
        body.set("<html>hello</html>");
        assertThatThrownBy(() -> admin(Duration.ofSeconds(2), null).status("127.0.0.1").toCompletableFuture().join())
                .isInstanceOf(CompletionException.class).hasCauseInstanceOf(IOException.class);
        body.set("{\"position\":\"00\"}");
        assertThatThrownBy(() -> admin(Duration.ofSeconds(2), null).status("127.0.0.1").toCompletableFuture().join())
                .hasMessageContaining("no state");
    }

    @Test
    void aHangingNodeTimesOut() {
        code.set(0);
        long start = System.nanoTime();
        assertThatThrownBy(() -> admin(Duration.ofMillis(300), null).status("127.0.0.1").toCompletableFuture().join())
                .isInstanceOf(CompletionException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TimeScale.seconds(3));
    }

    @Test
    void leavePostsAndReadsTheProgress() {
        LeaveAnswer answer = admin(Duration.ofSeconds(2), "t").leave("127.0.0.1").toCompletableFuture().join();
        assertThat(leaveMethod.get()).isEqualTo("POST");
        assertThat(answer.refused()).isFalse();
        assertThat(answer.status().state()).isEqualTo("LEAVING");
        assertThat(answer.status().leave()).isEqualTo(new NodeStatus.LeaveProgress("HANDING_OFF", "2026-11-21T10:00:00Z", 6, 2));
        assertThat(authorization.get()).as("the status handler did not run").isNull();

        leaveCode.set(200);
        leaveBody.set(LEAVING.replace("LEAVING", "LEFT").replace("\"rangesConfirmed\":2", "\"rangesConfirmed\":6"));
        answer = admin(Duration.ofSeconds(2), null).leave("127.0.0.1").toCompletableFuture().join();
        assertThat(answer.status().state()).isEqualTo("LEFT");
        assertThat(answer.status().leave().rangesConfirmed()).isEqualTo(6);
    }

    /** What the operator needs before it may delete a member's PVC: LEFT, leave phase DONE and nothing held. */
    @Test
    void onlyLeftWithItsLeaveDoneAndNothingHeldIsAFinishedDrain() throws IOException {
        String done = LEAVING.replace("\"LEAVING\"", "\"LEFT\"").replace("HANDING_OFF", "DONE")
                .replace("\"replicated\"", "\"heldEntries\":0,\"replicated\"");
        assertThat(HttpNodeAdmin.parse(done).drainDone()).isTrue();
        assertThat(HttpNodeAdmin.parse(done.replace("DONE", "LEFT_RING")).drainDone()).as("still confirming").isFalse();
        assertThat(HttpNodeAdmin.parse(done.replace("\"heldEntries\":0", "\"heldEntries\":5")).drainDone())
                .as("still holding entries").isFalse();
        NodeStatus shuttingDown = HttpNodeAdmin.parse(STATUS.replace("ACTIVE", "LEFT"));
        assertThat(shuttingDown.drainDone()).as("a node that is shutting down reports LEFT with its data").isFalse();
        assertThat(shuttingDown.drainNotDoneReason()).isEqualTo("state LEFT, leave phase none, 36 entries held");
    }

    @Test
    void aRefusedLeaveCarriesTheNodesReason() {
        leaveCode.set(409);
        leaveBody.set("{\"error\":\"ring not replicated\"}");
        LeaveAnswer answer = admin(Duration.ofSeconds(2), null).leave("127.0.0.1").toCompletableFuture().join();
        assertThat(answer.refused()).isTrue();
        assertThat(answer.refusal()).isEqualTo("ring not replicated");

        leaveBody.set("{\"error\":\"already LEFT\"}");
        answer = admin(Duration.ofSeconds(2), null).cancelLeave("127.0.0.1").toCompletableFuture().join();
        assertThat(leaveMethod.get()).isEqualTo("DELETE");
        assertThat(answer.refusal()).isEqualTo("already LEFT");
    }

    @Test
    void cancelLeaveReturnsTheStatusAndOtherCodesFail() {
        leaveCode.set(200);
        leaveBody.set(STATUS);
        LeaveAnswer answer = admin(Duration.ofSeconds(2), null).cancelLeave("127.0.0.1").toCompletableFuture().join();
        assertThat(answer.status().state()).isEqualTo("ACTIVE");
        assertThat(answer.status().leave()).isNull();

        leaveCode.set(500);
        assertThatThrownBy(() -> admin(Duration.ofSeconds(2), null).leave("127.0.0.1").toCompletableFuture().join())
                .isInstanceOf(CompletionException.class).hasMessageContaining("answered 500");
    }
}
