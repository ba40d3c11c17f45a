package io.god.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.node.Store;
import io.god.node.Timestamps;
import io.god.persist.Record;
import io.god.ring.Ring;
import io.god.transport.Transport;
import io.god.tree.Fingerprint;
import io.god.tree.Hash128;
import io.god.tree.HashVersion;
import io.god.tree.Tree;
import io.god.tree.TreeState;
import io.god.wire.Ops;
import io.god.wire.WireException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A sync of a range whose boundary cuts the Merkle trie (every anti-entropy round and catch-up: the owned range
 * of a ring member). Each case puts one difference — a value on one replica, its newer tombstone on the other —
 * where a node straddling the boundary compares it, and picks the value (a bounded search, fixed order) so that
 * the two replicas' short hashes there agree on the lane the first sync walks. Those comparisons once used the
 * short hash, so the sync reported the range clean with the deleted value still live on one replica (the
 * resurrection AntiEntropyTest caught about 1 run in 15); they now use wide hashes, so the first sync finds it.
 */
class RangeBoundaryWalkTest {

    long now = 1_000_000_000_000L;
    final Store a = Store.inMemory(new Tree(() -> now, Duration.ofSeconds(10)));
    final Store b = Store.inMemory(new Tree(() -> now, Duration.ofSeconds(10)));
    final AntiEntropy[] peers = new AntiEntropy[2];

    RangeBoundaryWalkTest() {
        Random random = new Random(7);
        for (int i = 0; i < 320; i++) {
            // first bytes spread over every nibble, except that everything under 0x9_ lies under 0x90
            byte[] key = new byte[3];
            random.nextBytes(key);
            if ((key[0] & 0xf0) == 0x90) {
                key[0] = (byte) 0x90;
            }
            Record put = Record.put(key, b("v" + i), now - 5_000_000L + i);
            a.apply(put);
            b.apply(put);
        }
    }

