package io.god.command;

import io.god.cluster.Cluster;
import io.god.limits.Bulkhead;
import io.god.limits.LimitExceededException;
import io.god.node.GodNode;
import io.god.persist.PersistenceException;
import io.god.persist.Record;
import io.god.request.BinaryResults;
import io.god.request.Command.Flag;
import io.god.request.Command;
import io.god.request.Request;
import io.god.setop.SetOpException;
import io.god.tree.Item;
import io.god.wire.Call;
import io.god.wire.DataCall;
import io.god.wire.Ops;
import io.god.wire.SliceCall;
import java.util.ArrayList;
import java.util.List;

/**
 * The node's one execution path (DESIGN §4). Every front end — the god JSON contract, {@code /v1}, the binary data
 * calls, RESP, the dashboard — decodes its bytes into a {@link Request} (a record per command) and hands it here with
 * where it came from ({@link Origin}); the executor applies every rule in one order: the credential, a client's
 * stamp, the node's state ({@link Admission}), the write stamp, routing to the key's owner with fail-over
 * ({@link Forwarding}), a copy that awaits repair, the merged read of a catching-up replica set, the bulkhead of
 * expensive commands, then runs the command here ({@link Operations}), replicating its writes. A refusal is a
 * {@link CommandError} with nothing changed; {@link #failure} turns any other exception into one, so every front
 * end answers the same status and message.
 */
public final class Executor {

    /** Where a command came from: a client (hops 0) or a forwarding member, and its stamp (0 = none). */
    public record Origin(String authorization, int hops, int mode, long stamp, long since) {

        /** A client's command, routed to its key's owner. */
        public static Origin client(String authorization) {
            return new Origin(authorization, 0, Call.ROUTE, 0, System.nanoTime());
        }
    }

    /** An older member's answer to a JSON call (the JSON contract's bytes), passed on as it came (PeerCommands). */
    public record Relayed(byte[] body) {
    }

    /** A read that only this node's copy could answer while that copy awaits repair (GodNode.awaitsRepair). */
    public static final String AWAITS_REPAIR = "this node lost records to damage and is catching up with the ring;"
            + " it answers no read from its own copy and no other replica answered; retry";

    /** A merged read (a replica catching up or absent) that heard fewer than a read quorum of the replicas. */
    public static final String MERGE_UNAVAILABLE =
            "replicas of this key are catching up or away and too few of them answered to be sure of the newest value;"
                    + " retry";

    /** A read of a key on a node whose view holds less than a read quorum of the key's replicas (DESIGN §5). */
    public static final String NO_READ_QUORUM = "too few replicas of the key are reachable from this node (the members of"
            + " its replica set here may lack acknowledged writes: the others are down or partitioned away); retry";

    private static final System.Logger LOG = System.getLogger(Executor.class.getName());

    private final GodNode node;
    private final CommandObserver observer;
    private final Admission admission;
    private final Bulkhead bulkhead;
    private final PeerCommands peers;
    private final Forwarding forwarding;
    private final Operations operations;

    public Executor(GodNode node, CommandObserver observer) {
        this.node = node;
        this.observer = observer;
        this.admission = new Admission(node, observer::limitRefused);
        this.bulkhead = Bulkhead.of(node.settings().limits());
        this.peers = new PeerCommands(node);
        SetSources sources = new SetSources(node, peers);
        this.forwarding = new Forwarding(admission, sources, peers, this::runLocally);
        this.operations = new Operations(node, admission, observer, sources);
    }

    public GodNode node() {
        return node;
    }

    public Admission admission() {
        return admission;
    }

    /** The bulkhead of expensive commands (tests fill it). */
    public Bulkhead bulkhead() {
        return bulkhead;
    }

    public CommandObserver observer() {
        return observer;
    }

    /**
     * Whether a command never waits, so it may run on a network event loop: a point read (no routing) on a node alone
     * in its ring. Writes stay on the workers: measured on the event loops, HTTP Put lost a third of its rate (the
     * writers then queue for the tree's lock on the loops themselves).
     */
    public boolean answersAtOnce(Command c) {
        Cluster cluster = node.cluster();
        return c != null && c.is(Flag.POINT_READ) && (cluster == null || cluster.alone());
    }

