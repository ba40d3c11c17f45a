package io.god.cluster;

import static io.god.cluster.Rings.b64;
import static io.god.cluster.Rings.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.events.Event;
import io.god.node.GodNode;
import io.god.ring.Member;
import io.god.ring.Ring;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.tree.Entry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A node joins a loaded N=2 ring: it receives exactly its ranges and the old holders clean up. */
@ScaledTimeout(120)
class CleanerTest {

    static final Duration CONVERGE = TimeScale.seconds(20);

    @TempDir
    Path tmp;

    /** Keys spread over the whole ring (as hashed keys are), so the joiner's range holds some. */
    static byte[] key(int k) {
        return java.nio.ByteBuffer.allocate(4).putInt(k * 0x9E3779B1).array();
    }

    @Test
    void aJoiningNodeReceivesItsRangesAndOldHoldersCleanUp() throws Exception {
        try (Rings rings = new Rings()) {
            rings.extra.put("god.sync.interval", "1h");
            rings.extra.put("god.redundancy", "2");
            String seeds = rings.address(0);
            for (int i = 0; i < 3; i++) {
                rings.start(i, tmp.resolve("r" + i), seeds);
            }
            await().atMost(CONVERGE).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 3);
            int keys = 400;
            for (int k = 0; k < keys; k++) {
                call(rings.rpcs.get(k % 3), "Put", "{\"Key\":\"" + java.util.Base64.getEncoder().encodeToString(key(k))
                        + "\",\"Value\":\"" + b64("v" + k) + "\",\"Sync\":true}");
            }
            EventLog log = new EventLog(rings.running());
            rings.start(3, tmp.resolve("r3"), seeds);
            await().atMost(CONVERGE).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 4);
            await().atMost(CONVERGE).until(() -> rings.running().stream().allMatch(n -> n.membership().stableTicks() >= 3));
            long cleaned = 0;
            boolean settled = false;
            for (int pass = 0; pass < 10 && !settled; pass++) {
                boolean clean = true;
                for (GodNode n : rings.running()) {
                    clean &= n.syncRound();
                }
                long c = 0;
                for (GodNode n : rings.running()) {
                    c += n.cleanPass();
                }
                cleaned += c;
                settled = clean && c == 0;
            }
            assertThat(settled).isTrue();
            assertThat(cleaned).isPositive();
            Ring ring = rings.nodes.get(0).membership().ring();
            for (int k = 0; k < keys; k++) {
                byte[] key = key(k);
                List<String> replicas = ring.replicas(key, 2).stream().map(Member::address).toList();
                for (GodNode n : rings.running()) {
                    Entry e = n.store().state().entry(key);
                    if (replicas.contains(n.address())) {
                        assertThat(e).as(k + " on " + n.address()).isNotNull();
                        assertThat(e.value()).isEqualTo(("v" + k).getBytes(StandardCharsets.UTF_8));
                    } else {
                        assertThat(e).as(k + " cleaned from " + n.address()).isNull();
                    }
                }
            }
            long total = 0;
            for (GodNode n : rings.running()) {
                long held = 0;
                for (Iterator<Entry> it = n.store().state().entries(null); it.hasNext(); it.next()) {
                    held++;
                }
                total += held;
            }
            assertThat(total).isEqualTo(2L * keys);
            assertThat(rings.nodes.get(3).store().state().realSize()).isPositive();
            for (GodNode n : rings.running()) {
                assertThat(n.antiEntropy().replicated()).isTrue();
            }
            // events: the joiner got its ranges by a sync; each cleaning pass said what it dropped
            String joiner = rings.nodes.get(3).address();
            List<Event.Sync> syncs = log.of(Event.Sync.class);
            // the joiner pulled them while catching up, before it became ACTIVE (DESIGN §7); old holders'
            // rounds push only what it still lacked (this log subscribed before the joiner started)
            assertThat(rings.nodes.get(3).antiEntropy().pulled()).as("pulled by " + joiner).isPositive();
            assertThat(syncs).allSatisfy(e -> assertThat(e.pulled() + e.pushed()).isPositive());
            List<Event.Clean> cleans = log.of(Event.Clean.class);
            assertThat(cleans).isNotEmpty().allSatisfy(e -> {
                assertThat(e.cleaned()).isPositive();
                assertThat(e.pushed()).isPositive();
                assertThat(e.destination().address()).isNotEqualTo(e.source().address());
                assertThat(rings.running().stream().filter(n -> n.address().equals(e.source().address()))
                        .mapToLong(n -> n.cleaner().cleaned()).sum()).isPositive();
            });
            log.close();
        }
    }
}
