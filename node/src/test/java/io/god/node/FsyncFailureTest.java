package io.god.node;

import static io.god.node.GodNodeTest.s;
import static io.god.node.GodNodeTest.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.api.JsonRpc;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a node does when an fsync of its log fails (PostgreSQL's "fsyncgate": after a failed fsync the page
 * cache can no longer be trusted, so never retry and carry on): the write waiting for it is refused, every
 * later write too, its liveness goes DOWN, and after a restart every acknowledged write is there. The fault
 * comes from {@code god.testing.fail-fsync} and its trigger file, as in the fault campaign's nemesis.
 */
class FsyncFailureTest {

    @TempDir
    Path tmp;

    private static JsonRpc.Response put(JsonRpc rpc, String key) {
        String body = "{\"Key\":\"" + s(key) + "\",\"Value\":\"" + s("v-" + key) + "\"}";
        return rpc.handle("DHash.Put", body.getBytes(StandardCharsets.UTF_8), null);
    }

    private static boolean present(JsonRpc rpc, String key) {
        JsonRpc.Response r = rpc.handle("DHash.Get", ("{\"Key\":\"" + s(key) + "\"}").getBytes(StandardCharsets.UTF_8), null);
        assertThat(r.status()).as(r.text()).isEqualTo(200);
        return r.text().contains("\"Exists\":true");
    }

    @Test
    void aWriteWhoseFsyncFailsIsNotAcknowledgedTheNodeIsNotLiveAndARestartKeepsEveryAcknowledgedWrite()
            throws Exception {
        Path dir = tmp.resolve("node");
        Path trigger = dir.resolve(NodeSettings.FAIL_FSYNC_TRIGGER);
        List<String> acked = new ArrayList<>();
        try (GodNode node = GodNode.start(settings("127.0.0.2:9191", dir, "god.node.port", "0",
                "god.persistence.fsync", "always", NodeSettings.TESTING_FAIL_FSYNC, "true"))) {
            JsonRpc rpc = new JsonRpc(node);
            for (int i = 0; i < 20; i++) {
                JsonRpc.Response r = put(rpc, "k" + i);
                assertThat(r.status()).as(r.text()).isEqualTo(200);
                acked.add("k" + i);
            }
            assertThat(node.supervisor().dead()).isEmpty();

            Files.createFile(trigger);
            JsonRpc.Response failed = put(rpc, "during");
            assertThat(failed.status()).as("the write whose fsync failed").isNotEqualTo(200);
            assertThat(failed.text()).contains("not acknowledged");
            Files.delete(trigger);
            // the disk works again, but the page cache's state is unknown: no retry, the log stays refused
            JsonRpc.Response after = put(rpc, "after");
            assertThat(after.status()).as("a write after the failed fsync").isNotEqualTo(200);
            assertThat(after.text()).contains("failed earlier");
            assertThat(node.supervisor().dead()).as("liveness DOWN").singleElement().asString()
                    .startsWith("wal-fsync: failed: java.io.IOException: fsync of ").contains("injected");
            assertThat(present(rpc, "after")).as("a refused write is not applied").isFalse();
        }
        try (GodNode again = GodNode.start(settings("127.0.0.2:9191", dir, "god.node.port", "0"))) {
            JsonRpc rpc = new JsonRpc(again);
            for (String k : acked) {
                assertThat(present(rpc, k)).as("acknowledged %s after the restart", k).isTrue();
            }
            assertThat(present(rpc, "after")).isFalse();
            assertThat(again.supervisor().dead()).as("live again after the restart").isEmpty();
            JsonRpc.Response r = put(rpc, "later");
            assertThat(r.status()).as(r.text()).isEqualTo(200);
        }
    }

    @Test
    void theSettingIsOffByDefaultAndNeedsADataDirectory() {
        Path dir = tmp.resolve("off");
        assertThat(settings("127.0.0.2:9191", dir).failFsync()).isFalse();
        assertThatThrownBy(() -> settings("127.0.0.2:9191", null, NodeSettings.TESTING_FAIL_FSYNC, "true"))
                .hasMessageStartingWith("god.testing.fail-fsync: is true but god.data-dir is not set");
        assertThatThrownBy(() -> settings("127.0.0.2:9191", dir, NodeSettings.TESTING_FAIL_FSYNC, "yes"))
                .hasMessageStartingWith("god.testing.fail-fsync: must be true or false, was 'yes'");
    }
}
