package io.god.cluster;

import io.god.node.Store;
import io.god.persist.Record;
import io.god.tree.Entry;
import io.god.tree.TreeState;
import io.god.wire.Ops;
import io.god.wire.WireException;
import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Serves {@link Ops#BACKUP}: a backup reader pulls a key range like a peer, as the last-write-wins
 * records anti-entropy sends ({@link EntryRecords#all}: values, tombstones, sub trees, clear markers
 * and configuration, with their timestamps). A reading session pins one tree version (the tree is
 * persistent, so pinning is a reference), and every page of the session reads that version: each
 * range of a backup comes from one consistent version. Pages are addressed by the last key read, so a
 * page asked again (a retry) gets the same answer.
 *
 * <p>Sessions idle longer than {@link #IDLE_NANOS} are forgotten, and at most {@link #MAX_SESSIONS}
 * are kept (the oldest goes): a pinned version keeps the memory of the entries overwritten since.
 */
public final class BackupSource {

    static final int PAGE = 1;
    static final int INFO = 2;
    static final int PRESENT = 3;
    static final int MAX_SESSIONS = 16;
    static final long IDLE_NANOS = 600_000_000_000L;

    private record Session(TreeState state, long cutoff, long lastUsed) {
    }

    private final Store store;
    private final long maxPageBytes;
    private final LongSupplier nanos;
    private final int redundancy;
    private final LongSupplier collectedUpTo;
    private final Map<Long, Session> sessions = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();

    /** maxPageBytes: the most a page may hold (below the frame limit); an entry larger than it goes alone. */
    public BackupSource(Store store, LongSupplier nanos, int redundancy, LongSupplier collectedUpTo, long maxPageBytes) {
        this.maxPageBytes = maxPageBytes;
        this.store = store;
        this.nanos = nanos;
        this.redundancy = redundancy;
        this.collectedUpTo = collectedUpTo;
    }

    public byte[] serve(byte[] payload) {
        WireReader r = new WireReader(payload);
        int mode = r.u8();
        if (mode == INFO) {
            r.end();
            return new WireWriter().varint(redundancy).raw(ByteBuffer.allocate(8).putLong(collectedUpTo.getAsLong()).array())
                    .toBytes();
        }
        if (mode == PRESENT) {
            TreeState state = store.state();
            int n = r.count(1_000_000);
            WireWriter w = new WireWriter().varint(n);
            for (int i = 0; i < n; i++) {
                byte[] key = r.bytes();
                w.bool(key != null && state.entry(key) != null);
            }
            r.end();
            return w.toBytes();
        }
        if (mode != PAGE) {
            throw new WireException("unknown backup mode " + mode);
        }
        long id = r.varint();
        byte[] lo = null;
        byte[] hi = null;
        if (r.bool()) {
            lo = emptyIsNull(r.bytes());
            hi = emptyIsNull(r.bytes());
        }
        byte[] after = r.bool() ? r.bytes() : null;
        long max = Math.min(maxPageBytes, Math.max(1, r.varint()));
        r.end();
        long now = nanos.getAsLong();
        sessions.values().removeIf(s -> now - s.lastUsed > IDLE_NANOS);
        Session s;
        List<Record> records = new ArrayList<>();
        if (id == 0) {
            id = ids.incrementAndGet();
            s = new Session(store.state(), store.collectionCutoff(), now);
            if (after == null) { // a range's first page; a range resumed after a key has its meta already
                records.addAll(AntiEntropy.metaRecords(s.state));
            }
            evictOldest();
        } else {
            s = sessions.get(id);
            if (s == null) {
                throw new IllegalStateException("backup session " + id + " is unknown here (expired after "
                        + IDLE_NANOS / 1_000_000_000L + " s idle, or the node restarted): start the range again");
            }
        }
        List<byte[]> page = encode(records); // the first page: tree-level meta
        long bytes = page.stream().mapToLong(b -> b.length).sum();
        boolean done = true;
        Iterator<Entry> it = after != null ? s.state.entries(after, false, false) : s.state.entries(lo);
        while (it.hasNext()) {
            Entry e = it.next();
            if (hi != null && Arrays.compareUnsigned(e.key(), hi) >= 0) {
                break;
            }
            records.clear();
            EntryRecords.all(e, s.cutoff, records);
            List<byte[]> entry = encode(records);
            long size = entry.stream().mapToLong(b -> b.length).sum();
            if (bytes > 0 && bytes + size > max) {
                done = false; // the entry starts the next page: pages hold whole entries
                break;
            }
            page.addAll(entry);
            bytes += size;
        }
        if (done) {
            sessions.remove(id);
        } else {
            sessions.put(id, new Session(s.state, s.cutoff, now));
        }
        WireWriter w = new WireWriter().varint(id).bool(done).varint(page.size());
        for (byte[] b : page) {
            w.bytes(b);
        }
        return w.toBytes();
    }

    private static List<byte[]> encode(List<Record> records) {
        List<byte[]> out = new ArrayList<>(records.size());
        for (Record rec : records) {
            out.add(rec.encode());
        }
        return out;
    }

    private void evictOldest() {
        while (sessions.size() >= MAX_SESSIONS) {
            sessions.entrySet().stream().min((a, b) -> Long.compare(a.getValue().lastUsed, b.getValue().lastUsed))
                    .ifPresent(o -> sessions.remove(o.getKey()));
        }
    }

    private static byte[] emptyIsNull(byte[] b) {
        return b == null || b.length == 0 ? null : b;
    }
}
