package io.god.backup;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Checks a backup: a complete manifest, and every chunk present with its sha256 and record count. */
public final class Verify {

    private Verify() {
    }

    /** The manifest when every check passes; otherwise a {@link BackupException} listing every problem. */
    public static Manifest check(BackupStore store, PrintStream out) {
        byte[] json = store.get(Manifest.FILE).orElseThrow(() -> new BackupException(store.describe()
                + " holds no complete backup (no " + Manifest.FILE + (store.get(Manifest.PROGRESS).isPresent()
                ? "; an interrupted one: finish it with backup --resume)" : ")")));
        Manifest m = Manifest.parse(json, Manifest.FILE);
        List<String> problems = new ArrayList<>();
        if (!m.complete) {
            problems.add(Manifest.FILE + " is not marked complete");
        }
        long chunks = 0;
        for (Manifest.Range r : m.ranges) {
            if (!r.complete) {
                problems.add("range " + r.index + " is not complete");
            }
            for (Manifest.Chunk c : r.chunks) {
                chunks++;
                String problem = problem(store, c);
                if (problem != null) {
                    problems.add(problem);
                }
            }
        }
        long records = m.records;
        long tombstones = m.tombstones;
        long bytes = m.bytes;
        long newest = m.newestTimestamp;
        m.total();
        if (records != m.records || tombstones != m.tombstones || bytes != m.bytes || newest != m.newestTimestamp) {
            problems.add(String.format(Locale.ROOT, "%s says %d records, %d tombstones, %d bytes, newest timestamp %d; "
                    + "its chunks add up to %d, %d, %d, %d", Manifest.FILE, records, tombstones, bytes, newest,
                    m.records, m.tombstones, m.bytes, m.newestTimestamp));
        }
        if (!problems.isEmpty()) {
            throw new BackupException("backup in " + store.describe() + " is damaged (" + problems.size() + " problems): "
                    + String.join("; ", problems));
        }
        out.printf(Locale.ROOT, "verified: %d ranges, %d chunks, %d records (%d tombstones), %s, newest timestamp %d%n",
                m.ranges.size(), chunks, m.records, m.tombstones, Progress.size(m.bytes), m.newestTimestamp);
        return m;
    }

    /** What is wrong with one chunk, or null. */
    private static String problem(BackupStore store, Manifest.Chunk c) {
        byte[] bytes = store.get(c.file).orElse(null);
        if (bytes == null) {
            return c.file + " is missing";
        }
        String sha = Chunks.sha256(bytes);
        if (!sha.equals(c.sha256)) {
            return c.file + " has sha256 " + sha + ", the manifest says " + c.sha256;
        }
        Chunks.Summary sum;
        try {
            sum = Chunks.summary(Chunks.decode(bytes, c.file));
        } catch (BackupException e) {
            return e.getMessage();
        }
        if (sum.records() != c.records) {
            return c.file + " holds " + sum.records() + " records, the manifest says " + c.records;
        }
        if (sum.tombstones() != c.tombstones || sum.newestTimestamp() != c.newestTimestamp) {
            return c.file + " holds " + sum.tombstones() + " tombstones and newest timestamp " + sum.newestTimestamp()
                    + ", the manifest says " + c.tombstones + " and " + c.newestTimestamp;
        }
        return null;
    }
}
