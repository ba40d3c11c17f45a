package io.god.persist;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** {@link Disk} on the real file system through java.nio. */
public final class NioDisk implements Disk {

    public static final NioDisk INSTANCE = new NioDisk();

    @Override
    public void createDirectories(Path dir) throws IOException {
        Files.createDirectories(dir);
    }

    @Override
    public boolean isDirectory(Path path) {
        return Files.isDirectory(path);
    }

    @Override
    public boolean exists(Path path) {
        return Files.exists(path);
    }

    @Override
    public List<String> list(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(p -> out.add(p.getFileName().toString()));
        }
        return out;
    }

    @Override
    public AppendFile create(Path file) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        return new AppendFile() {
            @Override
            public void write(ByteBuffer buf) throws IOException {
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
            }

            @Override
            public void sync() throws IOException {
                ch.force(false);
            }

            @Override
            public long size() throws IOException {
                return ch.size();
            }

            @Override
            public void truncate(long size) throws IOException {
                ch.truncate(size);
                ch.position(size);
            }

            @Override
            public void close() throws IOException {
                ch.close();
            }
        };
    }

    @Override
    public InputStream read(Path file) throws IOException {
        return Files.newInputStream(file);
    }

    @Override
    public long size(Path file) throws IOException {
        return Files.size(file);
    }

    @Override
    public void truncate(Path file, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(size);
            ch.force(true);
        }
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void delete(Path file) throws IOException {
        Files.deleteIfExists(file);
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // some platforms cannot open a directory for fsync; Linux can, so report it there
            if (System.getProperty("os.name", "").toLowerCase().contains("linux")) {
                throw e;
            }
        }
    }

    /**
     * Lock files held by this JVM: POSIX drops every lock a process holds on a file when any of its
     * descriptors of that file is closed, so a second open in this JVM must not even open the file.
     */
    private static final java.util.Set<Path> HELD = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Override
    public Closeable tryLock(Path lockFile) throws IOException {
        Path key = lockFile.toAbsolutePath().normalize();
        if (!HELD.add(key)) {
            return null;
        }
        FileChannel ch;
        FileLock lock;
        try {
            ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException | RuntimeException e) {
            HELD.remove(key);
            throw e;
        }
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException | RuntimeException e) {
            ch.close();
            HELD.remove(key);
            throw e;
        }
        if (lock == null) {
            ch.close();
            HELD.remove(key);
            return null;
        }
        FileLock held = lock;
        return () -> {
            try {
                held.release();
            } finally {
                ch.close();
                HELD.remove(key);
            }
        };
    }
}
