package io.god.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.node.Store;
import io.god.node.Timestamps;
import io.god.persist.Record;
import io.god.ring.Ring;
import io.god.transport.Transport;
import io.god.tree.HashVersion;
import io.god.tree.Tree;
import io.god.wire.WireException;
import io.god.wire.Ops;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Two replicas synced directly (no sockets, simulated clock): tombstone window, ranges, sub trees. */
class AntiEntropyPairTest {

    long now = 1_000_000_000_000L;
    final Tree treeA = new Tree(() -> now, Duration.ofSeconds(10));
    final Tree treeB = new Tree(() -> now, Duration.ofSeconds(10));
    final Store a = Store.inMemory(treeA);
    final Store b = Store.inMemory(treeB);
    final AntiEntropy[] peers = new AntiEntropy[2];

    AntiEntropyPairTest() {
        Ring none = new Ring(List.of());
        peers[0] = new AntiEntropy(new RepairContext("a", () -> none, direct(1), a, new Timestamps(() -> now), null,
                () -> now, 3, Duration.ofSeconds(5), Duration.ofSeconds(10), 1000));
        peers[1] = new AntiEntropy(new RepairContext("b", () -> none, direct(0), b, new Timestamps(() -> now), null,
                () -> now, 3, Duration.ofSeconds(5), Duration.ofSeconds(10), 1000));
    }

    private Transport direct(int to) {
        return direct(peers, to);
    }

