package io.god.cluster;

import static io.god.cluster.Rings.b64;
import static io.god.cluster.Rings.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.api.AdminStatus;
import io.god.node.GodNode;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.time.NanoClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Stale-data quarantine (DESIGN §7) with a clock the test moves: a tombstone window of 1 h passes in
 * one step, and the nodes' collection is driven by the test.
 */
@ScaledTimeout(180)
class QuarantineTest {

    static final Duration WAIT = TimeScale.seconds(30);
    static final long HOURS_2 = Duration.ofHours(2).toNanos();

    @TempDir
    Path tmp;

    private final AtomicLong offset = new AtomicLong();

    private Rings rings() throws Exception {
        Rings rings = new Rings();
        NanoClock system = NanoClock.system();
        rings.clock = () -> system.nanos() + offset.get();
        rings.extra.put("god.tombstone-window", "1h");
        rings.extra.put("god.sync.interval", "50ms");
        rings.extra.put("god.quarantine.keep", "2");
        return rings;
    }

    private String seeds(Rings rings) {
        return rings.address(0) + "," + rings.address(1);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void put(Rings rings, int node, String key) {
        call(rings.rpcs.get(node), "Put", "{\"Key\":\"" + b64(key) + "\",\"Value\":\"" + b64("v-" + key)
                + "\",\"Sync\":true}");
    }

    private static void del(Rings rings, int node, String key) {
        call(rings.rpcs.get(node), "Del", "{\"Key\":\"" + b64(key) + "\",\"Sync\":true}");
    }

    private static boolean exists(Rings rings, int node, String key) {
        return call(rings.rpcs.get(node), "Get", "{\"Key\":\"" + b64(key) + "\"}").contains("\"Exists\":true");
    }

    /** Collects until no tombstone is left on the node. */
    private static void collectAll(GodNode n) {
        await().atMost(WAIT).until(() -> {
            n.collectGarbage();
            return n.store().state().realSize() == n.store().state().size();
        });
    }

    private boolean converged(Rings rings, int size) {
        return rings.converged() && rings.nodes.get(0).membership().ring().size() == size;
    }

    @Test
    void aNodeAwayWhileTheRingCollectedItsDeletionsIsQuarantinedAndResurrectsNothing() throws Exception {
        try (Rings rings = rings()) {
            for (int i = 0; i < 3; i++) {
                rings.start(i, tmp.resolve("n" + i), seeds(rings));
            }
            await().atMost(WAIT).until(() -> converged(rings, 3));
            for (int k = 0; k < 100; k++) {
                put(rings, 0, "k" + k);
            }
            GodNode away = rings.nodes.get(2);
            await().atMost(WAIT).until(() -> away.quarantine().lastAliveAt() > 0);
            assertThat(AdminStatus.of(away).lastAliveAt()).isNotNull();
            byte[] oldPosition = away.position();
            away.close();
            long lastAlive = away.quarantine().lastAliveAt();
            assertThat(away.store().state()).isNotNull();
            await().atMost(WAIT).until(() -> converged(rings, 2));
            // the ring collects nothing while a member is absent (DESIGN §5) — until an admin removes it
            rings.nodes.get(0).removeMember(rings.address(2));
            await().atMost(WAIT).until(() -> !rings.nodes.get(0).collectionHeld() && !rings.nodes.get(1).collectionHeld());
            for (int k = 0; k < 50; k++) {
                del(rings, 0, "k" + k);
            }
            offset.addAndGet(HOURS_2); // the window passes; the ring forgets the deletions
            collectAll(rings.nodes.get(0));
            collectAll(rings.nodes.get(1));
            assertThat(rings.nodes.get(0).store().collectedUpTo()).isGreaterThan(lastAlive);

            GodNode back = rings.start(2, tmp.resolve("n2"), seeds(rings));
            await().atMost(WAIT).until(() -> converged(rings, 3));
            assertThat(back.quarantine().quarantines()).isEqualTo(1);
            assertThat(back.position()).isNotEqualTo(oldPosition);
            AdminStatus st = AdminStatus.of(back);
            assertThat(st.quarantinedAt()).isNotNull();
            Path q = tmp.resolve("n2").resolve("quarantine");
            try (Stream<Path> dirs = Files.list(q)) {
                List<Path> all = dirs.toList();
                assertThat(all).hasSize(1);
                assertThat(back.quarantine().lastQuarantine()).isEqualTo(all.get(0));
                try (Stream<Path> files = Files.list(all.get(0))) {
                    assertThat(files.map(p -> p.getFileName().toString())).anyMatch(n -> n.endsWith(".log"));
                }
            }
            // anti-entropy refills the node with what the ring has; the deletions stay deleted everywhere
            await().atMost(WAIT).until(() -> back.store().state().size() == 50);
            for (GodNode n : rings.running()) {
                for (int k = 0; k < 100; k++) {
                    assertThat(n.store().state().entry(utf8("k" + k)) != null).as(n.address() + " k" + k)
                            .isEqualTo(k >= 50);
                }
            }
            assertThat(exists(rings, 2, "k7")).isFalse();
            assertThat(exists(rings, 2, "k77")).isTrue();

            // a restart after it caught up: no new quarantine, and quarantinedAt is still reported
            await().atMost(WAIT).until(() -> back.quarantine().lastAliveAt() > 0);
            back.close();
            GodNode again = rings.start(2, tmp.resolve("n2"), seeds(rings));
            assertThat(again.store().state().size()).isEqualTo(50);
            await().atMost(WAIT).until(() -> converged(rings, 3));
            assertThat(again.quarantine().quarantines()).isZero();
            assertThat(AdminStatus.of(again).quarantinedAt()).isEqualTo(st.quarantinedAt());
            assertThat(again.store().state().size()).isEqualTo(50);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void aWholeRingStoppedLongerThanTheWindowKeepsItsData(int size) throws Exception {
        try (Rings rings = rings()) {
            for (int i = 0; i < size; i++) {
                rings.start(i, tmp.resolve("n" + i), seeds(rings));
            }
            await().atMost(WAIT).until(() -> converged(rings, size));
            for (int k = 0; k < 60; k++) {
                put(rings, 0, "k" + k);
            }
            for (int k = 0; k < 20; k++) {
                del(rings, 0, "k" + k);
            }
            long deleted = rings.clock.nanos();
            if (size > 1) {
                for (GodNode n : rings.running()) {
                    await().atMost(WAIT).until(() -> n.quarantine().lastAliveAt() > deleted);
                }
            }
            for (GodNode n : rings.running()) {
                n.close();
            }
            offset.addAndGet(HOURS_2); // a long weekend
            GodNode founder = rings.start(0, tmp.resolve("n0"), seeds(rings));
            collectAll(founder); // it forgets the deletions first
            assertThat(founder.store().collectedUpTo()).isPositive();
            for (int i = 1; i < size; i++) {
                rings.start(i, tmp.resolve("n" + i), seeds(rings));
            }
            await().atMost(WAIT).until(() -> converged(rings, size));
            for (GodNode n : rings.running()) {
                assertThat(n.quarantine().quarantines()).as(n.address()).isZero();
                assertThat(AdminStatus.of(n).quarantinedAt()).isNull();
                assertThat(Files.exists(tmp.resolve("n" + rings.nodes.indexOf(n)).resolve("quarantine"))).isFalse();
                assertThat(n.store().state().size()).as(n.address()).isEqualTo(40);
            }
            for (int k = 0; k < 60; k++) {
                assertThat(exists(rings, size - 1, "k" + k)).as("k" + k).isEqualTo(k >= 20);
            }
        }
    }

    @Test
    void anEmptyDataDirectoryIsNeverQuarantined() throws Exception {
        try (Rings rings = rings()) {
            rings.start(0, tmp.resolve("n0"), seeds(rings));
            await().atMost(WAIT).until(() -> converged(rings, 1));
            del(rings, 0, "gone");
            offset.addAndGet(HOURS_2);
            collectAll(rings.nodes.get(0));
            GodNode fresh = rings.start(1, tmp.resolve("n1"), seeds(rings));
            await().atMost(WAIT).until(() -> converged(rings, 2));
            assertThat(fresh.quarantine().quarantines()).isZero();
            assertThat(fresh.quarantine().quarantinedAt()).isZero();
        }
    }
}
