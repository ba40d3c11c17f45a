package io.god.persist;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Testing only ({@code god.testing.fail-fsync}): another {@link Disk} whose fsyncs — of a file, of a
 * directory, and the sync of {@link #truncate(Path, long)} — fail with an IOException while a trigger
 * file exists, as a dying disk's would (EIO). Everything else passes through. The fault campaign's
 * {@code fsync-fail} nemesis creates the trigger in a node's data directory to see the node stop
 * acknowledging writes. The trigger is looked up on the real file system at each fsync (one stat).
 */
public final class FsyncFaultDisk implements Disk {

    private final Disk disk;
    private final Path trigger;

    public FsyncFaultDisk(Disk disk, Path trigger) {
        this.disk = disk;
        this.trigger = trigger;
    }

    public Path trigger() {
        return trigger;
    }

    private void check(Path what) throws IOException {
        if (Files.exists(trigger)) {
            throw new IOException("fsync of " + what + " failed: Input/output error (injected: " + trigger + " exists)");
        }
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        disk.createDirectories(dir);
    }

    @Override
    public boolean isDirectory(Path path) {
        return disk.isDirectory(path);
    }

    @Override
    public boolean exists(Path path) {
        return disk.exists(path);
    }

    @Override
    public List<String> list(Path dir) throws IOException {
        return disk.list(dir);
    }

    @Override
    public AppendFile create(Path file) throws IOException {
        AppendFile f = disk.create(file);
        return new AppendFile() {
            @Override
            public void write(ByteBuffer buf) throws IOException {
                f.write(buf);
            }

            @Override
            public void sync() throws IOException {
                check(file);
                f.sync();
            }

            @Override
            public long size() throws IOException {
                return f.size();
            }

            @Override
            public void truncate(long size) throws IOException {
                f.truncate(size);
            }

            @Override
            public void close() throws IOException {
                f.close();
            }
        };
    }

    @Override
    public InputStream read(Path file) throws IOException {
        return disk.read(file);
    }

    @Override
    public long size(Path file) throws IOException {
        return disk.size(file);
    }

    @Override
    public void truncate(Path file, long size) throws IOException {
        check(file);
        disk.truncate(file, size);
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        disk.rename(from, to);
    }

    @Override
    public void delete(Path file) throws IOException {
        disk.delete(file);
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        check(dir);
        disk.syncDirectory(dir);
    }

    @Override
    public Closeable tryLock(Path lockFile) throws IOException {
        return disk.tryLock(lockFile);
    }
}
