package io.god.bench;

import io.god.cluster.AntiEntropy;
import io.god.cluster.RepairContext;
import io.god.node.Store;
import io.god.node.Timestamps;
import io.god.ring.Ring;
import io.god.time.NanoClock;
import io.god.transport.Transport;
import io.god.tree.TreeState;
import io.god.tree.Tree;
import io.god.wire.Ops;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

/**
 * Anti-entropy cost: two replicas of 1 M keys (16-byte random keys, 16-byte values) that differ in
 * 0.1 % of them (half missing on the replica, half with an older different value), resynchronised by
 * one {@link AntiEntropy#syncWith} over an in-process transport that counts payload bytes. Prints
 * the bytes moved and the time against the size of the differing entries (key + value bytes of the
 * newer side), and checks both trees end equal.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.god.bench.ResyncBench [keys] [divergence]</pre>
 */
public final class ResyncBench {

    /** Payload bytes by operation and direction, for the breakdown. */
    private static final java.util.Map<String, Long> BYTES = new java.util.TreeMap<>();

    private ResyncBench() {
    }

    public static void main(String[] args) {
        int keys = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        double divergence = args.length > 1 ? Double.parseDouble(args[1]) : 0.001;
        NanoClock clock = NanoClock.system();
        Random random = new Random(7);
        List<byte[]> ks = new ArrayList<>(keys);
        for (int i = 0; i < keys; i++) {
            byte[] k = new byte[16];
            random.nextBytes(k);
            ks.add(k);
        }
        long base = clock.nanos() - 1_000_000_000L;
        Tree a = new Tree(clock, Duration.ofHours(24));
        Tree b = new Tree(clock, Duration.ofHours(24));
        int differing = (int) Math.round(keys * divergence);
        long diffBytes = 0;
        TreeState sa = TreeState.EMPTY;
        TreeState sb = TreeState.EMPTY;
        for (int i = 0; i < keys; i++) {
            byte[] v = new byte[16];
            random.nextBytes(v);
            sa = sa.put(ks.get(i), v, base + i);
            if (i % (keys / Math.max(1, differing)) == 0 && differing > 0 && i / (keys / differing) < differing) {
                diffBytes += 32;
                if ((i / (keys / differing)) % 2 == 0) {
                    continue; // missing on b
                }
                byte[] old = v.clone();
                old[0] ^= 1;
                sb = sb.put(ks.get(i), old, base + i - 1); // older, different value on b
            } else {
                sb = sb.put(ks.get(i), v, base + i);
            }
        }
        TreeState fa = sa;
        TreeState fb = sb;
        a.update(s -> fa);
        b.update(s -> fb);
        Store storeA = Store.inMemory(a);
        Store storeB = Store.inMemory(b);
        AntiEntropy[] peers = new AntiEntropy[2];
        Transport toA = transport(() -> peers[0]);
        Ring none = new Ring(List.of());
        peers[0] = new AntiEntropy(new RepairContext("a", () -> none, transport(() -> peers[1]), storeA,
                new Timestamps(clock), null, clock, 3, Duration.ofSeconds(30), Duration.ofHours(24), 1_000_000));
        peers[1] = new AntiEntropy(new RepairContext("b", () -> none, toA, storeB, new Timestamps(clock), null, clock,
                3, Duration.ofSeconds(30), Duration.ofHours(24), 1_000_000));
        System.out.printf("%d keys, %d differing (%.2f %%), differing entries %d bytes (key + value)%n", keys,
                differing, divergence * 100, diffBytes);
        for (int run = 0; run < 2; run++) {
            BYTES.clear();
            long t0 = System.nanoTime();
            long s0 = peers[1].bytesSent();
            long r0 = peers[1].bytesReceived();
            AntiEntropy.Outcome o = peers[1].syncWith("a", null, null);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            long moved = peers[1].bytesSent() - s0 + peers[1].bytesReceived() - r0;
            System.out.printf("round %d: %d differences, %d fingerprints, pulled %d, pushed %d, %d bytes moved "
                    + "(%.2f x the differing entries), %d ms%n", run + 1, o.differences(), o.fingerprints(), o.pulled(),
                    o.pushed(), moved, diffBytes == 0 ? 0.0 : (double) moved / diffBytes, ms);
            System.out.println("  bytes by call: " + BYTES);
        }
        boolean equal = storeA.state().hash().equals(storeB.state().hash());
        System.out.println("replicas equal after sync: " + equal);
        if (!equal) {
            System.exit(1);
        }
        subTree(storeA, storeB, peers[1], clock, random);
    }

    /** A 100k-entry sub tree present on both replicas with one entry changed on a: what moves. */
    private static void subTree(Store a, Store b, AntiEntropy syncer, NanoClock clock, Random random) {
        byte[] key = "a-sub-tree".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        List<io.god.persist.Record> records = new ArrayList<>();
        long base = clock.nanos() - 1_000_000_000L;
        byte[] changed = null;
        for (int i = 0; i < 100_000; i++) {
            byte[] k = new byte[16];
            byte[] v = new byte[16];
            random.nextBytes(k);
            random.nextBytes(v);
            records.add(io.god.persist.Record.subPut(key, k, v, base + i));
            changed = i == 50_000 ? k : changed;
        }
        a.applyAll(records);
        b.applyAll(records);
        a.apply(io.god.persist.Record.subPut(key, changed, new byte[16], clock.nanos()));
        BYTES.clear();
        long before = syncer.bytesSent() + syncer.bytesReceived();
        long t0 = System.nanoTime();
        AntiEntropy.Outcome o = syncer.syncWith("a", null, null);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("sub tree of 100,000 entries, one changed (32 bytes): pulled %d, pushed %d, %d bytes moved, %d ms%n",
                o.pulled(), o.pushed(), syncer.bytesSent() + syncer.bytesReceived() - before, ms);
        System.out.println("  bytes by call: " + BYTES);
        boolean equal = a.state().hash().equals(b.state().hash());
        System.out.println("replicas equal after sync: " + equal);
        if (!equal) {
            System.exit(1);
        }
    }

    /** Calls the peer's handlers directly (no sockets), as the node's transport would. */
    private static Transport transport(java.util.function.Supplier<AntiEntropy> peer) {
        return new Transport() {
            @Override
            public String address() {
                return "bench";
            }

            @Override
            public void serve(Handler handler) {
            }

            @Override
            public CompletableFuture<byte[]> call(String address, int op, byte[] payload, Duration deadline) {
                AntiEntropy p = peer.get();
                CompletableFuture<byte[]> reply = switch (op) {
                    case Ops.SYNC_FINGERPRINTS -> p.serveFingerprints(payload);
                    case Ops.SYNC_EXCHANGE -> p.serveExchange(payload);
                    case Ops.SYNC_META -> p.serveMeta(payload);
                    default -> CompletableFuture.failedFuture(new IllegalArgumentException("op " + op));
                };
                BYTES.merge(Ops.name(op) + " request", (long) payload.length, Long::sum);
                BYTES.merge(Ops.name(op) + " reply", (long) reply.join().length, Long::sum);
                return reply;
            }

            @Override
            public void close() {
            }
        };
    }
}
