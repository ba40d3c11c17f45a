package io.god.persist;

import io.god.tree.Tree;
import io.god.tree.TreeState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Recovery of a data directory into a fresh tree: the newest snapshot that loads completely (a
 * corrupt one is renamed {@code .corrupt} and the previous one is tried), then every log numbered from
 * it on, in order; a torn or corrupt log tail is cut off with a warning. Reports what it read.
 */
final class Recovery {

    /** Logs under DurableTree's name: recovery is part of opening one. */
    private static final System.Logger LOG = System.getLogger(DurableTree.class.getName());

    private Recovery() {
    }

    record Recovered(RecoveryReport report, long nextSeq, long bytesSinceSnapshot) {
    }

    static List<FileNames.DataFile> dataFiles(Disk disk, Path dir) throws IOException {
        List<FileNames.DataFile> out = new ArrayList<>();
        for (String n : disk.list(dir)) {
            FileNames.DataFile f = FileNames.parse(n);
            if (f != null) {
                out.add(f);
            }
        }
        out.sort(Comparator.comparingLong(FileNames.DataFile::seq).thenComparing(FileNames.DataFile::snapshot));
        return out;
    }

    static Recovered recover(Disk disk, Path dir, Tree tree) throws IOException {
        long t0 = System.nanoTime();
        List<String> warnings = new ArrayList<>();
        for (String n : disk.list(dir)) {
            if (n.endsWith(".tmp")) {
                disk.delete(dir.resolve(n));
            }
        }
        List<FileNames.DataFile> files = dataFiles(disk, dir);
        long maxSeq = files.stream().mapToLong(FileNames.DataFile::seq).max().orElse(0);
        List<FileNames.DataFile> snaps = new ArrayList<>(files.stream().filter(FileNames.DataFile::snapshot).toList());
        snaps.sort(Comparator.comparingLong(FileNames.DataFile::seq).reversed());

        TreeState state = TreeState.EMPTY;
        long collected = 0;
        long baseSeq = Long.MIN_VALUE;
        String baseName = null;
        long snapRecords = 0;
        List<String> rejected = new ArrayList<>();
        for (FileNames.DataFile s : snaps) {
            Path p = dir.resolve(s.name());
            try {
                Snapshots.Loaded l = Snapshots.read(disk, p);
                if (!l.rootMatches()) {
                    warn(warnings, dir + ": snapshot " + s.name() + " rebuilds to a different Merkle root than it was "
                            + "written from (a bug, not a bad disk: every record passed its checksum); using it");
                }
                state = l.state();
                collected = l.collectedUpTo();
                baseSeq = s.seq();
                baseName = s.name();
                snapRecords = l.records();
                break;
            } catch (CorruptDataException e) {
                warn(warnings, dir + ": snapshot " + s.name() + " is corrupt (" + e.getMessage()
                        + "); renamed to " + s.name() + ".corrupt, falling back to an older one");
                rejected.add(s.name());
                disk.rename(p, dir.resolve(s.name() + ".corrupt"));
            }
        }
        long from = baseSeq;
        List<FileNames.DataFile> logs = files.stream().filter(f -> !f.snapshot() && f.seq() >= from).toList();
        if (baseName == null && !rejected.isEmpty()) {
            warn(warnings, dir + ": no usable snapshot; replaying every log left, data only in the rejected "
                    + "snapshots is lost");
        }
        long expect = baseName != null ? baseSeq : logs.isEmpty() ? 0 : logs.get(0).seq();
        if (baseName == null && !logs.isEmpty() && logs.get(0).seq() != 1 && !rejected.isEmpty()) {
            warn(warnings, dir + ": logs before " + logs.get(0).name() + " were deleted after a snapshot that is now "
                    + "rejected; their data is lost");
        }
        long logRecords = 0;
        long truncated = 0;
        long bytesSince = 0;
        List<String> read = new ArrayList<>();
        List<Long> emptyLogs = new ArrayList<>();
        for (FileNames.DataFile f : logs) {
            if (f.seq() != expect) {
                warn(warnings, dir + ": log(s) " + FileNames.log(expect) + " .. " + FileNames.log(f.seq() - 1)
                        + " are missing; writes logged there are lost");
            }
            expect = f.seq() + 1;
            Path p = dir.resolve(f.name());
            long size = disk.size(p);
            long valid;
            if (size == 0) { // created, crashed before its header reached the disk
                read.add(f.name());
                emptyLogs.add(f.seq());
                continue;
            }
            try (InputStream raw = disk.read(p); InputStream in = new java.io.BufferedInputStream(raw, 1 << 16)) {
                Frames.Reader r = new Frames.Reader(in, WriteAheadLog.MAGIC.length);
                boolean magicOk = false;
                try {
                    Frames.Reader.readMagic(in, WriteAheadLog.MAGIC, "log " + p);
                    magicOk = true;
                    for (byte[] body = r.next(); body != null; body = r.next()) {
                        Record rec;
                        try {
                            rec = Record.decode(body);
                        } catch (CorruptDataException e) {
                            // the checksum matched: not a bad disk but a record this version cannot read
                            throw new PersistenceException("log " + p + " holds a record this version cannot read at offset "
                                    + r.offset() + ": " + e.getMessage());
                        }
                        state = rec.applyTo(state);
                        logRecords++;
                    }
                    valid = size;
                } catch (CorruptDataException e) {
                    valid = magicOk ? r.offset() : 0;
                    warn(warnings, dir + ": log " + f.name() + " has a torn or corrupt tail (" + e.getMessage() + "); cut "
                            + (size - valid) + " bytes at offset " + valid
                            + (f.seq() == logs.get(logs.size() - 1).seq() ? "" : " (not the newest log: later logs are still replayed)"));
                }
            }
            if (valid < size) {
                disk.truncate(p, valid);
                truncated += size - valid;
            }
            bytesSince += valid;
            read.add(f.name());
            if (valid <= WriteAheadLog.MAGIC.length) {
                emptyLogs.add(f.seq());
            }
        }
        tree.restore(state, collected);
        RecoveryReport report = new RecoveryReport(baseName, snapRecords, read, logRecords, truncated, rejected,
                warnings, System.nanoTime() - t0);
        // the newest log holds no record: write on in it (a fresh file of the same number) rather
        // than leave one more empty log behind on every restart
        long nextSeq = emptyLogs.contains(maxSeq) ? maxSeq : maxSeq + 1;
        return new Recovered(report, nextSeq, bytesSince);
    }

    private static void warn(List<String> warnings, String message) {
        warnings.add(message);
        LOG.log(System.Logger.Level.WARNING, message);
    }
}
