package io.god.node;

import io.god.cluster.Cluster;
import io.god.events.EventBus;
import io.god.persist.DurableTree;
import io.god.persist.MetadataStore;
import io.god.persist.RecoveryReport;
import io.god.ring.Member;
import io.god.ring.Membership;
import io.god.time.NanoClock;
import io.god.time.Scheduler;
import io.god.transport.Retry;
import io.god.transport.TcpTransport;
import io.god.transport.Transport;
import io.god.tree.Tree;
import io.god.wire.Call;
import io.god.wire.Ops;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one bootstrap of a god node, framework-free: from {@link NodeSettings} it assembles the tree
 * (durable when a data directory is set, otherwise in memory), the node's identity (its ring
 * position, persisted in the data directory), the timestamp source and the background loops
 * (tombstone collection; persistence runs its own fsync loop). The Quarkus app, multi-node tests and
 * later the simulator start nodes through {@link #start}; {@link #close} stops everything.
 *
 * <p>It also starts the node's {@link Transport} (the binary protocol on {@code god.node.port}, or an
 * injected in-memory one), its ring {@link Membership} (ticked every {@code god.ring.interval}) and
 * the {@link Cluster} (routing and replication). A node without a persisted position takes one when
 * it joins (the biggest gap) or founds a ring, and persists it; a restart reuses it.
 */
public final class GodNode implements AutoCloseable {

    /** Metadata name of the persisted ring position (16 bytes). */
    public static final String POSITION = "position";
    /** Metadata name of the newest write timestamp at the last clean shutdown. */
    public static final String LAST_TIMESTAMP = "last-timestamp";
    public static final int POSITION_SIZE = 16;

    private static final System.Logger LOG = System.getLogger(GodNode.class.getName());

    /**
     * JOINING (stale-data check, then joining the ring) → CATCHING_UP (a member: applies replication,
     * serves no reads, not ready) → ACTIVE; LEAVING → LEFT on request. A node the ring declared dead
     * goes back through the check and CATCHING_UP (DESIGN §7: one (re)join path).
     */
    public enum State { JOINING, CATCHING_UP, ACTIVE, LEAVING, LEFT, STALE }

    /** Catch-up rounds between warnings while a node has not caught up. */
    public static final int CATCH_UP_WARN_ROUNDS = 10;

    /** Creates a node's transport; handlers may block and run on the given executor. */
    @FunctionalInterface
    public interface TransportFactory {
        Transport create(NodeSettings settings, java.util.concurrent.Executor handlers);
    }

    /** Executes one god JSON call arriving over the binary protocol (installed by the JSON handler). */
    @FunctionalInterface
    public interface CallHandler {
        Call.Reply handle(Call call);
    }

    /**
     * Executes binary data calls ({@link Ops#DATA}; installed by the JSON handler, which owns auth and
     * limits). {@code mayBlock} false: called on a network event loop, it answers only what needs no
     * waiting (a local read, an in-memory asynchronous write, an error) and returns null otherwise; the
     * call is then handed to the handler pool and made again with {@code mayBlock} true.
     */
    @FunctionalInterface
    public interface DataHandler {
        byte[] handle(byte[] payload, boolean mayBlock);

        /**
         * On the handler pool: the reply, possibly later, without this thread waiting for the members a call goes
         * to or for a write's replicas where the handler can; what must wait runs on {@code mayWait}.
         */
        default CompletableFuture<byte[]> started(byte[] payload, java.util.concurrent.Executor mayWait) {
            return CompletableFuture.completedFuture(handle(payload, true));
        }
    }

    private final NodeSettings settings;
    /** The client, peer and admin credentials: who a binary connection's hello makes it, what it may send. */
    private final io.god.command.Credentials credentials;
    private final NanoClock clock;
    private final Store store;
    private Tree tree;
    private final Timestamps timestamps;
    private io.god.time.TimeNet timeNet;
    private final Random timeRandom;
    private volatile byte[] position;
    private final ScheduledExecutorService loops;
    private final ScheduledExecutorService timers;
    private final ExecutorService handlers;
    private final long startedAt;
    private volatile long lastMigrateAt;
    private volatile java.util.function.Supplier<String> httpAddress = () -> null;
    private final EventBus events = new EventBus();
    private Transport transport;
    private io.god.transport.NodeTls tls;
    private Vertx vertx;
    private Membership membership;
    /** Sends membership's messages over the transport (the ring package does no I/O). */
    private io.god.cluster.MembershipLink membershipLink;
    private Cluster cluster;
    private io.god.cluster.AntiEntropy antiEntropy;
    private io.god.cluster.Cleaner cleaner;
    private io.god.cluster.Migrator migrator;
    private io.god.cluster.Drain drain;
    private io.god.cluster.Quarantine quarantine;
    private io.god.cluster.BackupSource backupSource;
    private io.god.cluster.CatchUp catchUp;
    private io.god.ring.MemberStates memberStates;
    private final Random statesRandom;
    /** The stale-data check must pass (again) before catching up can end: set on every (re)join. */
    private volatile boolean checkPending;
    private volatile long lastTickAt;
    private volatile boolean initialSync;
    private final java.util.concurrent.ScheduledExecutorService syncs;
    private final AtomicReference<CallHandler> callHandler = new AtomicReference<>();
    private final AtomicReference<DataHandler> dataHandler = new AtomicReference<>();
    private volatile State state = State.JOINING;
    private volatile boolean closed;
    private final Object timestampLock = new Object();
    private long persistedTimestamp; // guarded by timestampLock
    private volatile FutureStamps futureStamps;
    private final NodeRuntime runtime;
    private volatile RecoveryReport recovery;
    /** The data lost records to damage ({@code repair}) and the ring has not restored them yet: see {@link #awaitsRepair()}. */
    private volatile boolean awaitsRepair;
    private final io.god.supervise.Supervisor supervisor;
    private final io.god.supervise.Heartbeat ringBeat;
    private final io.god.supervise.Heartbeat gcBeat;
    private final io.god.supervise.Heartbeat syncBeat;