    /**
     * Whether a client's point write (Put, Del) never waits, so it may run on a network event loop: a node alone in
     * its ring ({@link Cluster#confirmsAlone}: no copy to send, no replica for a Sync write to wait for) whose store
     * does not wait for the disk (in memory, or a log under fsync everysec/no: its append goes to the page cache, as
     * Redis' AOF append does from its event loop; fsync always waits). RESP SET measured faster on the loops
     * (bench/resp.sh): a hop to a worker per pipelined read costs two context switches on a 2-core machine.
     */
    public boolean writesAtOnce(boolean sync) {
        Cluster cluster = node.cluster();
        return (cluster == null || cluster.alone()) && writeWaitsForNothing(sync);
    }

    /** A write applied here returns without waiting: no fsync to wait for, and Sync with no other replica to confirm it. */
    private boolean writeWaitsForNothing(boolean sync) {
        return !node.store().writesWaitForTheDisk() && confirmedAlone(sync);
    }

    /** A write applied here needs no other replica's confirmation: asynchronous, or Sync with no other replica. */
    private boolean confirmedAlone(boolean sync) {
        Cluster cluster = node.cluster();
        return !sync || cluster == null || cluster.confirmsAlone();
    }

    /**
     * Whether a client's point writes may be applied together ({@link #pointWrites}) on a thread that may block or
     * not: a node alone in its ring whose writes no other replica confirms, and — where the thread must not block —
     * whose store does not wait for the disk ({@link #writesAtOnce}). Under fsync {@code always} a worker applies a
     * run of writes as one append and one fsync.
     */
    public boolean writesTogether(boolean sync, boolean mayBlock) {
        Cluster cluster = node.cluster();
        return mayBlock ? (cluster == null || cluster.alone()) && confirmedAlone(sync) : writesAtOnce(sync);
    }

    /**
     * After a point GET of key that found no value: SubSize(key) read from this node's own copy, when the GET was
     * answered from it alone — a node alone in its ring whose copy serves reads, so that the GET's checks (token,
     * limits, the copy's state) were this read's too; -1 when the key's owner must be asked with a SubSize request.
     * A RESP GET of an absent key, which must tell nil from WRONGTYPE, is then one read instead of two requests.
     */
    public long subSizeAfterMiss(byte[] key) {
        Cluster cluster = node.cluster();
        if (cluster != null && (!cluster.alone() || !cluster.ownCopyComplete() && !cluster.servesReads())) {
            return -1;
        }
        return TreeReads.subSize(node.store().state(), key);
    }

    /**
     * Brings the paths to a batch of top-level keys ({@code keys[0..count)}) into the CPU cache
     * ({@link io.god.tree.TreeState#warm(byte[][], int)}), before a pipelined read's point commands run one by one;
     * keys this node holds no copy of end their descent early. Returns what {@code warm} returns (keep it).
     */
    public int prefetch(byte[][] keys, int count) {
        return node.store().state().warm(keys, count);
    }

