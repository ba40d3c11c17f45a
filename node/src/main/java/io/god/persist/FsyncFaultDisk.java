package io.god.persist;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Testing only ({@code god.testing.fail-fsync}): another {@link Disk} whose fsyncs — of a file, of a
 * directory, and the sync of {@link #truncate(Path, long)} — fail with an IOException while a trigger
 * file exists, as a dying disk's would (EIO). Everything else passes through. The fault campaign's
 * {@code fsync-fail} nemesis creates the trigger in a node's data directory to see the node stop
 * acknowledging writes. The trigger is looked up on the real file system at each fsync (one stat).
 */
public final class FsyncFaultDisk extends DelegatingDisk {

    private final Path trigger;

    public FsyncFaultDisk(Disk disk, Path trigger) {
        super(disk);
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
    public AppendFile create(Path path) throws IOException {
        return new DelegatingFile(disk.create(path)) {
            @Override
            public void sync() throws IOException {
                check(path);
                super.sync();
            }
        };
    }

    @Override
    public void truncate(Path file, long size) throws IOException {
        check(file);
        disk.truncate(file, size);
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        check(dir);
        disk.syncDirectory(dir);
    }
}
