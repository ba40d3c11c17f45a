package io.god.client;

import static io.god.client.Json.body;
import static io.god.client.Json.bytes;
import static io.god.client.Json.orEmpty;
import static io.god.client.Json.range;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.god.client.GodClient.Entry;
import io.god.wire.Call;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * Slice, ReverseSlice, SliceLen and ReverseSliceLen as merged reads (reference §1.3 mergeRecent): every replica
 * answers the Stamped form (entries with timestamps, tombstones included), each key keeps its newest copy
 * ({@link ReplicaReads#newer}), tombstones are dropped and the Len forms are cut after merging.
 */
final class MergedSlices {

    private final ReplicaReads reads;

    MergedSlices(ReplicaReads reads) {
        this.reads = reads;
    }

    /**
     * A merged slice: every replica answers the Stamped form from a cursor; each answer covers the keys up
     * to its last one when it was cut short (len live entries, or the tombstone cap), else the whole
     * rest of the range. Keys up to the nearest such cut are known on every answering replica, so they are
     * merged (newest copy per key), tombstones dropped, and the walk goes on strictly after the cut until
     * len live entries are found (len < 0: all) or no answer was cut. Each round moves past at least one
     * entry.
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
            ObjectNode b;
            if (paged) {
                b = body().put("Key", key).put("From", cursor).put("FromInc", cursorInc).put("Len", want);
            } else if (reverse) {
                b = range(key, end, cursor, endInc, cursorInc);
            } else {
                b = range(key, cursor, end, cursorInc, endInc);
            }
            List<JsonNode> answers = reads.fromReplicas(method, key, b.put("Stamped", true));
            byte[] cut = null;
            for (JsonNode a : answers) {
                if (a.isEmpty() || !truncated(a, want)) {
                    continue;
                }
                byte[] last = orEmpty(bytes(a.get(a.size() - 1).get("Key")));
                if (cut == null || (reverse ? Arrays.compareUnsigned(last, cut) > 0
                        : Arrays.compareUnsigned(last, cut) < 0)) {
                    cut = last;
                }
            }
            for (JsonNode e : mergeByKey(answers, reverse)) {
                byte[] k = orEmpty(bytes(e.get("Key")));
                if (cut != null && (reverse ? Arrays.compareUnsigned(k, cut) < 0 : Arrays.compareUnsigned(k, cut) > 0)) {
                    break;
                }
                if (e.path("Exists").asBoolean()) {
                    out.add(new Entry(k, orEmpty(bytes(e.get("Value")))));
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

    /** Whether a Stamped slice answer was cut short (want live entries, or {@link Call#STAMPED_TOMBSTONE_CAP}). */
    private static boolean truncated(JsonNode answer, long want) {
        long live = 0;
        long dead = 0;
        for (JsonNode e : answer) {
            if (e.path("Exists").asBoolean()) {
                live++;
            } else {
                dead++;
            }
        }
        return (want >= 0 && live >= want) || dead >= Call.STAMPED_TOMBSTONE_CAP;
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
