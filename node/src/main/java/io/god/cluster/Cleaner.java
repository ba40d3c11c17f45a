package io.god.cluster;

import io.god.events.Event;
import io.god.persist.Record;
import io.god.ring.Member;
import io.god.ring.Ring;
import io.god.tree.Entry;
import io.god.tree.TreeState;
import io.god.wire.Ops;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Cleaning (reference §7.2): data this node holds but is no replica of (after ring changes) is
 * handed to the key's replicas ({@link Ops#REPLICATE}, applied there under last-write-wins) and,
 * once every one of them acknowledged, removed here without a tombstone by a compare-and-drop
 * ({@link Record#dropIfUnchanged}) — unless it changed meanwhile, then it waits for the next pass.
 *
 * <p>This node replicates the keys of {@code [position of its N-th predecessor, its position)}; a
 * pass looks only at the complement, in key order, at most {@code budget} entries.
 */
public final class Cleaner extends RepairTask {

    private static final System.Logger LOG = System.getLogger(Cleaner.class.getName());

    private final AtomicLong cleaned = new AtomicLong();
    private final AtomicLong handed = new AtomicLong();

    public Cleaner(RepairContext context) {
        super(context);
    }

    /** Entries removed here after their replicas confirmed them. */
    public long cleaned() {
        return cleaned.get();
    }

    /** Records handed to replicas by cleaning. */
    public long handed() {
        return handed.get();
    }

    /** [from, to) of the keys this node replicates (wrapping); null when it replicates everything. */
    public static byte[][] replicatedRange(Ring r, String address, int redundancy) {
        Member me = r.byAddress(address);
        if (me == null || r.size() <= redundancy) {
            return null;
        }
        Member p = me;
        for (int i = 0; i < redundancy; i++) {
            p = r.predecessorOf(p);
        }
        return new byte[][] {p.position(), me.position()};
    }

    /** One pass; returns how many entries were removed. */
    public long pass() {
        Ring r = ring.get();
        Member me = r.byAddress(address);
        byte[][] mine = replicatedRange(r, address, redundancy);
        if (mine == null) {
            return 0;
        }
        TreeState s = store.state();
        List<Entry> misplaced = new ArrayList<>();
        // the complement of [mine[0], mine[1]) is [mine[1], mine[0]) (wrapping)
        byte[] from = mine[1];
        byte[] to = mine[0];
        scan(s, from, Arrays.compareUnsigned(from, to) < 0 ? to : null, misplaced);
        if (Arrays.compareUnsigned(from, to) >= 0) {
            scan(s, null, to, misplaced);
        }
        if (misplaced.isEmpty()) {
            return 0;
        }
        Map<String, List<Record>> byTarget = new LinkedHashMap<>();
        Map<String, Member> members = new LinkedHashMap<>();
        List<List<String>> targetsOf = new ArrayList<>();
        for (Entry e : misplaced) {
            List<Record> records = new ArrayList<>();
            EntryRecords.all(e, store.collectionCutoff(), records);
            List<String> targets = new ArrayList<>();
            if (!records.isEmpty()) {
                for (Member m : r.replicas(e.key(), redundancy)) {
                    byTarget.computeIfAbsent(m.address(), a -> new ArrayList<>()).addAll(records);
                    members.put(m.address(), m);
                    targets.add(m.address());
                }
            }
            targetsOf.add(targets);
        }
        Map<String, CompletableFuture<byte[]>> calls = new LinkedHashMap<>();
        for (Map.Entry<String, List<Record>> t : byTarget.entrySet()) {
            calls.put(t.getKey(), transport.call(t.getKey(), Ops.REPLICATE, Cluster.encode(t.getValue()), timeout));
        }
        Set<String> confirmed = new HashSet<>();
        for (Map.Entry<String, CompletableFuture<byte[]>> c : calls.entrySet()) {
            try {
                await(c.getValue());
                confirmed.add(c.getKey());
                handed.addAndGet(byTarget.get(c.getKey()).size());
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "cleaning: " + c.getKey() + " did not confirm: " + e);
            }
        }
        // compare-and-drop: each drop applies only while the entry is still the version handed over,
        // checked inside the tree's write, so a write arriving meanwhile is never lost here
        List<Record> drops = new ArrayList<>();
        long ts = timestamps.next();
        for (int i = 0; i < misplaced.size(); i++) {
            if (confirmed.containsAll(targetsOf.get(i))) {
                drops.add(Record.dropIfUnchanged(misplaced.get(i).key(), misplaced.get(i), ts));
            }
        }
        long dropped = 0;
        if (!drops.isEmpty()) {
            store.applyAll(drops);
            TreeState after = store.state();
            for (Record d : drops) {
                dropped += after.entry(d.key()) == null ? 1 : 0;
            }
            cleaned.addAndGet(dropped);
            if (events != null && events.hasListeners()) {
                for (String a : confirmed) {
                    Member m = members.get(a);
                    events.publish(new Event.Clean(new Event.NodeRef(me.position(), address),
                            new Event.NodeRef(m.position(), a), dropped, byTarget.get(a).size()));
                }
            }
        }
        return dropped;
    }

    private void scan(TreeState s, byte[] from, byte[] to, List<Entry> out) {
        for (Iterator<Entry> it = s.entries(from); it.hasNext() && out.size() < budget; ) {
            Entry e = it.next();
            if (to != null && Arrays.compareUnsigned(e.key(), to) >= 0) {
                return;
            }
            out.add(e);
        }
    }
}
