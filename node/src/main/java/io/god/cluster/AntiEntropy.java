package io.god.cluster;

import io.god.events.Event;
import io.god.persist.Record;
import io.god.ring.Member;
import io.god.ring.Ring;
import io.god.transport.TransportException;
import io.god.tree.Entry;
import io.god.tree.HashVersion;
import io.god.tree.TreeState;
import io.god.wire.Ops;
import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Merkle anti-entropy of the owned range (reference §7.1, DESIGN §5 and §7).
 *
 * <p>Each {@link #round()} the owner of {@code [predecessor, self)} compares that range with each of
 * its N−1 successors. {@link #syncWith} first exchanges the tree-level configuration and clear
 * marker ({@link Ops#SYNC_META}), then runs passes of two steps:
 * <ol>
 * <li>a {@link RegionWalk} asks the peer for {@link Probe}s of many prefixes per round trip, only
 * under prefixes that differ (or straddle a range boundary), and stops one level early: a differing
 * child holding at most one entry here is a region for the exchange. Prefixes inside the range are
 * compared by short hashes, those straddling a boundary by wide ones, so that a range reported in
 * sync never rests on a short-hash accident;</li>
 * <li>a {@link RegionExchange} sends {@link VersionSummary version summaries} of this side's entries
 * in those regions; the peer answers with its newer records and says which of ours it wants, which
 * are then pushed. A sub tree present on both sides with different hashes gets its own walk, so
 * only its differing entries move.</li>
 * </ol>
 * Both sides end with the last-write-wins maximum of both; applying twice is harmless, so no
 * compare-and-set is needed (the exchange is idempotent and order-independent by DESIGN §5's rule).
 * Tombstones and sub-tree clears older than the tombstone window are never sent and never count as
 * a difference.
 *
 * <p>Hash versions ({@link HashVersion}): the SYNC_META exchange carries each side's newest version
 * after its records (absent: version 1, a node from before the stamped hash, which ignores the extra
 * bytes); the walk and the exchange then use the lower of the two and say which in their own request,
 * so a version-1 peer is answered with exactly the hashes it computes itself and a mixed ring stays
 * as cheap and as clean as before (only stamp-only differences with that peer go unrepaired). Each
 * such sync is counted ({@link #olderPeerSyncs}) and the first with each peer logged.
 *
 * <p>Features: after the version, SYNC_META carries a varint of feature bits ({@link #WIDE_PROBES});
 * older nodes stop reading before it (they read the records and the version, if any, and ignore what
 * follows, both as the asking and as the answering side). Only a peer that announced wide probes is
 * asked for them; one that did not is walked with short hashes at range boundaries too, as before, and
 * such a sync is counted ({@link #shortBoundaryPeerSyncs}) and the first with each peer logged.
 *
 * <p>Work per sync is bounded by {@code budget} regions and records per exchange. Nothing is ever
 * removed on a heuristic: only LWW records move.
 */
public final class AntiEntropy extends RepairTask {

    private static final System.Logger LOG = System.getLogger(AntiEntropy.class.getName());
    /** Walk-and-exchange passes per tree and sync. */
    static final int PASSES = 4;
    /** SYNC_META feature bit: this node answers wide probes ({@link RegionWalk#WIDE}). */
    static final long WIDE_PROBES = 1;

    private volatile boolean replicated;
    private volatile long lastSyncAt;
    private final AtomicLong rounds = new AtomicLong();
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong pulled = new AtomicLong();
    private final AtomicLong pushed = new AtomicLong();
    private final AtomicLong bytesSent = new AtomicLong();
    private final AtomicLong bytesReceived = new AtomicLong();
    private final AtomicLong olderPeerSyncs = new AtomicLong();
    /** Peers already logged as speaking an older hash version (one line each per process; bounded by the ring). */
    private final Set<String> olderPeers = ConcurrentHashMap.newKeySet();
    private final AtomicLong shortBoundaryPeerSyncs = new AtomicLong();
    /** Peers already logged as walked with short hashes at range boundaries (as {@link #olderPeers}). */
    private final Set<String> shortBoundaryPeers = ConcurrentHashMap.newKeySet();

    public AntiEntropy(RepairContext context) {
        super(context);
    }

    /** Told as a long round moves on (each successor, each pass of a tree): the loop's supervisor. */
    private volatile Runnable progress = () -> { };

    public void onProgress(Runnable progress) {
        this.progress = progress;
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

    /** Syncs this node started or served with a peer of an older hash version (content hashes, stamps not compared). */
    public long olderPeerSyncs() {
        return olderPeerSyncs.get();
    }

    /** Syncs this node started with a peer without wide probes (range boundaries compared by short hashes). */
    public long shortBoundaryPeerSyncs() {
        return shortBoundaryPeerSyncs.get();
    }

    /**
     * Outcome of syncing one range with one successor. {@code olderThanStart}: records pulled that are
     * older than the exchange's {@code since} plus regions left unresolved — 0 is a clean exchange for
     * a node catching up (what it still lacked; writes newer than its start are no lag, DESIGN §7).
     */
    public record Outcome(int differences, long pulled, long pushed, long fingerprints, long olderThanStart) {
        public Outcome(int differences, long pulled, long pushed, long fingerprints) {
            this(differences, pulled, pushed, fingerprints, differences);
        }
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
                progress.run();
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

    /**
     * Compares [from, to) (wrapping; null = everything) with one peer and exchanges what differs.
     * {@code differences} counts the records moved either way plus regions left unresolved (bound
     * reached, or a difference that could not be narrowed down); 0 means the range is in sync.
     */
    public Outcome syncWith(String peer, byte[] from, byte[] to) {
        return syncWith(peer, from, to, Long.MAX_VALUE);
    }

    /** As above, counting in {@link Outcome#olderThanStart} what was pulled with a timestamp before {@code since}. */
    public Outcome syncWith(String peer, byte[] from, byte[] to, long since) {
        Totals t = new Totals();
        t.since = since;
        long call = calls.getAndIncrement();
        // tree-level configuration and clear marker
        TreeState mine = store.state();
        WireReader meta = new WireReader(call(peer, Ops.SYNC_META, encodeMeta(mine)));
        List<Record> theirs = decodeRecords(meta);
        HashVersion version = peerVersion(meta, peer);
        boolean wide = wideProbes(meta, peer);
        List<Record> apply = newerMeta(mine, theirs);
        if (!apply.isEmpty()) {
            t.differences += apply.size();
            t.in += apply.size();
            t.stale(apply);
            applyLocally(apply);
        }
        for (Record rec : metaRecords(mine)) {
            if (theirs.stream().noneMatch(x -> x.kind() == rec.kind() && x.timestamp() >= rec.timestamp())) {
                t.differences++;
                t.out++; // serveMeta applied it there
            }
        }
        syncTree(peer, null, from, to, call, version, wide, t);
        pulled.addAndGet(t.in);
        pushed.addAndGet(t.out);
        return new Outcome((int) Math.min(t.differences, Integer.MAX_VALUE), t.in, t.out, t.fingerprints,
                t.olderThanStart);
    }

    /** Running totals of one {@link #syncWith}. */
    private static final class Totals {
        long differences;
        long in;
        long out;
        long fingerprints;
        int regions;
        long since = Long.MAX_VALUE;
        long olderThanStart;

        void stale(List<Record> pulled) {
            for (Record r : pulled) {
                if (r.timestamp() < since) {
                    olderThanStart++;
                }
            }
        }
    }

    /**
     * Walks and exchanges one tree (the top tree, or the sub tree under {@code parent}) in passes:
     * a pass after one that moved something checks again from the root (its full hash), which also
     * catches a difference a short hash hid. At most {@link #PASSES} passes.
     */
    private void syncTree(String peer, byte[] parent, byte[] from, byte[] to, long call, HashVersion version,
                          boolean wide, Totals t) {
        boolean settled = false;
        for (int pass = 0; pass < PASSES && t.regions < budget; pass++) {
            progress.run();
            TreeState root = store.state();
            TreeState local = parent == null ? root : root.sub(parent);
            local = local == null ? TreeState.EMPTY : local;
            int lane = (int) ((call * 7 + pass * 5) & 15);
            RegionWalk walk = new RegionWalk(local, parent, from, to, lane, version, wide, budget - t.regions,
                    p -> call(peer, Ops.SYNC_FINGERPRINTS, p)).run();
            t.fingerprints += walk.asked;
            t.regions += walk.regions.size();
            if (walk.regions.isEmpty()) {
                settled = !walk.missed;
                break;
            }
            long before = t.differences;
            int salt = VersionSummary.hash(Probe.longBytes(call), pass);
            RegionExchange x = new RegionExchange(local, parent, from, to, store.collectionCutoff(), salt, budget, version);
            x.answer(call(peer, Ops.SYNC_EXCHANGE, x.request(walk.regions)));
            List<Record> news = x.received.isEmpty() ? List.of() : applyNews(x.received);
            t.in += news.size();
            t.stale(news);
            int taken = x.wanted.isEmpty() ? 0 : x.taken(call(peer, Ops.SYNC_EXCHANGE, x.push()));
            t.out += taken;
            t.differences += news.size() + taken;
            for (byte[] key : x.subWalks) {
                syncTree(peer, key, null, null, call, version, wide, t);
            }
            if (t.differences == before && !walk.missed && x.complete) {
                settled = true; // what differs is only what is never sent (expired tombstones), sub trees included
                break;
            }
        }
        if (!settled) {
            t.differences++;
            t.olderThanStart++;
        }
    }

    // ------------------------------------------------------------------ serving

    /** {@link Ops#SYNC_FINGERPRINTS}: lane, sub tree, prefixes → short-hash probes ({@link RegionWalk}). */
    public CompletableFuture<byte[]> serveFingerprints(byte[] payload) {
        return CompletableFuture.completedFuture(RegionWalk.serve(store.state(), payload));
    }

    /** {@link Ops#SYNC_META}: the peer's configuration/clear records → this node's. */
    public CompletableFuture<byte[]> serveMeta(byte[] payload) {
        WireReader r = new WireReader(payload);
        List<Record> theirs = decodeRecords(r);
        peerVersion(r, null);
        TreeState mine = store.state();
        List<Record> apply = newerMeta(mine, theirs);
        if (!apply.isEmpty()) {
            applyLocally(apply);
        }
        return CompletableFuture.completedFuture(encodeMeta(mine));
    }

    /**
     * The hash version to use with a peer, read after its SYNC_META records: absent means a node from before
     * hash versions (version 1). Counts and, once per peer, logs a sync with an older peer ({@code peer} null
     * when serving: the caller is not named, the log line says so once).
     */
    private HashVersion peerVersion(WireReader r, String peer) {
        HashVersion v = r.atEnd() ? HashVersion.CONTENT : HashVersion.common(r.varint());
        if (v != HashVersion.newest()) {
            olderPeerSyncs.incrementAndGet();
            String who = peer == null ? "(a peer syncing with this node)" : peer;
            if (olderPeers.size() < 64 && olderPeers.add(who)) {
                LOG.log(System.Logger.Level.INFO, address + ": anti-entropy with " + who + " uses hash version "
                        + v.number() + " (an older node): replicas holding the same value under different stamps are"
                        + " not aligned with it until it runs version " + HashVersion.newest().number());
            }
        }
        return v;
    }

    /**
     * Whether the peer answers wide probes, read after its SYNC_META version: absent means a node from before
     * them. Counts and, once per peer, logs a sync walked short at range boundaries.
     */
    private boolean wideProbes(WireReader r, String peer) {
        boolean wide = !r.atEnd() && (r.varint() & WIDE_PROBES) != 0;
        if (!wide) {
            shortBoundaryPeerSyncs.incrementAndGet();
            if (shortBoundaryPeers.size() < 64 && shortBoundaryPeers.add(peer)) {
                LOG.log(System.Logger.Level.INFO, address + ": anti-entropy with " + peer + " compares range"
                        + " boundaries by short hashes (an older node without wide probes): a difference there can"
                        + " stay unseen for a round until it runs this version");
            }
        }
        return wide;
    }

    /** {@link Ops#SYNC_EXCHANGE}: version summaries → newer records and wants, or pushed records ({@link RegionExchange}). */
    public CompletableFuture<byte[]> serveExchange(byte[] payload) {
        return CompletableFuture.completedFuture(
                RegionExchange.serve(store.state(), payload, store.collectionCutoff(), r -> applyNews(r).size()));
    }

    private static List<Record> newerMeta(TreeState mine, List<Record> theirs) {
        List<Record> apply = new ArrayList<>();
        for (Record rec : theirs) {
            if (rec.kind() == Record.Kind.CLEAR ? rec.timestamp() > mine.clearedAt()
                    : rec.timestamp() > mine.configurationTimestamp()) {
                apply.add(rec);
            }
        }
        return apply;
    }


    /** Applies the records of an exchange that are news here ({@link #news}); returns them. */
    private List<Record> applyNews(List<Record> records) {
        List<Record> news = news(store.state(), records, store.collectionCutoff());
        if (!news.isEmpty()) {
            applyLocally(news);
        }
        return news;
    }

    private void applyLocally(List<Record> records) {
        long newest = 0;
        for (Record rec : records) {
            newest = Math.max(newest, rec.timestamp());
        }
        timestamps.advanceTo(newest, "anti-entropy");
        store.applyAll(records);
    }

    /**
     * The records that change what this node holds: newer under last-write-wins, and for a tombstone
     * or clear older than this node's own {@code cutoff}, only one that deletes a value here. A peer
     * whose collection is held (its cutoff frozen) sends markers that expired here; re-creating them
     * would only have them collected again, and counting them as received would make every exchange
     * with that peer look unclean — a returning member would never finish catching up while the peer
     * holds collection because it catches up.
     */
    static List<Record> news(TreeState state, List<Record> records, long cutoff) {
        List<Record> news = new ArrayList<>(records.size());
        TreeState s = state;
        for (Record rec : records) {
            TreeState after = rec.applyTo(s);
            if (after == s || isMarker(rec) && rec.timestamp() < cutoff && after.size() >= s.size()) {
                continue;
            }
            news.add(rec);
            s = after;
        }
        return news;
    }

    private static boolean isMarker(Record rec) {
        return switch (rec.kind()) {
            case DELETE, SUB_DELETE, SUB_CLEAR, CLEAR -> true;
            default -> false;
        };
    }

    static List<Record> metaRecords(TreeState s) {
        List<Record> out = new ArrayList<>(2);
        if (s.clearedAt() > 0) {
            out.add(Record.clear(s.clearedAt()));
        }
        if (s.configurationTimestamp() > 0) {
            out.add(Record.setConfiguration(s.configuration(), s.configurationTimestamp()));
        }
        return out;
    }

    /**
     * The SYNC_META records, then this node's newest hash version, then its feature bits (older nodes stop
     * reading before each of them: neither side of SYNC_META checks for trailing bytes).
     */
    private static byte[] encodeMeta(TreeState s) {
        WireWriter w = new WireWriter();
        encodeRecords(w, metaRecords(s));
        w.varint(HashVersion.newest().number());
        w.varint(WIDE_PROBES);
        return w.toBytes();
    }

    // ------------------------------------------------------------------ remote calls

    private byte[] call(String peer, int op, byte[] payload) {
        bytesSent.addAndGet(payload.length);
        byte[] reply = await(transport.call(peer, op, payload, timeout));
        bytesReceived.addAndGet(reply.length);
        return reply;
    }

    // ------------------------------------------------------------------ encoding

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
            out.add(decodeRecord(r.bytes()));
        }
        return out;
    }

    /** One replicated record; DROP records never travel. */
    static Record decodeRecord(byte[] body) {
        Record rec;
        try {
            rec = Record.decode(body);
        } catch (RuntimeException e) {
            throw new io.god.wire.WireException("bad record: " + e.getMessage());
        }
        if (rec.kind() == Record.Kind.DROP) {
            throw new io.god.wire.WireException("DROP records are local only");
        }
        return rec;
    }
}