    private GodNode(NodeSettings settings, NodeRuntime runtime, Store store, Timestamps timestamps, byte[] position) {
        this.settings = settings;
        this.credentials = new io.god.command.Credentials(settings);
        this.runtime = runtime;
        this.clock = runtime.clock();
        this.store = store;
        this.timestamps = timestamps;
        this.position = position;
        this.startedAt = clock.nanos();
        this.timeRandom = new Random(runtime.seeds().getAsLong());
        this.statesRandom = new Random(runtime.seeds().getAsLong());
        this.loops = runtime.loops().apply("god-gc-" + settings.advertise());
        this.timers = runtime.loops().apply("god-ring-" + settings.advertise());
        this.aliveEvery = Math.min(1_000_000_000L, settings.tombstoneWindow().toNanos() / 100);
        this.syncs = runtime.loops().apply("god-sync-" + settings.advertise());
        this.handlers = runtime.handlers().apply("god-peer-" + settings.advertise());
        this.supervisor = new io.god.supervise.Supervisor(clock);
        store.heartbeats().forEach(supervisor::add);
        this.ringBeat = supervisor.register("ring", settings.cluster().ringInterval());
        this.gcBeat = supervisor.register("tombstone-gc", settings.gcInterval());
        // one thread runs the sync rounds and the drain steps: one beat (a long round reports progress)
        this.syncBeat = supervisor.register("sync", settings.cluster().syncInterval());
        if (runtime.monotonic() != null) {
            // the beat thread's run-queue wait: a beat late for want of a CPU (a saturated host) is no pause
            this.pauseWatch = new io.god.time.PauseWatch(runtime.monotonic(), new io.god.time.RunQueueWait(),
                    PAUSE_THRESHOLD.toNanos(), PAUSE_GRACE.toNanos());
            this.pauseBeats = runtime.loops().apply("god-pause-" + settings.advertise());
            io.god.supervise.Heartbeat beat = supervisor.register("pause-watch", PAUSE_BEAT);
            pauseBeats.scheduleWithFixedDelay(beat.wrap(pauseWatch::beat), PAUSE_BEAT.toMillis(), PAUSE_BEAT.toMillis(),
                    TimeUnit.MILLISECONDS);
        } else {
            this.pauseWatch = null;
            this.pauseBeats = null;
        }
    }

    /**
     * A pause of the process this long counts ({@link io.god.time.PauseWatch}): clients wait about a second
     * for an attempt, so a write that waited less was still waited for.
     */
    static final java.time.Duration PAUSE_THRESHOLD = java.time.Duration.ofSeconds(1);
    static final java.time.Duration PAUSE_GRACE = java.time.Duration.ofMillis(100);
    /**
     * A beat every 100 ms notices a 1 s pause as well as one every 10 ms did (the first beat after a resume is
     * overdue and runs at once; until it runs, writes are refused for the missing beats), at a tenth of the cost: each
     * beat reads {@code /proc/thread-self/schedstat} and wakes a core, and at 10 ms the beats took 2 % of the CPU of a
     * node serving RESP GETs on two cores (async-profiler, bench/resp.sh's GET), a core the benchmark's client shares.
     */
    static final java.time.Duration PAUSE_BEAT = java.time.Duration.ofMillis(100);
    private final io.god.time.PauseWatch pauseWatch;
    private final ScheduledExecutorService pauseBeats;

    /**
     * Why a client write this node began to handle at {@code since} (monotonic ns) is refused now, or null; a request
     * read from TCP counts from its connection's previous read ({@link io.god.transport.Arrival}).
     */
    public String pauseRefusal(long since) {
        return pauseWatch == null ? null : pauseWatch.refusal(since, io.god.transport.Arrival.after());
    }

    /** The supervisor of this node's background loops (liveness, /admin/status). */
    public io.god.supervise.Supervisor supervisor() {
        return supervisor;
    }

    /** Starts a node on the system clock. */
    public static GodNode start(NodeSettings settings) {
        return start(settings, NanoClock.system());
    }

    /**
     * Opens (and recovers) the data directory or creates an in-memory tree, loads or chooses the ring
     * position and starts the background loops. Fails with a message naming the problem (and the
     * path) when the data directory is unusable.
     */
    public static GodNode start(NodeSettings settings, NanoClock clock) {
        return start(settings, clock, null);
    }

    /** As {@link #start(NodeSettings, NanoClock)} with an injected transport (null = TCP). */
    public static GodNode start(NodeSettings settings, NanoClock clock, TransportFactory transports) {
        return start(settings, NodeRuntime.production(clock, transports));
    }

    /** The runtime's disk, or with {@code god.testing.fail-fsync} that disk failing fsyncs while the trigger exists. */
    private static io.god.persist.Disk disk(NodeSettings settings, NodeRuntime runtime) {
        if (!settings.failFsync()) {
            return runtime.disk();
        }
        java.nio.file.Path trigger = settings.dataDir().resolve(NodeSettings.FAIL_FSYNC_TRIGGER);
        LOG.log(System.Logger.Level.WARNING, "testing only: " + NodeSettings.TESTING_FAIL_FSYNC
                + " is on, every fsync in the data directory fails while " + trigger + " exists");
        return new io.god.persist.FsyncFaultDisk(runtime.disk(), trigger);
    }

    /** As {@link #start(NodeSettings, NanoClock)} in the given environment (the simulation's, in tests). */
    public static GodNode start(NodeSettings settings, NodeRuntime runtime) {
        return start(settings, runtime, n -> { });
    }

    /**
     * As {@link #start(NodeSettings, NodeRuntime)}, with {@code frontEnds} installing the node's call handlers
     * ({@code JsonRpc}) and whatever else must exist before the node serves its peers or joins the ring: a member
     * the others route to must answer calls, not "not serving calls yet" (a new node joined on its first tick while
     * the app was still building its handlers, and clients' reads of its keys failed until it had).
     */
    public static GodNode start(NodeSettings settings, NodeRuntime runtime, java.util.function.Consumer<GodNode>
            frontEnds) {
        OomExit.install();
        // the TLS files are read before anything is opened: a missing or wrong one fails the start naming its setting
        io.god.transport.NodeTls tls = settings.tls() == null || runtime.transports() != null ? null
                : io.god.transport.NodeTls.load(settings.tls());
        NanoClock clock = runtime.clock();
        Tree tree = new Tree(clock, settings.tombstoneWindow());
        // time belongs to the ring (issue 23): nothing from outside moves this node's time beyond physical
        // now + god.time.max-skew, measured on the physical clock so repeated requests cannot ratchet it
        io.god.time.SkewBound bound = new io.god.time.SkewBound(clock, settings.maxSkew());
        io.god.time.TimeNet timeNet = new io.god.time.TimeNet(clock, bound);
        Timestamps timestamps = new Timestamps(timeNet.continuousClock(), bound);
        Store store;
        byte[] position;
        FutureStamps future = null;
        RecoveryReport recovery = null;
        boolean awaitsRepair = false;
        if (settings.inMemory()) {
            store = Store.inMemory(tree);
            position = null;
        } else {
            DurableTree durable = DurableTree.open(disk(settings, runtime), settings.dataDir(), tree,
                    settings.persistenceOptions());
            store = Store.durable(durable);
            try {
                MetadataStore meta = store.metadata().orElseThrow();
                Optional<byte[]> stored = meta.get(POSITION).filter(p -> p.length == POSITION_SIZE);
                position = stored.orElse(null);
                Optional<Long> last = meta.getLong(LAST_TIMESTAMP);
                if (last.isPresent()) {
                    future = restoreLastTimestamp(last.get(), store, timestamps, settings);
                }
                RecoveryReport recovered = durable.recovery();
                if (recovered.lostRecords()) {
                    // the data is complete only up to completeUpTo: the stale-data check must compare
                    // that, not the old lastAliveAt, with what the ring collected, before any exchange
                    io.god.cluster.Quarantine.lowerLastAliveAt(meta, recovered.completeUpTo());
                }
                recovery = recovered;
                awaitsRepair = meta.get(DurableTree.REPAIR_PENDING).isPresent();
            } catch (RuntimeException e) {
                store.close();
                throw e;
            }
        }
        GodNode node = new GodNode(settings, runtime, store, timestamps, position);
        node.tree = tree;
        node.timeNet = timeNet;
        node.futureStamps = future;
        node.recovery = recovery;
        node.awaitsRepair = awaitsRepair;
        node.tls = tls;
        try {
            node.startCluster(runtime.transports(), frontEnds);
        } catch (RuntimeException e) {
            node.close();
            throw e;
        }
        node.startLoops();
        if (settings.credentialsNote() != null) {
            LOG.log(System.Logger.Level.INFO, settings.credentialsNote());
        }
        LOG.log(System.Logger.Level.INFO, "god node started: " + settings + " state " + node.state()
                + (node.position == null ? "" : " position " + HexFormat.of().formatHex(node.position)));
        return node;
    }