    /**
     * Runs one command: the result object the JSON contract serialises (a {@link Wire} record, a list, a number,
     * {@code {}} or null), or another member's answer as {@link Relayed}. Throws {@link CommandError} (or an
     * exception {@link #failure} maps) with nothing changed.
     */
    public Object run(Request request, Origin o) {
        Command command = request.command();
        admission.authorize(command, o.authorization());
        if (o.hops() == 0) {
            admission.refuseClientStamp(command, o.stamp());
        }
        admission.admit(command);
        Cluster cluster = node.cluster();
        long stamp = admission.stamp(command, o.stamp(), o.hops(), o.since());
        // a node catching up hands reads it was asked to execute to a replica that serves reads (DESIGN §7)
        // (a point read it merges instead: readMerges)
        boolean handOver = o.mode() == Call.EXECUTE && cluster != null && !cluster.servesReads()
                && o.hops() < Cluster.MAX_HOPS && !command.is(Flag.MUTATING) && !command.is(Flag.LOCAL)
                && !command.is(Flag.BROADCAST) && !(request instanceof Request.Get || request instanceof Request.SubGet);
        if ((o.mode() == Call.ROUTE || handOver) && cluster != null && !cluster.alone()) {
            Forwarding.Answer routed = forwarding.route(cluster, request, o.authorization(), o.hops(), stamp);
            if (routed != null) {
                return routed.result();
            }
        }
        if (cluster != null && !cluster.ownCopyComplete() && !cluster.servesReads() && !command.is(Flag.MUTATING)
                && !command.is(Flag.LOCAL)) { // no read (nor a part of one) from a copy that lost records to damage
            throw new CommandError(503, AWAITS_REPAIR);
        }
        if (cluster != null && o.hops() < Cluster.MAX_HOPS && !command.is(Flag.MUTATING) && request instanceof Request.Keyed k
                && !cluster.hasReadQuorum(orEmpty(k.key()))) { // e.g. cut off alone: its copy may miss acknowledged writes
            throw new CommandError(503, NO_READ_QUORUM);
        }
        if (request instanceof Request.Get g && mergesRead(cluster, orEmpty(g.key()), o.mode(), o.hops())) {
            mergeRead(cluster, orEmpty(g.key()), null);
        } else if (request instanceof Request.SubGet g && mergesRead(cluster, orEmpty(g.key()), o.mode(), o.hops())) {
            mergeRead(cluster, orEmpty(g.key()), orEmpty(g.subKey()));
        }
        if (expensive(request)) {
            return bulkhead.run(() -> operations.run(request, o.authorization(), stamp));
        }
        return operations.run(request, o.authorization(), stamp);
    }

    /**
     * Whether a command runs in the bulkhead: an {@link Flag#EXPENSIVE} one, except a slice by position whose two
     * bounds (both from the start or both from the end) span at most {@link #CHEAP_SLICE_ROWS} entries — it costs a
     * descent and those rows, like a point read. Redis clients page sorted sets with such reads (ZRANGE key 0 99):
     * in the bulkhead, 50 of them at once were refused "busy" (bench/resp.sh).
     */
    static boolean expensive(Request request) {
        if (!request.command().is(Flag.EXPENSIVE)) {
            return false;
        }
        if (!(request instanceof Request.SliceIndex q) || q.minIndex() == null || q.maxIndex() == null
                || (q.minIndex() < 0) != (q.maxIndex() < 0)) {
            return true;
        }
        return q.maxIndex() - q.minIndex() >= CHEAP_SLICE_ROWS;
    }

    /** The most entries a slice by position may span and still run outside the bulkhead. */
    static final long CHEAP_SLICE_ROWS = 1024;

    /**
     * A client's command whose answer is always a result object (another member's answer decoded), for the front
     * ends that build the arguments themselves (/v1, RESP, the dashboard): counted like every command; any refusal
     * thrown as the {@link CommandError} {@link #failure} makes of it.
     */
    public Object execute(Request request, String authorization) {
        Command command = request.command();
        long start = System.nanoTime();
        int status = 200;
        try {
            return typed(request, run(request, new Origin(authorization, 0, Call.ROUTE, 0, start)));
        } catch (RuntimeException e) {
            CommandError refused = failure(e, Command.SERVICE + command.method());
            status = refused.status();
            throw refused;
        } finally {
            observer.completed(command.method(), status, System.nanoTime() - start);
        }
    }

    /** This member's part of a broadcast command, as a member's reply (the other members' answer the same way). */
    private BinaryResults.Reply runLocally(Request request, String authorization, long stamp) {
        Command command = request.command();
        long start = System.nanoTime();
        int status = 200;
        try {
            return BinaryResults.Reply.ok(typed(request, run(request, new Origin(authorization, Cluster.MAX_HOPS,
                    Call.EXECUTE, stamp, start))));
        } catch (RuntimeException e) {
            CommandError refused = failure(e, Command.SERVICE + command.method());
            status = refused.status();
            return BinaryResults.Reply.error(status, refused.getMessage());
        } finally {
            observer.completed(command.method(), status, System.nanoTime() - start);
        }
    }

