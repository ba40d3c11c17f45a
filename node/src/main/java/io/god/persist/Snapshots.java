package io.god.persist;

import io.god.tree.Entry;
import io.god.tree.Hash128;
import io.god.tree.TreeState;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;

/**
 * A snapshot is a compacted stream of the log's records, framed the same way:
 * <pre>
 *   "GODSNP01"
 *   header  frame: 100, collectedUpTo, top clearedAt, top configuration timestamp, top configuration
 *   records: per key in key order: PUT or DELETE (value / tombstone); for a sub tree SUB_CLEAR
 *            (its clearedAt), SUB_CONFIGURATION, then its SUB_PUT / SUB_DELETE records
 *   trailer frame: 101, number of records, Merkle root (h1, h2)
 * </pre>
 * Only a file with a valid trailer at its very end is complete. Loading applies the records to an
 * empty tree, then installs the top-level clear marker and configuration, and checks the root.
 */
final class Snapshots {

    static final byte[] MAGIC = "GODSNP01".getBytes(StandardCharsets.US_ASCII);
    private static final byte HEADER = 100;
    private static final byte TRAILER = 101;
    private static final int BUFFER = 256 << 10;

    private Snapshots() {
    }

    record Loaded(TreeState state, long collectedUpTo, long records, boolean rootMatches, long maxTimestamp) {
    }

    /** Writes state to dir/name.tmp, syncs it, renames it to dir/name and syncs dir. */
    static long write(Disk disk, Path dir, String name, TreeState state, long collectedUpTo) throws IOException {
        Path tmp = dir.resolve(name + ".tmp");
        long records = 0;
        boolean done = false;
        try (Disk.AppendFile f = disk.create(tmp)) {
            ByteBuffer buf = ByteBuffer.allocate(BUFFER);
            buf.put(MAGIC);
            ByteArrayOutputStream h = new ByteArrayOutputStream();
            h.write(HEADER);
            Record.writeLong(h, collectedUpTo);
            Record.writeLong(h, state.clearedAt());
            Record.writeLong(h, state.configurationTimestamp());
            Record.writeMap(h, state.configuration());
            buf = put(f, buf, Frames.frame(h.toByteArray()));
            for (Iterator<Entry> it = state.entries(null); it.hasNext(); ) {
                Entry e = it.next();
                if (e.hasValue()) {
                    buf = put(f, buf, Record.put(e.key(), e.value(), e.timestamp()).frame());
                    records++;
                } else if (e.isTombstone()) {
                    buf = put(f, buf, Record.delete(e.key(), e.timestamp()).frame());
                    records++;
                }
                TreeState sub = e.sub();
                if (sub == null) {
                    continue;
                }
                if (sub.clearedAt() > 0) {
                    buf = put(f, buf, Record.subClear(e.key(), sub.clearedAt()).frame());
                    records++;
                }
                if (sub.configurationTimestamp() > 0) {
                    buf = put(f, buf, Record.subSetConfiguration(e.key(), sub.configuration(),
                            sub.configurationTimestamp()).frame());
                    records++;
                }
                for (Iterator<Entry> si = sub.entries(null); si.hasNext(); ) {
                    Entry s = si.next();
                    if (s.hasValue()) {
                        buf = put(f, buf, Record.subPut(e.key(), s.key(), s.value(), s.timestamp()).frame());
                        records++;
                    } else if (s.isTombstone()) {
                        buf = put(f, buf, Record.subDelete(e.key(), s.key(), s.timestamp()).frame());
                        records++;
                    }
                }
            }
            ByteArrayOutputStream t = new ByteArrayOutputStream();
            t.write(TRAILER);
            Record.writeLong(t, records);
            Hash128 root = state.hash();
            Record.writeLong(t, root.h1());
            Record.writeLong(t, root.h2());
            buf = put(f, buf, Frames.frame(t.toByteArray()));
            buf.flip();
            f.write(buf);
            f.sync();
            done = true;
        } finally {
            if (!done) {
                try {
                    disk.delete(tmp);
                } catch (IOException ignored) {
                    // the next recovery removes *.tmp anyway
                }
            }
        }
        disk.rename(tmp, dir.resolve(name));
        disk.syncDirectory(dir);
        return records;
    }

    /** Adds a frame to the buffer, written to f first when the frame does not fit; returns the buffer. */
    private static ByteBuffer put(Disk.AppendFile f, ByteBuffer buf, byte[] frame) throws IOException {
        if (buf.remaining() < frame.length) {
            buf.flip();
            f.write(buf);
            buf.clear();
            if (buf.capacity() < frame.length) {
                buf = ByteBuffer.allocate(frame.length);
            }
        }
        buf.put(frame);
        return buf;
    }

    /** Loads a complete snapshot; throws {@link CorruptDataException} for anything else. */
    static Loaded read(Disk disk, Path file) throws IOException {
        try (InputStream raw = disk.read(file); InputStream in = new BufferedInputStream(raw, BUFFER)) {
            Frames.Reader.readMagic(in, MAGIC, "snapshot " + file);
            Frames.Reader r = new Frames.Reader(in, MAGIC.length);
            byte[] hb = r.next();
            if (hb == null || hb[0] != HEADER) {
                throw new CorruptDataException("snapshot " + file + " has no header");
            }
            ByteBuffer h = ByteBuffer.wrap(hb, 1, hb.length - 1);
            long collectedUpTo;
            long clearedAt;
            long confTs;
            Map<String, String> conf;
            try {
                collectedUpTo = h.getLong();
                clearedAt = h.getLong();
                confTs = h.getLong();
                conf = Record.readMap(h);
            } catch (java.nio.BufferUnderflowException e) {
                throw new CorruptDataException("snapshot " + file + " has a malformed header");
            }
            TreeState s = TreeState.EMPTY;
            long records = 0;
            long maxTs = 0;
            while (true) {
                byte[] body = r.next();
                if (body == null) {
                    throw new CorruptDataException("snapshot " + file + " ends without its trailer (incomplete)");
                }
                if (body[0] == TRAILER) {
                    ByteBuffer t = ByteBuffer.wrap(body, 1, body.length - 1);
                    long count;
                    Hash128 expected;
                    try {
                        count = t.getLong();
                        expected = new Hash128(t.getLong(), t.getLong());
                    } catch (java.nio.BufferUnderflowException e) {
                        throw new CorruptDataException("snapshot " + file + " has a malformed trailer");
                    }
                    if (count != records) {
                        throw new CorruptDataException("snapshot " + file + " holds " + records
                                + " records but its trailer says " + count);
                    }
                    if (in.read() != -1) {
                        throw new CorruptDataException("snapshot " + file + " has bytes after its trailer");
                    }
                    s = s.withClearMarker(clearedAt);
                    if (confTs > 0) {
                        s = s.setConfiguration(conf, confTs);
                    }
                    // every record passed its checksum, so a different root means a bug, not a bad
                    // disk: use the data (refusing it could lose everything) but say so loudly
                    boolean rootMatches = s.hash().equals(expected);
                    return new Loaded(s, collectedUpTo, records, rootMatches, Math.max(maxTs, Math.max(clearedAt, confTs)));
                }
                Record rec = Record.decode(body);
                maxTs = Math.max(maxTs, rec.timestamp());
                s = rec.applyTo(s);
                records++;
            }
        }
    }
}
