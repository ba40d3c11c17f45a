package io.god.persist;

import io.god.tree.Tree;
import io.god.tree.TreeState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Recovery of a data directory into a fresh tree, in two steps: first it only reads, then it acts.
 *
 * <p>Reading: the newest snapshot that loads completely (older ones are tried when it is corrupt), then
 * every log numbered from it on, in order. Each log is scanned by {@link LogScan}, which tells a torn
 * tail (power loss) from corruption. The sequence is checked end to end against the
 * {@link DataManifest}: the data starts at a snapshot or at the manifest's origin log, every log number
 * up to the manifest's newest one is present; a missing number is a gap, i.e. corruption.
 *
 * <p>Acting: torn tails are cut under every policy. Corruption (a bad frame followed by valid ones, a
 * gap) is handled by the {@link CorruptionPolicy}: {@code refuse} throws a
 * {@link DataCorruptionException} before anything on disk changed; {@code repair} keeps every valid
 * record before and after the damage (last-write-wins makes the order irrelevant), copies each damaged
 * log aside unchanged as {@code <name>.damaged} and rewrites it with its valid frames only;
 * {@code truncate} (the old behaviour) cuts each damaged log at its first bad frame, also keeping a
 * {@code .damaged} copy. Rejected snapshots are renamed {@code .corrupt}.
 */
final class Recovery {

    /** Logs under DurableTree's name: recovery is part of opening one. */
    private static final System.Logger LOG = System.getLogger(DurableTree.class.getName());
    static final String DAMAGED = ".damaged";
    private static final int MAX_LISTED = 10;

    private Recovery() {
    }

    /**
     * @param origin the log the data started in from an empty tree (for the manifest)
     */
    record Recovered(RecoveryReport report, long nextSeq, long bytesSinceSnapshot, long origin) {
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

    /** What the read-only step found and applied so far. */
    private static final class Replay implements LogScan.Sink {
        TreeState state = TreeState.EMPTY;
        long maxTs;
        long completeUpTo = Long.MAX_VALUE;
        long logRecords;
        final List<Damage> damage = new ArrayList<>();

        @Override
        public void record(Record r) {
            state = r.applyTo(state);
            maxTs = Math.max(maxTs, r.timestamp());
            logRecords++;
        }

        @Override
        public void damage(Damage d) {
            damage.add(d);
            if (!d.tornTail() && completeUpTo == Long.MAX_VALUE) {
                completeUpTo = maxTs; // everything applied before the first loss
            }
        }
    }

