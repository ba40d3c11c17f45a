package io.god.chaos;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The nodes' small disks: each data directory is a tmpfs of {@link #SIZE_MIB} MiB that the campaign mounts
 * (under its own output directory, so nothing else is touched) and unmounts at teardown; a later run
 * unmounts what a crashed one left there. {@link #fill} takes every free byte with a filler file (writes
 * then hit ENOSPC), {@link #free} deletes it.
 */
final class Disks {

    static final int SIZE_MIB = 64;
    static final String FILLER = "chaos-filler";

    private Disks() {
    }

    static void mount(Path dir) throws IOException {
        Files.createDirectories(dir);
        Sh.run("mount", "-t", "tmpfs", "-o", "size=" + SIZE_MIB + "m,mode=0700", "tmpfs", dir.toAbsolutePath().toString());
    }

    /** Unmounts every mount at or under {@code root} (deepest first); answers what it unmounted. */
    static List<String> unmountUnder(Path root) throws IOException {
        String prefix = root.toAbsolutePath().normalize().toString();
        List<String> found = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("/proc/mounts"))) {
            String[] f = line.split(" ");
            if (f.length > 1 && (f[1].equals(prefix) || f[1].startsWith(prefix + "/"))) {
                found.add(f[1]);
            }
        }
        found.sort(java.util.Comparator.reverseOrder());
        for (String m : found) {
            Sh.tryRun("umount", "-l", m);
        }
        return found;
    }

    /** Writes a filler file into {@code dir} until its file system is full; answers the bytes taken. */
    static long fill(Path dir) throws IOException {
        long written = 0;
        try (FileChannel ch = FileChannel.open(dir.resolve(FILLER), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            for (int chunk = 1 << 20; chunk >= 512; chunk /= 2) {
                ByteBuffer b = ByteBuffer.allocate(chunk);
                try {
                    while (true) {
                        b.clear();
                        written += ch.write(b);
                    }
                } catch (IOException full) {
                    // no room for a chunk this size: try a smaller one
                }
            }
        }
        return written;
    }

    static void free(Path dir) throws IOException {
        Files.deleteIfExists(dir.resolve(FILLER));
    }
}
