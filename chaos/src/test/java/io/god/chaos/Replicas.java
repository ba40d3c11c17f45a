package io.god.chaos;

import io.god.client.GodClient;
import io.god.client.GodException;
import io.god.wire.Call;
import io.god.wire.DataCall;
import io.god.wire.Ops;
import io.god.wire.WireException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * "Equal data on each key's replicas" after the final convergence (issue 27): each sampled key is read
 * from every replica that holds it, directly — a binary Get/SubGet in EXECUTE mode with the hop count at
 * its limit, so the node answers from its own copy and never forwards or merges — and the copies
 * (value, stamp, tombstones included) are compared by {@link Checker#compareReplicas}. Keys that differ
 * are read again until they agree or the bound passes: anti-entropy may still be repairing right after
 * the ring converged.
 */
final class Replicas {

    /** Most keys compared in one run (a seeded sample beyond it): three direct reads each. */
    static final int MAX_KEYS = 3000;
    /** The hop limit of the nodes ({@code Cluster.MAX_HOPS}): a read there is answered from the local copy. */
    private static final int LOCAL_HOPS = 3;
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(2);

    /**
     * What the comparison found: keys and copies compared, how long the first pass of reads took, keys that
     * differed in it, how long after it every key held the same data (null: some still differ), and the keys that
     * still differ at the end ({@link Checker#REPLICA_MISMATCH}, or {@link Checker#STAMPS_DIFFER} only).
     */
    record Outcome(int keys, int copies, long firstPassMs, int differedAtFirst, Long agreedAfterMs,
                   List<Checker.Violation> mismatches) {
    }

    private Replicas() {
    }

    /**
     * Compares the replicas of the written keys of {@code history} (a seeded sample of at most {@link #MAX_KEYS}).
     * {@code tombstonesAsAbsent}: with a tombstone window of seconds the replicas collect tombstones at
     * different moments, so a tombstone and nothing count as the same copy.
     */
    static Outcome check(GodClient client, List<Op> history, long seed, Duration bound, boolean tombstonesAsAbsent)
            throws InterruptedException {
        Map<String, List<Op>> byKey = new LinkedHashMap<>();
        for (Op op : history) {
            if (op.kind() != Op.Kind.GET) { // the excerpt: the key's writes (its last few for a register)
                byKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
            }
        }
        List<String> keys = new ArrayList<>(byKey.keySet());
        if (keys.size() > MAX_KEYS) {
            Collections.shuffle(keys, new Random(seed));
            keys = keys.subList(0, MAX_KEYS);
        }
        byKey.replaceAll((k, ops) -> List.copyOf(ops.subList(Math.max(0, ops.size() - 5), ops.size())));
        client.refreshRing(); // the converged ring: every key's replica set as the nodes see it
        long start = System.nanoTime();
        long end = start + bound.toNanos();
        int copies = 0;
        Map<String, Checker.Violation> differ = new LinkedHashMap<>();
        for (String key : keys) {
            List<Checker.Copy> read = readCopies(client, key, tombstonesAsAbsent);
            copies += read.size();
            Checker.Violation v = Checker.compareReplicas(key, read, byKey.get(key));
            if (v != null) {
                differ.put(key, v);
            }
        }
        int differedAtFirst = differ.size();
        long firstPass = System.nanoTime();
        // stamp-only differences (Checker.STAMPS_DIFFER) are repaired too since anti-entropy compares stamps (issue 27)
        while (!differ.isEmpty() && System.nanoTime() < end) {
            Thread.sleep(200); // anti-entropy rounds run every god.sync.interval (1 s here)
            differ.replaceAll((key, v) -> Checker.compareReplicas(key, readCopies(client, key, tombstonesAsAbsent), byKey.get(key)));
            differ.values().removeIf(java.util.Objects::isNull);
        }
        Long agreed = differ.isEmpty() ? (System.nanoTime() - firstPass) / 1_000_000 : null;
        return new Outcome(keys.size(), copies, (firstPass - start) / 1_000_000, differedAtFirst, agreed,
                List.copyOf(differ.values()));
    }

    /** The key's copy on each of its replicas (owner first). */
    static List<Checker.Copy> readCopies(GodClient client, String name, boolean tombstonesAsAbsent) {
        boolean sub = Workload.isSubTreeEntry(name);
        byte[] key = Workload.keyBytes(name);
        DataCall call = new DataCall(sub ? DataCall.SUB_GET : DataCall.GET, key,
                sub ? name.getBytes(StandardCharsets.UTF_8) : null, null, false, null, LOCAL_HOPS, Call.EXECUTE, 0);
        byte[] payload = call.encode();
        List<Checker.Copy> out = new ArrayList<>();
        for (GodClient.Member m : client.replicas(key)) {
            Checker.Copy c = readCopy(client, m.address(), payload);
            out.add(tombstonesAsAbsent && c.error() == null && !c.exists() ? new Checker.Copy(c.node(), false, 0, null, null) : c);
        }
        return out;
    }

    private static Checker.Copy readCopy(GodClient client, String address, byte[] payload) {
        try {
            DataCall.Reply r = DataCall.Reply.decode(client.call(address, Ops.DATA, payload, READ_TIMEOUT));
            if (r.status() != 200) {
                return Checker.Copy.failed(address, r.status() + " " + r.message());
            }
            return new Checker.Copy(address, r.exists(), r.timestamp(),
                    r.exists() ? new String(r.value(), StandardCharsets.UTF_8) : null, null);
        } catch (GodException | WireException e) {
            return Checker.Copy.failed(address, e.getMessage());
        }
    }
}
