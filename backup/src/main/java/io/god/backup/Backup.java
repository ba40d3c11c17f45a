package io.god.backup;

import io.god.client.GodClient;
import io.god.client.GodException;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * Backs a ring up into a {@link BackupStore}: every range {@code [predecessor, member)} of the ring at
 * the start, read with {@link io.god.wire.Ops#BACKUP} from its owner (or, when the owner does not
 * answer, from the next members, which hold it as replicas), one pinned tree version per range, one
 * chunk file per page. After every chunk {@code progress.json} records it, so {@link #resume} goes on
 * after the last complete chunk. The backup is per range, not a point-in-time cut of the ring.
 */
public final class Backup {

    private static final HexFormat HEX = HexFormat.of();

    private final GodClient client;
    private final NodeCalls calls;
    private final BackupStore store;
    private final int chunkBytes;
    private final PrintStream out;
    /** Called after each chunk is recorded (tests stop a backup there, as a kill would). */
    Runnable afterChunk = () -> { };

    public Backup(GodClient client, Duration timeout, BackupStore store, int chunkBytes, PrintStream out) {
        if (chunkBytes < 1) {
            throw new IllegalArgumentException("chunk size must be at least 1 byte");
        }
        this.client = client;
        this.calls = new NodeCalls(client, timeout);
        this.store = store;
        this.chunkBytes = chunkBytes;
        this.out = out;
    }

    /** A new backup; refused when the location holds one already. */
    public Manifest run() {
        if (store.get(Manifest.FILE).isPresent() || store.get(Manifest.PROGRESS).isPresent()) {
            throw new BackupException(store.describe() + " already holds a backup: use --resume to finish an "
                    + "interrupted one, or an empty location");
        }
        List<GodClient.Member> ring = client.refreshRing();
        Manifest m = new Manifest();
        m.startedAt = Instant.now().toString();
        m.redundancy = calls.info(ring.get(0).address()).redundancy();
        for (GodClient.Member member : ring) {
            m.ring.add(new Manifest.Member(HEX.formatHex(member.position()), member.address()));
        }
        m.ranges = ranges(m.ring);
        store.put(Manifest.PROGRESS, m.toJson());
        return finish(m);
    }

    /** Goes on with the interrupted backup at this location, after its last complete chunk. */
    public Manifest resume() {
        if (store.get(Manifest.FILE).isPresent()) {
            throw new BackupException(store.describe() + " holds a complete backup: nothing to resume");
        }
        byte[] progress = store.get(Manifest.PROGRESS).orElseThrow(() -> new BackupException(
                store.describe() + " holds no interrupted backup (no " + Manifest.PROGRESS + ")"));
        return finish(Manifest.parse(progress, Manifest.PROGRESS));
    }

    private Manifest finish(Manifest m) {
        int done = (int) m.ranges.stream().filter(r -> r.complete).count();
        Progress p = new Progress(out, "backup", done, System::nanoTime); // the ETA from this run's ranges only
        for (Manifest.Range r : m.ranges) {
            if (!r.complete) {
                read(m, r, p, done);
                done++;
            }
        }
        m.complete = true;
        m.finishedAt = Instant.now().toString();
        m.total();
        store.put(Manifest.FILE, m.toJson());
        store.put(Manifest.PROGRESS, m.toJson());
        out.printf(Locale.ROOT, "backup complete: %d ranges, %d records (%d tombstones), %s, newest timestamp %d, in %s%n",
                m.ranges.size(), m.records, m.tombstones, Progress.size(m.bytes), m.newestTimestamp, store.describe());
        return m;
    }

    /** Reads one range into chunks, from the owner or else the members after it. */
    private void read(Manifest m, Manifest.Range r, Progress p, int rangesDone) {
        List<String> sources = sources(m, r.owner);
        byte[] from = HEX.parseHex(r.from);
        byte[] to = HEX.parseHex(r.to);
        int source = 0;
        long session = 0;
        while (true) {
            byte[] after = lastKey(r);
            NodeCalls.Page page;
            try {
                page = calls.page(sources.get(source), session, from, to, after, chunkBytes);
            } catch (GodException e) {
                session = 0; // the next member: a new session from the last complete chunk
                if (++source >= sources.size()) {
                    throw new BackupException("range " + r.index + " [" + r.from + ", " + r.to + "): no member "
                            + "answered (" + sources + "): " + e.getMessage(), e);
                }
                continue;
            }
            session = page.session();
            if (!page.records().isEmpty()) {
                Manifest.Chunk c = chunk(store, r, page.records(), sources.get(source));
                r.chunks.add(c);
                if (page.done()) {
                    r.complete = true;
                }
                store.put(Manifest.PROGRESS, m.toJson());
                p.add(c.bytes, rangesDone + (r.complete ? 1 : 0), m.ranges.size(),
                        m.ranges.stream().mapToLong(x -> x.chunks.size()).sum());
                afterChunk.run();
            }
            if (page.done()) {
                r.complete = true;
                store.put(Manifest.PROGRESS, m.toJson());
                return;
            }
        }
    }

    /** Writes the records as the range's next chunk file; its manifest entry. */
    static Manifest.Chunk chunk(BackupStore store, Manifest.Range r, List<byte[]> records, String readFrom) {
        Manifest.Chunk c = new Manifest.Chunk();
        c.file = String.format(Locale.ROOT, "chunks/r%05d-c%06d.gbk", r.index, r.chunks.size());
        byte[] bytes = Chunks.encode(records);
        c.sha256 = Chunks.sha256(bytes);
        c.bytes = bytes.length;
        c.readFrom = readFrom;
        Chunks.Summary sum = Chunks.summary(records);
        c.records = sum.records();
        c.tombstones = sum.tombstones();
        c.newestTimestamp = sum.newestTimestamp();
        c.lastKey = sum.lastKey() == null ? null : HEX.formatHex(sum.lastKey());
        store.put(c.file, bytes);
        return c;
    }

    /** Where the range's read goes on: the last key of its chunks, null = from its start. */
    private static byte[] lastKey(Manifest.Range r) {
        for (int i = r.chunks.size() - 1; i >= 0; i--) {
            if (r.chunks.get(i).lastKey != null) {
                return HEX.parseHex(r.chunks.get(i).lastKey);
            }
        }
        return null;
    }

    /**
     * The range's owner first, then the other members in ring order (its replicas come next); members
     * the ring reports as catching up (they may lack data) last.
     */
    private List<String> sources(Manifest m, String owner) {
        List<String> out = new ArrayList<>();
        int at = 0;
        for (int i = 0; i < m.ring.size(); i++) {
            if (m.ring.get(i).address.equals(owner)) {
                at = i;
            }
        }
        for (int i = 0; i < m.ring.size(); i++) {
            out.add(m.ring.get((at + i) % m.ring.size()).address);
        }
        java.util.Set<String> catchingUp = client.catchingUp();
        out.sort(java.util.Comparator.comparing(catchingUp::contains)); // stable: ring order otherwise
        return out;
    }

    /** Each member's [predecessor, member); the first member's range wraps and is split in two. */
    static List<Manifest.Range> ranges(List<Manifest.Member> ring) {
        List<Manifest.Range> out = new ArrayList<>();
        if (ring.size() == 1) {
            out.add(range(0, "", "", ring.get(0).address));
            return out;
        }
        Manifest.Member first = ring.get(0);
        out.add(range(0, "", first.position, first.address));
        for (int i = 1; i < ring.size(); i++) {
            out.add(range(out.size(), ring.get(i - 1).position, ring.get(i).position, ring.get(i).address));
        }
        out.add(range(out.size(), ring.get(ring.size() - 1).position, "", first.address));
        return out;
    }

    private static Manifest.Range range(int index, String from, String to, String owner) {
        Manifest.Range r = new Manifest.Range();
        r.index = index;
        r.from = from;
        r.to = to;
        r.owner = owner;
        return r;
    }
}