    static Recovered recover(Disk disk, Path dir, Tree tree, PersistenceOptions options) throws IOException {
        long t0 = System.nanoTime();
        List<String> warnings = new ArrayList<>();
        for (String n : disk.list(dir)) {
            if (n.endsWith(".tmp")) {
                disk.delete(dir.resolve(n)); // never data: a snapshot or metadata file that was not finished
            }
        }
        List<FileNames.DataFile> files = dataFiles(disk, dir);
        MetadataStore manifestStore = new MetadataStore(disk, dir);
        Optional<DataManifest> manifest = DataManifest.read(manifestStore);
        long maxSeq = files.stream().mapToLong(FileNames.DataFile::seq).max().orElse(0);
        List<FileNames.DataFile> snaps = new ArrayList<>(files.stream().filter(FileNames.DataFile::snapshot).toList());
        snaps.sort(Comparator.comparingLong(FileNames.DataFile::seq).reversed());

        // ---- read only
        Replay replay = new Replay();
        long collected = 0;
        long baseSeq = Long.MIN_VALUE;
        String baseName = null;
        long snapRecords = 0;
        List<String> rejected = new ArrayList<>();
        List<String> rejectedWhy = new ArrayList<>();
        for (FileNames.DataFile s : snaps) {
            try {
                Snapshots.Loaded l = Snapshots.read(disk, dir.resolve(s.name()));
                if (!l.rootMatches()) {
                    warn(warnings, dir + ": snapshot " + s.name() + " rebuilds to a different Merkle root than it was "
                            + "written from (a bug, not a bad disk: every record passed its checksum); using it");
                }
                replay.state = l.state();
                replay.maxTs = l.maxTimestamp();
                collected = l.collectedUpTo();
                baseSeq = s.seq();
                baseName = s.name();
                snapRecords = l.records();
                break;
            } catch (CorruptDataException e) {
                rejected.add(s.name());
                rejectedWhy.add(e.getMessage());
            }
        }
        List<FileNames.DataFile> allLogs = files.stream().filter(f -> !f.snapshot()).toList();
        long newestLog = allLogs.isEmpty() ? 0 : allLogs.get(allLogs.size() - 1).seq();
        // where the data must start: the snapshot, else the origin log (an empty tree before it)
        long start;
        if (baseName != null) {
            start = baseSeq;
        } else if (manifest.isPresent()) {
            start = manifest.get().origin();
        } else if (!rejected.isEmpty()) {
            start = 1; // a directory from before the manifest: only a first log can start without a snapshot
        } else {
            start = allLogs.isEmpty() ? maxSeq + 1 : allLogs.get(0).seq();
        }
        long from = start;
        List<FileNames.DataFile> logs = allLogs.stream().filter(f -> f.seq() >= from).toList();
        String lostWith = rejected.isEmpty() ? "" : " (the rejected snapshot(s) " + rejected + " held their data)";
        boolean pastDamage = options.onCorruption() != CorruptionPolicy.TRUNCATE;
        long expect = start;
        List<LogScan.Result> scans = new ArrayList<>();
        for (FileNames.DataFile f : logs) {
            if (f.seq() > expect) {
                replay.damage(gap(expect, f.seq() - 1, "missing: a gap in the sequence of logs" + lostWith));
            }
            expect = f.seq() + 1;
            scans.add(LogScan.scan(disk, dir.resolve(f.name()), f.seq() == newestLog, pastDamage, replay));
        }
        if (manifest.isPresent() && expect <= manifest.get().newest()) {
            replay.damage(gap(expect, manifest.get().newest(), "missing, although the manifest (data-manifest.meta) "
                    + "says log " + manifest.get().newest() + " was created: the newest logs were deleted" + lostWith));
        }

        List<Damage> losses = replay.damage.stream().filter(d -> !d.tornTail()).toList();
        CorruptionPolicy policy = options.onCorruption();
        if (!losses.isEmpty() && (policy == CorruptionPolicy.REFUSE
                || policy == CorruptionPolicy.REPAIR && !options.repairPeers())) {
            throw new DataCorruptionException(refusal(dir, losses, rejected, rejectedWhy, policy), losses);
        }
        if (!options.repairPeers() && manifestStore.get(DurableTree.REPAIR_PENDING).isPresent()) {
            // repair started this data earlier and the node never caught up: nobody to restore it from now
            throw new PersistenceException("data directory " + dir + " lost records to damage at an earlier start "
                    + "(god.persistence.on-corruption=repair) and has not caught up with the ring since ("
                    + DurableTree.REPAIR_PENDING + ".meta), so the node does not start; nothing on disk was changed. "
                    + "The lost records can only come from ring peers, and god.seeds names no node other than this "
                    + "one or god.redundancy is 1. Choose: start it with god.seeds naming the ring's members (it "
                    + "serves once it caught up), or delete " + dir.resolve(DurableTree.REPAIR_PENDING + ".meta")
                    + " to serve the data as it is (the lost records stay lost, as with on-corruption=truncate).");
        }

        // ---- act
        for (int i = 0; i < rejected.size(); i++) {
            String n = rejected.get(i);
            warn(warnings, dir + ": snapshot " + n + " is corrupt (" + rejectedWhy.get(i) + "); renamed to " + n
                    + ".corrupt, " + (baseName == null ? "no older snapshot is usable" : "using " + baseName));
            disk.rename(dir.resolve(n), dir.resolve(n + ".corrupt"));
        }
        for (Damage d : losses) {
            if (d.bytes() < 0) {
                warn(warnings, dir + ": DATA LOST (on-corruption=" + policy.configValue() + "): " + d);
            }
        }
        long truncated = 0;
        long bytesSince = 0;
        List<String> read = new ArrayList<>();
        List<Long> emptyLogs = new ArrayList<>();
        List<String> setAside = new ArrayList<>();
        for (int i = 0; i < logs.size(); i++) {
            FileNames.DataFile f = logs.get(i);
            LogScan.Result r = scans.get(i);
            Path p = dir.resolve(f.name());
            long size = r.size();
            if (r.corrupt()) {
                copy(disk, p, dir.resolve(f.name() + DAMAGED));
                setAside.add(f.name() + DAMAGED);
                if (policy == CorruptionPolicy.REPAIR) {
                    size = rewrite(disk, p, r.segments());
                    for (Damage d : r.damage()) {
                        warn(warnings, dir + ": DATA LOST (on-corruption=repair): " + d + "; kept every valid record, "
                                + "the file as it was is " + f.name() + DAMAGED);
                    }
                } else {
                    size = r.validPrefix();
                    disk.truncate(p, size);
                    warn(warnings, dir + ": DATA LOST (on-corruption=truncate): log " + f.name() + " cut at offset "
                            + size + " (" + (r.size() - size) + " bytes, " + r.recordsAfterDamage()
                            + " valid records after the damage dropped): " + r.damage().get(0) + "; the file as it was is "
                            + f.name() + DAMAGED);
                }
                truncated += r.size() - size;
            } else if (r.tornTail() != null) {
                Damage t = r.tornTail();
                size = t.offset();
                disk.truncate(p, size);
                truncated += t.bytes();
                warn(warnings, dir + ": log " + f.name() + " has a torn tail: " + t.what() + "; cut " + t.bytes()
                        + " bytes at offset " + t.offset());
            }
            bytesSince += size;
            read.add(f.name());
            if (size <= WriteAheadLog.MAGIC.length) {
                emptyLogs.add(f.seq());
            }
        }
        tree.restore(replay.state, collected);
        boolean lost = !losses.isEmpty();
        RecoveryReport report = new RecoveryReport(baseName, snapRecords, read, replay.logRecords, truncated, rejected,
                warnings, System.nanoTime() - t0, replay.damage, lost, lost ? replay.completeUpTo : Long.MAX_VALUE,
                setAside);
        // the newest log holds no record: write on in it (a fresh file of the same number) rather
        // than leave one more empty log behind on every restart; never reuse a number the manifest saw
        long nextSeq = emptyLogs.contains(maxSeq) ? maxSeq : maxSeq + 1;
        if (manifest.isPresent() && manifest.get().newest() > maxSeq) {
            nextSeq = manifest.get().newest() + 1;
        }
        long origin = manifest.map(DataManifest::origin).orElse(Math.min(start, nextSeq));
        return new Recovered(report, nextSeq, bytesSince, origin);
    }

