package io.god.cluster;

import io.god.events.Event;
import io.god.events.EventBus;
import io.god.node.Store;
import io.god.node.Timestamps;
import io.god.persist.Record;
import io.god.ring.Member;
import io.god.ring.Membership;
import io.god.ring.Positions;
import io.god.ring.Ring;
import io.god.transport.Awaiter;
import io.god.transport.Retry;
import io.god.transport.Transport;
import io.god.transport.TransportException;
import io.god.wire.Call;
import io.god.wire.Ops;
import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Routing and replication over the ring (reference §1.3–§1.4, DESIGN §5 and §7).
 *
 * <p><b>Routing</b>: a key's owner is its ring successor ({@code [predecessor, self)}). A node that
 * receives a call for a key it does not own forwards it ({@link Ops#CALL}) to the owner; the owner
 * re-checks with its own view and forwards again only while the call has made fewer than
 * {@link #MAX_HOPS} hops, else executes it. When the owner does not answer within
 * {@code god.rpc.timeout}, refuses the connection or answers with a fault (a node that has just left
 * the ring refuses calls), the call fails over to the next replica, which
 * executes it without routing.
 *
 * <p><b>Replication</b>: the executing node stamps the write, applies it, then sends the stamped
 * {@link Record}s to the other members of the key's replica set (owner + next N−1). Replicas apply
 * them with the one last-write-wins rule, so order and duplicates do not matter. {@code Sync=true}
 * (DESIGN §5): the replica set is computed over the <em>expected</em> membership E
 * ({@link Membership#expected()}: members that died, restart or are partitioned away still count
 * until drained or removed on request), and the call returns once W members of that set applied the
 * write — {@code god.sync.acks=quorum}: W = ⌊min(N, E)/2⌋ + 1, {@code all}: W = min(N, E). Below W
 * the call fails with a 503 naming how many copies were confirmed — the write is applied where it
 * arrived (retrying is safe: same LWW outcome) but never reported as durable with fewer than W
 * copies; an isolated node therefore never acknowledges a Sync write alone. Expected members that are
 * not in the view are not called (they count as unconfirmed); live members that replicate the key in
 * the view but not in E (they stand in for an absent one) get a copy that does not count. {@code Sync=false}:
 * returns after the local apply; replication is queued in the background (bounded by
 * {@code god.replication.queue}); a replica that is down or a full queue loses that copy until
 * anti-entropy (issue 9) repairs it. Copies to one replica go one call at a time: what writers hand over
 * while a call is in flight goes together in the next ({@link ReplicationLanes}); a Sync writer counts a
 * replica's confirmation only once the call carrying its own records was acknowledged.
 */
public final class Cluster {

    /** Forwarding stops after this many hops: the node the call reached then executes it. */
    public static final int MAX_HOPS = 3;

    private static final System.Logger LOG = System.getLogger(Cluster.class.getName());

    private final String address;
    private final Membership membership;
    private final Transport transport;
    private final Retry retry;
    private final Store store;
    private final Timestamps timestamps;
    private final EventBus events;
    private final int redundancy;
    private final Duration timeout;
    private final int queueLimit;
    private final Awaiter awaiter;
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong asyncFailures = new AtomicLong();
    private final ReplicationLanes lanes;

    public Cluster(String address, Membership membership, Transport transport, Retry retry, Store store,
                   Timestamps timestamps, EventBus events, int redundancy, Duration timeout, int queueLimit) {
        this(address, membership, transport, retry, store, timestamps, events, redundancy, timeout, queueLimit,
                Awaiter.BLOCKING);
    }

    /** As above, waiting for peers' answers through {@code awaiter}. */
    public Cluster(String address, Membership membership, Transport transport, Retry retry, Store store,
                   Timestamps timestamps, EventBus events, int redundancy, Duration timeout, int queueLimit,
                   Awaiter awaiter) {
        this.awaiter = awaiter;
        this.address = address;
        this.membership = membership;
        this.transport = transport;
        this.retry = retry;
        this.store = store;
        this.timestamps = timestamps;
        this.events = events;
        this.redundancy = redundancy;
        this.timeout = timeout;
        this.queueLimit = queueLimit;
        this.lanes = new ReplicationLanes(retry, queueLimit);
    }

    public Ring ring() {
        return membership.ring();
    }

    private volatile SyncAcks syncAcks = SyncAcks.QUORUM;

    /** Sets {@code god.sync.acks} (default quorum). */
    public void syncAcks(SyncAcks acks) {
        this.syncAcks = java.util.Objects.requireNonNull(acks);
    }

    public SyncAcks syncAcks() {
        return syncAcks;
    }

    /** The expected membership E (DESIGN §5; the view plus absent members not removed). */
    public Ring expected() {
        return membership.expected();
    }

    private volatile java.util.function.Predicate<Member> catchingUp = m -> false;
    private volatile java.util.function.BooleanSupplier servesReads = () -> true;
    private volatile java.util.function.BooleanSupplier ownCopyComplete = () -> true;

    /**
     * Read routing while members catch up (DESIGN §7): {@code catchingUp} tells which other members
     * are known or presumed to be catching up, {@code servesReads} whether this node may answer reads now.
     */
    public void readFilter(java.util.function.Predicate<Member> catchingUp,
                           java.util.function.BooleanSupplier servesReads) {
        readFilter(catchingUp, servesReads, () -> true);
    }

    /**
     * As above; {@code ownCopyComplete} false: this node's data lost records to damage and awaits repair
     * from the ring ({@code GodNode.awaitsRepair}), so no read is answered from its copy alone, not even
     * when every replica catches up or it is alone.
     */
    public void readFilter(java.util.function.Predicate<Member> catchingUp,
                           java.util.function.BooleanSupplier servesReads,
                           java.util.function.BooleanSupplier ownCopyComplete) {
        this.catchingUp = catchingUp;
        this.servesReads = servesReads;
        this.ownCopyComplete = ownCopyComplete;
    }

    /** False while this node's data awaits repair from the ring: no read may be answered from it alone. */
    public boolean ownCopyComplete() {
        return ownCopyComplete.getAsBoolean();
    }

    /** Whether a member may answer reads (this node: not catching up; others: not known to be). */
    private boolean readable(Member m) {
        return m.address().equals(address) ? servesReads.getAsBoolean() : !catchingUp.test(m);
    }

    /** Whether this node answers reads now (false while it catches up). */
    public boolean servesReads() {
        return servesReads.getAsBoolean();
    }

    /**
     * Whether a point read of {@code key} that a client asked this node to execute belongs to other
     * members: in this node's view it is not one of the key's readers (a node catching up merges instead,
     * {@link #readMerges}). The client then routed by an older view (a member joined, moved its position
     * or left since) and this node's "not found" would be no answer: a client asking only such members
     * reported acknowledged keys missing until its next ring refresh.
     */
    public boolean readBelongsElsewhere(byte[] key) {
        Ring r = ring();
        return r.size() > 1 && readers(r, key).stream().noneMatch(m -> m.address().equals(address));
    }

    /**
     * The live members that may answer a read of {@code key}, in replica order: its live replicas that are also in
     * its expected replica set (DESIGN §5). A live stand-in for an absent member holds only what was written while
     * that member was away, so it answers no read of the key; the list is empty when every expected replica is away
     * (this node in a minority partition): the read is refused rather than answered "not found" from members that
     * never held the key (the 30-minute fault campaign's stale read, seed 3029393463080149965).
     *
     * <p>Empty too when fewer than {@link #readQuorum} of the expected replicas are live here: an acknowledged Sync
     * write is on W of them, so a live group of fewer than n − W + 1 may lack it entirely (a member in a minority
     * partition whose other replicas took writes without it: the 20-minute campaign's stale read, seed
     * 4864082276640774237).
     */
    private List<Member> readers(Ring live, byte[] key) {
        List<Member> replicas = live.replicas(key, redundancy);
        Ring expected = membership.expected();
        if (expected == live) { // nobody absent: the same replica set
            return replicas;
        }
        List<Member> set = expected.replicas(key, redundancy);
        java.util.Set<String> want = new java.util.HashSet<>();
        for (Member m : set) {
            want.add(m.address());
        }
        List<Member> out = new ArrayList<>(replicas.size());
        for (Member m : replicas) {
            if (want.contains(m.address())) {
                out.add(m);
            }
        }
        return out.size() < readQuorum(set.size(), expected.size()) ? List.of() : out;
    }

    /**
     * Whether this node's view holds a read quorum of {@code key}'s replicas over the expected membership (always, when
     * nobody is absent): checked before a read executes here, also when this node is alone in its view (cut off, it
     * forwards nothing and would answer from its own copy).
     */
    public boolean hasReadQuorum(byte[] key) {
        Ring live = ring();
        return live.isEmpty() || membership.expected() == live || !readers(live, key).isEmpty();
    }

    /**
     * How many of a key's {@code n} expected replicas must be live for one of them to hold every acknowledged Sync
     * write: n − W + 1 (N=3 quorum: 2; {@code all}: 1), so any W replicas and any read group share a member.
     */
    int readQuorum(int n, int expectedSize) {
        return Math.max(1, n - syncAcks.required(redundancy, expectedSize) + 1);
    }

    /**
     * Whether this node, catching up, must hand a read of {@code key} to another replica: true when it
     * does not serve reads and some replica of the key does (else it answers itself, after
     * {@link #mergeRead} for point reads).
     */
    public boolean handsReadOver(byte[] key) {
        if (servesReads.getAsBoolean()) {
            return false;
        }
        Ring r = ring();
        if (r.size() <= 1) {
            return false;
        }
        for (Member m : r.replicas(key, redundancy)) {
            if (readable(m)) {
                return true;
            }
        }
        return false;
    }

    /** The credential this node's own reads of peers carry (god.auth.reads protects them like clients' reads). */
    private volatile String peerAuthorization;

    public void peerAuthorization(String authorization) {
        this.peerAuthorization = authorization;
    }

    private volatile java.util.function.BooleanSupplier anyCatchingUp = () -> false;

    /** Whether any member is known to be catching up (a cheap check before {@link #readMerges} looks closer). */
    public void anyCatchingUp(java.util.function.BooleanSupplier any) {
        this.anyCatchingUp = any;
    }

    /**
     * Whether a point read of {@code key} executed here must first merge the versions of the key's other replicas
     * ({@link #mergeRead}): this node catches up, a replica of the key over the expected membership is absent from
     * the view, or one is known to be catching up. Then no single copy is known to hold every acknowledged write: the
     * members that return from a partition are the ones catching up, yet when they held a quorum of a key's replicas
     * they acknowledged writes the others never saw (the fault campaign, seed 3970657486717427326: a read handed over
     * to a replica on the majority side found the value from before the partition).
     */
    public boolean readMerges(byte[] key) {
        if (!servesReads.getAsBoolean()) {
            return true;
        }
        Ring live = ring();
        if (live.size() <= 1) {
            return false; // alone: hasReadQuorum decides
        }
        Ring expected = membership.expected();
        boolean absent = expected != live;
        if (!absent && !anyCatchingUp.getAsBoolean()) {
            return false;
        }
        for (Member m : (absent ? expected : live).replicas(key, redundancy)) {
            if (absent && live.byAddress(m.address()) == null || catchingUp.test(m)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A merged point read: the versions of the key (or of {@code subKey} in its sub tree) of the key's other live
     * replicas over the expected membership — catching up or not: what a member holds was written — are fetched and
     * the newest applied here under the one LWW rule, so the local read that follows answers the newest of all.
     * Replicas that do not answer within the deadline are skipped, but the merge must have heard a read quorum of the
     * key's replica set ({@link #readQuorum}, this node included): it shares a replica with every acknowledged Sync
     * write; with fewer answers the read must fail. A node whose data awaits repair does not count itself.
     *
     * @return whether a read quorum contributed (else the caller answers 503)
     */
    public boolean mergeRead(byte[] key, byte[] subKey) {
        Ring r = ring();
        boolean complete = ownCopyComplete.getAsBoolean();
        if (r.size() <= 1) {
            return complete && hasReadQuorum(key);
        }
        Ring expected = membership.expected();
        List<Member> replicas = readers(r, key);
        int needed = readQuorum(Math.min(redundancy, expected.size()), expected.size());
        List<CompletableFuture<byte[]>> calls = new ArrayList<>();
        io.god.wire.DataCall get = subKey == null
                ? new io.god.wire.DataCall(io.god.wire.DataCall.GET, key, null, null, false, peerAuthorization, MAX_HOPS,
                        Call.EXECUTE, 0)
                : new io.god.wire.DataCall(io.god.wire.DataCall.SUB_GET, key, subKey, null, false, peerAuthorization,
                        MAX_HOPS, Call.EXECUTE, 0);
        byte[] payload = get.encode();
        boolean self = false;
        for (Member m : replicas) {
            if (m.address().equals(address)) {
                self = true;
            } else {
                calls.add(transport.call(m.address(), Ops.DATA, payload, timeout));
            }
        }
        List<Record> newer = new ArrayList<>();
        int heard = self && complete ? 1 : 0; // this node's own version, unless damaged
        for (CompletableFuture<byte[]> c : calls) {
            try {
                io.god.wire.DataCall.Reply reply = io.god.wire.DataCall.Reply.decode(await(c));
                if (reply.status() != 200) {
                    continue;
                }
                heard++;
                if (reply.timestamp() <= 0) {
                    continue; // that replica has no version of the key
                }
                if (subKey == null) {
                    newer.add(reply.exists() ? Record.put(key, reply.value(), reply.timestamp())
                            : Record.delete(key, reply.timestamp()));
                } else {
                    newer.add(reply.exists() ? Record.subPut(key, subKey, reply.value(), reply.timestamp())
                            : Record.subDelete(key, subKey, reply.timestamp()));
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "merged read: a replica did not answer: " + e);
            }
        }
        if (!newer.isEmpty()) {
            store.applyAll(newer);
        }
        return heard >= needed;
    }

    public int redundancy() {
        return redundancy;
    }

    /**
     * True when this node is the only member of the live ring and of the expected membership: a write here has no
     * copy to send and a Sync write no other replica to wait for ({@link #replicate} returns at once).
     */
    public boolean confirmsAlone() {
        return ring().size() <= 1 && membership.expected().size() <= 1;
    }

    /** True when this node is the only member (or has no view yet): everything is local. */
    public boolean alone() {
        Ring r = ring();
        return r.size() <= 1;
    }

    /** [from, to) of the keys this node owns, as positions; null when it owns everything. */
    public byte[][] ownedRange() {
        Ring r = ring();
        Member me = r.byAddress(address);
        if (r.size() <= 1 || me == null) {
            return null;
        }
        return new byte[][] {r.predecessorOf(me).position(), me.position()};
    }

    // ------------------------------------------------------------------ routing

    /**
     * Routes a key-based call: null when this node should execute it, else the owner's (or a
     * replica's) reply. {@code stamp} (0 = none) is a write's timestamp, chosen by the first node and
     * sent along: a node that receives the call after the timeout (the owner, when the call was held up
     * and the fail-over answered and the client moved on) writes with it, so the late copy is the same
     * write again, not a newer one.
     */
    public Call.Reply route(String method, byte[] body, String authorization, int hops, byte[] key, long stamp) {
        return route(method, body, authorization, hops, key, stamp, false);
    }

    /** As above; {@code read}: the call only reads (it avoids members that catch up). */
    public Call.Reply route(String method, byte[] body, String authorization, int hops, byte[] key, long stamp,
                            boolean read) {
        Forwarded f = forward(key, hops, Ops.CALL,
                mode -> new Call(method, body, authorization, hops + 1, mode, stamp).encode(), read);
        if (f == null) {
            return null;
        }
        return f.reply() != null ? Call.Reply.decode(f.reply()) : new Call.Reply(f.status(), json(f.message()));
    }

    /** Whether a call for {@code key} that has made {@code hops} forwards executes here without forwarding. */
    public boolean executesHere(byte[] key, int hops) {
        return executesHere(key, hops, false);
    }

    /** As above; a {@code read} does not execute on this node while it catches up and another replica serves reads. */
    public boolean executesHere(byte[] key, int hops, boolean read) {
        Ring r = ring();
        if (r.size() <= 1 || hops >= MAX_HOPS) {
            return true;
        }
        if (read) {
            if (handsReadOver(key)) {
                return false;
            }
            List<Member> readers = readers(r, key);
            return !readers.isEmpty() && readers.get(0).address().equals(address);
        }
        Member owner = r.successor(key);
        return owner == null || owner.address().equals(address);
    }

    /**
     * The outcome of {@link #forward}: the reply payload of the replica that answered, or (reply null)
     * the status and message of a failure: 500 when a replica faulted, 503 when none answered.
     */
    public record Forwarded(byte[] reply, int status, String message) {
    }

    /**
     * Forwards a key's call to its owner, failing over to the next replicas (which execute it); null
     * when this node should execute it (alone, out of hops, or the first live replica in line).
     *
     * @param encode the request payload for a mode ({@link Call#ROUTE} to the owner, else EXECUTE)
     */
    public Forwarded forward(byte[] key, int hops, int op, java.util.function.IntFunction<byte[]> encode) {
        return forward(key, hops, op, encode, false);
    }

    /**
     * As above; a {@code read} skips the replicas that are catching up (this node included), unless
     * every replica is: then the first live one in line answers (see {@link #mergeRead}).
     */
    public Forwarded forward(byte[] key, int hops, int op, java.util.function.IntFunction<byte[]> encode,
                             boolean read) {
        Routed<byte[]> r = forward(key, hops, read, (to, mode) -> call(to, op, encode.apply(mode)));
        return r == null ? null : new Forwarded(r.reply(), r.status(), r.message());
    }

    /** One attempt at one replica in a mode: its answer, or a {@link TransportException} (the next one is tried). */
    @FunctionalInterface
    public interface Attempt<T> {
        T call(String address, int mode);
    }

    /** {@link Forwarded} with a typed answer: the attempt's (reply non-null), or the failure's status and message. */
    public record Routed<T>(T reply, int status, String message) {
    }

    /** As {@link #forward(byte[], int, int, java.util.function.IntFunction, boolean)}, each attempt made by the caller. */
    public <T> Routed<T> forward(byte[] key, int hops, boolean read, Attempt<T> attempt) {
        Route route = route(key, hops, read);
        if (route == null || route.refused() != null) {
            return route == null ? null : route.refusal();
        }
        Failures failures = new Failures();
        for (int i = 0; i < route.replicas().size(); i++) {
            Member m = route.replicas().get(i);
            if (m.address().equals(address)) {
                return null;
            }
            try {
                return new Routed<>(attempt.call(m.address(), route.mode(i)), 200, null);
            } catch (TransportException e) {
                failures.add(m, e);
            }
        }
        return failures.routed();
    }

    /**
     * As {@link #forward(byte[], int, int, java.util.function.IntFunction, boolean)} without a thread waiting: the
     * attempts follow each other as their answers (or deadlines) come, on the transport's threads. Null when this
     * node executes the call (as for forward); the future's value null when it does so after the replicas before it
     * in line did not answer — the caller then runs it here, where it may wait.
     */
    public CompletableFuture<Forwarded> forwardAsync(byte[] key, int hops, int op,
                                                     java.util.function.IntFunction<byte[]> encode, boolean read) {
        Route route = route(key, hops, read);
        if (route == null || route.refused() != null) {
            return route == null ? null : CompletableFuture.completedFuture(forwarded(route.refusal()));
        }
        if (route.replicas().get(0).address().equals(address)) {
            return null;
        }
        return attempt(route, 0, op, encode, new Failures());
    }

    private CompletableFuture<Forwarded> attempt(Route route, int i, int op, java.util.function.IntFunction<byte[]> encode,
                                                 Failures failures) {
        if (i == route.replicas().size()) {
            return CompletableFuture.completedFuture(forwarded(failures.routed()));
        }
        Member m = route.replicas().get(i);
        if (m.address().equals(address)) {
            return CompletableFuture.completedFuture(null);
        }
        return send(m.address(), op, encode.apply(route.mode(i))).handle((reply, e) -> {
            if (e == null) {
                return CompletableFuture.completedFuture(new Forwarded(reply, 200, null));
            }
            failures.add(m, TransportException.of(e));
            return attempt(route, i + 1, op, encode, failures);
        }).thenCompose(f -> f);
    }

    private static Forwarded forwarded(Routed<byte[]> r) {
        return new Forwarded(r.reply(), r.status(), r.message());
    }

    /** The replicas a forwarded call tries in turn (the owner first, in ROUTE mode), or its refusal without a try. */
    private record Route(List<Member> replicas, Member owner, Routed<?> refused) {
        <T> Routed<T> refusal() {
            return new Routed<>(null, refused.status(), refused.message());
        }

        int mode(int i) {
            return i == 0 && replicas.get(0).equals(owner) ? Call.ROUTE : Call.EXECUTE;
        }
    }

    /** Null when this node executes the call (alone, or out of hops). */
    private Route route(byte[] key, int hops, boolean read) {
        Ring r = ring();
        if (r.size() <= 1 || hops >= MAX_HOPS) {
            return null;
        }
        List<Member> replicas = r.replicas(key, redundancy);
        Member owner = replicas.get(0);
        if (read) {
            replicas = readers(r, key);
            if (replicas.isEmpty()) {
                return new Route(replicas, owner, new Routed<>(null, 503, "too few replicas of the key are reachable"
                        + " from " + address + " (the members of its replica set here may lack acknowledged writes: the"
                        + " others are down or partitioned away); retry"));
            }
            List<Member> readable = new ArrayList<>();
            for (Member m : replicas) {
                if (readable(m)) {
                    readable.add(m);
                }
            }
            if (!readable.isEmpty()) {
                replicas = readable;
            } else if (!ownCopyComplete.getAsBoolean()) {
                // every replica catches up: one of the others answers, never this node's damaged copy alone
                replicas = replicas.stream().filter(m -> !m.address().equals(address)).toList();
                if (replicas.isEmpty()) {
                    return new Route(replicas, owner, new Routed<>(null, 503, address + " awaits repair of data lost"
                            + " to damage and no other replica of the key is in the ring; retry"));
                }
            }
        }
        return new Route(replicas, owner, null);
    }

    /** The replicas a forwarded call failed at, and its answer when none was left. */
    private final class Failures {
        private String lastError;
        private boolean remoteFault;

        void add(Member m, TransportException e) {
            // a peer that faults (or has just left the ring and refuses calls) is failed over like
            // one that is down: the next replica executes the call under the same LWW rule
            remoteFault = e.reason() == TransportException.Reason.REMOTE;
            lastError = m.address() + ": " + e.getMessage();
            LOG.log(System.Logger.Level.DEBUG, "failing over from " + m.address() + ": " + e.getMessage());
        }

        <T> Routed<T> routed() {
            if (remoteFault) {
                return new Routed<>(null, 500, "forwarding failed at every replica (" + lastError + ")");
            }
            return new Routed<>(null, 503, "no replica of the key answered within " + timeout.toMillis() + " ms ("
                    + lastError + ")");
        }
    }

    /**
     * Runs a call on every member ({@link Call#EXECUTE}); this node's own part is {@code local}.
     * Members that do not answer are reported as 503 replies. {@code stamp}: a stamped command's write timestamp (0 = none),
     * sent along as a forwarded write's ({@link io.god.node.Timestamps#forWrite}).
     */
    public List<Call.Reply> broadcast(String method, byte[] body, String authorization, long stamp,
                                      java.util.function.Supplier<Call.Reply> local) {
        byte[] payload = new Call(method, body, authorization, MAX_HOPS, Call.EXECUTE, stamp).encode();
        return broadcast(new Part<>() {
            public CompletableFuture<byte[]> send(String to) {
                return transport.call(to, Ops.CALL, payload, timeout);
            }

            public Call.Reply answer(String from, byte[] reply) {
                return Call.Reply.decode(reply);
            }

            public Call.Reply unanswered(String from, TransportException e) {
                return new Call.Reply(503, json(from + " did not answer: " + e.getMessage()));
            }
        }, local);
    }

    /** One member's part of a broadcast: sent to every other member at once, then each answer awaited. */
    public interface Part<T> {
        CompletableFuture<byte[]> send(String to);

        T answer(String from, byte[] reply);

        /** The part of a member that failed or did not answer within the call deadline. */
        T unanswered(String from, TransportException e);
    }

    /** Runs a part on every member, this node's own being {@code local}: its answer first, then the others'. */
    public <T> List<T> broadcast(Part<T> part, java.util.function.Supplier<T> local) {
        Ring r = ring();
        List<CompletableFuture<byte[]>> calls = new ArrayList<>();
        List<Member> others = new ArrayList<>();
        for (Member m : r.members()) {
            if (!m.address().equals(address)) {
                others.add(m);
                calls.add(part.send(m.address()));
            }
        }
        List<T> out = new ArrayList<>();
        out.add(local.get());
        for (int i = 0; i < calls.size(); i++) {
            String from = others.get(i).address();
            byte[] reply;
            try {
                reply = await(calls.get(i));
            } catch (TransportException e) {
                out.add(part.unanswered(from, e));
                continue;
            }
            out.add(part.answer(from, reply));
        }
        return out;
    }

    /** One call to a peer within the call deadline: its reply, or a {@link TransportException}. */
    public byte[] call(String to, int op, byte[] payload) {
        return await(send(to, op, payload));
    }

    /** One call to a peer with the call deadline, not awaited (a broadcast's parts go out at once). */
    public CompletableFuture<byte[]> send(String to, int op, byte[] payload) {
        return transport.call(to, op, payload, timeout);
    }

    // ------------------------------------------------------------------ replication

    /** A Sync=true write was confirmed by fewer than W replicas of its expected replica set. */
    public static final class ReplicationException extends RuntimeException {
        public ReplicationException(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Sends already applied records to the other replicas of {@code key}. Sync: returns once W members of the
     * key's expected replica set (this node included when it is one) confirmed — not waiting for the others, so a
     * replica that stopped answering costs no deadline while W others confirm — and throws
     * {@link ReplicationException} when every call answered or missed its deadline with fewer; async: queues and
     * returns.
     */
    public void replicate(List<Record> records, byte[] key, boolean sync) {
        CompletableFuture<String> confirmed = replicateAsync(records, key, sync);
        String refusal;
        try { // done already when alone, async or confirmed at once: no wait, and no bound computed per write
            refusal = confirmed.isDone() ? confirmed.join() : await(confirmed);
        } catch (TransportException e) { // the safety net's bound passed (each call has its deadline)
            refusal = "Sync write not confirmed by its replicas: " + e.getMessage() + "; it may be applied on some; retry";
        }
        if (refusal != null) {
            throw new ReplicationException(refusal);
        }
    }

    /**
     * As {@link #replicate} without a thread waiting: the future completes (on the transport's threads) with null
     * once W confirmed, else with the {@link ReplicationException}'s message once every call answered or missed its
     * deadline. Never completes exceptionally.
     */
    public CompletableFuture<String> replicateAsync(List<Record> records, byte[] key, boolean sync) {
        if (records.isEmpty() || confirmsAlone()) {
            return CONFIRMED;
        }
        Ring live = ring();
        Ring expected = membership.expected();
        List<Member> set = expected.replicas(key, redundancy);
        java.util.Set<String> counted = new java.util.HashSet<>();
        for (Member m : set) {
            counted.add(m.address());
        }
        List<Member> targets = new ArrayList<>();
        List<String> absent = new ArrayList<>();
        for (Member m : set) {
            if (m.address().equals(address)) {
                continue;
            }
            if (live.byAddress(m.address()) != null) {
                targets.add(m);
            } else {
                absent.add(m.address());
            }
        }
        for (Member m : live.replicas(key, redundancy)) { // stand-ins for absent members: a copy for reads
            if (!m.address().equals(address) && !counted.contains(m.address())) {
                targets.add(m);
            }
        }
        if (targets.isEmpty() && !sync) {
            return CONFIRMED;
        }
        ReplicationLanes.Batch batch = ReplicationLanes.Batch.of(records);
        String op = slaveName(records.get(0));
        if (!sync) {
            for (Member t : targets) {
                if (queued.incrementAndGet() > queueLimit) {
                    queued.decrementAndGet();
                    dropped.incrementAndGet();
                    continue;
                }
                comm(t, records.get(0), op);
                lanes.send(t.address(), batch, timeout).whenComplete((v, e) -> {
                    queued.decrementAndGet();
                    if (e != null) {
                        asyncFailures.incrementAndGet();
                    }
                });
            }
            return CONFIRMED;
        }
        // each answer is that of the call that carried these records (alone or coalesced with others')
        List<CompletableFuture<byte[]>> calls = new ArrayList<>();
        for (Member t : targets) {
            comm(t, records.get(0), op);
            calls.add(lanes.send(t.address(), batch, timeout));
        }
        // confirmed once W members of the set applied the records (this node counts when it is one of them); refused
        // once every call answered or missed its deadline with fewer
        int required = syncAcks.required(redundancy, expected.size());
        java.util.concurrent.atomic.AtomicInteger ok = new java.util.concurrent.atomic.AtomicInteger(
                counted.contains(address) ? 1 : 0);
        java.util.concurrent.atomic.AtomicInteger unanswered = new java.util.concurrent.atomic.AtomicInteger(calls.size());
        CompletableFuture<String> confirmed = new CompletableFuture<>();
        Runnable settle = () -> {
            if (ok.get() >= required) {
                confirmed.complete(null);
            } else if (unanswered.get() == 0) {
                confirmed.complete(refusal(set.size(), required, absent, targets, calls, counted));
            }
        };
        for (int i = 0; i < calls.size(); i++) {
            boolean counts = counted.contains(targets.get(i).address());
            calls.get(i).whenComplete((r, e) -> {
                if (e == null && counts) {
                    ok.incrementAndGet();
                }
                unanswered.decrementAndGet();
                settle.run();
            });
        }
        settle.run();
        return confirmed;
    }

    /** Why a Sync write's replicas did not confirm it: the ones absent from the view and the calls that failed. */
    private String refusal(int replicas, int required, List<String> absent, List<Member> targets,
                           List<CompletableFuture<byte[]>> calls, java.util.Set<String> counted) {
        int ok = counted.contains(address) ? 1 : 0;
        StringBuilder failures = new StringBuilder();
        for (String a : absent) {
            failures.append(failures.length() == 0 ? "" : "; ").append(a).append(": not in the ring view (down,"
                    + " restarting or unreachable)");
        }
        for (int i = 0; i < calls.size(); i++) {
            String to = targets.get(i).address();
            if (!counted.contains(to)) {
                continue;
            }
            CompletableFuture<byte[]> call = calls.get(i);
            if (!call.isCompletedExceptionally()) {
                ok++;
            } else {
                String why = call.handle((r, x) -> TransportException.of(x).getMessage()).join();
                failures.append(failures.length() == 0 ? "" : "; ").append(to).append(": ").append(why);
            }
        }
        return "Sync write confirmed by " + ok + " of " + replicas + " replicas, " + required + " needed (god.sync.acks="
                + syncAcks.text() + "; " + failures + "); it may be applied on some; retry";
    }

    private static final CompletableFuture<String> CONFIRMED = CompletableFuture.completedFuture(null);

    /** Applies records sent by the executing node (a replica's side of {@link Ops#REPLICATE}). */
    public CompletableFuture<byte[]> applyReplicated(byte[] payload) {
        List<Record> records = decode(payload);
        if (unorderedReplicaWrites) {
            records = restamped(records);
        }
        long newest = 0;
        for (Record rec : records) {
            newest = Math.max(newest, rec.timestamp());
        }
        timestamps.advanceTo(newest, "replication");
        store.applyAll(records);
        return CompletableFuture.completedFuture(new byte[0]);
    }

    /**
     * Test-only switch (set by the simulation's bug-injection tests, never in production): replicas
     * apply what arrives in arrival order, ignoring the writer's timestamps — reference §10.11's
     * "replica writes don't compare timestamps; async forwarding can reorder".
     */
    static volatile boolean unorderedReplicaWrites;

    private List<Record> restamped(List<Record> records) {
        List<Record> out = new ArrayList<>(records.size());
        for (Record r : records) {
            long ts = timestamps.next();
            out.add(switch (r.kind()) {
                case PUT -> Record.put(r.key(), r.value(), ts);
                case DELETE -> Record.delete(r.key(), ts);
                case SUB_PUT -> Record.subPut(r.key(), r.subKey(), r.value(), ts);
                case SUB_DELETE -> Record.subDelete(r.key(), r.subKey(), ts);
                case SUB_CLEAR -> Record.subClear(r.key(), ts);
                default -> r;
            });
        }
        return out;
    }

    /** Async copies dropped because the queue was full (repaired by anti-entropy later). */
    public long droppedReplications() {
        return dropped.get();
    }

    public long failedAsyncReplications() {
        return asyncFailures.get();
    }

    /**
     * Copies refused at once, Sync or async, because their replica's lane already held {@code god.replication.queue}
     * waiting copies ({@link ReplicationLanes}): that replica answers slowly or not at all; anti-entropy repairs them.
     */
    public long refusedReplications() {
        return lanes.refused();
    }

    public int queuedReplications() {
        return queued.get();
    }

    /** {@link Ops#REPLICATE} calls sent for writes (each may carry several writers' records, see {@link ReplicationLanes}). */
    public long replicationCalls() {
        return lanes.calls();
    }

    /** Records those calls carried (once per target). */
    public long replicatedRecords() {
        return lanes.records();
    }

    static byte[] encode(List<Record> records) {
        WireWriter w = new WireWriter().varint(records.size());
        for (Record r : records) {
            w.bytes(r.encode());
        }
        return w.toBytes();
    }

    static List<Record> decode(byte[] payload) {
        WireReader r = new WireReader(payload);
        int n = r.count(10_000_000);
        List<Record> out = new ArrayList<>(Math.min(n, 4096));
        for (int i = 0; i < n; i++) {
            byte[] b = r.bytes();
            if (b == null) {
                throw new io.god.wire.WireException("null record");
            }
            out.add(AntiEntropy.decodeRecord(b));
        }
        r.end();
        return out;
    }

    private static String slaveName(Record r) {
        return switch (r.kind()) {
            case PUT -> "DHash.SlavePut";
            case DELETE -> "DHash.SlaveDel";
            case SUB_PUT -> "DHash.SlaveSubPut";
            case SUB_DELETE -> "DHash.SlaveSubDel";
            case SUB_CLEAR -> "DHash.SlaveSubClear";
            case SUB_CONFIGURATION -> "DHash.SlaveSubAddConfiguration";
            default -> "DHash.Slave" + r.kind();
        };
    }

    private void comm(Member to, Record r, String op) {
        if (events == null || !events.hasListeners()) {
            return;
        }
        Member me = ring().byAddress(address);
        byte[] pos = me == null ? new byte[Positions.SIZE] : me.position();
        events.publish(new Event.Comm(new Event.NodeRef(pos, address), new Event.NodeRef(to.position(), to.address()),
                r.key(), r.subKey(), op));
    }

    private <T> T await(CompletableFuture<T> f) {
        return awaiter.await(f, Awaiter.limitFor(timeout));
    }

    private static byte[] json(String message) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : message.toCharArray()) {
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
