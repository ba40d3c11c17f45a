package io.god.persist;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * The file-system calls persistence makes, and nothing else: {@link NioDisk} runs them on the real
 * disk, {@link SimulatedDisk} in memory with torn writes and lost unsynced data, so the deterministic
 * simulation can crash nodes at any point.
 *
 * <p>Durability model (that of POSIX): bytes written to a file survive a crash only after
 * {@link AppendFile#sync()}; a created, renamed or deleted name survives only after
 * {@link #syncDirectory(Path)} of its directory.
 */
public interface Disk {

    /** Creates dir and its missing parents. */
    void createDirectories(Path dir) throws IOException;

    boolean isDirectory(Path path);

    boolean exists(Path path);

    /** Names (not paths) of the entries of dir. */
    List<String> list(Path dir) throws IOException;

    /** Creates (or empties) file and opens it for appending. */
    AppendFile create(Path file) throws IOException;

    /** Reads a whole file from its beginning. */
    InputStream read(Path file) throws IOException;

    long size(Path file) throws IOException;

    /** Cuts file to size bytes and syncs it. */
    void truncate(Path file, long size) throws IOException;

    /** Atomically replaces to with from. */
    void rename(Path from, Path to) throws IOException;

    /** Deletes file if it exists. */
    void delete(Path file) throws IOException;

    /** Makes the creations, renames and deletions in dir durable. */
    void syncDirectory(Path dir) throws IOException;

    /**
     * Takes an exclusive lock on lockFile (created if needed); returns null when another process or
     * another open in this process holds it. Closing the handle releases the lock.
     */
    Closeable tryLock(Path lockFile) throws IOException;

    /** A file open for appending. Not safe for concurrent writes; sync may run beside a write. */
    interface AppendFile extends Closeable {

        /** Appends all remaining bytes of buf. */
        void write(ByteBuffer buf) throws IOException;

        /** Makes everything written so far durable (fsync). */
        void sync() throws IOException;

        long size() throws IOException;

        /** Cuts the file back to size (undoing a failed, partial append). */
        void truncate(long size) throws IOException;
    }
}
