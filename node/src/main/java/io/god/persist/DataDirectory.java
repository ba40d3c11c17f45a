package io.god.persist;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;

/** Opens a data directory for one node: creates it if missing, checks it, and locks it. */
final class DataDirectory {

    private DataDirectory() {
    }

    /** Returns the held lock; throws {@link PersistenceException} naming the path and the problem. */
    static Closeable lock(Disk disk, Path dir) {
        if (disk.exists(dir) && !disk.isDirectory(dir)) {
            throw new PersistenceException("data directory " + dir + " is not a directory");
        }
        if (!disk.exists(dir)) {
            try {
                disk.createDirectories(dir);
            } catch (IOException | RuntimeException e) {
                throw new PersistenceException("data directory " + dir + " does not exist and cannot be created: "
                        + describe(e), e);
            }
        }
        Closeable lock;
        try {
            lock = disk.tryLock(dir.resolve(FileNames.LOCK));
        } catch (java.nio.file.AccessDeniedException e) {
            throw new PersistenceException("data directory " + dir + " is not writable (" + describe(e) + ")", e);
        } catch (IOException | RuntimeException e) {
            throw new PersistenceException("data directory " + dir + " is not usable: " + describe(e), e);
        }
        if (lock == null) {
            throw new PersistenceException("data directory " + dir + " is locked by another node (lock file "
                    + dir.resolve(FileNames.LOCK) + "); one node per data directory");
        }
        // the lock file may exist from an earlier run and still be writable while the directory is not
        Path probe = dir.resolve("god.probe.tmp");
        try {
            disk.create(probe).close();
            disk.delete(probe);
        } catch (IOException | RuntimeException e) {
            try {
                lock.close();
            } catch (IOException ignored) {
                // nothing more to do
            }
            throw new PersistenceException("data directory " + dir + " is not writable (" + describe(e) + ")", e);
        }
        return lock;
    }

    static String describe(Throwable e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
