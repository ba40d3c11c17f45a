package io.god.chaos;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The campaign's invariants over a history and the final reads made after the last heal (keys are
 * written once, then maybe deleted once):
 * <ul>
 *   <li><b>lost write</b>: a key whose put was acknowledged and that no delete touched is missing (or
 *   different) at the end;</li>
 *   <li><b>resurrected delete</b>: a key whose delete was acknowledged is there at the end;</li>
 *   <li><b>stale read</b>: a read that began after the key's put was acknowledged did not see it although
 *   no delete had begun by the time the read returned, or saw it although a delete was acknowledged
 *   before the read began;</li>
 *   <li><b>unreadable</b>: a final read (after convergence) failed.</li>
 * </ul>
 * Registers ({@code r…} keys: one writer, overwritten with a rising sequence number, never deleted):
 * <b>stale read</b> when a read that began after a write was acknowledged found nothing or an older
 * sequence number; <b>lost write</b> when the final read has an older one than the last acknowledged
 * write. A newer one than acknowledged is fine (a write that failed or timed out may still be applied).
 * Keys put without Sync ({@code u…}) promise less (docs/durability.md: copies are lost if the owner dies before they
 * go out): a missing one is an <b>async write lost</b> (the campaign reports it, {@link #ASYNC_LOST}), and their reads
 * are not checked for staleness (a read may reach a replica the copy has not reached yet).
 */
final class Checker {

    /** What the final read of a key found; {@code failed}: the read itself did not succeed. */
    record Final(boolean failed, boolean found, String value) {
    }

    /** One broken invariant and the key's whole history (the shortest excerpt that shows it). */
    record Violation(String kind, String key, String detail, List<Op> excerpt) {
        String describe() {
            StringBuilder b = new StringBuilder(kind).append(" of ").append(key).append(": ").append(detail);
            for (Op op : excerpt) {
                b.append("\n    ").append(op);
            }
            return b.toString();
        }
    }

    /** The kind of an acknowledged put without Sync missing at the end: reported, not a violation. */
    static final String ASYNC_LOST = "async write lost";

    /** The kind of a key whose replicas still hold different copies after the final convergence. */
    static final String REPLICA_MISMATCH = "replica mismatch";
    /**
     * The kind of a key whose replicas hold the same value (or all a tombstone) under different stamps: the
     * entries' Merkle hash covers key, state and value, not the stamp (node {@code EntryHash}), so anti-entropy
     * never sees such a difference. Seen when a write's first attempt reached a replica that was then cut off and
     * the client's retry was stamped again on the others. Reported, not failing (docs/testing.md).
     */
    static final String STAMPS_DIFFER = "replica stamps differ";

    /**
     * What one replica holds of a key, read from it directly (not routed): the entry, or its tombstone
     * ({@code exists} false, the delete's stamp), or nothing (false, 0); {@code error}: the read failed.
     */
    record Copy(String node, boolean exists, long timestamp, String value, String error) {
        static Copy failed(String node, String error) {
            return new Copy(node, false, 0, null, error);
        }

        /** Same entry, stamp and value: what anti-entropy must bring the replicas to (DESIGN §5). */
        boolean agrees(Copy o) {
            return sameData(o) && timestamp == o.timestamp;
        }

        /** The same value, or both a tombstone, or both nothing — whatever the stamps. */
        boolean sameData(Copy o) {
            return error == null && o.error == null && exists == o.exists && (timestamp == 0) == (o.timestamp == 0)
                    && java.util.Objects.equals(value, o.value);
        }

        @Override
        public String toString() {
            return node + ": " + (error != null ? "read failed (" + error + ")" : exists ? value + " @" + timestamp
                    : timestamp == 0 ? "nothing" : "tombstone @" + timestamp);
        }
    }

    /**
     * Null when every replica of the key holds the same copy (tombstones compared like values), else a
     * {@link #REPLICA_MISMATCH} naming each replica and what it holds (a replica that could not be read
     * disagrees), or {@link #STAMPS_DIFFER} when only the stamps differ. {@code ops}: the key's history, for the excerpt.
     */
    static Violation compareReplicas(String key, List<Copy> copies, List<Op> ops) {
        if (copies.isEmpty()) {
            throw new IllegalArgumentException("no replica read for " + key);
        }
        if (copies.stream().allMatch(c -> c.agrees(copies.get(0)))) {
            return null;
        }
        boolean sameData = copies.stream().allMatch(c -> c.sameData(copies.get(0)));
        return new Violation(sameData ? STAMPS_DIFFER : REPLICA_MISMATCH, key, "after the final convergence the replicas hold "
                + copies, ops == null ? List.of() : ops);
    }

    private Checker() {
    }

    static List<Violation> check(List<Op> history, Map<String, Final> finals) {
        Map<String, List<Op>> byKey = new LinkedHashMap<>();
        for (Op op : history) {
            byKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
        }
        List<Violation> out = new ArrayList<>();
        for (Map.Entry<String, List<Op>> e : byKey.entrySet()) {
            checkKey(e.getKey(), e.getValue(), finals.get(e.getKey()), out);
        }
        return out;
    }

    private static void checkKey(String key, List<Op> ops, Final fin, List<Violation> out) {
        if (key.startsWith("r")) {
            checkRegister(key, ops, fin, out);
            return;
        }
        Op put = null;
        List<Op> dels = new ArrayList<>();
        for (Op op : ops) {
            if (op.kind() == Op.Kind.PUT) {
                put = op;
            } else if (op.kind() == Op.Kind.DEL) {
                dels.add(op);
            }
        }
        boolean putAcked = put != null && put.ok();
        boolean delAcked = dels.stream().anyMatch(Op::ok);
        String expected = "v-" + key;
        if (fin != null && fin.failed() && (putAcked || delAcked)) {
            out.add(new Violation("unreadable", key, "the final read after the heal failed", ops));
        } else if (fin != null && putAcked && dels.isEmpty() && (!fin.found() || !expected.equals(fin.value()))) {
            out.add(new Violation(Workload.isAsync(key) ? ASYNC_LOST : "lost write", key, "acknowledged put, no delete, final read "
                    + (fin.found() ? "found " + fin.value() : "found nothing"), ops));
        } else if (fin != null && delAcked && fin.found()) {
            out.add(new Violation("resurrected delete", key, "acknowledged delete, final read found " + fin.value(), ops));
        }
        if (!putAcked || Workload.isAsync(key)) {
            return;
        }
        for (Op read : ops) {
            if (read.kind() != Op.Kind.GET || !read.ok() || read.invoke() <= put.complete()) {
                continue;
            }
            boolean delBegun = dels.stream().anyMatch(d -> d.invoke() <= read.complete());
            boolean delDone = dels.stream().anyMatch(d -> d.ok() && d.complete() < read.invoke());
            if (!delBegun && (!read.found() || !expected.equals(read.value()))) {
                out.add(new Violation("stale read", key, "read #" + read.id() + " began after the put was acknowledged, "
                        + "no delete had begun, it found " + (read.found() ? read.value() : "nothing"), ops));
            } else if (delDone && read.found()) {
                out.add(new Violation("stale read", key, "read #" + read.id()
                        + " began after the delete was acknowledged and found " + read.value(), ops));
            }
        }
    }

    /** A register value's sequence number ({@code r0-1#17} → 17), -1 for nothing. */
    static long seq(String value) {
        return value == null ? -1 : Long.parseLong(value.substring(value.lastIndexOf('#') + 1));
    }

    private static void checkRegister(String key, List<Op> ops, Final fin, List<Violation> out) {
        long lastAcked = -1;
        for (Op op : ops) {
            if (op.kind() == Op.Kind.PUT && op.ok()) {
                lastAcked = Math.max(lastAcked, seq(op.value()));
            }
        }
        if (fin != null && fin.failed() && lastAcked >= 0) {
            out.add(new Violation("unreadable", key, "the final read after the heal failed", ops));
        } else if (fin != null && lastAcked >= 0 && seq(fin.found() ? fin.value() : null) < lastAcked) {
            out.add(new Violation("lost write", key, "write #" + lastAcked + " acknowledged, final read found "
                    + (fin.found() ? fin.value() : "nothing"), ops));
        }
        for (Op read : ops) {
            if (read.kind() != Op.Kind.GET || !read.ok()) {
                continue;
            }
            long before = -1;
            for (Op w : ops) {
                if (w.kind() == Op.Kind.PUT && w.ok() && w.complete() < read.invoke()) {
                    before = Math.max(before, seq(w.value()));
                }
            }
            long got = seq(read.found() ? read.value() : null);
            if (got < before) {
                out.add(new Violation("stale read", key, "read #" + read.id() + " began after write #" + before
                        + " was acknowledged and found " + (read.found() ? read.value() : "nothing"), excerpt(ops, read)));
            }
        }
    }

    /** A register's history up to the read: its writes and that read (a register has hundreds of ops). */
    private static List<Op> excerpt(List<Op> ops, Op read) {
        List<Op> writes = ops.stream().filter(o -> o.kind() == Op.Kind.PUT && o.invoke() <= read.complete()).toList();
        List<Op> out = new ArrayList<>(writes.subList(Math.max(0, writes.size() - 3), writes.size()));
        out.add(read);
        return out;
    }
}
