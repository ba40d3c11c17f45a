package io.god.persist;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The kinds of damage the audit inflicted on data directories, applied to a closed directory. Each
 * needs a directory with a snapshot whose earlier logs were deleted and at least three logs from the
 * newest snapshot on (restarts start new logs); {@link #inflict} fails loudly when that is not so.
 */
public enum Damages {
    /** One byte flipped in the middle of the largest log recovery reads (valid records follow it). */
    FLIP_MID_LOG,
    /** The newest log overwritten with random bytes of the same length. */
    GARBAGE_NEWEST_LOG,
    /** Every snapshot deleted (the logs before them were deleted when they were written). */
    DELETE_ALL_SNAPSHOTS,
    /** A log between the newest snapshot and the newest log deleted. */
    DELETE_MIDDLE_LOG,
    /** Every snapshot cut to half its length. */
    TRUNCATE_SNAPSHOTS,
    /** Every log and snapshot deleted; the metadata (position, lastAliveAt, manifest) kept. */
    DELETE_DATA_KEEP_METADATA;

    /**
     * Fills dir (through a DurableTree) so every kind applies: snapshots 2 and 3 (log 1 deleted), then
     * logs 3..6 (three restarts). Values and tombstones; returns the tree as written.
     */
    public static io.god.tree.TreeState populate(Path dir) {
        PersistenceOptions o = new PersistenceOptions(FsyncPolicy.NO, 0, 2);
        long ts = 1;
        io.god.tree.TreeState written;
        try (DurableTree d = DurableTree.open(dir, tree(), o)) {
            for (int i = 0; i < 40; i++) {
                d.put(key(i), value(i), ts++);
            }
            for (int i = 0; i < 10; i++) {
                d.delete(key(i), ts++);
            }
            d.snapshot();
            for (int i = 40; i < 60; i++) {
                d.put(key(i), value(i), ts++);
            }
            d.snapshot();
            for (int i = 60; i < 70; i++) {
                d.put(key(i), value(i), ts++);
            }
            written = d.state();
        }
        for (int round = 0; round < 3; round++) {
            try (DurableTree d = DurableTree.open(dir, tree(), o)) {
                for (int i = 0; i < 15; i++) {
                    int k = 70 + round * 15 + i;
                    d.put(key(k), value(k), ts++);
                }
                for (int i = 0; i < 3; i++) {
                    d.delete(key(10 + round * 3 + i), ts++);
                }
                written = d.state();
            }
        }
        return written;
    }

    static io.god.tree.Tree tree() {
        return new io.god.tree.Tree(() -> 1_000_000L, java.time.Duration.ofDays(365));
    }

    static byte[] key(int i) {
        return ("key-" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    static byte[] value(int i) {
        return ("value-" + i + "-" + "x".repeat(i % 17)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Data files by name (sorted: by sequence number). */
    public static TreeMap<String, Path> files(Path dir, String ext) throws IOException {
        TreeMap<String, Path> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> p.getFileName().toString().endsWith("." + ext)).forEach(p -> out.put(p.getFileName().toString(), p));
        }
        return out;
    }

    /** The logs from the newest snapshot's sequence number on (all logs when there is no snapshot). */
    public static List<String> logsFromNewestSnapshot(Path dir) throws IOException {
        TreeMap<String, Path> snaps = files(dir, "snap");
        String from = snaps.isEmpty() ? "" : snaps.lastKey().replace(".snap", ".log");
        return files(dir, "log").keySet().stream().filter(n -> n.compareTo(from) >= 0).toList();
    }

    /** Damages dir; returns the names of the files it changed or removed. */
    public List<String> inflict(Path dir, long seed) throws IOException {
        Random rnd = new Random(seed);
        TreeMap<String, Path> logs = files(dir, "log");
        TreeMap<String, Path> snaps = files(dir, "snap");
        List<String> touched = new ArrayList<>();
        switch (this) {
            case FLIP_MID_LOG -> {
                String from = snaps.isEmpty() ? "" : snaps.lastKey().replace(".snap", ".log");
                Path largest = logs.tailMap(from).values().stream().max((a, b) -> Long.compare(size(a), size(b)))
                        .orElseThrow();
                byte[] bytes = Files.readAllBytes(largest);
                require(bytes.length > 200, "a log with records: " + logs.keySet());
                bytes[bytes.length / 2] ^= 0x20;
                Files.write(largest, bytes);
                touched.add(largest.getFileName().toString());
            }
            case GARBAGE_NEWEST_LOG -> {
                Path newest = logs.lastEntry().getValue();
                byte[] bytes = new byte[(int) size(newest)];
                require(bytes.length > 100, "a newest log with records: " + logs.keySet());
                rnd.nextBytes(bytes);
                Files.write(newest, bytes);
                touched.add(newest.getFileName().toString());
            }
            case DELETE_ALL_SNAPSHOTS -> {
                require(!snaps.isEmpty() && !logs.containsKey(FileNames.log(1)), "a snapshot that replaced log 1: "
                        + snaps.keySet() + " " + logs.keySet());
                for (Path p : snaps.values()) {
                    Files.delete(p);
                    touched.add(p.getFileName().toString());
                }
            }
            case DELETE_MIDDLE_LOG -> {
                List<String> after = logsFromNewestSnapshot(dir);
                require(after.size() >= 3, "three logs from the newest snapshot on: " + snaps.keySet() + " " + logs.keySet());
                String middle = after.get(after.size() - 2);
                Files.delete(logs.get(middle));
                touched.add(middle);
            }
            case TRUNCATE_SNAPSHOTS -> {
                require(!snaps.isEmpty() && !logs.containsKey(FileNames.log(1)), "a snapshot that replaced log 1");
                for (Path p : snaps.values()) {
                    byte[] bytes = Files.readAllBytes(p);
                    Files.write(p, java.util.Arrays.copyOf(bytes, bytes.length / 2));
                    touched.add(p.getFileName().toString());
                }
            }
            case DELETE_DATA_KEEP_METADATA -> {
                for (Path p : logs.values()) {
                    Files.delete(p);
                    touched.add(p.getFileName().toString());
                }
                for (Path p : snaps.values()) {
                    Files.delete(p);
                    touched.add(p.getFileName().toString());
                }
                require(!touched.isEmpty(), "data files");
            }
        }
        return touched;
    }

    /** Every file in dir (recursively) with its bytes, to show that nothing changed. */
    public static TreeMap<String, String> fingerprint(Path dir) throws IOException {
        TreeMap<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                if (p.getFileName().toString().equals(FileNames.LOCK)) {
                    continue;
                }
                out.put(dir.relativize(p).toString(), java.util.HexFormat.of().formatHex(
                        java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p))));
            }
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void require(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("the directory does not have " + what);
        }
    }
}
