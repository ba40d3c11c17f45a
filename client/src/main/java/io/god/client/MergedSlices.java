package io.god.client;

import static io.god.client.Json.body;
import static io.god.client.Json.bytes;
import static io.god.client.Json.orEmpty;
import static io.god.client.Json.range;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.god.client.GodClient.Entry;
import io.god.wire.Call;
import io.god.wire.SliceCall;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Slice, ReverseSlice, SliceLen and ReverseSliceLen as merged reads (reference §1.3 mergeRecent): every replica
 * answers the Stamped form (entries with timestamps, tombstones included), each key keeps its newest copy
 * ({@link ReplicaReads#newer}), tombstones are dropped and the Len forms are cut after merging.
 */
final class MergedSlices {

    private final ReplicaReads reads;
    private final NodeCalls calls;
    /** Which replica of a page's read is asked for entries (the others for digests). */
    private final AtomicInteger rotation = new AtomicInteger();

    MergedSlices(ReplicaReads reads, NodeCalls calls) {
        this.reads = reads;
        this.calls = calls;
    }

    /**
     * A merged slice: every replica answers the Stamped form from a cursor; each answer covers the keys up
     * to its last one when it was cut short (len live entries, or the tombstone cap), else the whole
     * rest of the range. Keys up to the nearest such cut are known on every answering replica, so they are
     * merged (newest copy per key), tombstones dropped, and the walk goes on strictly after the cut until
     * len live entries are found (len < 0: all) or no answer was cut. Each round moves past at least one
     * entry. The Len forms ask in binary as a {@link DigestRead} (entries from one replica, digests from the others;
     * JSON at a node older than the binary call), the range forms in JSON.
     *
     * @param start where the walk begins (forward: the low bound; reverse: the high bound), null = open
     * @param end   where it stops (the other bound), null = open
     */
    List<Entry> merged(String method, byte[] key, byte[] start, boolean startInc, byte[] end, boolean endInc,
                       long len, boolean reverse) {
        boolean paged = method.endsWith("Len");
        List<Entry> out = new ArrayList<>();
        byte[] cursor = start;
        boolean cursorInc = startInc;
        while (true) {
            long want = len < 0 ? -1 : len - out.size();
            List<List<SliceCall.Stamped>> answers = distinct(paged ? page(method, key, cursor, cursorInc, want)
                    : ranged(method, key, reverse ? range(key, end, cursor, endInc, cursorInc)
                    : range(key, cursor, end, cursorInc, endInc)));
            byte[] cut = null;
            for (List<SliceCall.Stamped> a : answers) {
                if (a.isEmpty() || !truncated(a, want)) {
                    continue;
                }
                byte[] last = a.get(a.size() - 1).key();
                if (cut == null || (reverse ? Arrays.compareUnsigned(last, cut) > 0
                        : Arrays.compareUnsigned(last, cut) < 0)) {
                    cut = last;
                }
            }
            for (SliceCall.Stamped e : mergeStamped(answers, reverse)) {
                byte[] k = e.key();
                if (cut != null && (reverse ? Arrays.compareUnsigned(k, cut) < 0 : Arrays.compareUnsigned(k, cut) > 0)) {
                    break;
                }
                if (e.exists()) {
                    out.add(new Entry(k, e.value()));
                    if (len >= 0 && out.size() >= len) {
                        return out;
                    }
                }
            }
            if (cut == null) {
                return out;
            }
            cursor = cut;
            cursorInc = false;
        }
    }

    /**
     * Every replica's Stamped SliceLen/ReverseSliceLen from the cursor, in binary, as a {@link DigestRead}: the
     * replica asked for entries rotates (so no replica does every walk's encoding), the others send digests.
     * Replicas that agree come back as the same list object.
     */
    private List<List<SliceCall.Stamped>> page(String method, byte[] key, byte[] from, boolean fromInc, long want) {
        int kind = method.startsWith("Reverse") ? SliceCall.REVERSE_SLICE_LEN : SliceCall.SLICE_LEN;
        SliceCall call = new SliceCall(kind, key, from, fromInc, want, calls.authorization(), 0, Call.EXECUTE);
        SliceCall routed = new SliceCall(kind, key, from, fromInc, want, calls.authorization(), 0, Call.ROUTE);
        // the JSON form is built only for nodes older than the binary call: no Jackson tree per page otherwise
        Supplier<ObjectNode> json = () -> body().put("Key", key).put("From", from).put("FromInc", fromInc)
                .put("Len", want).put("Stamped", true);
        return reads.fromReplicas(method, key, (ReplicaReads.PerAttempt<List<SliceCall.Stamped>>) replicas ->
                        new DigestRead(calls, call, json,
                                replicas.get(Math.floorMod(rotation.getAndIncrement(), replicas.size())).address()),
                (address, budget) -> {
                    Connections.Sent<NodeCalls.StampedSlice> s = calls.sendSlice(address, routed, json, budget);
                    return () -> s.answer().entries;
                });
    }

    /** Every replica's Stamped Slice/ReverseSlice of a range, in JSON. */
    private List<List<SliceCall.Stamped>> ranged(String method, byte[] key, ObjectNode b) {
        List<List<SliceCall.Stamped>> out = new ArrayList<>();
        for (JsonNode a : reads.fromReplicas(method, key, b.put("Stamped", true))) {
            out.add(NodeCalls.stamped(a));
        }
        return out;
    }

    /** The answers without repeats of one list object (replicas whose digest matched share their peer's entries). */
    private static List<List<SliceCall.Stamped>> distinct(List<List<SliceCall.Stamped>> answers) {
        List<List<SliceCall.Stamped>> out = new ArrayList<>(answers.size());
        for (List<SliceCall.Stamped> a : answers) {
            boolean seen = false;
            for (List<SliceCall.Stamped> o : out) {
                seen |= o == a;
            }
            if (!seen) {
                out.add(a);
            }
        }
        return out;
    }

    /** Whether a Stamped slice answer was cut short (want live entries, or {@link Call#STAMPED_TOMBSTONE_CAP}). */
    private static boolean truncated(List<SliceCall.Stamped> answer, long want) {
        long live = 0;
        long dead = 0;
        for (SliceCall.Stamped e : answer) {
            if (e.exists()) {
                live++;
            } else {
                dead++;
            }
        }
        return (want >= 0 && live >= want) || dead >= Call.STAMPED_TOMBSTONE_CAP;
    }

    /**
     * Typed Stamped answers merged by key: the newest copy of each key ({@link ReplicaReads#newer}), tombstones
     * included, ascending (descending when reverse). Each answer is in walk order already (a node's walk), so this
     * is a k-way merge; one answer (a node alone, or one replica) is returned as it is. A JFR profile of merged
     * SliceLen 100 on a 3-node ring showed a TreeMap merge as half of the client's own CPU.
     */
    static List<SliceCall.Stamped> mergeStamped(List<List<SliceCall.Stamped>> answers, boolean reverse) {
        if (answers.size() == 1) {
            return answers.get(0);
        }
        int[] at = new int[answers.size()];
        List<SliceCall.Stamped> out = new ArrayList<>();
        while (true) {
            byte[] next = null; // the first key in walk order among the answers' heads
            for (int i = 0; i < at.length; i++) {
                List<SliceCall.Stamped> a = answers.get(i);
                if (at[i] < a.size()) {
                    byte[] k = a.get(at[i]).key();
                    int c = next == null ? -1 : Arrays.compareUnsigned(k, next);
                    if (reverse ? c > 0 || next == null : c < 0) {
                        next = k;
                    }
                }
            }
            if (next == null) {
                return out;
            }
            SliceCall.Stamped best = null;
            for (int i = 0; i < at.length; i++) {
                List<SliceCall.Stamped> a = answers.get(i);
                if (at[i] < a.size() && Arrays.equals(a.get(at[i]).key(), next)) {
                    SliceCall.Stamped e = a.get(at[i]++);
                    if (best == null || ReplicaReads.newer(e.timestamp(), e.exists(), e.value(), best.timestamp(),
                            best.exists(), best.value())) {
                        best = e;
                    }
                }
            }
            out.add(best);
        }
    }

    /**
     * Stamped slice answers merged by key: the newest copy of each key ({@link ReplicaReads#newer}), tombstones
     * included, ascending (descending when reverse).
     */
    static List<JsonNode> mergeByKey(List<JsonNode> answers, boolean reverse) {
        TreeMap<byte[], JsonNode> byKey = new TreeMap<>(Arrays::compareUnsigned);
        for (JsonNode a : answers) {
            for (JsonNode e : a) {
                byKey.merge(orEmpty(bytes(e.get("Key"))), e, (old, cur) -> ReplicaReads.newer(cur, old) ? cur : old);
            }
        }
        return new ArrayList<>(reverse ? byKey.descendingMap().values() : byKey.values());
    }

    /** The live entries of merged Stamped slice answers, in order (a newer tombstone hides older values). */
    static List<Entry> merge(List<JsonNode> answers, boolean reverse) {
        List<Entry> out = new ArrayList<>();
        for (JsonNode e : mergeByKey(answers, reverse)) {
            if (e.path("Exists").asBoolean()) {
                out.add(new Entry(orEmpty(bytes(e.get("Key"))), orEmpty(bytes(e.get("Value")))));
            }
        }
        return out;
    }
}
