package io.god.node;

import io.god.events.EventBus;
import io.god.persist.DurableTree;
import io.god.persist.MetadataStore;
import io.god.time.NanoClock;
import io.god.tree.Tree;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The one bootstrap of a god node, framework-free: from {@link NodeSettings} it assembles the tree
 * (durable when a data directory is set, otherwise in memory), the node's identity (its ring
 * position, persisted in the data directory), the timestamp source and the background loops
 * (tombstone collection; persistence runs its own fsync loop). The Quarkus app, multi-node tests and
 * later the simulator start nodes through {@link #start}; {@link #close} stops everything.
 *
 * <p>Today a node is a one-node ring: it owns and holds its whole tree. The ring and cluster issues
 * add membership, replication and sync behind the same class.
 */
public final class GodNode implements AutoCloseable {

    /** Metadata name of the persisted ring position (16 bytes). */
    public static final String POSITION = "position";
    /** Metadata name of the newest write timestamp at the last clean shutdown. */
    public static final String LAST_TIMESTAMP = "last-timestamp";
    public static final int POSITION_SIZE = 16;

    private static final System.Logger LOG = System.getLogger(GodNode.class.getName());

    public enum State { JOINING, ACTIVE, LEAVING, LEFT }

    private final NodeSettings settings;
    private final NanoClock clock;
    private final Store store;
    private final Timestamps timestamps;
    private final byte[] position;
    private final ScheduledExecutorService loops;
    private final long startedAt;
    private final EventBus events = new EventBus();
    private volatile State state = State.ACTIVE;
    private volatile boolean closed;
    private final Object timestampLock = new Object();
    private long persistedTimestamp; // guarded by timestampLock

    private GodNode(NodeSettings settings, NanoClock clock, Store store, Timestamps timestamps, byte[] position) {
        this.settings = settings;
        this.clock = clock;
        this.store = store;
        this.timestamps = timestamps;
        this.position = position;
        this.startedAt = clock.nanos();
        String name = "god-gc-" + settings.advertise();
        this.loops = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
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
        Tree tree = new Tree(clock, settings.tombstoneWindow());
        Timestamps timestamps = new Timestamps(clock);
        Store store;
        byte[] position;
        if (settings.inMemory()) {
            store = Store.inMemory(tree);
            position = randomPosition();
        } else {
            store = Store.durable(DurableTree.open(settings.dataDir(), tree, settings.persistenceOptions()));
            try {
                MetadataStore meta = store.metadata().orElseThrow();
                Optional<byte[]> stored = meta.get(POSITION).filter(p -> p.length == POSITION_SIZE);
                if (stored.isPresent()) {
                    position = stored.get();
                } else {
                    position = randomPosition();
                    meta.put(POSITION, position);
                }
                meta.getLong(LAST_TIMESTAMP).ifPresent(timestamps::advanceTo);
            } catch (RuntimeException e) {
                store.close();
                throw e;
            }
        }
        GodNode node = new GodNode(settings, clock, store, timestamps, position);
        node.startLoops();
        LOG.log(System.Logger.Level.INFO, "god node started: " + settings + " position "
                + HexFormat.of().formatHex(position));
        return node;
    }

    private void startLoops() {
        long every = Math.max(1, settings.gcInterval().toMillis());
        loops.scheduleWithFixedDelay(this::collectGarbage, every, every, TimeUnit.MILLISECONDS);
    }

    /** One round of background tombstone collection (the loop's body; tests may call it). */
    public void collectGarbage() {
        if (closed) {
            return;
        }
        try {
            store.collectGarbage(settings.gcBudget());
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
            long last = timestamps.last();
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

    private static byte[] randomPosition() {
        byte[] p = new byte[POSITION_SIZE];
        new SecureRandom().nextBytes(p);
        return p;
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

    public Timestamps timestamps() {
        return timestamps;
    }

    /** What this node reports as it works (ring changes, peer calls, sync, clean, migrate). */
    public EventBus events() {
        return events;
    }

    /** This node's ring position (16 bytes, a copy). */
    public byte[] position() {
        return position.clone();
    }

    /** The address peers and clients use ({@code god.node.advertise}). */
    public String address() {
        return settings.advertise();
    }

    public State state() {
        return state;
    }

    /** Started, recovered and not closed. */
    public boolean ready() {
        return !closed && state == State.ACTIVE;
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
        closed = true;
        state = State.LEFT;
        loops.shutdownNow();
        try {
            loops.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        persistLastTimestamp();
        store.close();
        LOG.log(System.Logger.Level.INFO, "god node stopped: " + settings.advertise());
    }

}
