package io.god.persist;

import io.god.tree.Tree;
import io.god.tree.TreeState;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;

/**
 * A {@link Tree} whose every change is logged before it is acknowledged, with automatic snapshots and
 * crash-safe recovery. Writes go through this class (the same operations as {@link Tree}); reads go
 * to {@link #state()} as usual.
 *
 * <p>Write path, under one writer lock: compute the new version, append its record(s) to the log
 * (an IO error or full disk throws: nothing is applied or acknowledged), publish the version; then,
 * outside the lock, wait for the fsync if the policy is {@link FsyncPolicy#ALWAYS} (concurrent
 * writers share one fsync). A returned write is acknowledged. Writes that lose under last-write-wins
 * are not logged (replaying them would change nothing), but still wait for what the log holds so far.
 *
 * <p>Snapshots: once the logs since the newest snapshot exceed the threshold, the writer lock is
 * taken just long enough to rotate to a new log (seq n) and take the current version, which then
 * holds exactly the records of logs below n. A background thread writes it to {@code n.snap.tmp},
 * fsyncs, renames to {@code n.snap}, fsyncs the directory and only then deletes what the retention
 * no longer needs. Writes never wait for a snapshot.
 *
 * <p>Recovery ({@link Recovery}): the newest snapshot that loads completely (a corrupt one is renamed
 * {@code .corrupt} and the previous one is tried), then every log numbered from it on, in order,
 * checked end to end against the {@link DataManifest}; a torn tail is cut off with a warning, and
 * corruption or a gap is handled by the {@link CorruptionPolicy} (by default the open fails). After a
 * recovery that lost records a snapshot is taken at once, so the next recovery starts clean.
 */