    static Transport direct(AntiEntropy[] peers, int to) {
        return new Transport() {
            public String address() {
                return "x";
            }

            public void serve(Handler handler) {
            }

            public CompletableFuture<byte[]> call(String address, int op, byte[] payload, Duration deadline) {
                AntiEntropy p = peers[to];
                return switch (op) {
                    case Ops.SYNC_FINGERPRINTS -> p.serveFingerprints(payload);
                    case Ops.SYNC_EXCHANGE -> p.serveExchange(payload);
                    case Ops.SYNC_META -> p.serveMeta(payload);
                    default -> CompletableFuture.failedFuture(new IllegalArgumentException());
                };
            }

            public void close() {
            }
        };
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void expiredTombstonesAreNeverSentNorADifference() {
        a.apply(Record.put(b("k"), b("v"), now - 20_000_000_000L));
        a.apply(Record.delete(b("k"), now - 15_000_000_000L)); // older than the 10 s window
        AntiEntropy.Outcome o = peers[0].syncWith("b", null, null);
        assertThat(o.differences()).isZero();
        assertThat(b.state().entry(b("k"))).isNull();
        // the same inside a sub tree present on both sides: the tombstone expires (uncollected) after writing
        a.apply(Record.subPut(b("t"), b("x"), b("1"), now - 1_000_000_000L));
        b.apply(Record.subPut(b("t"), b("x"), b("1"), now - 1_000_000_000L));
        a.apply(Record.subDelete(b("t"), b("old"), now - 1_000_000_000L));
        now += 20_000_000_000L;
        assertThat(a.state().hash()).isNotEqualTo(b.state().hash());
        assertThat(peers[0].syncWith("b", null, null).differences()).isZero();
        assertThat(b.state().sub(b("t")).entry(b("old"))).isNull();
        // a fresh tombstone is sent and counts
        a.apply(Record.delete(b("j"), now - 1_000_000_000L));
        o = peers[0].syncWith("b", null, null);
        assertThat(o.differences()).isPositive();
        assertThat(b.state().entry(b("j")).isTombstone()).isTrue();
        assertThat(peers[0].syncWith("b", null, null).differences()).isZero();
    }

    /**
     * A peer whose collection is held (its cutoff frozen when the hold began) still sends tombstones
     * that are expired for a peer whose hold was lifted. Re-sending them is no lag: a node catching up
     * with the held peer gets clean (it once never did: ExpectedMembershipTest), while a value the
     * tombstone deletes is still deleted by it.
     */
    @Test
    void aHeldPeersExpiredTombstonesAreNoLagForAPeerThatCollectedThem() {
        for (int i = 0; i < 20; i++) {
            Record put = Record.put(b("k" + i), b("v"), now - 1_000);
            a.apply(put);
            b.apply(put);
        }
        treeB.holdCollection(true); // b: a member is away; a: the one that comes back
        for (int i = 0; i < 20; i++) {
            b.apply(Record.delete(b("k" + i), now - 500));
            if (i % 4 != 0) {
                a.apply(Record.delete(b("k" + i), now - 500)); // a missed every fourth delete
            }
        }
        b.apply(Record.subDelete(b("t"), b("x"), now - 500));
        now += 20_000_000_000L; // twice the window: expired for a, not for b (held before they were written)
        assertThat(a.collectGarbage(1_000)).isTrue();
        assertThat(a.state().entry(b("k1"))).as("collected on a").isNull();
        long since = now;

        AntiEntropy.Outcome first = peers[0].syncWith("b", null, null, since);
        assertThat(first.olderThanStart()).as("the deletes a missed are lag").isPositive();
        for (int round = 0; peers[0].syncWith("b", null, null, since).olderThanStart() > 0; round++) {
            assertThat(round).as("rounds until a short-hash miss is found (%s)", first).isLessThan(3);
        }
        for (int i = 0; i < 20; i += 4) {
            assertThat(a.state().get(b("k" + i)).exists()).as("k%d deleted on a", i).isFalse();
        }
        for (int round = 0; round < 3; round++) {
            a.collectGarbage(1_000);
            AntiEntropy.Outcome o = peers[0].syncWith("b", null, null, since);
            assertThat(o.olderThanStart()).as("round %d: lag left after catching up (%s)", round, o).isZero();
            assertThat(o.differences()).as("round %d: differences", round).isZero();
            AntiEntropy.Outcome fromB = peers[1].syncWith("a", null, null);
            assertThat(fromB.differences()).as("round %d: from b (%s)", round, fromB).isZero();
        }
        assertThat(a.state().size()).isZero();
        assertThat(b.state().realSize()).as("b, still held, keeps its tombstones").isEqualTo(21);
    }

    @Test
    void onlyTheRangeMovesAndNewerWinsBothWays() {
        for (int i = 0; i < 50; i++) {
            a.apply(Record.put(new byte[] {(byte) (i * 5)}, b("a" + i), now - 100 + i));
        }
        b.apply(Record.put(new byte[] {(byte) 0x40}, b("newer"), now)); // 0x40 = 64 isn't a multiple of 5
        b.apply(Record.put(new byte[] {(byte) 50}, b("newer-b"), now)); // beats a's 50
        AntiEntropy.Outcome o = peers[0].syncWith("b", new byte[] {32}, new byte[] {96});
        assertThat(o.pulled()).isPositive();
        assertThat(o.pushed()).isPositive();
        for (int i = 0; i < 50; i++) {
            int k = i * 5;
            var e = b.state().entry(new byte[] {(byte) k});
            if (k >= 32 && k < 96 && k != 50) {
                assertThat(e.value()).isEqualTo(b("a" + i));
            } else if (k != 50) {
                assertThat(e).as("key %d outside the range", k).isNull();
            }
        }
        assertThat(a.state().get(new byte[] {0x40}).value()).isEqualTo(b("newer"));
        assertThat(a.state().get(new byte[] {50}).value()).isEqualTo(b("newer-b"));
        assertThat(peers[0].syncWith("b", new byte[] {32}, new byte[] {96}).differences()).isZero();
        // the wrapping complement differs
        assertThat(peers[0].syncWith("b", new byte[] {96}, new byte[] {32}).differences()).isPositive();
    }

    @Test
    void subTreesClearsAndConfigurationFollow() {
        a.apply(Record.subPut(b("t"), b("x"), b("1"), now - 10));
        a.apply(Record.subPut(b("t"), b("y"), b("2"), now - 9));
        b.apply(Record.subPut(b("t"), b("z"), b("3"), now - 8));
        b.apply(Record.subSetConfiguration(b("t"), java.util.Map.of("mirrored", "yes"), now - 7));
        a.apply(Record.setConfiguration(java.util.Map.of("owner", "a"), now - 6));
        peers[0].syncWith("b", null, null);
        for (Store s : List.of(a, b)) {
            assertThat(s.state().sub(b("t")).size()).isEqualTo(3);
            assertThat(s.state().sub(b("t")).mirror().size()).isEqualTo(3);
            assertThat(s.state().configuration()).containsEntry("owner", "a");
        }
        // a sub-tree clear on b wins over a's older entries, and a's newer entry survives
        b.apply(Record.subClear(b("t"), now - 5));
        a.apply(Record.subPut(b("t"), b("w"), b("4"), now - 4));
        peers[0].syncWith("b", null, null);
        for (Store s : List.of(a, b)) {
            assertThat(s.state().sub(b("t")).size()).isEqualTo(1);
            assertThat(s.state().sub(b("t")).get(b("w")).exists()).isTrue();
        }
        assertThat(peers[0].syncWith("b", null, null).differences()).isZero();
        assertThat(a.state().hash()).isEqualTo(b.state().hash());
    }

    @Test
    void randomDivergenceConvergesToTheLastWriteWinsUnion() {
        for (int seed = 1; seed <= 45; seed++) {
            java.util.Random random = new java.util.Random(seed);
            Store x = Store.inMemory(new Tree(() -> now, Duration.ofSeconds(10)));
            Store y = Store.inMemory(new Tree(() -> now, Duration.ofSeconds(10)));
            Store union = Store.inMemory(new Tree(() -> now, Duration.ofSeconds(10)));
            int keys = 1 + random.nextInt(seed % 3 == 0 ? 3000 : 200);
            for (int i = 0; i < keys; i++) {
                // short keys over a small alphabet: shared prefixes, keys that prefix others, odd depths
                byte[] key = new byte[1 + random.nextInt(4)];
                for (int j = 0; j < key.length; j++) {
                    key[j] = (byte) (random.nextInt(3) * 0x11 + (random.nextBoolean() ? 0x40 : 0));
                }
                long ts = now - 1_000_000 + random.nextInt(1_000_000);
                Record rec = switch (random.nextInt(8)) {
                    case 0 -> Record.delete(key, ts);
                    case 1 -> Record.subPut(key, new byte[] {(byte) random.nextInt(40)}, b("s" + i), ts);
                    case 2 -> Record.subDelete(key, new byte[] {(byte) random.nextInt(40)}, ts);
                    default -> Record.put(key, b("v" + random.nextInt(3)), ts);
                };
                int where = random.nextInt(10);
                if (where != 0) {
                    x.apply(rec); // 1 in 10 only on y, 1 in 10 only on x, the rest on both
                }
                if (where != 1) {
                    y.apply(rec);
                }
                union.apply(rec);
            }
            AntiEntropy[] pair = new AntiEntropy[2];
            Ring none = new Ring(List.of());
            pair[0] = new AntiEntropy(new RepairContext("x", () -> none, direct(pair, 1), x, new Timestamps(() -> now), null,
                    () -> now, 3, Duration.ofSeconds(5), Duration.ofSeconds(10), 100_000));
            pair[1] = new AntiEntropy(new RepairContext("y", () -> none, direct(pair, 0), y, new Timestamps(() -> now), null,
                    () -> now, 3, Duration.ofSeconds(5), Duration.ofSeconds(10), 100_000));
            // every third seed syncs a range only (wrapping or not, boundaries inside keys)
            byte[] from = seed % 3 == 1 ? new byte[] {(byte) (0x40 + random.nextInt(0x40)), (byte) random.nextInt(256)} : null;
            byte[] to = from == null ? null : new byte[] {(byte) (0x30 + random.nextInt(0x50)), (byte) random.nextInt(256)};
            java.util.Map<String, String> outsideX = outside(x, from, to);
            java.util.Map<String, String> outsideY = outside(y, from, to);
            // a sync that reports no difference must be right; short-hash misses may take another round
            int rounds = 0;
            while (pair[(seed + rounds) % 2].syncWith("peer", from, to).differences() > 0) {
                assertThat(++rounds).as("seed %d: rounds to converge", seed).isLessThan(3);
            }
            if (from == null) {
                assertThat(x.state().hash()).as("seed %d, %d keys", seed, keys).isEqualTo(union.state().hash());
                assertThat(y.state().hash()).as("seed %d", seed).isEqualTo(union.state().hash());
                assertThat(x.state().hash(HashVersion.STAMPED)).as("seed %d: stamps too", seed)
                        .isEqualTo(union.state().hash(HashVersion.STAMPED));
                assertThat(y.state().hash(HashVersion.STAMPED)).as("seed %d: stamps too", seed)
                        .isEqualTo(union.state().hash(HashVersion.STAMPED));
            } else {
                assertThat(inside(x, from, to)).as("seed %d: the range on x", seed).isEqualTo(inside(union, from, to));
                assertThat(inside(y, from, to)).as("seed %d: the range on y", seed).isEqualTo(inside(union, from, to));
                assertThat(outside(x, from, to)).as("seed %d: outside the range on x", seed).isEqualTo(outsideX);
                assertThat(outside(y, from, to)).as("seed %d: outside the range on y", seed).isEqualTo(outsideY);
            }
        }
    }

    /**
     * Each entry of s (in or out of [from, to)) as key → its Merkle hash, which covers the value,
     * tombstone and sub tree but, like every Merkle comparison here, not the timestamp.
     */
    private static java.util.Map<String, String> entries(Store s, byte[] from, byte[] to, boolean in) {
        java.util.Map<String, String> out = new java.util.TreeMap<>();
        for (var it = s.state().entries(null); it.hasNext(); ) {
            var e = it.next();
            if (Nibbles.inRange(e.key(), from, to) == in) {
                out.put(java.util.HexFormat.of().formatHex(e.key()), e.entryHash().toString());
            }
        }
        return out;
    }

    private static java.util.Map<String, String> inside(Store s, byte[] from, byte[] to) {
        return entries(s, from, to, true);
    }

    private static java.util.Map<String, String> outside(Store s, byte[] from, byte[] to) {
        return entries(s, from, to, false);
    }

    /**
     * Issue 27: a write's first attempt reached one replica as a fault cut it off and the client's retry was
     * stamped again elsewhere — the same value (or tombstone) under two stamps. The stamped hash shows the
     * difference, and the exchange gives both replicas the newer stamp (and the older one's clock floor).
     */
    @Test
    void theSameValueUnderDifferentStampsTakesTheNewerStampOnBothReplicas() {
        long first = now - 2_000_000_000L;
        long retry = now - 800_000_000L;
        a.apply(Record.put(b("v"), b("same"), first));
        b.apply(Record.put(b("v"), b("same"), retry));
        a.apply(Record.put(b("gone"), b("x"), first - 10));
        b.apply(Record.put(b("gone"), b("x"), first - 10));
        a.apply(Record.delete(b("gone"), retry));
        b.apply(Record.delete(b("gone"), first));
        a.apply(Record.subPut(b("t"), b("s"), b("1"), first));
        b.apply(Record.subPut(b("t"), b("s"), b("1"), retry));
        for (int i = 0; i < 300; i++) { // agreeing neighbours: the walk must find the three among them
            a.apply(Record.put(b("k" + i), b("v" + i), first + i));
            b.apply(Record.put(b("k" + i), b("v" + i), first + i));
        }
        assertThat(a.state().hash()).as("the content hashes agree: what hid the difference").isEqualTo(b.state().hash());
        assertThat(a.state().hash(HashVersion.STAMPED)).isNotEqualTo(b.state().hash(HashVersion.STAMPED));

        AntiEntropy.Outcome o = peers[0].syncWith("b", null, null);

        assertThat(o.pulled()).isEqualTo(2); // v and t/s come from b
        assertThat(o.pushed()).isEqualTo(1); // gone's newer tombstone goes to b
        for (Store s : List.of(a, b)) {
            assertThat(s.state().entry(b("v")).timestamp()).isEqualTo(retry);
            assertThat(s.state().entry(b("v")).value()).isEqualTo(b("same"));
            assertThat(s.state().entry(b("gone")).isTombstone()).isTrue();
            assertThat(s.state().entry(b("gone")).timestamp()).isEqualTo(retry);
            assertThat(s.state().sub(b("t")).entry(b("s")).timestamp()).isEqualTo(retry);
        }
        assertThat(a.state().hash(HashVersion.STAMPED)).isEqualTo(b.state().hash(HashVersion.STAMPED));
        assertThat(peers[1].syncWith("a", null, null).differences()).isZero();
        assertThat(peers[0].olderPeerSyncs() + peers[1].olderPeerSyncs()).isZero();
    }

    /**
     * The risk the stamps carried: a later write stamped between the two (a skewed clock) that reaches only the
     * replica with the older stamp. Once anti-entropy gave that replica the newer stamp its clock floor is past it,
     * so the later write it stamps wins there and everywhere.
     */
    @Test
    void aWriteAfterTheAlignmentIsStampedPastTheNewerStamp() {
        Timestamps clockA = new Timestamps(() -> now);
        AntiEntropy[] pair = new AntiEntropy[2];
        Ring none = new Ring(List.of());
        pair[0] = new AntiEntropy(new RepairContext("a", () -> none, direct(pair, 1), a, clockA, null,
                () -> now, 3, Duration.ofSeconds(5), Duration.ofSeconds(10), 1000));
        pair[1] = peers[1];
        long retry = now + 1_200_000_000L; // the retry's node ran 1.2 s ahead
        a.apply(Record.put(b("r"), b("1"), now - 10));
        b.apply(Record.put(b("r"), b("1"), retry));
        pair[0].syncWith("b", null, null);
        long later = clockA.next(); // the next write on a (before the fix: now + 1 ns, older than retry)
        assertThat(later).isGreaterThan(retry);
        a.apply(Record.put(b("r"), b("2"), later));
        pair[0].syncWith("b", null, null);
        assertThat(b.state().get(b("r")).value()).isEqualTo(b("2"));
    }

    /**
     * A rolling upgrade: a peer from before hash versions (emulated on the wire: it sends no version after its
     * SYNC_META records, ignores the one it is sent, and refuses lane bytes above 15 and exchange modes above 1,
     * as that code did). Both directions use the content hash: stamp-only differences look in sync — a clean,
     * cheap exchange, as between two old nodes, so the ring stays "replicated" — and real differences still move.
     */
    @Test
    void aPeerOfTheOlderHashVersionIsSyncedByContentHashes() {
        AntiEntropy[] pair = new AntiEntropy[2];
        Ring none = new Ring(List.of());
        pair[0] = new AntiEntropy(new RepairContext("new", () -> none, olderPeer(pair, 1), a, new Timestamps(() -> now),
                null, () -> now, 3, Duration.ofSeconds(5), Duration.ofSeconds(10), 1000));
        pair[1] = new AntiEntropy(new RepairContext("old", () -> none, olderPeer(pair, 0), b, new Timestamps(() -> now),
                null, () -> now, 3, Duration.ofSeconds(5), Duration.ofSeconds(10), 1000));
        for (int i = 0; i < 2000; i++) { // same values, every stamp differs
            a.apply(Record.put(b("k" + i), b("v" + i), now - 5_000_000L + i));
            b.apply(Record.put(b("k" + i), b("v" + i), now - 4_000_000L + i));
        }
        a.apply(Record.put(b("only-new"), b("n"), now - 1));
        b.apply(Record.put(b("only-old"), b("o"), now - 1));

        AntiEntropy.Outcome o = pair[0].syncWith("old", null, null);
        assertThat(o.pulled()).isEqualTo(1);
        assertThat(o.pushed()).isEqualTo(1);
        AntiEntropy.Outcome again = pair[0].syncWith("old", null, null);
        assertThat(again.differences()).as("stamp-only differences with an older peer").isZero();
        assertThat(again.fingerprints()).as("a cheap walk: the root only").isLessThanOrEqualTo(2);
        // the older peer's own round against the new node: clean too (it is answered with content hashes)
        assertThat(pair[1].syncWith("new", null, null).differences()).isZero();
        assertThat(a.state().entry(b("k7")).timestamp()).isEqualTo(now - 5_000_000L + 7); // not aligned, as before
        assertThat(b.state().get(b("only-new")).value()).isEqualTo(b("n"));
        assertThat(a.state().get(b("only-old")).value()).isEqualTo(b("o"));
        assertThat(pair[0].olderPeerSyncs()).as("counted where it started and where it was served").isEqualTo(3);
        // both upgraded: the next sync compares stamps and aligns them
        int syncs = 0;
        while (peers[0].syncWith("b", null, null).differences() > 0) {
            assertThat(++syncs).as("syncs to align 2000 stamps with a budget of 1000").isLessThan(5);
        }
        assertThat(peers[0].pulled()).isEqualTo(2000);
        assertThat(a.state().hash(HashVersion.STAMPED)).isEqualTo(b.state().hash(HashVersion.STAMPED));
        assertThat(peers[0].olderPeerSyncs()).isZero();
    }

    /** A transport to pair[to] that behaves, both ways, like a node from before hash versions. */
    private static Transport olderPeer(AntiEntropy[] pair, int to) {
        Transport inner = direct(pair, to);
        return new Transport() {
            public String address() {
                return "x";
            }

            public void serve(Handler handler) {
            }

            public CompletableFuture<byte[]> call(String address, int op, byte[] payload, Duration deadline) {
                if (op == Ops.SYNC_META) { // neither side sees the other's version: the records alone
                    return inner.call(address, op, withoutVersion(payload), deadline).thenApply(r -> withoutVersion(r));
                }
                if (op == Ops.SYNC_FINGERPRINTS && (payload[0] & 0xff) > 15) {
                    return CompletableFuture.failedFuture(new WireException("lane " + payload[0] + " is not in 0..15"));
                }
                if (op == Ops.SYNC_EXCHANGE && (payload[0] & 0xff) > 1) {
                    return CompletableFuture.failedFuture(new WireException("unknown exchange mode " + payload[0]));
                }
                return inner.call(address, op, payload, deadline);
            }

            public void close() {
            }
        };
    }

    /** SYNC_META records without the version and feature varints after them (one byte each). */
    private static byte[] withoutVersion(byte[] meta) {
        assertThat(meta[meta.length - 2]).isEqualTo((byte) HashVersion.newest().number());
        assertThat(meta[meta.length - 1]).isEqualTo((byte) AntiEntropy.WIDE_PROBES);
        return java.util.Arrays.copyOf(meta, meta.length - 2);
    }

    @Test
    void aLargeSubTreeWithOneChangedEntryMovesOnlyThatEntry() {
        java.util.Random random = new java.util.Random(3);
        List<Record> records = new java.util.ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            byte[] k = new byte[16];
            random.nextBytes(k);
            records.add(Record.subPut(b("big"), k, b("value-" + i), now - 1_000_000 + i));
        }
        a.applyAll(records);
        b.applyAll(records);
        byte[] changed = records.get(4242).subKey();
        a.apply(Record.subPut(b("big"), changed, b("newer"), now - 10));
        long before = peers[1].bytesSent() + peers[1].bytesReceived();
        AntiEntropy.Outcome o = peers[1].syncWith("a", null, null);
        long moved = peers[1].bytesSent() + peers[1].bytesReceived() - before;
        assertThat(b.state().sub(b("big")).get(changed).value()).isEqualTo(b("newer"));
        assertThat(o.pulled()).isEqualTo(1);
        assertThat(o.pushed()).isZero();
        assertThat(moved).as("bytes moved for one changed entry of a 100k-entry sub tree").isLessThan(1_000);
        assertThat(a.state().hash()).isEqualTo(b.state().hash());
    }
}
