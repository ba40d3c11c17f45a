package io.god.backup;

import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * A chunk file: the 8-byte magic {@code GODBKC01}, a varint record count, then each record body as a
 * byte string (varint length + 1, then the bytes) — the node's record encoding, unchanged.
 */
final class Chunks {

    static final byte[] MAGIC = "GODBKC01".getBytes(StandardCharsets.US_ASCII);

    private Chunks() {
    }

    static byte[] encode(List<byte[]> bodies) {
        WireWriter w = new WireWriter().raw(MAGIC).varint(bodies.size());
        for (byte[] b : bodies) {
            w.bytes(b);
        }
        return w.toBytes();
    }

    /** The record bodies of a chunk; a clear error when it is not a well-formed chunk. */
    static List<byte[]> decode(byte[] chunk, String name) {
        try {
            if (chunk.length < MAGIC.length || !Arrays.equals(Arrays.copyOf(chunk, MAGIC.length), MAGIC)) {
                throw new BackupException(name + " is not a god backup chunk (bad magic)");
            }
            WireReader r = new WireReader(Arrays.copyOfRange(chunk, MAGIC.length, chunk.length));
            int n = r.count(Integer.MAX_VALUE);
            List<byte[]> out = new ArrayList<>(Math.min(n, 4096));
            for (int i = 0; i < n; i++) {
                byte[] b = r.bytes();
                RecordBody.peek(b == null ? new byte[0] : b);
                out.add(b);
            }
            r.end();
            return out;
        } catch (RuntimeException e) {
            throw e instanceof BackupException b ? b : new BackupException(name + " is malformed: " + e.getMessage(), e);
        }
    }

    /** What the manifest says of a chunk's records: how many, the deletion markers, the newest timestamp, the last key. */
    record Summary(int records, long tombstones, long newestTimestamp, byte[] lastKey) {
    }

    static Summary summary(List<byte[]> bodies) {
        long tombstones = 0;
        long newest = 0;
        byte[] lastKey = null;
        for (byte[] b : bodies) {
            RecordBody rec = RecordBody.peek(b);
            newest = Math.max(newest, rec.timestamp());
            tombstones += rec.marker() ? 1 : 0;
            lastKey = rec.key() != null ? rec.key() : lastKey;
        }
        return new Summary(bodies.size(), tombstones, newest, lastKey);
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