    /** A result of {@link #run} as a result object: an older member's JSON answer decoded, anything else as it is. */
    public Object typed(Request request, Object result) {
        return result instanceof Relayed relayed ? forwarding.typed(request.command(), relayed, request.stamped())
                : result;
    }

    /** Forwarded commands this node sent as JSON calls because the member refused binary ones (an older node). */
    public long jsonFallbacks() {
        return peers.jsonFallbacks();
    }

    // ------------------------------------------------------------------ the binary point commands

    /**
     * Runs a binary data call (Get, Put, Del, SubGet, SubPut, SubDel) with the rules of {@link #run}; forwarding
     * carries the call in its binary form. Called on the network event loop first ({@code mayBlock} false): it
     * answers there what needs no waiting — reads this node executes (a tree version is immutable), writes that
     * wait for no replica (asynchronous, or Sync on a node alone) and no fsync, and refusals — and returns null for
     * the rest (forwarding, Sync writes other replicas confirm, a log that fsyncs every write), which the caller runs
     * again on a worker.
     */
    public DataCall.Reply point(DataCall c, boolean mayBlock, long since) {
        Point p = checked(c);
        if (!mayBlock && p.waits()) {
            return null;
        }
        long stamp = admission.stamp(p.request().command(), c.stamp(), c.hops(), since);
        if (!p.local()) {
            Cluster.Forwarded f = p.cluster().forward(c.key(), c.hops(), Ops.DATA,
                    mode -> c.forwarded(mode, stamp).encode(), p.read());
            if (f != null) {
                return reply(f);
            }
        }
        return here(p, stamp);
    }