    /**
     * Raises the stamp floor to the persisted last timestamp — at most to the skew bound. One beyond
     * the bound means data stamped in the future: the entries stamped beyond it are counted and
     * reported (WARN, {@code /admin/status} futureStamps; null when there are none). Without such
     * entries the old value is harmless and forgotten (the bound is persisted from now on).
     */
    private static FutureStamps restoreLastTimestamp(long last, Store store, Timestamps timestamps,
                                                     NodeSettings settings) {
        long limit = timestamps.bound().limit();
        if (last <= limit) {
            timestamps.advanceTo(last, "persisted last timestamp");
            return null;
        }
        FutureStamps found = FutureStamps.find(store.state(), last, limit);
        if (found.keys() == 0) {
            LOG.log(System.Logger.Level.INFO, "the persisted last timestamp " + last + " ns ("
                    + java.time.Instant.ofEpochSecond(0, last) + ") lies beyond the clock bound (god.time.max-skew "
                    + Durations.format(settings.maxSkew()) + ") but no entry carries such a stamp: ignored");
            timestamps.advanceTo(found.newestEntry(), "newest entry");
            return null;
        }
        LOG.log(System.Logger.Level.WARNING, settings.dataDir() + ": " + found.keys() + " entries carry timestamps"
                + " beyond physical now + god.time.max-skew (" + Durations.format(settings.maxSkew())
                + "), the newest " + java.time.Instant.ofEpochSecond(0, last) + "; they win over every later write to"
                + " their keys until then and their tombstones are not collected. New stamps stay within the"
                + " bound. See docs/durability.md, 'Timestamps from the future', to repair.");
        timestamps.advanceTo(last, "persisted last timestamp");
        return found;
    }

