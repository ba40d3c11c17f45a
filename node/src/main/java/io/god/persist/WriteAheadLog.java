package io.god.persist;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The active log file: appends (by one writer at a time, the caller serialises them), group commit
 * (threads waiting for durability share one fsync) and rotation to a new file.
 *
 * <p>Positions are log sequence numbers (LSN): bytes appended since this log object was created,
 * across rotations. An fsync failure poisons the log: the state of unsynced pages is then unknown
 * (the "fsyncgate" lesson), so every later write fails until the node reopens the directory.
 */
final class WriteAheadLog implements AutoCloseable {

    static final byte[] MAGIC = "GODLOG01".getBytes(StandardCharsets.US_ASCII);
    private static final System.Logger LOG = System.getLogger(WriteAheadLog.class.getName());

    private final Disk disk;
    private final Path dir;
    private final FsyncPolicy policy;

    private final ReentrantLock mon = new ReentrantLock();
    private final Condition changed = mon.newCondition();
    private Disk.AppendFile file;
    private long seq;
    private long fileSize;
    private long writtenLsn;
    private long durableLsn;
    private boolean syncing;
    private Throwable failure;
    private boolean closed;
    private Thread syncer;
    /** Records appended since the last fsync (guarded by mon), reported with it. */
    private long unsyncedRecords;
    /** Threads in {@link #awaitDurable} whose position is not durable yet (guarded by mon). */
    private int waiting;
    /**
     * How many threads waited for one fsync lately (guarded by mon): under {@link FsyncPolicy#ALWAYS} the next
     * fsync's leader waits (at most {@link #MAX_GATHER_NANOS}) until that many are waiting, so concurrent writers
     * share one fsync instead of falling into a few staggered groups (16 writers shared 4.6 records per fsync
     * without it). A lone writer keeps it at 1 and never waits; a wait that times out lowers it by one.
     */
    private int together = 1;
    private final Condition arrived = mon.newCondition();
    /**
     * The last fsync's duration (guarded by mon): a leader gathers for at most twice this long, within bounds — the
     * writers' round trip, not the disk, sets how long they take to come back (1 ms bounds gave 8.9 records per
     * fsync at 16 writers where the round trip was ~1.2 ms).
     */
    private long lastSyncNanos;
    static final long MIN_GATHER_NANOS = 500_000;
    static final long MAX_GATHER_NANOS = 2_000_000;
    /** The node's metrics (set once after open). */
    volatile PersistenceObserver observer = PersistenceObserver.NONE;
    /**
     * For the node's supervisor: the fsync loop's beat under everysec (one iteration per second at most), under
     * the other policies no loop, only the failure. A failed fsync marks it failed, so the node's liveness goes
     * DOWN: the log refuses every write from then on, and only a restart (recovery from what is on disk, never
     * trusting the page cache) makes the node useful again.
     */
    final io.god.supervise.Heartbeat heartbeat;

    private WriteAheadLog(Disk disk, Path dir, FsyncPolicy policy) {
        this.disk = disk;
        this.dir = dir;
        this.policy = policy;
        this.heartbeat = new io.god.supervise.Heartbeat("wal-fsync",
                policy == FsyncPolicy.EVERYSEC ? java.time.Duration.ofSeconds(1) : null);
    }

    static WriteAheadLog open(Disk disk, Path dir, long seq, FsyncPolicy policy) throws IOException {
        WriteAheadLog wal = new WriteAheadLog(disk, dir, policy);
        wal.file = wal.createFile(seq);
        wal.seq = seq;
        wal.fileSize = MAGIC.length;
        if (policy == FsyncPolicy.EVERYSEC) {
            wal.syncer = new Thread(wal::syncEverySecond, "god-wal-fsync");
            wal.syncer.setDaemon(true);
            wal.syncer.start();
        }
        return wal;
    }

    private Disk.AppendFile createFile(long newSeq) throws IOException {
        Path p = dir.resolve(FileNames.log(newSeq));
        Disk.AppendFile f = disk.create(p);
        try {
            f.write(ByteBuffer.wrap(MAGIC));
            f.sync();
            disk.syncDirectory(dir);
        } catch (IOException e) {
            f.close();
            disk.delete(p);
            throw e;
        }
        return f;
    }

    long seq() {
        mon.lock();
        try {
            return seq;
        } finally {
            mon.unlock();
        }
    }

    long writtenLsn() {
        mon.lock();
        try {
            return writtenLsn;
        } finally {
            mon.unlock();
        }
    }

    /**
     * Appends framed records (the caller holds the writer lock) and returns the LSN to wait for. On an
     * IO error the partial append is cut off again, so later records never follow garbage.
     */
    long append(byte[] frames) {
        return append(frames, 1);
    }

    /** As {@link #append(byte[])}, for {@code records} framed records (counted for the metrics). */
    long append(byte[] frames, int records) {
        long t0 = System.nanoTime();
        checkUsable();
        Disk.AppendFile f = file;
        long before = fileSize;
        try {
            f.write(ByteBuffer.wrap(frames));
        } catch (IOException | RuntimeException e) {
            try {
                f.truncate(before);
            } catch (IOException | RuntimeException e2) {
                e.addSuppressed(e2);
                poison(e);
            }
            throw new PersistenceException("could not append to " + dir.resolve(FileNames.log(seq))
                    + " (write not acknowledged): " + e.getMessage(), e);
        }
        fileSize += frames.length;
        mon.lock();
        try {
            writtenLsn += frames.length;
            unsyncedRecords += records;
            return writtenLsn;
        } finally {
            mon.unlock();
            observer.appended(System.nanoTime() - t0, records);
        }
    }