    /**
     * Point writes applied together ({@link #writesTogether}): each checked and stamped as {@link #point(DataCall)}
     * does, the admitted ones then applied as one tree version and, on a durable store, one log append (and under
     * fsync always one fsync: {@link Operations#writeAll}) — a pipelined run of RESP SETs pays one write to the log
     * instead of one a SET. The replies in order: a refused call its refusal, the others OK, or all of them the
     * refusal of the append. Null, nothing done, when one of them goes to another member, or would wait where
     * {@code mayBlock} is false (the ring changed since the caller asked): the caller runs them one by one.
     */
    public List<DataCall.Reply> pointWrites(List<DataCall> calls, boolean mayBlock) {
        long start = System.nanoTime();
        int n = calls.size();
        DataCall.Reply[] replies = new DataCall.Reply[n];
        Point[] points = new Point[n];
        for (int i = 0; i < n; i++) {
            try {
                Point p = checked(calls.get(i));
                if (!p.local() || p.read() || p.waits() && !mayBlock) {
                    return null;
                }
                points[i] = p;
            } catch (RuntimeException e) {
                replies[i] = refusal(e, calls.get(i));
            }
        }
        List<Record> records = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            if (points[i] != null) {
                DataCall c = calls.get(i);
                try {
                    records.add(record(points[i].request(),
                            admission.stamp(points[i].request().command(), c.stamp(), c.hops(), start)));
                } catch (RuntimeException e) {
                    replies[i] = refusal(e, c);
                    points[i] = null;
                }
            }
        }
        RuntimeException failed = null;
        try {
            operations.writeAll(records, calls.get(0).sync());
        } catch (RuntimeException e) {
            failed = e;
        }
        for (int i = 0; i < n; i++) {
            if (points[i] != null) {
                replies[i] = failed == null ? DataCall.Reply.ok() : refusal(failed, calls.get(i));
            }
            counted(calls.get(i), replies[i], start);
        }
        return java.util.Arrays.asList(replies);
    }

    /** A point call checked (sizes, credential, node state) and where it runs. */
    private record Point(DataCall call, Request.Keyed request, Cluster cluster, boolean local, boolean merges,
                         boolean waits) {
        boolean read() {
            return !call.writes();
        }
    }

    private Point checked(DataCall c) {
        admission.checkKey(c.key(), "Key");
        admission.checkKey(c.subKey(), "SubKey");
        admission.checkValue(c.value(), "Value");
        Request.Keyed request = request(c);
        Command command = request.command();
        admission.authorize(command, c.authorization());
        if (c.hops() == 0) {
            admission.refuseClientStamp(command, c.stamp());
        }
        admission.admit(command);
        Cluster cluster = node.cluster();
        boolean read = !c.writes();
        boolean local = cluster == null || (c.mode() == Call.EXECUTE
                ? !(read && c.hops() < Cluster.MAX_HOPS && cluster.readBelongsElsewhere(c.key())) // catching up, older view
                : cluster.executesHere(c.key(), c.hops(), read));
        boolean merges = read && local && mergesRead(cluster, c.key(), c.mode(), c.hops());
        boolean waits = !local || c.writes() && !writeWaitsForNothing(c.sync()) || merges;
        return new Point(c, request, cluster, local, merges, waits);
    }

    private static DataCall.Reply reply(Cluster.Forwarded f) {
        return f.reply() != null ? DataCall.Reply.decode(f.reply()) : DataCall.Reply.error(f.status(), f.message());
    }

    /** A point call executed on this node: also one whose replicas before this node in line did not answer. */
    private DataCall.Reply here(Point p, long stamp) {
        DataCall c = p.call();
        Cluster cluster = p.cluster();
        boolean read = p.read();
        if (read && cluster != null && c.hops() < Cluster.MAX_HOPS && !cluster.hasReadQuorum(c.key())) {
            throw new CommandError(503, NO_READ_QUORUM);
        }
        if (read && cluster != null && c.hops() >= Cluster.MAX_HOPS && !cluster.servesReads()
                && !cluster.ownCopyComplete()) { // e.g. another node's merged read: not from this copy
            throw new CommandError(503, AWAITS_REPAIR);
        }
        if (read && (p.local() ? p.merges() : mergesRead(cluster, c.key(), c.mode(), c.hops()))) { // decided once when local
            mergeRead(cluster, c.key(), p.request() instanceof Request.SubGet q ? q.subKey() : null);
        }
        Request.Keyed request = p.request();
        if (request instanceof Request.Get q) {
            return found(node.store().state().get(q.key()));
        }
        if (request instanceof Request.SubGet q) {
            return found(node.store().state().sub(q.key()).get(q.subKey()));
        }
        operations.write(record(request, stamp), p.call().sync());
        return DataCall.Reply.ok();
    }

    /** A point write's record. */
    private static Record record(Request.Keyed request, long stamp) {
        if (request instanceof Request.Put q) {
            return Record.put(q.key(), q.value(), stamp);
        }
        if (request instanceof Request.Del q) {
            return Record.delete(q.key(), stamp);
        }
        if (request instanceof Request.SubPut q) {
            return Record.subPut(q.key(), q.subKey(), q.value(), stamp);
        }
        Request.SubDel q = (Request.SubDel) request;
        return Record.subDelete(q.key(), q.subKey(), stamp);
    }

    /**
     * A point command from a caller that waits without a thread (RESP on a ring, a member's forwarded call on the
     * handler pool): the reply, at once (what {@link #point(DataCall, boolean, long)} answers on an event loop), when
     * the member it was forwarded to answers, or — a write to an in-memory store — when its replicas confirmed it; no
     * thread waits for either. Null, nothing counted, for a command this node executes that would wait otherwise (a
     * merged read, a write a durable log may hold), which the caller runs where it may wait. When every replica
     * before this node in line fails to answer, this node executes the command on {@code mayWait}, as
     * {@link #point(DataCall)} would.
     */
    public java.util.concurrent.CompletableFuture<DataCall.Reply> pointStarted(DataCall c,
                                                                                java.util.concurrent.Executor mayWait) {
        long start = System.nanoTime();
        try {
            Point p = checked(c);
            if (p.local() && !p.waits()) {
                return java.util.concurrent.CompletableFuture.completedFuture(counted(c, here(p,
                        admission.stamp(p.request().command(), c.stamp(), c.hops(), start)), start));
            }
            if (p.local() && c.writes() && !node.store().durable()) { // waits only for its replicas' confirmations
                long stamp = admission.stamp(p.request().command(), c.stamp(), c.hops(), start);
                return operations.writeStarted(record(p.request(), stamp), c.sync())
                        .handle((v, e) -> counted(c, e == null ? DataCall.Reply.ok() : refusal(e, c), start));
            }
            if (p.local()) {
                return null; // a merged read, a write a durable log may hold: where it may wait
            }
            long stamp = admission.stamp(p.request().command(), c.stamp(), c.hops(), start);
            var forwarded = p.cluster().forwardAsync(c.key(), c.hops(), Ops.DATA,
                    mode -> c.forwarded(mode, stamp).encode(), p.read());
            if (forwarded == null) {
                return null; // this node executes it after all (out of hops, alone): where it may wait
            }
            return forwarded.thenCompose(f -> f != null ? java.util.concurrent.CompletableFuture.completedFuture(reply(f))
                            : java.util.concurrent.CompletableFuture.supplyAsync(() -> here(p, stamp), mayWait))
                    .handle((r, e) -> counted(c, e == null ? r : refusal(e, c), start));
        } catch (RuntimeException e) {
            return java.util.concurrent.CompletableFuture.completedFuture(counted(c, refusal(e, c), start));
        }
    }

    /**
     * A binary point call as its command's record: the same six commands as the JSON contract's, answered with
     * their Timestamp (the binary reply always carries it). The call itself keeps what only its forwarding needs
     * (hops, mode, stamp, the credential), as {@link Origin} does for the others.
     */
    static Request.Keyed request(DataCall c) {
        return switch (c.kind()) {
            case DataCall.GET -> new Request.Get(c.key(), true);
            case DataCall.SUB_GET -> new Request.SubGet(c.key(), c.subKey(), true);
            case DataCall.PUT -> new Request.Put(c.key(), c.value(), c.sync());
            case DataCall.DEL -> new Request.Del(c.key(), c.sync());
            case DataCall.SUB_PUT -> new Request.SubPut(c.key(), c.subKey(), c.value(), c.sync());
            default -> new Request.SubDel(c.key(), c.subKey(), c.sync());
        };
    }

    /**
     * Runs a binary Stamped slice ({@link SliceCall}: SliceLen or ReverseSliceLen) with every rule of {@link #run};
     * the entries come back as the tree's own ({@link StampedRows}), for the caller to encode or hash without the
     * JSON contract's per-entry maps, base64 or JSON text. On the event loop ({@code mayBlock} false) it answers
     * only a read this node executes and serves (a tree version is immutable); null hands the rest (routing, a
     * catching-up node's hand-over) to a worker.
     */
    public SliceCall.Entries slice(SliceCall c, boolean mayBlock, long since) {
        admission.checkKey(c.key(), "Key");
        admission.checkKey(c.from(), "From");
        Cluster cluster = node.cluster();
        if (!mayBlock && (c.len() > CHEAP_SLICE_ROWS || cluster != null && !cluster.alone()
                && (c.mode() != Call.EXECUTE || !cluster.servesReads() || !cluster.ownCopyComplete()))) {
            return null; // a long walk or one that may wait for another member: on a worker
        }
        Command command = c.reverse() ? Command.REVERSE_SLICE_LEN : Command.SLICE_LEN;
        Request.SliceLen q = new Request.SliceLen(command, c.key(), c.from(), c.fromInc(), c.len(), true);
        Object r = run(q, new Origin(c.authorization(), c.hops(), c.mode(), 0, since));
        if (r instanceof StampedRows rows) { // this node's own entries
            return rows;
        }
        return SliceCall.Reply.entries(stampedEntries(typed(q, r))); // another member's answer
    }

    /** Another member's Stamped slice answer ({@link Forwarding#typed}: maps, binary or from JSON) as entries. */
    private static java.util.List<SliceCall.Stamped> stampedEntries(Object r) {
        java.util.List<SliceCall.Stamped> out = new java.util.ArrayList<>();
        for (Object o : (java.util.List<?>) r) {
            java.util.Map<?, ?> m = (java.util.Map<?, ?>) o;
            boolean exists = (Boolean) m.get("Exists");
            out.add(new SliceCall.Stamped(orEmpty((byte[]) m.get("Key")), exists, ((Number) m.get("Timestamp")).longValue(),
                    exists ? orEmpty((byte[]) m.get("Value")) : null));
        }
        return out;
    }

    /**
     * A point command from a front end that may block (RESP): {@link #point(DataCall, boolean, long)} on this
     * thread, counted like every command, a refusal as an error reply.
     */
    public DataCall.Reply point(DataCall c) {
        long start = System.nanoTime();
        DataCall.Reply r;
        try {
            r = point(c, true, start);
        } catch (RuntimeException e) {
            r = refusal(e, c);
        }
        return counted(c, r, start);
    }

    /** A point command's refusal (anything it threw, also through a future) as the error reply. */
    private DataCall.Reply refusal(Throwable t, DataCall c) {
        while (t instanceof java.util.concurrent.CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        RuntimeException e = t instanceof RuntimeException re ? re : new IllegalStateException(t);
        CommandError refused = failure(e, Command.SERVICE + c.method());
        return DataCall.Reply.error(refused.status(), refused.getMessage());
    }

    private DataCall.Reply counted(DataCall c, DataCall.Reply r, long start) {
        observer.completed(c.method(), r.status(), System.nanoTime() - start);
        return r;
    }

    private static DataCall.Reply found(Item i) {
        return DataCall.Reply.found(i.exists(), i.timestamp(), i.exists() ? i.value() : new byte[0]);
    }

    // ------------------------------------------------------------------ shared rules

    /**
     * Whether a point read executed here merges a read quorum of the key's copies first ({@link Cluster#readMerges}).
     * A client's own replica read (EXECUTE at hop 0: the Java client asks a quorum and keeps the newest) merges only
     * when this node catches up — its copy may lack writes, and it no longer hands the read over; a read this node
     * coordinates (routed or forwarded) merges whenever no single copy is known complete.
     */
    private static boolean mergesRead(Cluster cluster, byte[] key, int mode, int hops) {
        if (cluster == null || hops >= Cluster.MAX_HOPS) {
            return false; // another node's merge asks this copy alone
        }
        return mode == Call.EXECUTE && hops == 0 ? !cluster.servesReads() : cluster.readMerges(key);
    }

    /** No copy of the key is known complete: the newest of a read quorum of them, else no answer rather than a stale one. */
    private static void mergeRead(Cluster cluster, byte[] key, byte[] subKey) {
        if (!cluster.mergeRead(key, subKey)) {
            throw new CommandError(503, MERGE_UNAVAILABLE);
        }
    }

    private static byte[] orEmpty(byte[] b) {
        return b == null ? new byte[0] : b;
    }

    /**
     * The refusal any front end answers for an exception a command threw (method: e.g. {@code DHash.Put}): a
     * CommandError as it is; a size or cost limit 400 and a full bulkhead 503 (both counted); a bad set expression
     * 400; a write the node could not log 500 naming the cause; anything else 500, logged with its stack trace.
     */
    public CommandError failure(RuntimeException e, String method) {
        if (e instanceof CommandError refused) {
            return refused;
        }
        if (e instanceof LimitExceededException limit) {
            observer.limitRefused(limit.limit());
            return new CommandError(400, limit.getMessage());
        }
        if (e instanceof Bulkhead.Full full) {
            observer.bulkheadRejected();
            return new CommandError(503, full.getMessage());
        }
        if (e instanceof SetOpException bad) {
            return new CommandError(400, bad.getMessage());
        }
        if (e instanceof PersistenceException unlogged) {
            return new CommandError(500, UnloggedWrites.NODE.refuse(method, unlogged));
        }
        LOG.log(System.Logger.Level.ERROR, method + " failed", e);
        return new CommandError(500, "internal error: " + e);
    }
}