    private void startCluster(TransportFactory transports, java.util.function.Consumer<GodNode> frontEnds) {
        NodeSettings.Cluster c = settings.cluster();
        if (transports == null) {
            vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2).setWorkerPoolSize(2)
                    .setInternalBlockingPoolSize(2));
            int maxFrame = (int) Math.min(Integer.MAX_VALUE - 64, settings.bodySize() + 2L * settings.valueSize()
                    + 65536);
            TcpTransport tcp = new TcpTransport(vertx, c.bindHost(), settings.nodePort(), settings.advertise(),
                    settings.peerTokens().current(), maxFrame, c.rpcTimeout(), handlers,
                    new io.god.limits.ByteBudget(settings.limits().frameBudget()));
            tcp.callers(credentials::ofHello, credentials.required()); // each credential, previous tokens too
            tcp.loopbackOnly(settings.protectedMode());
            tcp.bounds(settings.authTimeout(), settings.maxConnections());
            if (tls != null) {
                tcp.secure(tls);
                tls.watch();
            }
            transport = tcp;
        } else {
            transport = transports.create(settings, handlers);
        }
        Scheduler scheduler = Scheduler.of(timers);
        long forgetTicks = Math.max(1, c.forgetAfter().toNanos() / c.ringInterval().toNanos());
        membership = new Membership(new Membership.Config(settings.advertise(), settings.seeds(), position,
                clock.nanos(), c.rpcTimeout(), c.ringFailures(), forgetTicks, c.ringNeighbours(), c.ringFanout(),
                c.ringProbes(), settings.redundancy()), new Random(runtime.seeds().getAsLong()), events,
                this::positionChosen);
        membershipLink = new io.god.cluster.MembershipLink(membership, transport);
        Retry retry = new Retry(transport, scheduler, clock, c.rpcAttempts(), Duration.ofMillis(
                Math.max(5, c.rpcTimeout().toMillis() / 20)));
        cluster = new Cluster(settings.advertise(), membership, transport, retry, store, timestamps, events,
                settings.redundancy(), c.rpcTimeout(), c.replicationQueue(), runtime.awaiter());
        cluster.syncAcks(settings.syncAcks());
        cluster.peerAuthorization(settings.authToken() == null ? null : "Bearer " + settings.authToken());
        io.god.cluster.RepairContext repair = new io.god.cluster.RepairContext(settings.advertise(), membership::ring,
                transport, store, timestamps, events, clock, settings.redundancy(), c.rpcTimeout(),
                settings.tombstoneWindow(), c.syncBudget(), runtime.awaiter());
        antiEntropy = new io.god.cluster.AntiEntropy(repair);
        memberStates = new io.god.ring.MemberStates(settings.advertise(), forgetTicks, membership::ring);
        catchUp = new io.god.cluster.CatchUp(repair, antiEntropy, memberStates::catchingUp, CATCH_UP_WARN_ROUNDS);
        cluster.readFilter(memberStates::catchingUp, this::servesReads, () -> !awaitsRepair);
        cluster.anyCatchingUp(memberStates::anyCatchingUp);
        membership.foundAlone(!awaitsRepair);
        quarantine = new io.god.cluster.Quarantine(settings.advertise(), settings.seeds(), transport, store, clock,
                c.rpcTimeout(), settings.quarantineKeep(), this::forgetPosition, runtime.awaiter());
        backupSource = new io.god.cluster.BackupSource(store, clock::nanos, settings.redundancy(),
                quarantine::collectedUpTo, settings.bodySize());
        quarantine.onQuarantined(this::rejoin);
        quarantine.staleDecision(this::staleWithTheOnlyCopy);
        drain = new io.god.cluster.Drain(repair, antiEntropy, membershipLink::leave, () -> {
            store.metadata().ifPresent(m -> m.delete(POSITION));
            quarantine.forget();
        });
        cleaner = new io.god.cluster.Cleaner(repair);
        migrator = new io.god.cluster.Migrator(settings.advertise(), membership::ring, transport, store, events,
                c.rpcTimeout(), p -> {
                    if (!membership.moveTo(p)) {
                        return false;
                    }
                    // a new incarnation: its state, or the others presume this node catching up
                    memberStates.setSelf(membership.self().incarnation(), state == State.CATCHING_UP);
                    positionChosen(p);
                    return true;
                }, runtime.awaiter());
        frontEnds.accept(this); // before it serves peers or joins: a member must answer the calls routed to it
        transport.serve((Transport.CallerHandler) this::serve, this::serveInline);
        tick();
        long every = c.ringInterval().toNanos();
        timers.scheduleWithFixedDelay(ringBeat.wrap(this::tick), every, every, TimeUnit.NANOSECONDS);
    }

    private void tick() {
        if (closed) {
            return;
        }
        try {
            if (state == State.STALE) {
                return; // out of the ring until an explicit decision (POST /admin/stale-decision)
            }
            if (state == State.JOINING && !quarantine.check(membership.probers())) {
                return; // stale-data check first: no member answered yet
            }
            // the runtime's monotonic reading, not the (injected, steppable) clock: a clock step is no pause; the
            // simulation has none (its time is its own: a descheduled test thread is no pause of its nodes)
            long now = monotonicNow();
            long last = lastTickAt;
            lastTickAt = now;
            membershipLink.tick();
            sampleTime();
            boolean dead = membership.takeDeclaredDead();
            if (membership.state() == Membership.State.ACTIVE && state == State.JOINING) {
                if (awaitsRepair) {
                    // as the first seed it founded the ring for a node that is up (Membership.foundAlone) and its
                    // stale-data check passed alone: the check runs (again) against the ring's members before
                    // any exchange, then it catches up
                    quarantine.reset();
                    startCatchingUp(true);
                } else if (membership.ring().size() <= 1 || settings.redundancy() == 1) {
                    state = State.ACTIVE; // a founder (or N=1) has nothing to catch up with
                    initialSync = true;
                    memberStates.setSelf(membership.self().incarnation(), false);
                } else {
                    startCatchingUp(false);
                }
            } else if (state == State.ACTIVE && (dead || last > 0 && now - last > pauseLimit())) {
                // the ring declared this node dead, or it was paused long enough for that: rejoin
                LOG.log(System.Logger.Level.WARNING, address() + ": the ring " + (dead ? "declared this node dead"
                        : "may have declared this node dead (no tick for " + (now - last) / 1_000_000 + " ms)")
                        + "; checking for stale data and catching up before serving reads");
                rejoin();
            }
            if (state == State.CATCHING_UP && checkPending) {
                List<String> members = new ArrayList<>();
                for (Member m : membership.ring().members()) {
                    members.add(m.address());
                }
                // N=1 alone in its view (the others gone or removed): nobody to compare with, and its
                // data is the only copy; it passes, and the check runs again when it meets a member
                if (quarantine.check(members, members.size() <= 1 && settings.redundancy() == 1)) {
                    checkPending = false;
                }
            }
            spreadStates();
            holdCollectionBelowExpected();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "ring tick failed: " + e);
        }
    }

    /**
     * No tombstone collection while the live ring is smaller than its expected membership (DESIGN §5:
     * an absent replica may still hold a deleted value) or a member catches up (it receives the
     * tombstones it missed first); resumes once every expected member is back and caught up, or the
     * absent ones were removed on request.
     */
    private void holdCollectionBelowExpected() {
        boolean below = membership.state() == Membership.State.ACTIVE
                && (membership.ring().size() < membership.expected().size()
                || !memberStates.catchingUp().isEmpty()); // a returning member gets the tombstones first
        if (below != tree.collectionHeld()) {
            tree.holdCollection(below);
            boolean absent = !membership.absent().isEmpty();
            LOG.log(absent ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG, address() + (below
                    ? ": tombstone collection held: the ring has fewer live members than expected or a member is"
                    + " catching up (absent: " + membership.absent() + ", catching up: " + memberStates.catchingUp()
                    + "; POST /admin/remove-member removes a member that is gone for good)"
                    : ": tombstone collection resumed: every expected member is back in the ring and caught up"));
        }
    }

    /** Why this single member is STALE (null when it is not): set until an explicit keep/quarantine decision. */
    public String staleReason() {
        return staleReason;
    }

    private volatile String staleReason;
    private volatile State beforeStale;

    /**
     * The stale-data check found this node's data stale ({@code collected}: the ring's collectedUpTo
     * that makes it so). With N=1 its data is the only copy: instead of quarantining it by itself, the
     * node stays out as STALE with the reason, serving nothing, until an explicit decision (DESIGN §7).
     */
    private boolean staleWithTheOnlyCopy(long collected) {
        if (settings.redundancy() != 1) {
            return false;
        }
        synchronized (this) {
            if (state != State.STALE) {
                beforeStale = state;
                state = State.STALE;
            }
            staleReason = "god.redundancy=1 and a ring member has collected deletions up to "
                    + java.time.Instant.ofEpochSecond(0, collected) + ", later than this node's lastAliveAt "
                    + (quarantine.lastAliveAt() == 0 ? "(none)" : java.time.Instant.ofEpochSecond(0,
                    quarantine.lastAliveAt())) + ": its data may bring deleted keys back, and it is the only copy;"
                    + " POST /admin/stale-decision {\"decision\": \"keep\"} (use it as is) or"
                    + " {\"decision\": \"quarantine\"} (move it aside, join empty)";
        }
        LOG.log(System.Logger.Level.WARNING, address() + " is STALE: " + staleReason);
        return true;
    }

    /**
     * The explicit decision about a STALE node's data: keep it (the node joins with it) or quarantine
     * it (moved aside; the node joins empty). Returns null, or why there is nothing to decide.
     */
    public String decideStale(boolean keep) {
        synchronized (this) {
            if (state != State.STALE || !quarantine.decisionPending()) {
                return "the node is not STALE (" + state + ")";
            }
            quarantine.decide(keep);
            staleReason = null;
            state = beforeStale == State.JOINING ? State.JOINING : state;
        }
        if (state == State.STALE) { // it was a member: the one (re)join path
            synchronized (this) {
                state = State.ACTIVE;
            }
            rejoin();
        }
        LOG.log(System.Logger.Level.WARNING, address() + ": stale data " + (keep ? "kept" : "quarantined")
                + " on request; " + state);
        return null;
    }

    /** Whether tombstone collection is held because the live ring is below its expected membership. */
    public boolean collectionHeld() {
        return tree.collectionHeld();
    }

    /** No tick for this long: the ring has had time to declare this node dead (a paused process). */
    private long pauseLimit() {
        NodeSettings.Cluster c = settings.cluster();
        return Math.max(c.ringInterval().toNanos() * (c.ringFailures() + 1), c.rpcTimeout().toNanos())
                + c.ringInterval().toNanos() * 2L;
    }

    /** Enters CATCHING_UP: no reads, not ready, the stale-data check (again) if {@code check}. */
    private synchronized void startCatchingUp(boolean check) {
        if (state == State.LEAVING || state == State.LEFT || closed) {
            return;
        }
        checkPending = check; // first: no data exchange from here until the check passed
        state = State.CATCHING_UP;
        initialSync = false;
        catchUp.start(clock.nanos());
        Member me = membership.self();
        memberStates.setSelf(me == null ? 0 : me.incarnation(), true);
        LOG.log(System.Logger.Level.INFO, address() + " is catching up (serves no reads until every range it holds"
                + " had a clean exchange)");
    }

    /** The one (re)join path of a running node (declared dead, paused, or its data just quarantined). */
    private void rejoin() {
        quarantine.reset();
        startCatchingUp(true);
    }

    /** Whether this node answers reads: ACTIVE and not just back from a pause the ring may have noticed. */
    public boolean servesReads() {
        if (state != State.ACTIVE) {
            return state == State.LEAVING;
        }
        long last = lastTickAt;
        return last == 0 || monotonicNow() - last <= pauseLimit();
    }

    /** The runtime's monotonic clock (ns), 0 where pauses are not watched ({@link NodeRuntime#monotonic}). */
    private long monotonicNow() {
        return runtime.monotonic() == null ? 0 : runtime.monotonic().getAsLong();
    }

    /** Push-pull of member states with one random member per tick (DESIGN §7: spread with membership). */
    private void spreadStates() {
        memberStates.tick(membership::isMember);
        if (STATES_REFUSED.contains(address())) {
            return;
        }
        var peer = membership.randomPeer(statesRandom);
        if (peer == null) {
            return;
        }
        transport.call(peer.address(), Ops.STATES, memberStates.encode(), settings.cluster().rpcTimeout())
                .whenComplete((r, e) -> {
                    if (e == null && r != null) {
                        try {
                            memberStates.merge(r);
                        } catch (RuntimeException bad) {
                            LOG.log(System.Logger.Level.DEBUG, "bad member states from " + peer.address() + ": " + bad);
                        }
                    } else if (e != null && io.god.transport.TransportException.of(e).reason()
                            == io.god.transport.TransportException.Reason.REMOTE) {
                        memberStates.refused(peer.address()); // an older version: it never spreads a state
                    }
                });
    }

    /** Member states: which members are catching up. */
    public io.god.ring.MemberStates memberStates() {
        return memberStates;
    }

    public io.god.cluster.CatchUp catchUp() {
        return catchUp;
    }

    /** Refuses what the caller may not send (ring traffic from a client, a forwarded call from a non-peer). */
    private CompletableFuture<byte[]> serve(io.god.command.Caller caller, int op, byte[] payload) {
        String refused = credentials.refuseOp(caller, op);
        if (refused != null) {
            return CompletableFuture.failedFuture(new SecurityException(refused));
        }
        byte[] forwarded = refuseForwarded(caller, op, payload);
        return forwarded != null ? CompletableFuture.completedFuture(forwarded) : serve(op, payload);
    }

    /** The 403 reply of a data call a non-peer sent as if forwarded (a write stamp, hops), else null. */
    private byte[] refuseForwarded(io.god.command.Caller caller, int op, byte[] payload) {
        if (caller.peer() || op != Ops.CALL && op != Ops.DATA && op != Ops.COMMAND) {
            return null;
        }
        try {
            if (op == Ops.COMMAND) {
                io.god.request.BinaryRequests.Envelope e = io.god.request.BinaryRequests.peek(payload);
                String why = credentials.refuseForwarded(caller, e.stamp(), e.hops());
                return why == null ? null : io.god.request.BinaryResults.Reply.error(403, why).encode();
            }
            if (op == Ops.CALL) {
                Call call = Call.decode(payload);
                String why = credentials.refuseForwarded(caller, call.stamp(), call.hops());
                return why == null ? null : new Call.Reply(403, ("\"" + new String(com.fasterxml.jackson.core.io
                        .JsonStringEncoder.getInstance().quoteAsString(why)) + "\"").getBytes(
                        java.nio.charset.StandardCharsets.UTF_8)).encode();
            }
            if (io.god.wire.SliceCall.isSlice(payload)) {
                io.god.wire.SliceCall slice = io.god.wire.SliceCall.decode(payload);
                String why = credentials.refuseForwarded(caller, 0, slice.hops());
                return why == null ? null : io.god.wire.SliceCall.Reply.error(403, why).encode();
            }
            io.god.wire.DataCall call = io.god.wire.DataCall.decode(payload);
            String why = credentials.refuseForwarded(caller, call.stamp(), call.hops());
            return why == null ? null : io.god.wire.DataCall.Reply.error(403, why).encode();
        } catch (RuntimeException malformed) {
            return null; // the handler answers it as it answers any malformed call
        }
    }

    private CompletableFuture<byte[]> serve(int op, byte[] payload) {
        if (drain.refuses(op)) {
            return CompletableFuture.failedFuture(new IllegalStateException(address() + " has left the ring"));
        }
        if ((checkPending || state == State.JOINING || state == State.STALE) && (op == Ops.SYNC_FINGERPRINTS || op == Ops.SYNC_EXCHANGE
                || op == Ops.SYNC_META || op == Ops.OWNED || op == Ops.BACKUP)) {
            return CompletableFuture.failedFuture(new IllegalStateException(address()
                    + " has not passed the stale-data check yet: no data exchange before it (DESIGN §7)"));
        }
        return switch (op) {
            case Ops.JOIN, Ops.PING, Ops.GOSSIP, Ops.LEAVE -> membership.handle(op, payload);
            case Ops.COLLECTED -> {
                if (membership.state() == Membership.State.ACTIVE) {
                    yield CompletableFuture.completedFuture(quarantine.serve(payload));
                }
                membership.peerWaiting(); // a node that is up checks its data before joining: it waits for a ring
                yield CompletableFuture.failedFuture(new IllegalStateException(address() + " is not a ring member"));
            }
            case Ops.STATES -> {
                if (STATES_REFUSED.contains(address())) { // tests: a node of an older version
                    yield CompletableFuture.failedFuture(new IllegalArgumentException("unknown operation " + op));
                }
                memberStates.merge(payload);
                yield CompletableFuture.completedFuture(memberStates.encode());
            }
            case Ops.INFO -> {
                String http = httpAddress.get();
                yield CompletableFuture.completedFuture(http == null ? new byte[0]
                        : http.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            case Ops.EVENTS -> {
                EventsHandler h = eventsHandler.get();
                yield h == null ? CompletableFuture.failedFuture(new IllegalStateException("no event feed here"))
                        : h.events(payload);
            }
            case Ops.REPLICATE -> cluster.applyReplicated(payload);
            case Ops.SYNC_FINGERPRINTS -> antiEntropy.serveFingerprints(payload);
            case Ops.SYNC_EXCHANGE -> antiEntropy.serveExchange(payload);
            case Ops.SYNC_META -> antiEntropy.serveMeta(payload);
            case Ops.OWNED -> migrator.serveOwned(payload);
            case Ops.BACKUP -> CompletableFuture.completedFuture(backupSource.serve(payload));
            case Ops.TIME -> CompletableFuture.completedFuture(
                    java.nio.ByteBuffer.allocate(8).putLong(timeNet.actual()).array());
            case Ops.CALL -> {
                CallHandler h = callHandler.get();
                if (h == null) {
                    yield CompletableFuture.failedFuture(new IllegalStateException("not serving calls yet"));
                }
                Call call = Call.decode(payload);
                java.util.function.BiConsumer<String, String> probe = JSON_CALL_PROBE;
                if (probe != null) { // tests: which commands arrive as JSON calls
                    probe.accept(address(), call.method());
                }
                yield CompletableFuture.completedFuture(h.handle(call).encode());
            }
            case Ops.DATA -> {
                DataHandler h = dataHandler.get();
                if (h == null) {
                    yield CompletableFuture.failedFuture(new IllegalStateException("not serving calls yet"));
                }
                yield DATA_AS_OLDER_VERSION != null ? CompletableFuture.completedFuture(handleData(h, payload, true))
                        : h.started(payload, handlers);
            }
            case Ops.COMMAND -> {
                CommandHandler h = commandHandler.get();
                if (COMMAND_REFUSED.contains(address())) { // tests: a node of a version before binary commands
                    yield CompletableFuture.failedFuture(new IllegalArgumentException("unknown operation " + op));
                }
                if (h == null) {
                    yield CompletableFuture.failedFuture(new IllegalStateException("not serving calls yet"));
                }
                yield CompletableFuture.completedFuture(h.handle(payload));
            }
            default -> CompletableFuture.failedFuture(new IllegalArgumentException("unknown operation " + op));
        };
    }

    /**
     * The reply of a request answered on the network thread, or null to hand it to the handler pool:
     * data calls that need no waiting, and replicated writes to an in-memory store.
     */
    private byte[] serveInline(io.god.command.Caller caller, int op, byte[] payload) {
        if (credentials.refuseOp(caller, op) != null) {
            return null; // refused on the pool, with the reason
        }
        byte[] forwarded = refuseForwarded(caller, op, payload);
        return forwarded != null ? forwarded : serveInline(op, payload);
    }

    private byte[] serveInline(int op, byte[] payload) {
        if (drain.refuses(op)) {
            return null;
        }
        DataHandler h = dataHandler.get();
        if (op == Ops.DATA && h != null) {
            return handleData(h, payload, false);
        }
        return op == Ops.REPLICATE && !store.durable() ? cluster.applyReplicated(payload).join() : null;
    }

    /**
     * After a quarantine: a joining node joins as a new, empty node at a new position; a member keeps
     * its position (it catches up empty there).
     */
    private void forgetPosition() {
        if (membership.forgetPosition()) {
            position = null;
            store.metadata().ifPresent(m -> m.delete(POSITION));
        }
    }

    /** Test-only: how a node answers binary data calls as an older version would (mixed-version tests). */
    @FunctionalInterface
    public interface OlderDataVersion {
        /**
         * @param address  the node's address
         * @param mayBlock false on the network thread (a TCP transport tries every call there first), true on the
         *                 handler pool (a call the network thread handed over: seen twice)
         * @return the older version's reply (e.g. "unknown data operation" for a kind it did not know), or null to
         *         serve the call
         */
        byte[] answer(String address, byte[] payload, boolean mayBlock);
    }

    /** Test-only: when set, consulted before every binary data call (see {@link OlderDataVersion}). */
    public static volatile OlderDataVersion DATA_AS_OLDER_VERSION;

    private byte[] handleData(DataHandler h, byte[] payload, boolean mayBlock) {
        OlderDataVersion older = DATA_AS_OLDER_VERSION;
        byte[] answer = older == null ? null : older.answer(address(), payload, mayBlock);
        return answer != null ? answer : h.handle(payload, mayBlock);
    }

    /**
     * Test-only: nodes (by address) that behave like a version before binary commands: they refuse
     * {@link Ops#COMMAND} as an unknown operation (forwarding members fall back to {@link Ops#CALL}).
     */
    public static final java.util.Set<String> COMMAND_REFUSED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * Test-only: told (this node's address, the method) of every JSON call ({@link Ops#CALL}) a node receives, or
     * null — how a test sees that a client sends a command as a binary command, not as JSON.
     */
    public static volatile java.util.function.BiConsumer<String, String> JSON_CALL_PROBE;

    /** Test-only: nodes (by address) that behave like a version before member states (no {@link Ops#STATES}). */
    public static final java.util.Set<String> STATES_REFUSED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private void positionChosen(byte[] p) {
        position = p.clone();
        store.metadata().ifPresent(m -> m.put(POSITION, p));
    }

    /** Executes binary commands ({@link Ops#COMMAND}; installed by the JSON handler, which owns the executor). */
    @FunctionalInterface
    public interface CommandHandler {
        byte[] handle(byte[] payload);
    }

    private final AtomicReference<CommandHandler> commandHandler = new AtomicReference<>();

    /** Installs the handler of binary commands, unless one is installed already. */
    public void installCommandHandler(CommandHandler h) {
        commandHandler.compareAndSet(null, h);
    }

    /** Installs the handler of binary data calls, unless one is installed already. */
    public void installDataHandler(DataHandler h) {
        dataHandler.compareAndSet(null, h);
    }

    /** Serves {@link Ops#EVENTS}: this node's dashboard events for a peer that relays them to a browser. */
    @FunctionalInterface
    public interface EventsHandler {
        CompletableFuture<byte[]> events(byte[] payload);
    }

    private final AtomicReference<EventsHandler> eventsHandler = new AtomicReference<>();

    /** Installs the {@link Ops#EVENTS} handler, unless one is installed already. */
    public void installEventsHandler(EventsHandler h) {
        eventsHandler.compareAndSet(null, h);
    }

    /** Installs the handler of calls forwarded by other nodes, unless one is installed already. */
    public void installCallHandler(CallHandler h) {
        callHandler.compareAndSet(null, h);
    }

    private void startLoops() {
        long every = Math.max(1, settings.gcInterval().toMillis());
        loops.scheduleWithFixedDelay(gcBeat.wrap(this::collectGarbage), every, every, TimeUnit.MILLISECONDS);
        if (antiEntropy != null) {
            antiEntropy.onProgress(syncBeat::progress);
            long sync = settings.cluster().syncInterval().toNanos();
            syncs.scheduleWithFixedDelay(syncBeat.wrap(() -> {
                syncRound();
                recordAlive(false);
                cleanPass();
                migratePass();
            }), sync, sync, TimeUnit.NANOSECONDS);
            long ring = settings.cluster().ringInterval().toNanos();
            syncs.scheduleWithFixedDelay(syncBeat.wrap(() -> {
                catchUpRound(); // every ring interval, not every sync interval: a member catching up serves no reads
                drainStep();
            }), ring, ring, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Time network: asks one random other member for its time (asynchronously; the answer is a
     * sample for {@link io.god.time.TimeNet}). Runs every ring interval.
     */
    private void sampleTime() {
        var peer = membership.randomPeer(timeRandom); // O(1): no per-tick copy of a 1 000-member ring
        if (peer == null) {
            return;
        }
        long before = timeNet.actual();
        transport.call(peer.address(), Ops.TIME, new byte[0], settings.cluster().rpcTimeout()).whenComplete((r, e) -> {
            if (e == null && r != null && r.length == 8) {
                timeNet.sample(peer.address(), before, java.nio.ByteBuffer.wrap(r).getLong(), timeNet.actual());
            }
        });
        if (++timeSamples % 64 == 0) { // forget peers that left the ring, now and then
            timeNet.retain(membership::isMember);
        }
    }

    private long timeSamples;

    public io.god.time.TimeNet timeNet() {
        return timeNet;
    }

    /** One anti-entropy round of the owned range (the sync loop's body; tests may call it). */
    public boolean syncRound() {
        if (closed || antiEntropy == null || state != State.ACTIVE) {
            return false;
        }
        try {
            boolean clean = antiEntropy.round();
            initialSync |= clean;
            return clean;
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "sync round failed: " + e);
            return false;
        }
    }

    /** One catch-up round while CATCHING_UP (the sync loop's first step; tests may call it); true when done. */
    public boolean catchUpRound() {
        if (closed || state != State.CATCHING_UP || checkPending) {
            return false;
        }
        try {
            if (!catchUp.round()) {
                return false;
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "catch-up round failed: " + e);
            return false;
        }
        synchronized (this) {
            if (state != State.CATCHING_UP || checkPending) {
                return false;
            }
            state = State.ACTIVE;
            initialSync = true;
            Member me = membership.self();
            memberStates.setSelf(me == null ? 0 : me.incarnation(), false);
        }
        if (awaitsRepair) {
            store.metadata().ifPresent(m -> m.delete(DurableTree.REPAIR_PENDING));
            awaitsRepair = false;
            membership.foundAlone(true);
            LOG.log(System.Logger.Level.WARNING, address() + ": the records lost to damage at start are restored"
                    + " from the ring (every range it holds had a clean exchange)");
        }
        if (membership.ring().size() > 1) {
            quarantine.alive(catchUp.since()); // every range it holds was in sync as of the start of catching up
        }
        LOG.log(System.Logger.Level.INFO, address() + " caught up after " + catchUp.rounds() + " round(s); serving");
        return true;
    }

    /**
     * Persists lastAliveAt while this node is an in-sync member of a ring of several nodes (a node cut
     * off alone must not look alive): the newest of its clock and every timestamp it has seen.
     *
     * <p>Each write costs two fsyncs (file and directory), so the sync loop's call writes at most once per
     * {@link #aliveEvery} of the node's clock: at a 50 ms sync interval three nodes on one disk made 120
     * fsyncs a second that the log's Sync writes queued behind. A lastAliveAt that lags errs on the safe side
     * (it can only make the node look stale sooner) by at most a hundredth of the tombstone window.
     */
    private void recordAlive(boolean force) {
        if (closed || quarantine == null || state != State.ACTIVE || membership.ring().size() < 2
                || !(settings.redundancy() == 1 || antiEntropy.replicated())) {
            return;
        }
        long now = Math.max(clock.nanos(), timestamps.last());
        if (!force && now - quarantine.lastAliveAt() < aliveEvery) {
            return;
        }
        quarantine.alive(now);
    }

    /** At most how often the sync loop persists lastAliveAt (ns): a second, or less under a short tombstone window. */
    private final long aliveEvery;

    // ------------------------------------------------------------------ leave (io.god.cluster.Drain)

    /**
     * Starts leaving the ring (idempotent): null when LEAVING or LEFT now, else why it cannot (still
     * joining, or the last member holding data).
     */
    public synchronized String leave() {
        if (state == State.JOINING) {
            return "the node is still joining the ring";
        }
        if (state == State.STALE) {
            return "the node is STALE (" + staleReason + "); decide first with POST /admin/stale-decision";
        }
        if (state == State.CATCHING_UP) {
            return "the node is still catching up with the ring; retry when it is ACTIVE";
        }
        if (state == State.ACTIVE) {
            String refused = drain.start();
            if (refused != null) {
                return refused;
            }
            state = State.LEAVING;
            syncs.execute(this::drainStep);
        }
        return null;
    }

    /** Cancels a leave before the node has left the ring: false when it has (LEFT or about to be). */
    public synchronized boolean cancelLeave() {
        if (state == State.LEFT || state == State.LEAVING && !drain.cancel()) {
            return false;
        }
        if (state == State.LEAVING) {
            state = State.ACTIVE;
        }
        return true;
    }

    /** One drain step while LEAVING (the sync executor runs it every ring interval). */
    public void drainStep() {
        if (closed || state != State.LEAVING) {
            return;
        }
        if (drain.step()) {
            synchronized (this) {
                if (state == State.LEAVING) {
                    state = State.LEFT;
                }
            }
        }
    }

    public io.god.cluster.Drain drain() {
        return drain;
    }

    public io.god.cluster.Quarantine quarantine() {
        return quarantine;
    }

    /**
     * One cleaning pass (the sync loop runs it after each round once this node's neighbourhood in the
     * ring has been stable for a few intervals); returns the entries removed.
     */
    public long cleanPass() {
        if (closed || cleaner == null || state != State.ACTIVE || membership.neighbourhoodStableTicks() < 3) {
            return 0;
        }
        try {
            return cleaner.pass();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cleaning pass failed: " + e);
            return 0;
        }
    }

    /** One migration check (the sync loop runs it after cleaning); the new position or null. */
    public byte[] migratePass() {
        if (closed || migrator == null || state != State.ACTIVE) {
            return null;
        }
        try {
            byte[] moved = migrator.pass();
            if (moved != null) {
                lastMigrateAt = clock.nanos();
            }
            return moved;
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "migration check failed: " + e);
            return null;
        }
    }

    /**
     * Where this node serves HTTP ({@code http://host:port}, null = nowhere), as {@link Ops#INFO}
     * tells peers: the Quarkus app sets it once its HTTP server is up.
     */
    public void httpAddress(java.util.function.Supplier<String> address) {
        this.httpAddress = address;
    }

    /** Where this node serves HTTP ({@code http://host:port}), null when nowhere or not known yet. */
    public String httpAddress() {
        return httpAddress.get();
    }

    /** Clock time (ns) of this node's last migration (a move to a new position); 0 = never. */
    public long lastMigrateAt() {
        return lastMigrateAt;
    }

    public io.god.cluster.Migrator migrator() {
        return migrator;
    }

    public io.god.cluster.Cleaner cleaner() {
        return cleaner;
    }

    public io.god.cluster.AntiEntropy antiEntropy() {
        return antiEntropy;
    }

    /** One round of background tombstone collection (the loop's body; tests may call it). */
    public void collectGarbage() {
        if (closed) {
            return;
        }
        try {
            store.collectGarbage(settings.gcBudget());
            if (quarantine != null) {
                quarantine.recordCollected(); // kept across restarts even without a snapshot since
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "tombstone collection failed: " + e);
        }
        persistLastTimestamp();
    }

    /**
     * Records the newest write timestamp in the data directory (each loop round and at close), so a
     * restart after a crash whose clock stepped back still stamps later writes after the old ones.
     */
    private void persistLastTimestamp() {
        synchronized (timestampLock) {
            // the newest stamp this node's data carries, even beyond the bound: a restart reports it
            long last = Math.max(timestamps.last(), timestamps.newestSeen());
            if (last <= persistedTimestamp || store.metadata().isEmpty()) {
                return;
            }
            try {
                store.metadata().get().putLong(LAST_TIMESTAMP, last);
                persistedTimestamp = last;
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "could not record the last timestamp: " + e);
            }
        }
    }


    // ------------------------------------------------------------------ accessors

    public NodeSettings settings() {
        return settings;
    }

    public NanoClock clock() {
        return clock;
    }

    public Store store() {
        return store;
    }

    /** What recovery of the data directory found (null in memory). */
    public RecoveryReport recovery() {
        return recovery;
    }

    /**
     * The data lost records to damage under {@code god.persistence.on-corruption=repair} (at this start
     * or an earlier one: {@code repair-pending.meta}) and the ring has not restored them yet. Such a
     * node founds no ring by itself (it waits for another member), stays CATCHING_UP (not ready) until
     * every range it holds had a clean exchange, and answers no read from its own copy: reads go to a
     * replica that serves them, or fail with 503.
     */
    public boolean awaitsRepair() {
        return awaitsRepair;
    }

    public Timestamps timestamps() {
        return timestamps;
    }

    /** Data stamped beyond the skew bound found at start (null when none). */
    public FutureStamps futureStamps() {
        return futureStamps;
    }

    /** What this node reports as it works (ring changes, peer calls, sync, clean, migrate). */
    public EventBus events() {
        return events;
    }

    /** This node's ring position (16 bytes, a copy; all zeros while it has none yet). */
    public byte[] position() {
        byte[] p = position;
        return p == null ? new byte[POSITION_SIZE] : p.clone();
    }

    /** Ring membership (this node's view). */
    public Membership membership() {
        return membership;
    }

    /**
     * Removes an absent member on request (POST /admin/remove-member; {@link Membership#remove}) and tells
     * the members of the view. Returns the removed entry, or null when no expected member has that name.
     */
    public Member removeMember(String addressOrPosition) {
        return membershipLink.remove(addressOrPosition);
    }

    /** Routing and replication. */
    public Cluster cluster() {
        return cluster;
    }

    public Transport transport() {
        return transport;
    }

    /** The node's TLS material ({@code god.tls.*}; the RESP server uses it too), or null without TLS. */
    public io.god.transport.NodeTls tls() {
        return tls;
    }

    /** The address peers and clients use ({@code god.node.advertise}). */
    public String address() {
        return settings.advertise();
    }

    public State state() {
        return state;
    }

    /**
     * Ready for traffic: not closed, a ring member, ACTIVE, and the initial sync with its successors
     * done (a one-node ring or N=1 has nothing to sync).
     */
    public boolean ready() {
        return !closed && state == State.ACTIVE && membership.ring().byAddress(address()) != null
                && (initialSync || membership.ring().size() <= 1 || settings.redundancy() == 1);
    }

    public boolean closed() {
        return closed;
    }

    /** Clock reading at start, in nanoseconds since the epoch. */
    public long startedAt() {
        return startedAt;
    }

    public Duration uptime() {
        return Duration.ofNanos(Math.max(0, clock.nanos() - startedAt));
    }

    /** Stops the loops and closes persistence (syncing the log); idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        recordAlive(true); // a clean stop of an in-sync member: a whole ring stopped together keeps its data
        closed = true;
        state = State.LEFT;
        loops.shutdownNow();
        syncs.shutdownNow();
        timers.shutdownNow();
        if (pauseBeats != null) {
            pauseBeats.shutdownNow();
        }
        if (transport != null) {
            transport.close();
        }
        if (tls != null) {
            tls.close();
        }
        try {
            loops.awaitTermination(10, TimeUnit.SECONDS);
            syncs.awaitTermination(10, TimeUnit.SECONDS);
            timers.awaitTermination(10, TimeUnit.SECONDS);
            if (vertx != null) {
                vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, "closing the transport: " + e);
        }
        handlers.shutdownNow();
        persistLastTimestamp();
        if (quarantine != null) {
            quarantine.recordCollected();
        }
        store.close();
        LOG.log(System.Logger.Level.INFO, "god node stopped: " + settings.advertise());
    }

}
