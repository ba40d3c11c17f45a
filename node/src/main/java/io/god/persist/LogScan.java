package io.god.persist;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads one log file and tells a torn tail from corruption. A bad frame is a torn tail when no valid
 * frame follows it and the file is the newest log: a power loss leaves unsynced bytes missing, zeroed
 * or cut short only at the end of the file being written (an older log was synced before the next one
 * was created). A bad frame followed by a valid frame (found by scanning forward, byte by byte, for a
 * plausible length, a known record kind and a matching checksum), a wrong header (it was synced when
 * the file was created) or damage in an older log is corruption.
 *
 * <p>Only reads: recovery decides by its policy what to cut, set aside or refuse.
 */
final class LogScan {

    /** Receives the records in file order, and each damage when it is met. */
    interface Sink {
        void record(Record r);

        void damage(Damage d);
    }

    /**
     * @param records valid records applied
     * @param damage in file order
     * @param validPrefix where the first damage starts (the size when there is none)
     * @param recordsAfterDamage valid records after the first damage (applied only when asked to)
     * @param segments [start, end) byte ranges of the valid frames (after the header)
     */
    record Result(long size, long records, List<Damage> damage, long validPrefix, long recordsAfterDamage,
                  List<long[]> segments) {

        boolean corrupt() {
            return damage.stream().anyMatch(d -> !d.tornTail());
        }

        /** The torn tail, if the last damage is one. */
        Damage tornTail() {
            return damage.isEmpty() || !damage.get(damage.size() - 1).tornTail() ? null : damage.get(damage.size() - 1);
        }
    }

    private LogScan() {
    }

    /**
     * @param newest whether this is the newest log (the only one that may have a torn tail)
     * @param pastDamage whether records after the first damage are passed to the sink
     */
    static Result scan(Disk disk, Path p, boolean newest, boolean pastDamage, Sink sink) throws IOException {
        long size = disk.size(p);
        String name = p.getFileName().toString();
        List<Damage> damage = new ArrayList<>();
        List<long[]> segments = new ArrayList<>();
        if (size == 0) { // created, crashed before its header reached the disk
            return new Result(size, 0, damage, 0, 0, segments);
        }
        int magicLength = WriteAheadLog.MAGIC.length;
        long records = 0;
        long at;
        String reason;
        boolean headerOk;
        try (InputStream raw = disk.read(p); InputStream in = new BufferedInputStream(raw, 1 << 16)) {
            byte[] magic = in.readNBytes(magicLength);
            headerOk = Arrays.equals(magic, WriteAheadLog.MAGIC);
            if (!headerOk) {
                at = 0;
                reason = "the log header is not " + new String(WriteAheadLog.MAGIC, java.nio.charset.StandardCharsets.US_ASCII);
            } else {
                Frames.Reader r = new Frames.Reader(in, magicLength);
                try {
                    for (byte[] body = r.next(); body != null; body = r.next()) {
                        sink.record(decode(body, p, r.offset()));
                        records++;
                    }
                    if (size > magicLength) {
                        segments.add(new long[] {magicLength, size});
                    }
                    return new Result(size, records, damage, size, 0, segments);
                } catch (CorruptDataException e) {
                    at = r.offset();
                    reason = e.getMessage();
                }
            }
        }
        if (at > magicLength) {
            segments.add(new long[] {magicLength, at});
        }
        if (size - at > Integer.MAX_VALUE - 64) {
            throw new PersistenceException("log " + p + " is damaged at offset " + at + " and the " + (size - at)
                    + " bytes after it are too many to scan for valid records; move it aside to decide by hand");
        }
        byte[] rest;
        try (InputStream in = disk.read(p)) {
            in.skipNBytes(at);
            rest = in.readAllBytes();
        }
        long after = 0;
        int pos = 0; // start of the current bad region, relative to at
        int searchFrom = 1;
        if (!headerOk) {
            if (crashedAtCreation(rest)) {
                Damage d = new Damage(name, 0, size, 0, newest, newest
                        ? "torn header: the log was being created when the node stopped (no records in it)"
                        : "torn header in a log that is not the newest one");
                damage.add(d);
                sink.damage(d);
                return new Result(size, 0, damage, 0, 0, segments);
            }
            searchFrom = magicLength;
        }
        while (true) {
            int next = -1;
            for (int i = searchFrom; i < rest.length; i++) {
                int len = Frames.frameAt(rest, i);
                if (len > 0 && decodes(rest, i, len)) {
                    next = i;
                    break;
                }
            }
            long start = at + pos;
            if (next < 0) {
                boolean torn = newest && headerOk;
                Damage d = new Damage(name, start, rest.length - pos, lostIn(rest, pos, rest.length), torn,
                        torn ? "torn tail (" + reason + "; no valid record after it): what a power loss leaves"
                                : reason + "; no valid record after it, but "
                                + (headerOk ? "this is not the newest log (it was synced before the next one was created)"
                                : "the header was synced when the log was created"));
                damage.add(d);
                sink.damage(d);
                break;
            }
            Damage d = new Damage(name, start, next - pos, lostIn(rest, pos, next), false,
                    reason + "; valid records follow at offset " + (at + next) + ", so this is not a torn tail");
            damage.add(d);
            sink.damage(d);
            int q = next;
            while (q < rest.length) {
                int len = Frames.frameAt(rest, q);
                if (len < 0 || !decodes(rest, q, len)) {
                    break;
                }
                if (pastDamage) {
                    sink.record(Record.decode(Arrays.copyOfRange(rest, q + Frames.HEADER, q + Frames.HEADER + len)));
                    records++;
                }
                after++;
                q += Frames.HEADER + len;
            }
            segments.add(new long[] {at + next, at + q});
            if (q >= rest.length) {
                break;
            }
            pos = q;
            searchFrom = q + 1;
            reason = "bad frame at offset " + (at + q);
        }
        return new Result(size, records, damage, at, after, segments);
    }

    private static Record decode(byte[] body, Path p, long offset) {
        try {
            return Record.decode(body);
        } catch (CorruptDataException e) {
            // the checksum matched: not a bad disk but a record this version cannot read
            throw new PersistenceException("log " + p + " holds a record this version cannot read at offset "
                    + offset + ": " + e.getMessage());
        }
    }

    private static boolean decodes(byte[] buf, int p, int len) {
        try {
            Record.decode(Arrays.copyOfRange(buf, p + Frames.HEADER, p + Frames.HEADER + len));
            return true;
        } catch (CorruptDataException e) {
            return false;
        }
    }

    /** 1 when the region is exactly one frame whose header is intact (a flip in its body), else unknown. */
    private static long lostIn(byte[] buf, int from, int to) {
        if (to - from < Frames.HEADER) {
            return -1;
        }
        int len = java.nio.ByteBuffer.wrap(buf, from, 4).getInt();
        return len > 0 && (long) from + Frames.HEADER + len == to ? 1 : -1;
    }

    /** Every byte zero, or a prefix of the header: the file was created but its header never synced. */
    private static boolean crashedAtCreation(byte[] whole) {
        boolean zeros = true;
        for (byte b : whole) {
            if (b != 0) {
                zeros = false;
                break;
            }
        }
        if (zeros) {
            return true;
        }
        return whole.length < WriteAheadLog.MAGIC.length
                && Arrays.equals(whole, Arrays.copyOf(WriteAheadLog.MAGIC, whole.length));
    }
}
