package io.god.cluster;

import io.god.node.Store;
import io.god.time.NanoClock;
import io.god.transport.Awaiter;
import io.god.transport.Transport;
import io.god.wire.Ops;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Stale-data quarantine, "the 24 h rule" (DESIGN §7). Deleted data can only come back when a node
 * missed a deletion and the ring has since collected that deletion's tombstone. So a node records
 * {@code lastAliveAt} in its data directory ({@link #alive}: the last time it was an in-sync ring
 * member), and before a node with data joins, it asks the seeds for their {@code collectedUpTo}
 * ({@link Ops#COLLECTED}, answered by ring members only): when any is later than its
 * {@code lastAliveAt}, its data is moved to {@code quarantine/<time>/} (never deleted; at most
 * {@code god.quarantine.keep} such directories are kept) and it joins empty at a new position.
 *
 * <p>The check is symmetric: the request carries the caller's own lastAliveAt and collectedUpTo, so
 * the member answering finds out when it is the stale one (a stale first seed that founded a ring
 * with old data is quarantined by the first member that joins it; {@link #serve}).
 *
 * <p>A whole ring stopped together keeps its data: no member can have collected a tombstone newer
 * than what every node saw before it stopped. A node that reaches no member waits (as its join does),
 * except the founder (first seed), which founds a ring with its data when nobody answers.
 */
public final class Quarantine {

    /** Metadata name of lastAliveAt (8 bytes, ns since the epoch). */
    public static final String LAST_ALIVE_AT = "last-alive-at";
    /** Metadata name of the newest collectedUpTo recorded (8 bytes; snapshots alone may lag behind). */
    public static final String COLLECTED_UP_TO = "collected-up-to";
    /** Metadata name of the time of the last quarantine (8 bytes). */
    public static final String QUARANTINED_AT = "quarantined-at";

    private static final System.Logger LOG = System.getLogger(Quarantine.class.getName());
    private static final DateTimeFormatter DIR_NAME =
            DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss.SSSSSSSSS'Z'").withZone(ZoneOffset.UTC);

    private final String address;
    private final List<String> seeds;
    private final Transport transport;
    private final Store store;
    private final NanoClock clock;
    private final Duration timeout;
    private final int keep;
    private final Runnable forgetPosition;
    private volatile boolean passed;
    private volatile long lastAliveAt;
    private volatile long quarantinedAt;
    private volatile Path lastQuarantine;
    private final AtomicLong quarantines = new AtomicLong();
    private final Awaiter awaiter;

    /**
     * @param forgetPosition run after a quarantine: the node forgets its persisted position and takes a
     *                       new one when it joins
     */
    public Quarantine(String address, List<String> seeds, Transport transport, Store store, NanoClock clock,
                      Duration timeout, int keep, Runnable forgetPosition) {
        this(address, seeds, transport, store, clock, timeout, keep, forgetPosition, Awaiter.BLOCKING);
    }

    /** As above, waiting for the seeds' answers through {@code awaiter}. */
    public Quarantine(String address, List<String> seeds, Transport transport, Store store, NanoClock clock,
                      Duration timeout, int keep, Runnable forgetPosition, Awaiter awaiter) {
        this.awaiter = awaiter;
        this.address = address;
        this.seeds = List.copyOf(seeds);
        this.transport = transport;
        this.store = store;
        this.clock = clock;
        this.timeout = timeout;
        this.keep = keep;
        this.forgetPosition = forgetPosition;
        this.lastAliveAt = store.metadata().flatMap(m -> m.getLong(LAST_ALIVE_AT)).orElse(0L);
        this.quarantinedAt = store.metadata().flatMap(m -> m.getLong(QUARANTINED_AT)).orElse(0L);
        this.collected = store.metadata().flatMap(m -> m.getLong(COLLECTED_UP_TO)).orElse(0L);
    }

    private volatile long collected;

    /**
     * The newest deletion this node's ring has forgotten, as far as this node knows: its store's
     * collectedUpTo, or the one recorded before a restart (a restart without a snapshot since the
     * collection must not forget it).
     */
    public long collectedUpTo() {
        return Math.max(store.collectedUpTo(), collected);
    }

    /** Records the store's collectedUpTo in the data directory when it advanced. */
    public void recordCollected() {
        long c = store.collectedUpTo();
        if (c <= collected || store.metadata().isEmpty()) {
            return;
        }
        try {
            store.metadata().get().putLong(COLLECTED_UP_TO, c);
            collected = c;
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, address + ": could not record collectedUpTo: " + e);
        }
    }

    /** The persisted lastAliveAt (ns; 0 = never recorded). */
    public long lastAliveAt() {
        return lastAliveAt;
    }

    /** When this data directory's data was last quarantined (ns; 0 = never; survives restarts). */
    public long quarantinedAt() {
        return quarantinedAt;
    }

    /** Quarantines since this process started. */
    public long quarantines() {
        return quarantines.get();
    }

    /** Where the last quarantine of this process moved the data (null = none). */
    public Path lastQuarantine() {
        return lastQuarantine;
    }

    /** Records that the node is an in-sync ring member as of {@code now} (ns). */
    public void alive(long now) {
        if (now <= lastAliveAt || store.metadata().isEmpty()) {
            return;
        }
        try {
            store.metadata().get().putLong(LAST_ALIVE_AT, now);
            lastAliveAt = now;
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, address + ": could not record lastAliveAt: " + e);
        }
    }

    /**
     * After a recovery that lost records: the data is complete only up to {@code completeUpTo} (ns), so
     * lastAliveAt may not claim more, or a tombstone the ring collected after it could not be noticed
     * as missed (the lost part may have held it). Lowers, never raises; 0 forgets it.
     */
    public static void lowerLastAliveAt(io.god.persist.MetadataStore meta, long completeUpTo) {
        long current = meta.getLong(LAST_ALIVE_AT).orElse(0L);
        if (current <= completeUpTo) {
            return;
        }
        if (completeUpTo <= 0) {
            meta.delete(LAST_ALIVE_AT);
        } else {
            meta.putLong(LAST_ALIVE_AT, completeUpTo);
        }
        LOG.log(System.Logger.Level.WARNING, "records were lost to damage: lastAliveAt lowered from "
                + Instant.ofEpochSecond(0, current) + " to " + (completeUpTo <= 0 ? "(none)"
                : Instant.ofEpochSecond(0, completeUpTo)) + ", the newest timestamp known complete");
    }

    /** Forgets lastAliveAt (the node left: a restart is a new, empty node). */
    public void forget() {
        store.metadata().ifPresent(m -> m.delete(LAST_ALIVE_AT));
        lastAliveAt = 0;
    }

    /**
     * Called every ring interval while the node is joining, before it tries to join: true when it may
     * join now. Asks the seeds for their collectedUpTo (bounded by the RPC deadline) and quarantines
     * the data if a member collected a tombstone newer than lastAliveAt.
     */
    public boolean check() {
        return check(List.of());
    }

    /**
     * As {@link #check()}, also asking {@code alsoAsk}: members that probed this node while it joins
     * (the seeds may all be down or joining themselves; simulation seed 2197), or, on a rejoin while
     * running, the members of its view. The outcome holds until {@link #reset()}: a node runs the
     * check again every time it (re)joins (DESIGN §7: one (re)join path), not once per process.
     */
    public boolean check(List<String> alsoAsk) {
        return check(alsoAsk, seeds.isEmpty() || seeds.get(0).equals(address));
    }

    /**
     * As above; {@code mayGoAlone}: true when this node may go on when nobody answers (the founder
     * of a ring, when joining); false keeps it waiting for a member's answer.
     */
    public boolean check(List<String> alsoAsk, boolean mayGoAlone) {
        if (passed) {
            return true;
        }
        if (!holdsData()) {
            passed = true; // nothing that could be stale
            return true;
        }
        List<String> others = new ArrayList<>();
        List<String> ask = new ArrayList<>(seeds);
        ask.addAll(alsoAsk);
        for (String s : ask) {
            if (!s.equals(address) && !others.contains(s)) {
                others.add(s);
            }
        }
        byte[] request = encodeCheck();
        List<CompletableFuture<byte[]>> calls = new ArrayList<>();
        for (String s : others) {
            calls.add(transport.call(s, Ops.COLLECTED, request, timeout));
        }
        long newest = -1;
        String from = null;
        for (int i = 0; i < calls.size(); i++) {
            try {
                byte[] r = awaiter.await(calls.get(i), Awaiter.limitFor(timeout));
                if (r.length == 8 || r.length == 24) { // an older node answers its collectedUpTo only
                    long c = ByteBuffer.wrap(r).getLong(r.length == 8 ? 0 : 8);
                    if (c > newest) {
                        newest = c;
                        from = others.get(i);
                    }
                }
            } catch (RuntimeException e) {
                // not a member (yet) or not reachable
            }
        }
        if (newest < 0) {
            passed = mayGoAlone; // the founder may found a ring with its data; others wait for a member
            return mayGoAlone;
        }
        synchronized (this) { // one decision at a time: a member's check may find this node stale meanwhile (serve)
            if (holdsData() && newest > lastAliveAt) {
                if (staleDecision != null && staleDecision.apply(newest)) {
                    pending(from, newest);
                    return false; // N=1: kept aside (not joining) until an explicit decision
                }
                quarantine(from, newest);
            }
        }
        passed = true;
        return true;
    }

    /** The check runs again on the next {@link #check} (the node (re)joins). */
    public void reset() {
        passed = false;
    }

    /** Whether the check passed since the last {@link #reset()}. */
    public boolean passed() {
        return passed;
    }

    /** Whether this node holds data that could be stale (a durable store with live entries). */
    public boolean holdsData() {
        return store.durable() && store.state().realSize() > 0;
    }

    /** This node's side of a symmetric check: lastAliveAt, collectedUpTo, holds data (3 × 8 bytes). */
    byte[] encodeCheck() {
        return ByteBuffer.allocate(24).putLong(lastAliveAt).putLong(collectedUpTo())
                .putLong(holdsData() ? 1 : 0).array();
    }

    /**
     * The member's side of {@link Ops#COLLECTED}. An empty request (an older node) gets the 8-byte
     * collectedUpTo. A symmetric request carries the caller's lastAliveAt, collectedUpTo and whether it
     * holds data: when the caller collected tombstones newer than this node's lastAliveAt, this node is
     * the stale one — even the founder, even when ACTIVE (DESIGN §7) — and its data is quarantined now,
     * before the caller (which joins on this answer) can exchange any data with it.
     */
    public byte[] serve(byte[] request) {
        if (request.length < 24) {
            return encodeCollected(collectedUpTo());
        }
        ByteBuffer in = ByteBuffer.wrap(request);
        in.getLong(); // the caller's lastAliveAt: its own check decides about the caller
        long theirCollected = in.getLong();
        byte[] reply = encodeCheck();
        synchronized (this) {
            if (holdsData() && theirCollected > lastAliveAt) {
                if (staleDecision != null && staleDecision.apply(theirCollected)) {
                    pending("(a member that contacted this node)", theirCollected);
                    return reply; // N=1: kept aside for an explicit decision (not exchanged meanwhile)
                }
                quarantine("(a member that contacted this node)", theirCollected);
                onQuarantined.run();
            }
        }
        return reply;
    }

    /**
     * Called (with the newest collectedUpTo that makes this node stale) before a quarantine decided
     * while running; true = the node keeps its data for an explicit decision instead (N=1).
     */
    public void staleDecision(java.util.function.LongPredicate decide) {
        this.staleDecision = decide::test;
    }

    /** Told after a quarantine decided while running (the node empties and catches up). */
    public void onQuarantined(Runnable r) {
        this.onQuarantined = r;
    }

    private volatile java.util.function.Function<Long, Boolean> staleDecision;
    private String pendingFrom; // guarded by this
    private long pendingCollected; // guarded by this

    private void pending(String from, long collected) {
        pendingFrom = from;
        pendingCollected = Math.max(pendingCollected, collected);
    }

    /** Whether a stale-data finding waits for an explicit decision ({@link #decide}). */
    public synchronized boolean decisionPending() {
        return pendingCollected > 0;
    }

    /**
     * The explicit decision about data found stale while it holds the only copy (N=1, DESIGN §7):
     * {@code keep} declares the data current (lastAliveAt becomes the ring's collectedUpTo, so the
     * check passes; deletions the ring collected meanwhile may come back), otherwise the data is
     * quarantined as usual. The check counts as passed afterwards.
     *
     * @throws IllegalStateException when no decision is pending
     */
    public synchronized void decide(boolean keep) {
        if (pendingCollected == 0) {
            throw new IllegalStateException("no stale-data decision is pending on " + address);
        }
        if (keep) {
            long was = lastAliveAt;
            alive(pendingCollected);
            LOG.log(System.Logger.Level.WARNING, address + ": stale data KEPT on request (lastAliveAt "
                    + (was == 0 ? "(none)" : Instant.ofEpochSecond(0, was)) + " raised to the ring's collectedUpTo "
                    + Instant.ofEpochSecond(0, pendingCollected) + ")");
        } else {
            quarantine(pendingFrom, pendingCollected);
        }
        pendingFrom = null;
        pendingCollected = 0;
        passed = true;
    }
    private volatile Runnable onQuarantined = () -> { };

    private void quarantine(String member, long collected) {
        long now = clock.nanos();
        long stale = lastAliveAt;
        String name = DIR_NAME.format(Instant.ofEpochSecond(0, now));
        Path where = store.quarantine(name, keep).orElse(null);
        // empty now, it holds nothing a deletion could have missed: what it receives from here on comes
        // from the ring, so it is "in sync" as of now (else the data it catches up with would look stale
        // to the next member that contacts it, and be quarantined again)
        long alive = Math.max(now, collected);
        store.metadata().ifPresent(m -> {
            m.putLong(QUARANTINED_AT, now);
            m.putLong(LAST_ALIVE_AT, alive);
        });
        quarantinedAt = now;
        lastAliveAt = alive;
        lastQuarantine = where;
        quarantines.incrementAndGet();
        forgetPosition.run();
        LOG.log(System.Logger.Level.WARNING, address + ": STALE DATA QUARANTINED to " + where + ": member " + member
                + " has collected tombstones up to " + Instant.ofEpochSecond(0, collected) + ", later than this node's"
                + " lastAliveAt " + (stale == 0 ? "(none)" : Instant.ofEpochSecond(0, stale)) + "; going on empty and"
                + " catching up");
    }

    /** The answer to {@link Ops#COLLECTED}: 8 bytes, big-endian. */
    public static byte[] encodeCollected(long collectedUpTo) {
        return ByteBuffer.allocate(8).putLong(collectedUpTo).array();
    }
}