    /** Returns once everything up to lsn is on disk (sharing the fsync with concurrent waiters). */
    void awaitDurable(long lsn) {
        mon.lock();
        waiting++;
        arrived.signal();
        try {
            while (durableLsn < lsn) {
                if (failure != null) {
                    throw new PersistenceException("log fsync failed earlier; write not acknowledged", failure);
                }
                if (syncing) {
                    changed.awaitUninterruptibly();
                    continue;
                }
                syncing = true;
                gather();
                Disk.AppendFile f = file;
                long target = writtenLsn;
                long records = unsyncedRecords;
                unsyncedRecords = 0;
                mon.unlock();
                Throwable err = null;
                long t0 = System.nanoTime();
                try {
                    f.sync();
                    observer.synced(System.nanoTime() - t0, records);
                } catch (IOException | RuntimeException e) {
                    err = e;
                } finally {
                    mon.lock();
                }
                lastSyncNanos = System.nanoTime() - t0;
                syncing = false;
                if (err != null) {
                    failure = err;
                    heartbeat.failed(err);
                    LOG.log(System.Logger.Level.ERROR, "fsync of the log in " + dir + " failed; refusing further writes"
                            + " and reporting liveness DOWN until the node restarts and recovers from the log", err);
                } else {
                    durableLsn = Math.max(durableLsn, target);
                }
                changed.signalAll();
            }
        } finally {
            waiting--;
            mon.unlock();
        }
    }

    /**
     * The fsync leader (holding mon) waits for as many waiters as shared an fsync lately ({@link #together}),
     * bounded by about one fsync's time; no wait while that is one (a lone writer).
     */
    private void gather() {
        if (policy != FsyncPolicy.ALWAYS) {
            return;
        }
        if (waiting < together) {
            long left = Math.min(MAX_GATHER_NANOS, Math.max(MIN_GATHER_NANOS, 2 * lastSyncNanos));
            try {
                while (waiting < together && left > 0) {
                    left = arrived.awaitNanos(left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (waiting < together) {
                together--; // fewer writers than before: expect one less next time
            }
        }
        together = Math.max(together, waiting);
    }

    /** How many waiters the next fsync's leader gathers (tests). */
    int together() {
        mon.lock();
        try {
            return together;
        } finally {
            mon.unlock();
        }
    }

    /** Forces everything written so far. */
    void sync() {
        awaitDurable(writtenLsn());
    }

    /**
     * Closes the current file (synced, whatever the policy) and continues in a new one numbered
     * seq + 1; returns the new number. The caller holds the writer lock, so nothing is appended
     * meanwhile. If the new file cannot be created the current one stays in use.
     */
    long rotate() throws IOException {
        checkUsable();
        mon.lock();
        try {
            while (syncing) {
                changed.awaitUninterruptibly();
            }
            syncing = true;
        } finally {
            mon.unlock();
        }
        Disk.AppendFile next = null;
        long nextSeq = seq + 1;
        boolean synced = false;
        try {
            // even with policy NO: a later log must never be on disk while an earlier one is not,
            // so that whatever survives a crash is a prefix of the writes (one fsync per snapshot)
            try {
                file.sync();
            } catch (IOException e) {
                poison(e);
                throw e;
            }
            synced = true;
            next = createFile(nextSeq);
            try {
                file.close();
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "closing the old log failed (it was synced): " + e);
            }
        } finally {
            mon.lock();
            try {
                if (next != null) {
                    file = next;
                    seq = nextSeq;
                    fileSize = MAGIC.length;
                }
                if (synced) {
                    durableLsn = Math.max(durableLsn, writtenLsn);
                    unsyncedRecords = 0; // made durable by the rotation's fsync
                }
                syncing = false;
                changed.signalAll();
            } finally {
                mon.unlock();
            }
        }
        return nextSeq;
    }

    private void poison(Throwable e) {
        mon.lock();
        try {
            if (failure == null) {
                failure = e;
                heartbeat.failed(e);
            }
            changed.signalAll();
        } finally {
            mon.unlock();
        }
    }

    private void checkUsable() {
        mon.lock();
        try {
            if (closed) {
                throw new PersistenceException("the log in " + dir + " is closed");
            }
            if (failure != null) {
                throw new PersistenceException("the log in " + dir + " failed earlier and takes no more writes: "
                        + failure.getMessage(), failure);
            }
        } finally {
            mon.unlock();
        }
    }

    private void syncEverySecond() {
        heartbeat.started();
        try {
            syncLoop();
        } catch (Throwable t) {
            io.god.node.OomExit.onError(t);
            heartbeat.failed(t);
            throw t;
        }
    }

    private void syncLoop() {
        while (true) {
            heartbeat.started();
            mon.lock();
            try {
                if (closed) {
                    return;
                }
                changed.await(1, TimeUnit.SECONDS);
                if (closed) {
                    return;
                }
                if (failure != null || durableLsn >= writtenLsn) {
                    continue;
                }
            } catch (InterruptedException e) {
                return;
            } finally {
                mon.unlock();
            }
            try {
                sync();
            } catch (PersistenceException e) {
                // logged by awaitDurable; writers see the failure
            }
        }
    }

    /** Syncs (whatever the policy) and closes. */
    @Override
    public void close() throws IOException {
        try {
            if (failure == null && !closed) {
                sync();
            }
        } finally {
            mon.lock();
            try {
                closed = true;
                changed.signalAll();
            } finally {
                mon.unlock();
            }
            if (syncer != null) {
                syncer.interrupt();
            }
            file.close();
        }
    }
}
