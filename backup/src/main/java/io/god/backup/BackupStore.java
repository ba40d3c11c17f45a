package io.god.backup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * Where a backup's files live: named blobs written whole (a partial write never shows under its
 * name). {@link Dir} is a local directory (a PVC, a disk); {@link S3Store} an S3 bucket.
 */
public interface BackupStore extends AutoCloseable {

    /** Writes {@code name} whole, replacing it. */
    void put(String name, byte[] bytes);

    /** The bytes of {@code name}, empty when there is none. */
    Optional<byte[]> get(String name);

    /** Where the store is, for messages. */
    String describe();

    /** Releases connections (an S3 client); a directory holds none. */
    @Override
    default void close() {
    }

    /** The store named by a {@code --to}/{@code --from} argument: {@code s3://bucket/prefix}, else a directory. */
    static BackupStore of(String location, S3Store.Options s3) {
        if (location.startsWith(S3Store.SCHEME)) {
            return S3Store.open(location, s3);
        }
        return new Dir(Path.of(location));
    }

    /** A local directory: each blob a file, written to a temporary name and renamed. */
    record Dir(Path root) implements BackupStore {

        @Override
        public void put(String name, byte[] bytes) {
            Path target = root.resolve(name);
            try {
                Files.createDirectories(target.getParent());
                Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
                Files.write(tmp, bytes);
                try (var ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
                    ch.force(true);
                }
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
            }
        }

        @Override
        public Optional<byte[]> get(String name) {
            try {
                return Optional.of(Files.readAllBytes(root.resolve(name)));
            } catch (NoSuchFileException e) {
                return Optional.empty();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + root.resolve(name) + ": " + e.getMessage(), e);
            }
        }

        @Override
        public String describe() {
            return root.toString();
        }
    }
}
