package io.god.persist;

import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * An in-memory {@link Disk} with the POSIX durability model, for tests and the deterministic
 * simulation. File contents survive {@link #crash()} only up to their last sync (plus, with torn
 * writes on, a random prefix of what was written after it); created, renamed and deleted names only
 * as of the last sync of their directory. Faults: a byte budget after which writes fail like a full
 * disk, and failing fsyncs. Handles opened before a crash fail afterwards, like a dead process's.
 * A node should use {@link #process()}: a view whose every call fails after the next crash, so
 * threads of a "dead" node (a snapshot still being written) cannot touch the disk any more.
 */
public final class SimulatedDisk implements Disk {

    private static final class Data {
        byte[] bytes = new byte[0];
        int length;
        byte[] durable = new byte[0];

        void append(ByteBuffer b, int n) {
            if (length + n > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(length + n, bytes.length * 2 + 64));
            }
            b.get(bytes, length, n);
            length += n;
        }

        byte[] current() {
            return Arrays.copyOf(bytes, length);
        }
    }

    private final Random random;
    private final boolean tornWrites;
    private final Set<Path> dirs = new HashSet<>();
    private Map<Path, Data> live = new HashMap<>();
    private final Map<Path, Data> durableNames = new HashMap<>();
    private final Set<Path> locks = new HashSet<>();
    private long generation;
    private long writeBudget = -1;
    private boolean failSyncs;

    public SimulatedDisk(long seed, boolean tornWrites) {
        this.random = new Random(seed);
        this.tornWrites = tornWrites;
    }

    /** Writes fail with "No space left on device" once this many more bytes were written (-1 = never). */
    public synchronized void setWriteBudget(long bytes) {
        writeBudget = bytes;
    }

    public synchronized void setFailSyncs(boolean fail) {
        failSyncs = fail;
    }

    /**
     * Power loss: keeps only synced contents (plus a random prefix of the unsynced tail when torn
     * writes are on) and the names as of their directory's last sync; drops locks and open handles.
     */
    public synchronized void crash() {
        generation++;
        locks.clear();
        Map<Path, Data> after = new HashMap<>();
        Set<Data> done = new HashSet<>();
        for (Map.Entry<Path, Data> e : durableNames.entrySet()) {
            Data d = e.getValue();
            if (done.add(d)) {
                byte[] cur = d.current();
                byte[] kept = d.durable;
                if (tornWrites && cur.length > kept.length
                        && Arrays.equals(cur, 0, kept.length, kept, 0, kept.length)) {
                    kept = Arrays.copyOf(cur, kept.length + random.nextInt(cur.length - kept.length + 1));
                }
                d.bytes = kept.clone();
                d.length = kept.length;
                d.durable = kept.clone();
            }
            after.put(e.getKey(), d);
        }
        live = after;
    }

    /** A view of this disk for one process lifetime: every call fails once {@link #crash()} ran. */
    public synchronized Disk process() {
        long gen = generation;
        SimulatedDisk disk = this;
        return new Disk() {
            private void alive() throws IOException {
                synchronized (disk) {
                    if (gen != generation) {
                        throw new IOException("the simulated process crashed");
                    }
                }
            }

            private void aliveUnchecked() {
                synchronized (disk) {
                    if (gen != generation) {
                        throw new IllegalStateException("the simulated process crashed");
                    }
                }
            }

            @Override
            public void createDirectories(Path dir) throws IOException {
                synchronized (disk) {
                    alive();
                    disk.createDirectories(dir);
                }
            }

            @Override
            public boolean isDirectory(Path path) {
                synchronized (disk) {
                    aliveUnchecked();
                    return disk.isDirectory(path);
                }
            }

            @Override
            public boolean exists(Path path) {
                synchronized (disk) {
                    aliveUnchecked();
                    return disk.exists(path);
                }
            }

            @Override
            public List<String> list(Path dir) throws IOException {
                synchronized (disk) {
                    alive();
                    return disk.list(dir);
                }
            }

            @Override
            public AppendFile create(Path file) throws IOException {
                synchronized (disk) {
                    alive();
                    return disk.create(file);
                }
            }

            @Override
            public InputStream read(Path file) throws IOException {
                synchronized (disk) {
                    alive();
                    return disk.read(file);
                }
            }

            @Override
            public long size(Path file) throws IOException {
                synchronized (disk) {
                    alive();
                    return disk.size(file);
                }
            }

            @Override
            public void truncate(Path file, long size) throws IOException {
                synchronized (disk) {
                    alive();
                    disk.truncate(file, size);
                }
            }

            @Override
            public void rename(Path from, Path to) throws IOException {
                synchronized (disk) {
                    alive();
                    disk.rename(from, to);
                }
            }

            @Override
            public void delete(Path file) throws IOException {
                synchronized (disk) {
                    alive();
                    disk.delete(file);
                }
            }

            @Override
            public void syncDirectory(Path dir) throws IOException {
                synchronized (disk) {
                    alive();
                    disk.syncDirectory(dir);
                }
            }

            @Override
            public Closeable tryLock(Path lockFile) throws IOException {
                synchronized (disk) {
                    alive();
                    return disk.tryLock(lockFile);
                }
            }
        };
    }

    /** Bytes of file that would survive a crash now (without torn writes); -1 if it would not exist. */
    public synchronized long durableSize(Path file) {
        Data d = durableNames.get(file);
        return d == null ? -1 : d.durable.length;
    }

    /** Names currently visible in dir (for tests). */
    public synchronized List<String> names(Path dir) {
        return list0(dir);
    }

    @Override
    public synchronized void createDirectories(Path dir) {
        for (Path p = dir; p != null; p = p.getParent()) {
            dirs.add(p);
        }
    }

    @Override
    public synchronized boolean isDirectory(Path path) {
        return dirs.contains(path);
    }

    @Override
    public synchronized boolean exists(Path path) {
        return dirs.contains(path) || live.containsKey(path);
    }

    @Override
    public synchronized List<String> list(Path dir) throws IOException {
        if (!dirs.contains(dir)) {
            throw new NoSuchFileException(dir.toString());
        }
        return list0(dir);
    }

    private List<String> list0(Path dir) {
        List<String> out = new ArrayList<>();
        for (Path p : live.keySet()) {
            if (dir.equals(p.getParent())) {
                out.add(p.getFileName().toString());
            }
        }
        out.sort(null);
        return out;
    }

    @Override
    public synchronized AppendFile create(Path file) throws IOException {
        if (!dirs.contains(file.getParent())) {
            throw new NoSuchFileException(file.toString());
        }
        if (dirs.contains(file)) {
            throw new FileAlreadyExistsException(file + " is a directory");
        }
        Data d = new Data();
        live.put(file, d);
        long gen = generation;
        return new AppendFile() {
            @Override
            public void write(ByteBuffer buf) throws IOException {
                synchronized (SimulatedDisk.this) {
                    check(gen, file);
                    int n = buf.remaining();
                    if (writeBudget >= 0 && n > writeBudget) {
                        d.append(buf, (int) writeBudget);
                        writeBudget = 0;
                        throw new IOException("No space left on device (simulated)");
                    }
                    if (writeBudget >= 0) {
                        writeBudget -= n;
                    }
                    d.append(buf, n);
                }
            }

            @Override
            public void sync() throws IOException {
                synchronized (SimulatedDisk.this) {
                    check(gen, file);
                    if (failSyncs) {
                        throw new IOException("fsync failed (simulated)");
                    }
                    d.durable = d.current();
                }
            }

            @Override
            public long size() throws IOException {
                synchronized (SimulatedDisk.this) {
                    check(gen, file);
                    return d.length;
                }
            }

            @Override
            public void truncate(long size) throws IOException {
                synchronized (SimulatedDisk.this) {
                    check(gen, file);
                    d.length = (int) Math.min(d.length, size);
                }
            }

            @Override
            public void close() {
            }
        };
    }

    private void check(long gen, Path file) throws IOException {
        if (gen != generation) {
            throw new IOException("handle of " + file + " is from before a crash");
        }
    }

    private Data data(Path file) throws IOException {
        Data d = live.get(file);
        if (d == null) {
            throw new NoSuchFileException(file.toString());
        }
        return d;
    }

    @Override
    public synchronized InputStream read(Path file) throws IOException {
        return new ByteArrayInputStream(data(file).current());
    }

    @Override
    public synchronized long size(Path file) throws IOException {
        return data(file).length;
    }

    @Override
    public synchronized void truncate(Path file, long size) throws IOException {
        Data d = data(file);
        d.length = (int) Math.min(d.length, size);
        d.durable = d.current();
    }

    @Override
    public synchronized void rename(Path from, Path to) throws IOException {
        Data d = data(from);
        live.remove(from);
        live.put(to, d);
    }

    @Override
    public synchronized void delete(Path file) {
        live.remove(file);
    }

    @Override
    public synchronized void syncDirectory(Path dir) throws IOException {
        if (failSyncs) {
            throw new IOException("fsync of " + dir + " failed (simulated)");
        }
        durableNames.keySet().removeIf(p -> dir.equals(p.getParent()));
        for (Map.Entry<Path, Data> e : live.entrySet()) {
            if (dir.equals(e.getKey().getParent())) {
                durableNames.put(e.getKey(), e.getValue());
            }
        }
    }

    @Override
    public synchronized Closeable tryLock(Path lockFile) throws IOException {
        if (!dirs.contains(lockFile.getParent())) {
            throw new NoSuchFileException(lockFile.toString());
        }
        if (!locks.add(lockFile)) {
            return null;
        }
        long gen = generation;
        return () -> {
            synchronized (SimulatedDisk.this) {
                if (gen == generation) {
                    locks.remove(lockFile);
                }
            }
        };
    }
}
