package io.god.cluster;

import io.god.events.Event;
import io.god.persist.Record;
import io.god.ring.Member;
import io.god.ring.Ring;
import io.god.transport.TransportException;
import io.god.tree.Entry;
import io.god.tree.Fingerprint;
import io.god.tree.Hash128;
import io.god.tree.TreeState;
import io.god.wire.Ops;
import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Merkle anti-entropy of the owned range (reference §7.1, DESIGN §5 and §7).
 *
 * <p>Each {@link #round()} the owner of {@code [predecessor, self)} compares that range with each of
 * its N−1 successors. The walk asks the successor for fingerprints of many prefixes per round trip
 * ({@link Ops#SYNC_FINGERPRINTS}), compares them with its own, skips prefixes outside the range,
 * descends prefixes that straddle a range boundary without comparing, and descends into prefixes
 * wholly inside the range only where the hashes differ. The differing regions found (at most
 * {@code budget} per successor and round) are then exchanged in one call ({@link Ops#SYNC_EXCHANGE}):
 * the owner sends its records of those regions, the successor applies them under last-write-wins
 * and answers with its own records of the regions that the request did not already carry, which the
 * owner applies. Both sides end with the LWW maximum of both; applying twice is harmless, so no
 * compare-and-set is needed (the exchange is idempotent and order-independent by DESIGN §5's rule).
 *
 * <p>A key's records are its value or tombstone and, for a sub tree, the sub tree's clear marker,
 * configuration and every entry (a differing sub tree is sent whole). Tombstones older than the
 * tombstone window are never sent, and a region whose only difference is such a tombstone does not
 * count as a difference. The tree-level configuration and clear marker are exchanged first
 * ({@link Ops#SYNC_META}). Nothing is ever removed on a heuristic: only LWW records move.
 */
public final class AntiEntropy extends RepairTask {

    private static final System.Logger LOG = System.getLogger(AntiEntropy.class.getName());
    /** Prefixes asked per fingerprint round trip. */
    static final int BATCH = 512;

    enum Place { INSIDE, PARTIAL, OUTSIDE }

    /** A prefix region of {@code nibbles} nibbles; {@code exact}: only the key of exactly those nibbles. */
    record Region(byte[] prefix, int nibbles, boolean exact) {
    }


    private volatile boolean replicated;
    private volatile long lastSyncAt;
    private final AtomicLong rounds = new AtomicLong();
    private final AtomicLong pulled = new AtomicLong();
    private final AtomicLong pushed = new AtomicLong();
    private final AtomicLong bytesSent = new AtomicLong();
    private final AtomicLong bytesReceived = new AtomicLong();

    public AntiEntropy(RepairContext context) {
        super(context);
    }

    /** True when the last round found no difference with any successor (always on one node or N=1). */
    public boolean replicated() {
        Ring r = ring.get();
        return r.size() <= 1 || redundancy <= 1 || replicated;
    }

    /** Clock time (ns) when the last round with successors finished; 0 = never. */
    public long lastSyncAt() {
        return lastSyncAt;
    }

    public long rounds() {
        return rounds.get();
    }

    public long pulled() {
        return pulled.get();
    }

    public long pushed() {
        return pushed.get();
    }

    /** Payload bytes this node sent / received in sync calls it started. */
    public long bytesSent() {
        return bytesSent.get();
    }

    public long bytesReceived() {
        return bytesReceived.get();
    }

    /** Outcome of syncing one range with one successor. */
    public record Outcome(int differences, long pulled, long pushed, long fingerprints) {
    }

    /**
     * One round: the owned range with every successor. Returns true when no successor differed
     * (transport failures count as not replicated).
     */
    public boolean round() {
        Ring r = ring.get();
        Member me = r.byAddress(address);
        boolean clean = me != null || r.size() <= 1;
        if (me != null && r.size() > 1 && redundancy > 1) {
            byte[] from = r.predecessorOf(me).position();
            byte[] to = me.position();
            List<Member> successors = new ArrayList<>();
            Member s = me;
            for (int i = 1; i < Math.min(redundancy, r.size()); i++) {
                s = r.successorOf(s);
                successors.add(s);
            }
            for (Member succ : successors) {
                try {
                    Outcome o = syncWith(succ.address(), from, to);
                    if (o.differences() > 0) {
                        clean = false;
                    }
                    if ((o.pulled() > 0 || o.pushed() > 0) && events != null && events.hasListeners()) {
                        events.publish(new Event.Sync(new Event.NodeRef(me.position(), address),
                                new Event.NodeRef(succ.position(), succ.address()), o.pulled(), o.pushed()));
                    }
                } catch (RuntimeException e) {
                    clean = false;
                    LOG.log(System.Logger.Level.DEBUG, "sync with " + succ.address() + " failed: " + e);
                }
            }
        }
        replicated = clean;
        if (me != null && r.size() > 1 && redundancy > 1) {
            lastSyncAt = clock.nanos(); // a one-node ring (or N=1) has nothing to sync: stays 0
        }
        rounds.incrementAndGet();
        return clean;
    }

    /** Compares [from, to) (wrapping; null = everything) with one peer and exchanges differing regions. */
    public Outcome syncWith(String peer, byte[] from, byte[] to) {
        int differences = 0;
        long in = 0;
        long out = 0;
        // tree-level configuration and clear marker
        TreeState mine = store.state();
        byte[] metaReply = call(peer, Ops.SYNC_META, encodeMeta(mine));
        List<Record> theirs = decodeRecords(new WireReader(metaReply));
        List<Record> apply = new ArrayList<>();
        for (Record rec : theirs) {
            if (rec.kind() == Record.Kind.CLEAR ? rec.timestamp() > mine.clearedAt()
                    : rec.timestamp() > mine.configurationTimestamp()) {
                apply.add(rec);
            }
        }
        if (!apply.isEmpty()) {
            differences++;
            in += apply.size();
            applyLocally(apply);
        }
        for (Record rec : metaRecords(mine)) {
            boolean sent = theirs.stream().noneMatch(t -> t.kind() == rec.kind() && t.timestamp() >= rec.timestamp());
            if (sent) {
                differences++;
                out++;
            }
        }

        // Merkle walk of the range
        TreeState local = store.state();
        List<Region> diffs = new ArrayList<>();
        long fingerprints = 0;
        ArrayDeque<Region> pending = new ArrayDeque<>();
        ArrayDeque<Place> places = new ArrayDeque<>();
        Region root = new Region(new byte[0], 0, false);
        Place rootPlace = place(root.prefix(), 0, from, to);
        pending.add(root);
        places.add(rootPlace);
        while (!pending.isEmpty() && diffs.size() < budget) {
            List<Region> batch = new ArrayList<>();
            List<Place> batchPlaces = new ArrayList<>();
            while (!pending.isEmpty() && batch.size() < BATCH) {
                batch.add(pending.poll());
                batchPlaces.add(places.poll());
            }
            List<Fingerprint> remote = remoteFingerprints(peer, batch);
            fingerprints += batch.size();
            for (int i = 0; i < batch.size() && diffs.size() < budget; i++) {
                Region p = batch.get(i);
                Fingerprint fa = local.fingerprint(p.prefix(), p.nibbles());
                Fingerprint fb = remote.get(i);
                expand(p, batchPlaces.get(i), fa, fb, from, to, diffs, pending, places);
            }
        }
        if (!diffs.isEmpty()) {
            // exchange
            List<Record> records = new ArrayList<>();
            long now = clock.nanos();
            for (Region d : diffs) {
                collect(local, d, from, to, now, records);
            }
            WireWriter w = new WireWriter();
            encodeRange(w, from, to);
            w.varint(diffs.size());
            for (Region d : diffs) {
                w.bytes(d.prefix()).varint(d.nibbles()).bool(d.exact());
            }
            encodeRecords(w, records);
            byte[] reply = call(peer, Ops.SYNC_EXCHANGE, w.toBytes());
            WireReader rr = new WireReader(reply);
            long changedThere = rr.varint();
            List<Record> back = decodeRecords(rr);
            rr.end();
            boolean changedHere = !back.isEmpty() && applyLocally(back);
            out += changedThere;
            in += changedHere ? back.size() : 0;
            if (changedThere > 0 || changedHere) {
                differences += diffs.size();
            }
        }
        pulled.addAndGet(in);
        pushed.addAndGet(out);
        return new Outcome(differences, in, out, fingerprints);
    }

    private void expand(Region p, Place place, Fingerprint fa, Fingerprint fb, byte[] from, byte[] to,
                        List<Region> diffs, ArrayDeque<Region> pending, ArrayDeque<Place> places) {
        if (fa == null && fb == null) {
            return;
        }
        if (place == Place.INSIDE) {
            if (fa != null && fb != null && same(fa.hash(), fb.hash())) {
                return;
            }
            if (fa == null || fb == null) {
                diffs.add(p);
                return;
            }
            int d = Math.min(fa.depth(), fb.depth());
            if (mismatch(fa.key(), fb.key(), d) < d) {
                diffs.add(p);
                return;
            }
            byte[] common = fa.depth() == d ? fa.key() : fb.key();
            if (!same(entryAt(fa, d), entryAt(fb, d))) {
                diffs.add(new Region(common, d, true));
            }
            boolean any = !same(entryAt(fa, d), entryAt(fb, d));
            for (int nibble = 0; nibble < 16; nibble++) {
                if (!sameChild(childAt(fa, d, nibble), childAt(fb, d, nibble))) {
                    pending.add(new Region(withNibble(common, d, nibble), d + 1, false));
                    places.add(Place.INSIDE);
                    any = true;
                }
            }
            if (!any) {
                diffs.add(p); // the hashes differ but no (shortened) child hash does: exchange it all
            }
            return;
        }
        // straddles a range boundary: expand one nibble without comparing hashes
        int n = p.nibbles();
        if ((n & 1) == 0 && !same(entryAt(fa, n), entryAt(fb, n))) {
            byte[] key = Arrays.copyOf(p.prefix(), n >> 1);
            if (inRange(key, from, to)) {
                diffs.add(new Region(key, n, true));
            }
        }
        for (int nibble = 0; nibble < 16; nibble++) {
            if (childAt(fa, n, nibble) == null && childAt(fb, n, nibble) == null) {
                continue;
            }
            byte[] child = withNibble(p.prefix(), n, nibble);
            Place cp = place(child, n + 1, from, to);
            if (cp != Place.OUTSIDE) {
                pending.add(new Region(child, n + 1, false));
                places.add(cp);
            }
        }
    }

    // ------------------------------------------------------------------ serving

    /** {@link Ops#SYNC_FINGERPRINTS}: count, (prefix, nibbles)* → fingerprints. */
    public CompletableFuture<byte[]> serveFingerprints(byte[] payload) {
        WireReader r = new WireReader(payload);
        int n = r.count(1_000_000);
        TreeState s = store.state();
        WireWriter w = new WireWriter().varint(n);
        for (int i = 0; i < n; i++) {
            byte[] prefix = r.bytes();
            int nibbles = (int) r.varint();
            encodeFingerprint(w, s.fingerprint(prefix, nibbles));
        }
        r.end();
        return CompletableFuture.completedFuture(w.toBytes());
    }

    /** {@link Ops#SYNC_META}: the peer's configuration/clear records → this node's. */
    public CompletableFuture<byte[]> serveMeta(byte[] payload) {
        List<Record> theirs = decodeRecords(new WireReader(payload));
        TreeState mine = store.state();
        List<Record> apply = new ArrayList<>();
        for (Record rec : theirs) {
            if (rec.kind() == Record.Kind.CLEAR ? rec.timestamp() > mine.clearedAt()
                    : rec.timestamp() > mine.configurationTimestamp()) {
                apply.add(rec);
            }
        }
        if (!apply.isEmpty()) {
            applyLocally(apply);
        }
        return CompletableFuture.completedFuture(encodeMeta(mine));
    }

    /** {@link Ops#SYNC_EXCHANGE}: range, regions, records → changed count, records the request lacked. */
    public CompletableFuture<byte[]> serveExchange(byte[] payload) {
        WireReader r = new WireReader(payload);
        byte[][] range = decodeRange(r);
        int n = r.count(10_000_000);
        List<Region> regions = new ArrayList<>(Math.min(n, 4096));
        for (int i = 0; i < n; i++) {
            regions.add(new Region(r.bytes(), (int) r.varint(), r.bool()));
        }
        List<Record> theirs = decodeRecords(r);
        r.end();
        long changed = 0;
        if (!theirs.isEmpty()) {
            TreeState before = store.state();
            applyLocally(theirs);
            TreeState after = store.state();
            changed = before.hash().equals(after.hash()) && before.clearedAt() == after.clearedAt() ? 0 : theirs.size();
        }
        TreeState s = store.state();
        List<Record> mine = new ArrayList<>();
        long now = clock.nanos();
        for (Region d : regions) {
            collect(s, d, range[0], range[1], now, mine);
        }
        Set<Record> had = new HashSet<>(theirs);
        mine.removeIf(had::contains);
        WireWriter w = new WireWriter().varint(changed);
        encodeRecords(w, mine);
        return CompletableFuture.completedFuture(w.toBytes());
    }

    // ------------------------------------------------------------------ records of a region

    private void collect(TreeState s, Region d, byte[] from, byte[] to, long now, List<Record> out) {
        byte[] start = d.exact() ? Arrays.copyOf(d.prefix(), d.nibbles() >> 1) : low(d.prefix(), d.nibbles());
        for (Iterator<Entry> it = s.entries(start); it.hasNext(); ) {
            Entry e = it.next();
            if (!hasPrefix(e.key(), d.prefix(), d.nibbles())) {
                break;
            }
            if (d.exact() && e.key().length * 2 != d.nibbles()) {
                break;
            }
            if (inRange(e.key(), from, to)) {
                recordsOf(e, now, out);
            }
        }
    }

    /** Test-only switch: re-introduces reference §10.2 through {@link EmptySubTreeRule}. */
    static volatile boolean emptySubTreeClears;

    /** The LWW records that rebuild entry e (expired tombstones left out). */
    void recordsOf(Entry e, long now, List<Record> out) {
        recordsOf(e, now, windowNanos, out);
    }

    /** As above with an explicit tombstone window (ns). */
    static void recordsOf(Entry e, long now, long windowNanos, List<Record> out) {
        if (e.hasValue()) {
            out.add(Record.put(e.key(), e.value(), e.timestamp()));
        } else if (e.isTombstone() && e.timestamp() >= now - windowNanos) {
            out.add(Record.delete(e.key(), e.timestamp()));
        }
        TreeState sub = e.sub();
        if (sub == null) {
            return;
        }
        if (emptySubTreeClears) {
            EmptySubTreeRule.apply(e.key(), sub, out);
        }
        if (sub.clearedAt() > 0 && sub.clearedAt() >= now - windowNanos) {
            out.add(Record.subClear(e.key(), sub.clearedAt()));
        }
        if (sub.configurationTimestamp() > 0) {
            out.add(Record.subSetConfiguration(e.key(), sub.configuration(), sub.configurationTimestamp()));
        }
        for (Iterator<Entry> it = sub.entries(null); it.hasNext(); ) {
            Entry se = it.next();
            if (se.hasValue()) {
                out.add(Record.subPut(e.key(), se.key(), se.value(), se.timestamp()));
            } else if (se.isTombstone() && se.timestamp() >= now - windowNanos) {
                out.add(Record.subDelete(e.key(), se.key(), se.timestamp()));
            }
        }
    }

    private boolean applyLocally(List<Record> records) {
        long newest = 0;
        for (Record rec : records) {
            newest = Math.max(newest, rec.timestamp());
        }
        timestamps.advanceTo(newest);
        return store.applyAll(records);
    }

    private static List<Record> metaRecords(TreeState s) {
        List<Record> out = new ArrayList<>(2);
        if (s.clearedAt() > 0) {
            out.add(Record.clear(s.clearedAt()));
        }
        if (s.configurationTimestamp() > 0) {
            out.add(Record.setConfiguration(s.configuration(), s.configurationTimestamp()));
        }
        return out;
    }

    private static byte[] encodeMeta(TreeState s) {
        WireWriter w = new WireWriter();
        encodeRecords(w, metaRecords(s));
        return w.toBytes();
    }

    // ------------------------------------------------------------------ remote calls

    private List<Fingerprint> remoteFingerprints(String peer, List<Region> batch) {
        WireWriter w = new WireWriter().varint(batch.size());
        for (Region p : batch) {
            w.bytes(Arrays.copyOf(p.prefix(), (p.nibbles() + 1) >> 1)).varint(p.nibbles());
        }
        WireReader r = new WireReader(call(peer, Ops.SYNC_FINGERPRINTS, w.toBytes()));
        int n = r.count(batch.size());
        if (n != batch.size()) {
            throw new io.god.wire.WireException("asked " + batch.size() + " fingerprints, got " + n);
        }
        List<Fingerprint> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(decodeFingerprint(r));
        }
        r.end();
        return out;
    }

    private byte[] call(String peer, int op, byte[] payload) {
        bytesSent.addAndGet(payload.length);
        byte[] reply = await(transport.call(peer, op, payload, timeout));
        bytesReceived.addAndGet(reply.length);
        return reply;
    }

    // ------------------------------------------------------------------ encoding

    static void encodeFingerprint(WireWriter w, Fingerprint f) {
        if (f == null) {
            w.u8(0);
            return;
        }
        int mask = 0;
        Hash128[] children = f.children();
        for (int i = 0; i < 16; i++) {
            if (children[i] != null) {
                mask |= 1 << i;
            }
        }
        w.u8(f.entryHash() == null ? 1 : 2);
        w.bytes(Arrays.copyOf(f.key(), (f.depth() + 1) >> 1)).varint(f.depth());
        hash(w, f.hash());
        if (f.entryHash() != null) {
            hash(w, f.entryHash());
        }
        w.varint(mask);
        for (int i = 0; i < 16; i++) {
            if (children[i] != null) {
                long h = children[i].h1();
                w.raw(new byte[] {(byte) (h >>> 56), (byte) (h >>> 48), (byte) (h >>> 40), (byte) (h >>> 32)});
            }
        }
    }

    static Fingerprint decodeFingerprint(WireReader r) {
        int tag = r.u8();
        if (tag == 0) {
            return null;
        }
        byte[] key = r.bytes();
        int depth = (int) r.varint();
        Hash128 h = hash(r);
        Hash128 entry = tag == 2 ? hash(r) : null;
        int mask = (int) r.varint();
        Hash128[] children = new Hash128[16];
        for (int i = 0; i < 16; i++) {
            if ((mask & (1 << i)) != 0) {
                byte[] b = r.raw(4);
                long top = ((long) (b[0] & 0xff) << 56) | ((long) (b[1] & 0xff) << 48) | ((long) (b[2] & 0xff) << 40)
                        | ((long) (b[3] & 0xff) << 32);
                children[i] = new Hash128(top, 0);
            }
        }
        return new Fingerprint(key, depth, h, 0, entry, children);
    }

    /**
     * Hashes travel as their first 64 bits (a missed difference needs a 2^-64 collision between two
     * versions of one region); {@link #same} compares only those bits.
     */
    private static void hash(WireWriter w, Hash128 h) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (h.h1() >>> (56 - 8 * i));
        }
        w.raw(b);
    }

    private static Hash128 hash(WireReader r) {
        byte[] b = r.raw(8);
        long h1 = 0;
        for (int i = 0; i < 8; i++) {
            h1 = (h1 << 8) | (b[i] & 0xff);
        }
        return new Hash128(h1, 0);
    }

    /**
     * Child hashes travel as their first 32 bits: a collision cannot hide a difference, because the
     * parent's 64-bit hash still differs and then the whole parent region is exchanged.
     */
    static boolean sameChild(Hash128 a, Hash128 b) {
        return a == null ? b == null : b != null && (a.h1() >>> 32) == (b.h1() >>> 32);
    }

    static boolean same(Hash128 a, Hash128 b) {
        return a == null ? b == null : b != null && a.h1() == b.h1();
    }

    private static void encodeRange(WireWriter w, byte[] from, byte[] to) {
        w.bool(from != null);
        if (from != null) {
            w.bytes(from).bytes(to);
        }
    }

    private static byte[][] decodeRange(WireReader r) {
        if (!r.bool()) {
            return new byte[][] {null, null};
        }
        return new byte[][] {r.bytes(), r.bytes()};
    }

    static void encodeRecords(WireWriter w, List<Record> records) {
        w.varint(records.size());
        for (Record rec : records) {
            w.bytes(rec.encode());
        }
    }

    static List<Record> decodeRecords(WireReader r) {
        int n = r.count(10_000_000);
        List<Record> out = new ArrayList<>(Math.min(n, 4096));
        for (int i = 0; i < n; i++) {
            Record rec;
            try {
                rec = Record.decode(r.bytes());
            } catch (RuntimeException e) {
                throw new io.god.wire.WireException("bad record: " + e.getMessage());
            }
            if (rec.kind() == Record.Kind.DROP) {
                throw new io.god.wire.WireException("DROP records are local only");
            }
            out.add(rec);
        }
        return out;
    }

    // ------------------------------------------------------------------ nibble geometry

    static int nibble(byte[] key, int i) {
        int b = key[i >> 1] & 0xff;
        return (i & 1) == 0 ? b >>> 4 : b & 0x0f;
    }

    static int mismatch(byte[] a, byte[] b, int limit) {
        for (int i = 0; i < limit; i++) {
            if ((i >> 1) >= a.length || (i >> 1) >= b.length || nibble(a, i) != nibble(b, i)) {
                return i;
            }
        }
        return limit;
    }

    static boolean hasPrefix(byte[] key, byte[] prefix, int nibbles) {
        return key.length * 2 >= nibbles && mismatch(key, prefix, nibbles) == nibbles;
    }

    private static Hash128 entryAt(Fingerprint f, int depth) {
        return f != null && f.depth() == depth ? f.entryHash() : null;
    }

    private static Hash128 childAt(Fingerprint f, int depth, int nibble) {
        if (f == null) {
            return null;
        }
        if (f.depth() == depth) {
            return f.children()[nibble];
        }
        return nibble(f.key(), depth) == nibble ? f.hash() : null;
    }

    static byte[] withNibble(byte[] key, int depth, int nibble) {
        byte[] out = new byte[(depth >> 1) + 1];
        System.arraycopy(key, 0, out, 0, Math.min(key.length, out.length));
        int i = depth >> 1;
        out[i] = (depth & 1) == 0 ? (byte) (nibble << 4) : (byte) ((out[i] & 0xf0) | nibble);
        return out;
    }

    /** The smallest key starting with the first {@code nibbles} nibbles of prefix. */
    static byte[] low(byte[] prefix, int nibbles) {
        byte[] out = Arrays.copyOf(prefix, (nibbles + 1) >> 1);
        if ((nibbles & 1) == 1) {
            out[out.length - 1] &= (byte) 0xf0;
        }
        return out;
    }

    /** The smallest key greater than every key with that prefix; null when there is none. */
    static byte[] high(byte[] prefix, int nibbles) {
        int n = nibbles;
        int[] nib = new int[n];
        for (int i = 0; i < n; i++) {
            nib[i] = nibble(prefix, i);
        }
        while (n > 0 && nib[n - 1] == 15) {
            n--;
        }
        if (n == 0) {
            return null;
        }
        nib[n - 1]++;
        byte[] out = new byte[(n + 1) >> 1];
        for (int i = 0; i < n; i++) {
            out[i >> 1] |= (byte) ((i & 1) == 0 ? nib[i] << 4 : nib[i]);
        }
        return out;
    }

    /** Where the keys with this prefix lie relative to [from, to) (wrapping; null = everything). */
    static Place place(byte[] prefix, int nibbles, byte[] from, byte[] to) {
        if (from == null) {
            return Place.INSIDE;
        }
        byte[] lo = low(prefix, nibbles);
        byte[] hi = high(prefix, nibbles);
        if (Arrays.compareUnsigned(from, to) < 0) {
            if (Arrays.compareUnsigned(from, lo) <= 0 && hi != null && Arrays.compareUnsigned(hi, to) <= 0) {
                return Place.INSIDE;
            }
            if (hi != null && Arrays.compareUnsigned(hi, from) <= 0 || Arrays.compareUnsigned(lo, to) >= 0) {
                return Place.OUTSIDE;
            }
            return Place.PARTIAL;
        }
        if (Arrays.compareUnsigned(from, lo) <= 0 || hi != null && Arrays.compareUnsigned(hi, to) <= 0) {
            return Place.INSIDE;
        }
        if (hi != null && Arrays.compareUnsigned(hi, from) <= 0 && Arrays.compareUnsigned(lo, to) >= 0) {
            return Place.OUTSIDE;
        }
        return Place.PARTIAL;
    }

    /** Whether key lies in [from, to) (wrapping; null = everything). */
    static boolean inRange(byte[] key, byte[] from, byte[] to) {
        if (from == null) {
            return true;
        }
        if (Arrays.compareUnsigned(from, to) < 0) {
            return Arrays.compareUnsigned(key, from) >= 0 && Arrays.compareUnsigned(key, to) < 0;
        }
        return Arrays.compareUnsigned(key, from) >= 0 || Arrays.compareUnsigned(key, to) < 0;
    }
}