public final class DurableTree implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(DurableTree.class.getName());

    private final Disk disk;
    private final Path dir;
    private final Tree tree;
    private final PersistenceOptions options;
    private final Closeable dirLock;
    private final WriteAheadLog wal;

    /**
     * What this directory tells the node's supervisor: the log's fsync loop (everysec; under the other policies
     * only its failure), failed once an fsync failed.
     */
    public java.util.List<io.god.supervise.Heartbeat> heartbeats() {
        return java.util.List.of(wal.heartbeat);
    }
    private final MetadataStore metadata;
    private final RecoveryReport recovery;
    private final ExecutorService snapshotter;

    private final ReentrantLock writeLock = new ReentrantLock();
    // guarded by writeLock
    private long bytesSinceSnapshot;
    private long nextSnapshotAt;
    private CompletableFuture<Void> runningSnapshot;
    private boolean closed;
    private volatile long snapshotsWritten;
    private volatile PersistenceObserver observer = PersistenceObserver.NONE;
    /** The log the data started in from an empty tree (see {@link DataManifest}); guarded by writeLock. */
    private long origin;

    private DurableTree(Disk disk, Path dir, Tree tree, PersistenceOptions options, Closeable dirLock,
                        WriteAheadLog wal, RecoveryReport recovery, long bytesSinceSnapshot) {
        this.disk = disk;
        this.dir = dir;
        this.tree = tree;
        this.options = options;
        this.dirLock = dirLock;
        this.wal = wal;
        this.recovery = recovery;
        this.metadata = new MetadataStore(disk, dir);
        this.bytesSinceSnapshot = bytesSinceSnapshot;
        this.nextSnapshotAt = options.snapshotThresholdBytes();
        this.snapshotter = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "god-snapshot");
            t.setDaemon(true);
            return t;
        });
    }

    /** Opens (recovering) the data directory on the real disk. */
    /**
     * Metadata written when {@code repair} started the data with records lost to damage: the data is
     * incomplete until the ring restored it (the node deletes it once it caught up). Its value is the
     * newest timestamp known complete.
     */
    public static final String REPAIR_PENDING = "repair-pending";

    public static DurableTree open(Path dir, Tree tree, PersistenceOptions options) {
        return open(NioDisk.INSTANCE, dir, tree, options);
    }

    /**
     * Locks dir, recovers its content into tree (a fresh one, with no other writers) and goes on
     * logging. Throws {@link PersistenceException} naming the path and the problem when the directory is
     * unusable.
     */
    public static DurableTree open(Disk disk, Path dir, Tree tree, PersistenceOptions options) {
        if (tree.state() != TreeState.EMPTY) {
            throw new IllegalArgumentException("recovery needs a fresh, empty tree");
        }
        Closeable lock = DataDirectory.lock(disk, dir);
        try {
            Recovery.Recovered r = Recovery.recover(disk, dir, tree, options);
            WriteAheadLog wal = WriteAheadLog.open(disk, dir, r.nextSeq(), options.fsync());
            DurableTree d = new DurableTree(disk, dir, tree, options, lock, wal, r.report(), r.bytesSinceSnapshot());
            try {
                d.origin = r.origin();
                new DataManifest(d.origin, r.nextSeq()).write(d.metadata);
            } catch (RuntimeException e) {
                d.close();
                throw e;
            }
            LOG.log(System.Logger.Level.INFO, dir + ": " + r.report());
            if (r.report().lostRecords()) {
                if (options.onCorruption() == CorruptionPolicy.REPAIR) {
                    // before the snapshot hides the damage: the data stays incomplete until the ring restored
                    // it, across restarts (the node deletes the marker once it caught up)
                    d.metadata.putLong(REPAIR_PENDING, r.report().completeUpTo());
                }
                try {
                    d.snapshot(); // the gap or damage is behind this snapshot: the next recovery starts clean
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, dir + ": could not snapshot after a recovery that lost "
                            + "records (the next start finds the same damage again): " + e);
                }
            }
            return d;
        } catch (IOException | RuntimeException e) {
            try {
                lock.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof PersistenceException pe) {
                throw pe;
            }
            throw new PersistenceException("could not recover data directory " + dir + ": " + DataDirectory.describe(e), e);
        }
    }

    // ------------------------------------------------------------------ reads and accessors

    public TreeState state() {
        return tree.state();
    }

    /** The underlying tree, for reads and garbage collection (never write to it directly). */
    public Tree tree() {
        return tree;
    }

    public Path directory() {
        return dir;
    }

    public MetadataStore metadata() {
        return metadata;
    }

    public RecoveryReport recovery() {
        return recovery;
    }

    public PersistenceOptions options() {
        return options;
    }

    /** Tells {@code o} about appends, fsyncs and snapshots from now on (the node's metrics). */
    public void observe(PersistenceObserver o) {
        observer = o;
        wal.observer = o;
    }

    private long snapshotBytes(String name) {
        try {
            return disk.size(dir.resolve(name));
        } catch (IOException | RuntimeException e) {
            return 0; // only for the metrics
        }
    }

    /** Bytes of the logs and snapshots in the data directory (the dataBytes of /admin/status). */
    public long diskBytes() {
        try {
            long sum = 0;
            for (FileNames.DataFile f : Recovery.dataFiles(disk, dir)) {
                sum += disk.size(dir.resolve(f.name()));
            }
            return sum;
        } catch (IOException e) {
            throw new PersistenceException("could not list " + dir + ": " + DataDirectory.describe(e), e);
        }
    }

    /** Snapshots completed since open. */
    public long snapshotsWritten() {
        return snapshotsWritten;
    }

    // ------------------------------------------------------------------ writes

    public boolean put(byte[] key, byte[] value, long timestamp) {
        return apply(Record.put(key, value, timestamp));
    }

    public boolean delete(byte[] key, long timestamp) {
        return apply(Record.delete(key, timestamp));
    }

    public boolean subPut(byte[] key, byte[] subKey, byte[] value, long timestamp) {
        return apply(Record.subPut(key, subKey, value, timestamp));
    }

    public boolean subDelete(byte[] key, byte[] subKey, long timestamp) {
        return apply(Record.subDelete(key, subKey, timestamp));
    }

    public boolean subClear(byte[] key, long timestamp) {
        return apply(Record.subClear(key, timestamp));
    }

    public boolean subSetConfiguration(byte[] key, Map<String, String> conf, long timestamp) {
        return apply(Record.subSetConfiguration(key, conf, timestamp));
    }

    public boolean setConfiguration(Map<String, String> conf, long timestamp) {
        return apply(Record.setConfiguration(conf, timestamp));
    }

    public boolean clear(long timestamp) {
        return apply(Record.clear(timestamp));
    }

    /** Sets one key of a sub tree's configuration; logged as the resulting whole configuration. */
    public boolean subConfigure(byte[] key, String name, String value, long timestamp) {
        byte[] k = key.clone();
        return commit(List.of(new Change(s -> s.subConfigure(k, name, value, timestamp),
                (before, after) -> Record.subSetConfiguration(k, after.sub(k).configuration(), timestamp))));
    }

    /** Sets one key of the tree's configuration; logged as the resulting whole configuration. */
    public boolean configure(String name, String value, long timestamp) {
        return commit(List.of(new Change(s -> s.configure(name, value, timestamp),
                (before, after) -> Record.setConfiguration(after.configuration(), timestamp))));
    }

    /** Applies one logged write (replication, sync, replay of another node's records). */
    public boolean apply(Record r) {
        tree.state().warm(r.key()); // the misses on the way down outside the write lock
        return commit(List.of(Change.of(r)));
    }

    /** Applies several writes as one tree version and one log append (e.g. a batch received by sync). */
    public boolean applyAll(List<Record> records) {
        List<Change> changes = new ArrayList<>(records.size());
        for (Record r : records) {
            changes.add(Change.of(r));
        }
        return commit(changes);
    }

    /** Collects expired markers (not logged: replay recreates them and they are collected again). */
    public boolean collectGarbage(int budget) {
        return tree.collectGarbage(budget);
    }

    /** Whether each write waits for its fsync ({@link FsyncPolicy#ALWAYS}). */
    public boolean fsyncsEveryWrite() {
        return options.fsync() == FsyncPolicy.ALWAYS;
    }

    /** Forces the log to disk now, whatever the policy. */
    public void sync() {
        wal.sync();
    }

    private record Change(UnaryOperator<TreeState> op, BiFunction<TreeState, TreeState, Record> logged) {
        static Change of(Record r) {
            return new Change(r::applyTo, (b, a) -> r);
        }
    }

    private boolean commit(List<Change> changes) {
        long lsn;
        boolean changed;
        writeLock.lock();
        try {
            if (closed) {
                throw new PersistenceException("data directory " + dir + " is closed");
            }
            TreeState before = tree.state();
            TreeState cur = before;
            ByteArrayOutputStream frames = null;
            int records = 0;
            for (Change c : changes) {
                TreeState next = c.op.apply(cur);
                if (next != cur) {
                    if (frames == null) {
                        frames = new ByteArrayOutputStream(64);
                    }
                    frames.writeBytes(c.logged.apply(cur, next).frame());
                    records++;
                    cur = next;
                }
            }
            if (frames == null) {
                lsn = wal.writtenLsn();
                changed = false;
            } else {
                byte[] bytes = frames.toByteArray();
                lsn = wal.append(bytes, records);
                TreeState after = cur;
                tree.update(s -> s == before ? after : replay(changes, s));
                bytesSinceSnapshot += bytes.length;
                changed = true;
                maybeStartSnapshot();
            }
        } finally {
            writeLock.unlock();
        }
        if (options.fsync() == FsyncPolicy.ALWAYS) {
            wal.awaitDurable(lsn);
        }
        return changed;
    }

    /** The changes on a version that moved meanwhile (a concurrent garbage collection). */
    private static TreeState replay(List<Change> changes, TreeState s) {
        for (Change c : changes) {
            s = c.op.apply(s);
        }
        return s;
    }

    // ------------------------------------------------------------------ snapshots

    private void maybeStartSnapshot() {
        if (options.snapshotThresholdBytes() > 0 && runningSnapshot == null && bytesSinceSnapshot > nextSnapshotAt) {
            startSnapshot();
        }
    }

    /** Under the writer lock: rotate, take the version, hand it to the snapshot thread. */
    private CompletableFuture<Void> startSnapshot() {
        long seq;
        try {
            seq = wal.rotate();
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, dir + ": could not start a snapshot (log rotation failed): " + e);
            nextSnapshotAt = bytesSinceSnapshot + Math.max(1, options.snapshotThresholdBytes());
            return CompletableFuture.failedFuture(e);
        }
        recordNewestLog(seq);
        TreeState state = tree.state();
        long collected = tree.collectedUpTo();
        long covered = bytesSinceSnapshot;
        CompletableFuture<Void> f = new CompletableFuture<>();
        runningSnapshot = f;
        snapshotter.execute(() -> runSnapshot(seq, state, collected, covered, f));
        return f;
    }

    /** Under the writer lock, after a rotation: the manifest names the new log (behind is safe, ahead never). */
    private void recordNewestLog(long seq) {
        try {
            new DataManifest(origin, seq).write(metadata);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, dir + ": could not record log " + seq + " in the manifest: " + e);
        }
    }

    private void runSnapshot(long seq, TreeState state, long collected, long covered, CompletableFuture<Void> f) {
        long t0 = System.nanoTime();
        String name = FileNames.snap(seq);
        try {
            long records = Snapshots.write(disk, dir, name, state, collected);
            observer.snapshotWritten(System.nanoTime() - t0, snapshotBytes(name), records);
            try {
                deleteObsolete();
            } catch (IOException | RuntimeException e) {
                // the snapshot is durable; the files left over are deleted after the next one
                LOG.log(System.Logger.Level.WARNING, dir + ": could not delete files older than " + name + ": " + e);
            }
            LOG.log(System.Logger.Level.INFO, dir + ": snapshot " + name + " written (" + records + " records) in "
                    + (System.nanoTime() - t0) / 1_000_000 + " ms");
            writeLock.lock();
            try {
                bytesSinceSnapshot -= covered;
                nextSnapshotAt = options.snapshotThresholdBytes();
                runningSnapshot = null;
                snapshotsWritten++;
            } finally {
                writeLock.unlock();
            }
            f.complete(null);
        } catch (Throwable e) {
            LOG.log(System.Logger.Level.WARNING, dir + ": snapshot " + name + " failed (the logs are kept): " + e);
            writeLock.lock();
            try {
                nextSnapshotAt = bytesSinceSnapshot + Math.max(1, options.snapshotThresholdBytes());
                runningSnapshot = null;
            } finally {
                writeLock.unlock();
            }
            f.completeExceptionally(e);
        }
    }

    /** Keeps the newest retained snapshots and the logs from the oldest of them on; deletes the rest. */
    private void deleteObsolete() throws IOException {
        List<FileNames.DataFile> files = Recovery.dataFiles(disk, dir);
        List<FileNames.DataFile> snaps = files.stream().filter(FileNames.DataFile::snapshot)
                .sorted(Comparator.comparingLong(FileNames.DataFile::seq).reversed()).toList();
        if (snaps.isEmpty()) {
            return;
        }
        long keepFrom = snaps.get(Math.min(options.retainedSnapshots(), snaps.size()) - 1).seq();
        for (FileNames.DataFile f : files) {
            if (f.seq() < keepFrom) {
                disk.delete(dir.resolve(f.name()));
            }
        }
    }

    /**
     * Takes a snapshot now (after any running one) and returns when it is durable and older files are
     * deleted; throws if it failed.
     */
    public void snapshot() {
        awaitSnapshot();
        CompletableFuture<Void> mine;
        writeLock.lock();
        try {
            if (closed) {
                throw new PersistenceException("data directory " + dir + " is closed");
            }
            mine = runningSnapshot != null ? runningSnapshot : startSnapshot();
        } finally {
            writeLock.unlock();
        }
        try {
            mine.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PersistenceException("interrupted while waiting for a snapshot", e);
        } catch (ExecutionException e) {
            throw new PersistenceException("snapshot of " + dir + " failed: " + e.getCause(), e.getCause());
        }
    }

    /** Waits for a running snapshot (if any) without starting one. */
    public void awaitSnapshot() {
        CompletableFuture<Void> running;
        writeLock.lock();
        try {
            running = runningSnapshot;
        } finally {
            writeLock.unlock();
        }
        if (running != null) {
            running.handle((v, e) -> null).join();
        }
    }

    /** Sub directory of the data directory that holds quarantined data, one directory per event. */
    public static final String QUARANTINE = "quarantine";

    /**
     * {@link #quarantine(Path)} into {@code quarantine/<name>/}, then removes the oldest quarantine
     * directories beyond {@code keep} (names sort by time). Returns the directory the data went to.
     */
    public Path quarantine(String name, int keep) {
        Path root = dir.resolve(QUARANTINE);
        Path target = root.resolve(name);
        quarantine(target);
        try {
            List<String> all = new ArrayList<>(disk.list(root));
            all.sort(Comparator.naturalOrder());
            for (int i = 0; i < all.size() - keep; i++) {
                Path old = root.resolve(all.get(i));
                for (String f : disk.list(old)) {
                    disk.delete(old.resolve(f));
                }
                disk.delete(old);
                LOG.log(System.Logger.Level.INFO, dir + ": removed the old quarantine " + old + " (keeping " + keep + ")");
            }
            disk.syncDirectory(root);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, dir + ": could not remove old quarantine directories: " + e);
        }
        return target;
    }

    /**
     * Stale-data quarantine: moves every log and snapshot into {@code target} (created; a sub directory
     * of the data directory, so the moves are renames) and goes on with an empty tree and a fresh log.
     * Nothing is deleted. Returns how many files were moved.
     */
    public int quarantine(Path target) {
        while (true) {
            awaitSnapshot();
            writeLock.lock();
            try {
                if (closed) {
                    throw new PersistenceException("data directory " + dir + " is closed");
                }
                if (runningSnapshot != null) {
                    continue; // one started meanwhile: wait for it too
                }
                long seq = wal.rotate(); // later writes go to log seq, which stays
                origin = seq; // the data starts again from an empty tree in log seq
                recordNewestLog(seq);
                disk.createDirectories(target);
                int moved = 0;
                for (FileNames.DataFile f : Recovery.dataFiles(disk, dir)) {
                    if (f.seq() < seq) {
                        disk.rename(dir.resolve(f.name()), target.resolve(f.name()));
                        moved++;
                    }
                }
                disk.syncDirectory(target);
                disk.syncDirectory(dir);
                tree.restore(TreeState.EMPTY, 0);
                bytesSinceSnapshot = 0;
                nextSnapshotAt = options.snapshotThresholdBytes();
                return moved;
            } catch (IOException e) {
                throw new PersistenceException("could not move the data of " + dir + " to " + target + ": "
                        + DataDirectory.describe(e), e);
            } finally {
                writeLock.unlock();
            }
        }
    }

    /** Stops taking writes, waits for a running snapshot, syncs the log and releases the directory. */
    @Override
    public void close() {
        writeLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
        } finally {
            writeLock.unlock();
        }
        awaitSnapshot();
        snapshotter.shutdown();
        try {
            snapshotter.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            wal.close();
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, dir + ": closing the log failed: " + e);
        } finally {
            try {
                dirLock.close();
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, dir + ": releasing the lock failed: " + e);
            }
        }
    }
}
