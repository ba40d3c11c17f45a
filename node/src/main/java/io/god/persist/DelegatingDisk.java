package io.god.persist;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * Another {@link Disk} with every call passed through, for disks that inject one fault (a failing fsync, a full
 * disk in tests): they override the calls they change and wrap the files they open in a {@link DelegatingFile}.
 */
abstract class DelegatingDisk implements Disk {

    final Disk disk;

    DelegatingDisk(Disk disk) {
        this.disk = disk;
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
        return disk.create(file);
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
        disk.syncDirectory(dir);
    }

    @Override
    public Closeable tryLock(Path lockFile) throws IOException {
        return disk.tryLock(lockFile);
    }

    /** A file of the disk underneath with every call passed through. */
    static class DelegatingFile implements AppendFile {

        final AppendFile file;

        DelegatingFile(AppendFile file) {
            this.file = file;
        }

        @Override
        public void write(ByteBuffer buf) throws IOException {
            file.write(buf);
        }

        @Override
        public void sync() throws IOException {
            file.sync();
        }

        @Override
        public long size() throws IOException {
            return file.size();
        }

        @Override
        public void truncate(long size) throws IOException {
            file.truncate(size);
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }
}
