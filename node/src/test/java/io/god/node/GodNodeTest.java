package io.god.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.api.JsonRpc;
import io.god.persist.PersistenceException;
import io.god.testing.TimeScale;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bootstrap without Quarkus: restart on the same data dir, identity, timestamps, GC, several nodes. */
class GodNodeTest {

    @TempDir
    Path tmp;

    static NodeSettings settings(String advertise, Path dir, String... more) {
        Map<String, String> m = new HashMap<>();
        m.put("god.node.advertise", advertise);
        if (dir != null) {
            m.put("god.data-dir", dir.toString());
        }
        for (int i = 0; i < more.length; i += 2) {
            m.put(more[i], more[i + 1]);
        }
        return NodeSettings.of(m);
    }

    static String s(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    static String ok(JsonRpc rpc, String method, String body) {
        JsonRpc.Response r = rpc.handle("DHash." + method, body.getBytes(StandardCharsets.UTF_8), null);
        assertThat(r.status()).as(method + " " + body + ": " + r.text()).isEqualTo(200);
        return r.text();
    }

    @Test
    void restartOnTheSameDataDirKeepsEverythingTombstonesToo() {
        Path dir = tmp.resolve("node");
        String position;
        String describeTree;
        try (GodNode node = GodNode.start(settings("127.0.0.2:9191", dir, "god.persistence.fsync", "always"))) {
            JsonRpc rpc = new JsonRpc(node);
            ok(rpc, "Put", "{\"Key\":\"" + s("live") + "\",\"Value\":\"" + s("v") + "\"}");
            ok(rpc, "Put", "{\"Key\":\"" + s("dead") + "\",\"Value\":\"" + s("v") + "\"}");
            ok(rpc, "Del", "{\"Key\":\"" + s("dead") + "\"}");
            ok(rpc, "Del", "{\"Key\":\"" + s("never") + "\"}");
            ok(rpc, "SubAddConfiguration", "{\"TreeKey\":\"" + s("t") + "\",\"Key\":\"mirrored\",\"Value\":\"yes\"}");
            ok(rpc, "SubPut", "{\"Key\":\"" + s("t") + "\",\"SubKey\":\"" + s("a") + "\",\"Value\":\"" + s("2") + "\"}");
            ok(rpc, "SubPut", "{\"Key\":\"" + s("t") + "\",\"SubKey\":\"" + s("b") + "\",\"Value\":\"" + s("1") + "\"}");
            ok(rpc, "SubDel", "{\"Key\":\"" + s("t") + "\",\"SubKey\":\"" + s("a") + "\"}");
            ok(rpc, "AddConfiguration", "{\"Key\":\"k\",\"Value\":\"v\"}");
            ok(rpc, "SetExpression", "{\"Code\":\"(U:ConCat t)\",\"Dest\":\"" + s("copy") + "\"}");
            position = ok(rpc, "Nodes", "{}");
            describeTree = ok(rpc, "DescribeTree", "{}");
            assertThat(node.store().dataBytes()).isPositive();
        }
        try (GodNode again = GodNode.start(settings("127.0.0.2:9191", dir))) {
            JsonRpc rpc = new JsonRpc(again);
            assertThat(ok(rpc, "Nodes", "{}")).as("same ring position").isEqualTo(position);
            assertThat(ok(rpc, "DescribeTree", "{}")).as("same content, tombstones included").isEqualTo(describeTree);
            assertThat(again.store().state().get("dead".getBytes(StandardCharsets.UTF_8)).timestamp())
                    .as("the tombstone survived with its timestamp").isPositive();
            assertThat(ok(rpc, "Get", "{\"Key\":\"" + s("live") + "\"}")).contains("\"Exists\":true");
            assertThat(ok(rpc, "MirrorSlice", "{\"Key\":\"" + s("t") + "\"}"))
                    .isEqualTo("[{\"Key\":\"" + s("1") + "\",\"Value\":\"" + s("b") + "\",\"Exists\":true}]");
            assertThat(ok(rpc, "Slice", "{\"Key\":\"" + s("copy") + "\"}")).contains(s("b"));
            assertThat(ok(rpc, "Configuration", "{}")).contains("\"k\":\"v\"");
            // new writes are stamped after everything recovered
            long before = again.timestamps().last();
            ok(rpc, "Put", "{\"Key\":\"" + s("dead") + "\",\"Value\":\"" + s("back") + "\"}");
            assertThat(again.timestamps().last()).isGreaterThan(before);
            assertThat(ok(rpc, "Get", "{\"Key\":\"" + s("dead") + "\"}")).contains(s("back"));
        }
    }

    @Test
    void severalNodesInOneJvmOnLoopbackAddresses() {
        try (GodNode a = GodNode.start(settings("127.0.0.2:9191", tmp.resolve("a")));
             GodNode b = GodNode.start(settings("127.0.0.3:9191", tmp.resolve("b")));
             GodNode c = GodNode.start(settings("127.0.0.4:9191", null))) {
            ok(new JsonRpc(a), "Put", "{\"Key\":\"" + s("x") + "\",\"Value\":\"" + s("a") + "\"}");
            assertThat(ok(new JsonRpc(b), "Get", "{\"Key\":\"" + s("x") + "\"}")).contains("\"Exists\":false");
            assertThat(ok(new JsonRpc(c), "Nodes", "{}")).contains("127.0.0.4:9191");
            assertThat(a.position()).isNotEqualTo(b.position());
            assertThat(c.store().durable()).isFalse();
        }
    }

    @Test
    void aDataDirectoryIsUsedByOneNodeAtATime() {
        try (GodNode a = GodNode.start(settings("127.0.0.2:9191", tmp.resolve("shared")))) {
            assertThatThrownBy(() -> GodNode.start(settings("127.0.0.3:9191", tmp.resolve("shared"))))
                    .isInstanceOf(PersistenceException.class).hasMessageContaining(tmp.resolve("shared").toString());
            assertThat(a.ready()).isTrue();
        }
    }

    @Test
    void timestampsNeverGoBackwards() {
        AtomicLong now = new AtomicLong(1_000);
        Timestamps ts = new Timestamps(now::get);
        assertThat(ts.next()).isEqualTo(1_000);
        assertThat(ts.next()).isEqualTo(1_001);
        now.set(500); // the clock steps back
        assertThat(ts.next()).isEqualTo(1_002);
        now.set(5_000);
        assertThat(ts.next()).isEqualTo(5_000);
        ts.advanceTo(10_000);
        assertThat(ts.next()).isEqualTo(10_001);
    }

    @Test
    void backgroundCollectionRemovesExpiredTombstonesAndCloseStopsIt() throws Exception {
        AtomicLong now = new AtomicLong(Duration.ofDays(1000).toNanos());
        GodNode node = GodNode.start(settings("127.0.0.2:9191", null, "god.tombstone-window", "1h",
                "god.gc.interval", "10ms"), now::get);
        JsonRpc rpc = new JsonRpc(node);
        ok(rpc, "Del", "{\"Key\":\"" + s("gone") + "\"}");
        assertThat(ok(rpc, "Owned", "{}")).isEqualTo("1");
        now.addAndGet(Duration.ofHours(2).toNanos());
        long deadline = System.nanoTime() + TimeScale.seconds(10).toNanos();
        while (node.store().state().realSize() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(ok(rpc, "Owned", "{}")).isEqualTo("0");
        assertThat(node.store().collectedUpTo()).isPositive();
        node.close();
        assertThat(node.ready()).isFalse();
        node.close(); // idempotent
    }

    @Test
    void concurrentWritersThroughTheHandlerLoseNothing() throws Exception {
        try (GodNode node = GodNode.start(settings("127.0.0.2:9191", tmp.resolve("c")))) {
            JsonRpc rpc = new JsonRpc(node);
            Thread[] writers = new Thread[4];
            for (int t = 0; t < writers.length; t++) {
                int id = t;
                writers[t] = new Thread(() -> {
                    for (int i = 0; i < 500; i++) {
                        ok(rpc, "SubPut", "{\"Key\":\"" + s("t") + "\",\"SubKey\":\"" + s(id + "-" + i)
                                + "\",\"Value\":\"" + s("v") + "\"}");
                    }
                });
                writers[t].start();
            }
            for (Thread w : writers) {
                w.join();
            }
            assertThat(ok(rpc, "SubSize", "{\"Key\":\"" + s("t") + "\"}")).isEqualTo("2000");
        }
    }

    @Test
    void adminStatusOfADurableNode() {
        AtomicLong now = new AtomicLong(Duration.ofDays(1000).toNanos());
        try (GodNode node = GodNode.start(settings("127.0.0.5:7000", tmp.resolve("s"), "god.tombstone-window", "1h"),
                now::get)) {
            JsonRpc rpc = new JsonRpc(node);
            ok(rpc, "Del", "{\"Key\":\"" + s("x") + "\"}");
            ok(rpc, "Put", "{\"Key\":\"" + s("y") + "\",\"Value\":\"" + s("v") + "\"}");
            io.god.api.AdminStatus before = io.god.api.AdminStatus.of(node);
            assertThat(before.collectedUpTo()).isNull();
            assertThat(before.ownedEntries()).isEqualTo(2);
            assertThat(before.dataBytes()).isPositive();
            now.addAndGet(Duration.ofHours(2).toNanos());
            node.collectGarbage();
            io.god.api.AdminStatus after = io.god.api.AdminStatus.of(node);
            assertThat(after.collectedUpTo()).isEqualTo("1972-09-27T00:00:00Z");
            assertThat(after.ownedEntries()).isEqualTo(1);
            assertThat(after.address()).isEqualTo("127.0.0.5:7000");
            assertThat(after.ring()).singleElement().satisfies(m -> assertThat(m.position()).isEqualTo(after.position()));
            assertThat(after.ringHash()).isEqualTo(before.ringHash());
        }
        assertThat(io.god.command.NodeViews.rfc3339(1_500_000_000L)).isEqualTo("1970-01-01T00:00:01.5Z");
        assertThat(io.god.command.NodeViews.rfc3339(0)).isEqualTo("1970-01-01T00:00:00Z");
        assertThat(io.god.command.NodeViews.rfc3339(123)).isEqualTo("1970-01-01T00:00:00.000000123Z");
    }
}
