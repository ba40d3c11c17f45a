package io.god.tree;

import io.god.time.NanoClock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

/**
 * The mutable handle on a node's tree: an atomically published {@link TreeState}. Readers take
 * {@link #state()} and see one consistent version without ever blocking; writers are serialised by
 * one lock. Tombstones (and empty, cleared sub trees) older than the tombstone window are collected a
 * few at a time on every write and by {@link #collectGarbage(int)}, which a background loop calls so
 * that cold regions are collected too; {@link #collectedUpTo()} tells how recent a deletion this
 * tree may have forgotten.
 */
public final class Tree {

    /** Expired markers collected along with each write: keeps write latency flat. */
    static final int COLLECT_PER_WRITE = 4;

    private final NanoClock clock;
    private final long windowNanos;
    private final ReentrantLock writeLock = new ReentrantLock();
    private volatile TreeState state = TreeState.EMPTY;
    private volatile long collectedUpTo;
    /** Expired markers collected so far (tombstones, cleared sub trees), for the metrics. */
    private volatile long collectedMarkers;
    private volatile boolean held;
    private volatile long heldAt;

    public Tree(NanoClock clock, Duration tombstoneWindow) {
        if (tombstoneWindow.isNegative() || tombstoneWindow.isZero()) {
            throw new IllegalArgumentException("tombstone window must be positive, was " + tombstoneWindow);
        }
        this.clock = clock;
        this.windowNanos = tombstoneWindow.toNanos();
    }

    /** The current version: immutable, safe to read from any thread for as long as needed. */
    public TreeState state() {
        return state;
    }

    /** Expired markers collected by garbage collection since start. */
    public long collectedMarkers() {
        return collectedMarkers;
    }

    /** Newest timestamp of any tombstone or clear marker this tree has collected (0 = none). */
    public long collectedUpTo() {
        return collectedUpTo;
    }

    public boolean put(byte[] key, byte[] value, long timestamp) {
        return update(s -> s.put(key, value, timestamp));
    }

    public boolean delete(byte[] key, long timestamp) {
        return update(s -> s.delete(key, timestamp));
    }

    public boolean subPut(byte[] key, byte[] subKey, byte[] value, long timestamp) {
        return update(s -> s.subPut(key, subKey, value, timestamp));
    }

    public boolean subDelete(byte[] key, byte[] subKey, long timestamp) {
        return update(s -> s.subDelete(key, subKey, timestamp));
    }

    public boolean subClear(byte[] key, long timestamp) {
        return update(s -> s.subClear(key, timestamp));
    }

    public boolean subConfigure(byte[] key, String name, String value, long timestamp) {
        return update(s -> s.subConfigure(key, name, value, timestamp));
    }

    public boolean subSetConfiguration(byte[] key, Map<String, String> conf, long timestamp) {
        return update(s -> s.subSetConfiguration(key, conf, timestamp));
    }

    public boolean configure(String name, String value, long timestamp) {
        return update(s -> s.configure(name, value, timestamp));
    }

    public boolean setConfiguration(Map<String, String> conf, long timestamp) {
        return update(s -> s.setConfiguration(conf, timestamp));
    }

    /** Clears the whole tree as of timestamp (everything written later survives). */
    public boolean clear(long timestamp) {
        return update(s -> s.clear(timestamp));
    }

    /**
     * Applies a change (possibly several writes) as one new version; readers see all of it or none.
     * Returns whether the version changed.
     */
    public boolean update(UnaryOperator<TreeState> change) {
        lockWrites();
        try {
            TreeState before = state;
            TreeState after = change.apply(before);
            if (after == before) {
                return false;
            }
            state = collect(after, COLLECT_PER_WRITE);
            return true;
        } finally {
            writeLock.unlock();
        }
    }

    /** Spins briefly before parking: a write holds the lock about a microsecond, a park and wake-up cost more. */
    private void lockWrites() {
        for (int i = 0; i < 64; i++) {
            if (writeLock.tryLock()) {
                return;
            }
            Thread.onSpinWait();
        }
        writeLock.lock();
    }

    /** Collects up to budget expired markers anywhere in the tree; returns how many versions changed. */
    public boolean collectGarbage(int budget) {
        writeLock.lock();
        try {
            TreeState before = state;
            state = collect(before, budget);
            return state != before;
        } finally {
            writeLock.unlock();
        }
    }

    /** Replaces the whole content (recovery from disk); the caller guarantees no concurrent writers. */
    public void restore(TreeState restored, long restoredCollectedUpTo) {
        writeLock.lock();
        try {
            state = restored;
            collectedUpTo = Math.max(collectedUpTo, restoredCollectedUpTo);
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Holds (true) or resumes tombstone collection. Held while the live ring is smaller than its
     * expected membership (DESIGN §5): a replica that is away may still hold a value whose tombstone
     * is the only thing that keeps it from coming back.
     */
    public void holdCollection(boolean hold) {
        if (hold && !held) {
            heldAt = clock.nanos();
        }
        this.held = hold;
    }

    /**
     * Markers older than this (ns) are expired: collected, never sent by sync, never a difference.
     * Now minus the window; while collection is held, frozen at the moment it was held — markers that
     * expire during the hold are still sent, so a returning replica receives them.
     */
    public long collectionCutoff() {
        long now = clock.nanos();
        return (held ? Math.min(now, heldAt) : now) - windowNanos;
    }

    /** Whether collection is held ({@link #holdCollection}). */
    public boolean collectionHeld() {
        return held;
    }

    private TreeState collect(TreeState s, int budget) {
        if (held || s.minDue() == Long.MAX_VALUE) {
            return s; // nothing can be due: no clock read on the write path of a tree without markers
        }
        long cutoff = clock.nanos() - windowNanos;
        return s.collect(cutoff, budget, ts -> {
            collectedMarkers++; // under the writer lock
            if (ts > collectedUpTo) {
                collectedUpTo = ts;
            }
        });
    }
}
