package io.god.cluster;

import static io.god.cluster.Rings.b64;
import static io.god.cluster.Rings.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.api.AdminStatus;
import io.god.node.GodNode;
import io.god.persist.Record;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.tree.Entry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Merkle anti-entropy between the replicas of 3-node rings (rounds driven by the test). */
@ScaledTimeout(120)
class AntiEntropyTest {

    static final Duration CONVERGE = TimeScale.seconds(20);

    @TempDir
    Path tmp;

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private Rings ring3(String syncInterval) throws Exception {
        Rings rings = new Rings();
        rings.extra.put("god.sync.interval", syncInterval);
        String seeds = rings.address(0) + "," + rings.address(1);
        for (int i = 0; i < 3; i++) {
            rings.start(i, tmp.resolve("r" + i), seeds);
        }
        await().atMost(CONVERGE).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 3);
        return rings;
    }

    /** Rounds on every node until one full pass finds no difference anywhere; returns the passes. */
    private static int syncUntilClean(Rings rings) {
        for (int pass = 1; pass <= 10; pass++) {
            boolean clean = true;
            for (GodNode n : rings.running()) {
                clean &= n.syncRound();
            }
            if (clean) {
                return pass;
            }
        }
        throw new AssertionError("sync did not settle in 10 passes");
    }

    /** A Sync put returns at the write quorum: its last copy may still be on its way (CI run j3). */
    private static void awaitEveryReplicaHolds(Rings rings, String prefix, int count) {
        await().atMost(CONVERGE).until(() -> rings.running().stream().allMatch(n -> java.util.stream.IntStream
                .range(0, count).allMatch(k -> n.store().state().get(utf8(prefix + k)).exists())));
    }

    private static void wipe(Path dir) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void aWipedReplicaIsRefilledAndMissedCopiesAreRepaired() throws Exception {
        try (Rings rings = ring3("1h")) {
            for (int k = 0; k < 200; k++) {
                call(rings.rpcs.get(0), "Put", "{\"Key\":\"" + b64("key" + k) + "\",\"Value\":\"" + b64("v" + k)
                        + "\",\"Sync\":true}");
            }
            awaitEveryReplicaHolds(rings, "key", 200);
            assertThat(syncUntilClean(rings)).isEqualTo(1);
            rings.nodes.get(2).close();
            wipe(tmp.resolve("r2"));
            await().atMost(CONVERGE).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 2);
            rings.start(2, tmp.resolve("r2"), rings.address(0));
            await().atMost(CONVERGE).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 3);
            // it caught up before it became ACTIVE (DESIGN §7): refilled already
            assertThat(rings.nodes.get(2).store().state().realSize()).isEqualTo(200);
            // copies that never left node 1 (as if every async replication message had been dropped)
            long ts = rings.nodes.get(1).timestamps().next();
            for (int k = 0; k < 50; k++) {
                rings.nodes.get(1).store().apply(Record.put(utf8("lost" + k), utf8("x" + k), ts + k));
                rings.nodes.get(1).store().apply(Record.subPut(utf8("tree"), utf8("s" + k), utf8("y"), ts + k));
            }
            rings.nodes.get(1).store().apply(Record.subSetConfiguration(utf8("tree"),
                    java.util.Map.of("mirrored", "yes"), ts + 100));
            syncUntilClean(rings); // (the nodes' own first round may already have run: no pass count asserted)
            for (GodNode n : rings.running()) {
                var s = n.store().state();
                assertThat(s.realSize()).as(n.address()).isEqualTo(250 + 50);
                assertThat(s.get(utf8("key7")).value()).isEqualTo(utf8("v7"));
                assertThat(s.get(utf8("lost49")).value()).isEqualTo(utf8("x49"));
                assertThat(s.sub(utf8("tree")).isMirrored()).isTrue();
                assertThat(s.sub(utf8("tree")).mirror().size()).isEqualTo(50);
                assertThat(n.antiEntropy().replicated()).isTrue();
                AdminStatus st = AdminStatus.of(n);
                await().atMost(CONVERGE).until(() -> AdminStatus.of(n).replicated());
                assertThat(st.lastSyncAt()).isNotNull();
            }
            assertThat(rings.nodes.get(2).antiEntropy().pulled() + rings.nodes.stream()
                    .mapToLong(n -> n.antiEntropy().pushed()).sum()).isGreaterThan(0);
        }
    }

    @Test
    void aDeleteMadeWhileAReplicaWasDownIsNotResurrectedAndClearStaysCleared() throws Exception {
        try (Rings rings = ring3("1h")) {
            call(rings.rpcs.get(0), "Put", "{\"Key\":\"" + b64("k") + "\",\"Value\":\"" + b64("v") + "\",\"Sync\":true}");
            call(rings.rpcs.get(0), "Put", "{\"Key\":\"" + b64("kept") + "\",\"Value\":\"" + b64("v") + "\",\"Sync\":true}");
            rings.nodes.get(2).close();
            await().atMost(CONVERGE).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 2);
            call(rings.rpcs.get(0), "Del", "{\"Key\":\"" + b64("k") + "\",\"Sync\":true}");
            rings.start(2, tmp.resolve("r2"), rings.address(0));
            await().atMost(CONVERGE).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 3);
            // it caught up before it became ACTIVE: the deletion it missed is there, "k" not resurrected
            assertThat(rings.nodes.get(2).store().state().get(utf8("k")).exists()).isFalse();
            syncUntilClean(rings);
            for (GodNode n : rings.running()) {
                Entry e = n.store().state().entry(utf8("k"));
                assertThat(e.isTombstone()).as(n.address()).isTrue();
                assertThat(n.store().state().get(utf8("kept")).value()).isEqualTo(utf8("v"));
            }
            // a clear that one node missed: its old data must not come back, the clear reaches it
            long clearAt = rings.nodes.get(0).timestamps().next();
            rings.nodes.get(0).store().apply(Record.clear(clearAt));
            syncUntilClean(rings);
            for (GodNode n : rings.running()) {
                assertThat(n.store().state().realSize()).as(n.address()).isZero();
                assertThat(n.store().state().clearedAt()).isEqualTo(clearAt);
            }
        }
    }

    /**
     * Issue 27 on a real ring: the same value (and the same tombstone, and the same sub-tree entry) held under
     * different stamps — one replica kept a write's first attempt, the others its retry — is aligned to the newer
     * stamp on every replica by the nodes' own sync rounds over their transport; before, the content-only Merkle
     * hash called the replicas in sync and the older stamp stayed.
     */
    @Test
    void theSameValueUnderDifferentStampsIsAlignedToTheNewerStampOnEveryReplica() throws Exception {
        try (Rings rings = ring3("1h")) {
            for (int k = 0; k < 100; k++) {
                call(rings.rpcs.get(0), "Put", "{\"Key\":\"" + b64("n" + k) + "\",\"Value\":\"" + b64("v")
                        + "\",\"Sync\":true}");
            }
            awaitEveryReplicaHolds(rings, "n", 100);
            assertThat(syncUntilClean(rings)).isEqualTo(1);
            long first = rings.nodes.get(0).timestamps().next();
            long retry = first + 1_200_000_000L; // the retry, 1.2 s later (the client's attempt timeout)
            for (int i = 0; i < 3; i++) {
                long ts = i == 1 ? first : retry; // node 1 kept the first attempt
                var store = rings.nodes.get(i).store();
                store.apply(Record.put(utf8("dup"), utf8("same"), ts));
                store.apply(Record.put(utf8("del"), utf8("x"), first - 1));
                store.apply(Record.delete(utf8("del"), ts));
                store.apply(Record.subPut(utf8("tree"), utf8("s"), utf8("1"), ts));
            }
            assertThat(rings.nodes.get(1).store().state().hash()).isEqualTo(rings.nodes.get(0).store().state().hash());
            // rounds until every replica carries the newer stamp: under load a node's view may drop a member for a
            // moment (its round then has no successor to compare with), so one clean pass alone proves nothing
            await().atMost(CONVERGE).ignoreExceptions().untilAsserted(() -> {
                syncUntilClean(rings);
                for (GodNode n : rings.running()) {
                    assertThat(n.store().state().entry(utf8("dup")).timestamp()).as(n.address()).isEqualTo(retry);
                }
            });
            for (GodNode n : rings.running()) {
                var s = n.store().state();
                assertThat(s.entry(utf8("dup")).timestamp()).as(n.address()).isEqualTo(retry);
                assertThat(s.get(utf8("dup")).value()).isEqualTo(utf8("same"));
                assertThat(s.entry(utf8("del")).isTombstone()).isTrue();
                assertThat(s.entry(utf8("del")).timestamp()).as(n.address()).isEqualTo(retry);
                assertThat(s.sub(utf8("tree")).entry(utf8("s")).timestamp()).as(n.address()).isEqualTo(retry);
                assertThat(s.hash(io.god.tree.HashVersion.STAMPED))
                        .isEqualTo(rings.nodes.get(0).store().state().hash(io.god.tree.HashVersion.STAMPED));
                assertThat(n.antiEntropy().olderPeerSyncs()).isZero();
                assertThat(n.antiEntropy().shortBoundaryPeerSyncs()).as("real nodes announce wide probes").isZero();
            }
            assertThat(rings.nodes.get(1).timestamps().next()).as("node 1's clock floor").isGreaterThan(retry);
        }
    }

    @Test
    void roundsRunByThemselves() throws Exception {
        try (Rings rings = ring3("30ms")) {
            long ts = rings.nodes.get(0).timestamps().next();
            rings.nodes.get(0).store().apply(Record.put(utf8("solo"), utf8("v"), ts));
            await().atMost(CONVERGE).until(() -> rings.running().stream()
                    .allMatch(n -> n.store().state().get(utf8("solo")).value() != null));
            await().atMost(CONVERGE).until(() -> rings.running().stream().allMatch(n -> AdminStatus.of(n).replicated()));
            // the time network samples peers every ring interval (one clock here: errors stay small — a sample's
            // error is at most half its round trip, which a loaded machine stretches: the bound scales)
            await().atMost(CONVERGE).until(() -> rings.running().stream().allMatch(n -> n.timeNet().error() >= 0));
            for (GodNode n : rings.running()) {
                assertThat(n.timeNet().error()).as("clock error, ns").isLessThan(TimeScale.millis(50).toNanos());
                long t1 = n.timestamps().next();
                assertThat(n.timestamps().next()).isGreaterThan(t1);
            }
        }
    }

    @Test
    void prefixesArePlacedAgainstWrappingRanges() {
        byte[] from = {0x40};
        byte[] to = {(byte) 0x80};
        assertThat(Nibbles.place(new byte[] {0x50}, 1, from, to)).isEqualTo(Nibbles.Place.INSIDE);
        assertThat(Nibbles.place(new byte[] {0x40}, 1, from, to)).isEqualTo(Nibbles.Place.INSIDE);
        assertThat(Nibbles.place(new byte[] {(byte) 0x80}, 1, from, to)).isEqualTo(Nibbles.Place.OUTSIDE);
        assertThat(Nibbles.place(new byte[0], 0, from, to)).isEqualTo(Nibbles.Place.PARTIAL);
        byte[] mid = {0x41, 0x23};
        assertThat(Nibbles.place(new byte[] {0x41}, 2, mid, to)).isEqualTo(Nibbles.Place.PARTIAL);
        assertThat(Nibbles.place(new byte[] {0x41, 0x30}, 3, mid, to)).isEqualTo(Nibbles.Place.INSIDE);
        assertThat(Nibbles.place(new byte[] {0x41, 0x10}, 3, mid, to)).isEqualTo(Nibbles.Place.OUTSIDE);
        // wrapping [0x80, 0x40)
        assertThat(Nibbles.place(new byte[] {(byte) 0xf0}, 1, to, from)).isEqualTo(Nibbles.Place.INSIDE);
        assertThat(Nibbles.place(new byte[] {0x10}, 1, to, from)).isEqualTo(Nibbles.Place.INSIDE);
        assertThat(Nibbles.place(new byte[] {0x50}, 1, to, from)).isEqualTo(Nibbles.Place.OUTSIDE);
        assertThat(Nibbles.high(new byte[] {(byte) 0xff}, 2)).isNull();
        assertThat(Nibbles.high(new byte[] {0x1f}, 2)).containsExactly(0x20);
        assertThat(Nibbles.inRange(new byte[] {0x40}, from, to)).isTrue();
        assertThat(Nibbles.inRange(new byte[] {(byte) 0x80}, from, to)).isFalse();
    }
}