    private static Damage gap(long first, long last, String what) {
        String files = first == last ? FileNames.log(first) : FileNames.log(first) + " .. " + FileNames.log(last);
        return new Damage(files, 0, -1, -1, false, "log(s) " + files + " " + what);
    }

    private static String refusal(Path dir, List<Damage> losses, List<String> rejected, List<String> rejectedWhy,
                                  CorruptionPolicy policy) {
        StringBuilder b = new StringBuilder("data directory ").append(dir).append(" is damaged (not what a crash "
                + "or power loss leaves), so the node does not start; nothing on disk was changed:");
        for (int i = 0; i < Math.min(MAX_LISTED, losses.size()); i++) {
            b.append("\n  - ").append(losses.get(i));
        }
        if (losses.size() > MAX_LISTED) {
            b.append("\n  - ... and ").append(losses.size() - MAX_LISTED).append(" more");
        }
        for (int i = 0; i < rejected.size(); i++) {
            b.append("\n  - snapshot ").append(rejected.get(i)).append(" is corrupt: ").append(rejectedWhy.get(i));
        }
        if (policy == CorruptionPolicy.REPAIR) {
            b.append("\ngod.persistence.on-corruption=repair needs ring peers to restore the lost records from: "
                    + "god.seeds must name another node and god.redundancy be at least 2.");
        }
        b.append("\nChoose with god.persistence.on-corruption: refuse (the default: fix or restore the directory "
                + "by hand), repair (start with every valid record, keep the damaged files as *.damaged and let "
                + "the ring restore the rest; needs ring peers), or truncate (cut each damaged log at its first bad "
                + "frame and lose every later record in it).");
        return b.toString();
    }

    /** Copies a file byte for byte (and syncs the copy), so the damaged original is kept for inspection. */
    private static void copy(Disk disk, Path from, Path to) throws IOException {
        try (InputStream in = disk.read(from); Disk.AppendFile out = disk.create(to)) {
            byte[] buf = new byte[1 << 16];
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                out.write(ByteBuffer.wrap(buf, 0, n));
            }
            out.sync();
        }
        disk.syncDirectory(to.getParent());
    }

    /** Replaces the log with its header and valid frames (via a synced temporary file); returns its size. */
    private static long rewrite(Disk disk, Path p, List<long[]> segments) throws IOException {
        byte[] all;
        try (InputStream in = disk.read(p)) {
            all = in.readAllBytes();
        }
        Path tmp = p.resolveSibling(p.getFileName() + ".tmp");
        long size = WriteAheadLog.MAGIC.length;
        try (Disk.AppendFile out = disk.create(tmp)) {
            out.write(ByteBuffer.wrap(WriteAheadLog.MAGIC));
            for (long[] s : segments) {
                out.write(ByteBuffer.wrap(all, (int) s[0], (int) (s[1] - s[0])));
                size += s[1] - s[0];
            }
            out.sync();
        }
        disk.rename(tmp, p);
        disk.syncDirectory(p.getParent());
        return size;
    }

    private static void warn(List<String> warnings, String message) {
        warnings.add(message);
        LOG.log(System.Logger.Level.WARNING, message);
    }
}
