package io.god.backup;

import io.god.client.GodClient;
import io.god.client.GodException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Restores a verified backup into any ring (any size, any N): each record goes, with its own
 * timestamp, to the N replicas of its key in the target ring ({@link io.god.wire.Ops#REPLICATE}, the
 * path of a peer's replication), where it applies by last-write-wins — restoring twice, or into a live
 * ring, changes nothing that is newer. Tree-level records (configuration, clear) go to every member.
 *
 * <p>Resurrection guard: when the backup's newest timestamp is older than the target's collectedUpTo
 * (the newest tombstone the target has collected), deletions the backup does not know of may be gone
 * from the target, and restoring could bring deleted keys back: refused unless allowed. When the
 * backup is newer, its records older than collectedUpTo for keys the target holds nothing for are
 * skipped and counted (such a key may have been deleted there); allowed, nothing is skipped.
 */
public final class Restore {

    private static final int BATCH_BYTES = 256 * 1024;
    private static final HexFormat HEX = HexFormat.of();

    private final GodClient client;
    private final NodeCalls calls;
    private final BackupStore store;
    private final PrintStream out;

    public Restore(GodClient client, Duration timeout, BackupStore store, PrintStream out) {
        this.client = client;
        this.calls = new NodeCalls(client, timeout);
        this.store = store;
        this.out = out;
    }

    /** Restores; returns how many records were sent (to one replica or more). */
    public long run(boolean allowResurrection) {
        Manifest m = Verify.check(store, out);
        List<GodClient.Member> ring = client.refreshRing();
        int n = 0;
        long collectedUpTo = 0;
        for (GodClient.Member member : ring) {
            NodeCalls.Info info = calls.info(member.address());
            n = Math.max(n, info.redundancy());
            collectedUpTo = Math.max(collectedUpTo, info.collectedUpTo());
        }
        if (m.newestTimestamp < collectedUpTo) {
            String why = "the backup's newest timestamp " + m.newestTimestamp + " is older than the target ring's "
                    + "collectedUpTo " + collectedUpTo + ": the target has collected deletions newer than the backup, "
                    + "so restoring could bring deleted keys back";
            if (!allowResurrection) {
                throw new BackupException(why + "; refused (--allow-resurrection restores anyway)");
            }
            out.println("restore: warning: " + why + " (--allow-resurrection given: restoring)");
        }
        Progress p = new Progress(out, "restore");
        Map<String, Batch> batches = new LinkedHashMap<>();
        long sent = 0;
        long skipped = 0;
        int rangesDone = 0;
        long chunks = 0;
        for (Manifest.Range r : m.ranges) {
            for (Manifest.Chunk c : r.chunks) {
                byte[] bytes = store.get(c.file).orElseThrow(() -> new BackupException(c.file + " vanished"));
                if (!Chunks.sha256(bytes).equals(c.sha256)) {
                    throw new BackupException(c.file + " changed after it was verified");
                }
                List<byte[]> bodies = Chunks.decode(bytes, c.file);
                Set<String> absent = allowResurrection ? Set.of() : absentOlderKeys(bodies, ring, n, collectedUpTo);
                for (byte[] body : bodies) {
                    RecordBody rec = RecordBody.peek(body);
                    if (rec.key() != null && rec.timestamp() < collectedUpTo && absent.contains(HEX.formatHex(rec.key()))) {
                        skipped++;
                        continue;
                    }
                    List<GodClient.Member> targets = rec.key() == null ? ring : GodClient.replicas(ring, rec.key(), n);
                    for (GodClient.Member t : targets) {
                        Batch b = batches.computeIfAbsent(t.address(), a -> new Batch());
                        b.add(body);
                        if (b.bytes >= BATCH_BYTES) {
                            send(t.address(), b);
                        }
                    }
                    sent++;
                }
                chunks++;
                p.add(c.bytes, rangesDone, m.ranges.size(), chunks);
            }
            rangesDone++;
        }
        for (Map.Entry<String, Batch> e : batches.entrySet()) {
            send(e.getKey(), e.getValue());
        }
        out.printf(Locale.ROOT, "restore complete: %d records into %d members (N=%d)%n", sent, ring.size(), n);
        if (skipped > 0) {
            out.printf(Locale.ROOT, "restore: skipped %d records older than the ring's collectedUpTo %d for keys the "
                    + "ring does not hold (they may have been deleted there; --allow-resurrection restores them)%n",
                    skipped, collectedUpTo);
        }
        return sent;
    }

    /**
     * The keys (hex) of records older than collectedUpTo that the target ring holds nothing for: such
     * a key may have been deleted there with its tombstone since collected. Asked of each key's
     * replicas in turn until one answers.
     */
    private Set<String> absentOlderKeys(List<byte[]> bodies, List<GodClient.Member> ring, int n, long collectedUpTo) {
        Map<String, byte[]> older = new LinkedHashMap<>();
        for (byte[] body : bodies) {
            RecordBody rec = RecordBody.peek(body);
            if (rec.key() != null && rec.timestamp() < collectedUpTo) {
                older.putIfAbsent(HEX.formatHex(rec.key()), rec.key());
            }
        }
        Set<String> absent = new HashSet<>();
        for (int replica = 0; replica < n && !older.isEmpty(); replica++) {
            Map<String, List<byte[]>> byMember = new LinkedHashMap<>();
            for (byte[] key : older.values()) {
                List<GodClient.Member> reps = GodClient.replicas(ring, key, n);
                if (replica < reps.size()) {
                    byMember.computeIfAbsent(reps.get(replica).address(), a -> new ArrayList<>()).add(key);
                }
            }
            for (Map.Entry<String, List<byte[]>> e : byMember.entrySet()) {
                boolean[] present;
                try {
                    present = calls.present(e.getKey(), e.getValue());
                } catch (GodException unanswered) {
                    continue; // the next replica is asked
                }
                for (int i = 0; i < present.length; i++) {
                    String hex = HEX.formatHex(e.getValue().get(i));
                    if (!present[i]) {
                        absent.add(hex);
                    }
                    older.remove(hex);
                }
            }
        }
        if (!older.isEmpty()) {
            throw new BackupException("restore stopped: no replica answered whether it holds " + older.size()
                    + " keys older than the ring's collectedUpTo; restoring again is safe");
        }
        return absent;
    }

    private void send(String address, Batch b) {
        if (b.records.isEmpty()) {
            return;
        }
        GodException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            try {
                calls.replicate(address, b.records);
                b.records.clear();
                b.bytes = 0;
                return;
            } catch (GodException e) {
                last = e;
                pause(100L << attempt);
            }
        }
        throw new BackupException("restore stopped: " + address + " did not take " + b.records.size()
                + " records (" + last.getMessage() + "); restoring again is safe", last);
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis); // a tool's retry backoff, not ring logic
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackupException("interrupted");
        }
    }

    private static final class Batch {
        final List<byte[]> records = new ArrayList<>();
        long bytes;

        void add(byte[] body) {
            records.add(body);
            bytes += body.length;
        }
    }
}