    private void wire(Function<Integer, Transport> transport) {
        Ring none = new Ring(List.of());
        peers[0] = new AntiEntropy(new RepairContext("a", () -> none, transport.apply(1), a, new Timestamps(() -> now),
                null, () -> now, 3, Duration.ofSeconds(5), Duration.ofSeconds(10), 1000));
        peers[1] = new AntiEntropy(new RepairContext("b", () -> none, transport.apply(0), b, new Timestamps(() -> now),
                null, () -> now, 3, Duration.ofSeconds(5), Duration.ofSeconds(10), 1000));
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The root straddles the range; its child 5, inside it, holds the difference. */
    @Test
    void aDifferenceInAChildInsideTheRangeOfABoundaryNodeIsFoundByTheFirstSync() {
        hideAndFind(new byte[] {0x55, 1, 2}, new byte[] {0x48}, new byte[] {(byte) 0xc0},
                s -> s.fingerprint(new byte[0], 0, HashVersion.STAMPED).children()[5], 0xf);
    }

    /** The node at 0x90 straddles the range end (0x9080) and holds an entry, key 0x90, inside it. */
    @Test
    void aDifferenceInTheEntryOfABoundaryNodeIsFoundByTheFirstSync() {
        hideAndFind(new byte[] {(byte) 0x90}, new byte[] {(byte) 0x80}, new byte[] {(byte) 0x90, (byte) 0x80},
                s -> s.fingerprint(new byte[] {(byte) 0x90}, 2, HashVersion.STAMPED).entryHash(), 0xff);
    }

    /**
     * The node at 0x9 straddles the range end (0x91) and is a compressed path: its only child is the node at
     * 0x90, wholly inside, compared by that node's own hash.
     */
    @Test
    void aDifferenceUnderACompressedPathOfABoundaryNodeIsFoundByTheFirstSync() {
        hideAndFind(new byte[] {(byte) 0x90, 0x33}, new byte[] {(byte) 0x80}, new byte[] {(byte) 0x91},
                s -> compressed(s.fingerprint(new byte[] {(byte) 0x90}, 1, HashVersion.STAMPED)), 0xf);
    }

    private static Hash128 compressed(Fingerprint f) {
        assertThat(f.depth()).as("the node under 0x9 lies deeper").isGreaterThan(1);
        return f.hash();
    }

    /**
     * A rolling upgrade: a peer of the release before wide probes (emulated on the wire: it announces no features
     * in SYNC_META, ignores the ones it is sent, refuses lane bytes above 31). It is walked with short hashes as
     * before — no refused call — the difference still converges within a few syncs, and each sync is counted.
     */
    @Test
    void aPeerWithoutWideProbesIsWalkedWithShortHashes() {
        byte[] key = {0x55, 1, 2};
        byte[] from = {0x48};
        byte[] to = {(byte) 0xc0};
        a.apply(Record.put(key, b("live"), now - 2_000_000L));
        b.apply(Record.put(key, b("live"), now - 2_000_000L));
        b.apply(Record.delete(key, now - 1_000_000L));
        wire(to1 -> previousRelease(peers, to1));
        int syncs = 1;
        while (a.state().get(key).exists()) {
            peers[0].syncWith("b", from, to);
            assertThat(syncs++).as("syncs until a short-hash miss is found").isLessThan(5);
        }
        assertThat(peers[1].syncWith("a", from, to).differences()).as("the older peer's own sync").isZero();
        assertThat(a.state().hash(HashVersion.STAMPED)).isEqualTo(b.state().hash(HashVersion.STAMPED));
        assertThat(peers[0].shortBoundaryPeerSyncs()).isEqualTo(syncs - 1);
        assertThat(peers[1].shortBoundaryPeerSyncs()).isEqualTo(1);
    }

    /**
     * Puts a value on both replicas and its newer tombstone on b, the value chosen so that {@code spot}'s hash
     * on both agrees in the bits {@code mask} of lane 0 (the lane of a node's first sync); then one sync of
     * [from, to) must find it and leave both replicas equal.
     */
    private void hideAndFind(byte[] key, byte[] from, byte[] to, Function<TreeState, Hash128> spot, int mask) {
        long put = now - 2_000_000L;
        long delete = now - 1_000_000L;
        TreeState deleted = b.state().put(key, b("x"), put).delete(key, delete);
        int hidden = -1;
        for (int j = 0; j < 4096 && hidden < 0; j++) {
            TreeState live = a.state().put(key, b("value-" + j), put);
            if (((Probe.laneByte(spot.apply(live), 0) ^ Probe.laneByte(spot.apply(deleted), 0)) & mask) == 0) {
                hidden = j;
            }
        }
        assertThat(hidden).as("a value whose short hash collides").isNotNegative();
        a.apply(Record.put(key, b("value-" + hidden), put));
        b.apply(Record.put(key, b("value-" + hidden), put));
        b.apply(Record.delete(key, delete));
        assertThat(spot.apply(a.state())).isNotEqualTo(spot.apply(b.state()));
        wire(to1 -> AntiEntropyPairTest.direct(peers, to1));

        AntiEntropy.Outcome o = peers[0].syncWith("b", from, to);

        assertThat(o.differences()).as("the first sync sees the difference (%s)", o).isPositive();
        assertThat(o.pulled()).isEqualTo(1);
        assertThat(a.state().get(key).exists()).as("deleted on a too").isFalse();
        assertThat(a.state().hash(HashVersion.STAMPED)).isEqualTo(b.state().hash(HashVersion.STAMPED));
        assertThat(peers[0].syncWith("b", from, to).differences()).isZero();
        assertThat(peers[0].shortBoundaryPeerSyncs()).isZero();
    }

    /** A transport to peers[to] that behaves, both ways, like a node of the release before wide probes. */
    private static Transport previousRelease(AntiEntropy[] peers, int to) {
        Transport inner = AntiEntropyPairTest.direct(peers, to);
        return new Transport() {
            public String address() {
                return "x";
            }

            public void serve(Handler handler) {
            }

            public CompletableFuture<byte[]> call(String address, int op, byte[] payload, Duration deadline) {
                if (op == Ops.SYNC_META) { // neither side sees the other's features
                    return inner.call(address, op, withoutFeatures(payload), deadline).thenApply(r -> withoutFeatures(r));
                }
                if (op == Ops.SYNC_FINGERPRINTS && (payload[0] & 0xff) > 31) {
                    return CompletableFuture.failedFuture(new WireException("lane byte " + payload[0] + " above 31"));
                }
                return inner.call(address, op, payload, deadline);
            }

            public void close() {
            }
        };
    }

    /** SYNC_META without the feature varint at its end (one byte). */
    static byte[] withoutFeatures(byte[] meta) {
        assertThat(meta[meta.length - 1]).isEqualTo((byte) AntiEntropy.WIDE_PROBES);
        return java.util.Arrays.copyOf(meta, meta.length - 1);
    }
}
