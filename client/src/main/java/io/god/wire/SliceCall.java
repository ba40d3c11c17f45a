package io.god.wire;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;

/**
 * A Stamped SliceLen or ReverseSliceLen in binary form, sent as an {@link Ops#DATA} payload (its first byte, the
 * kind, is beyond {@link DataCall}'s kinds, so an older node refuses it as a malformed data call, 400, and the client
 * falls back to {@link Ops#CALL}). Same semantics as the JSON call {@code {"Key", "From", "FromInc", "Len",
 * "Stamped": true}}: the Java client's merged slices ask every replica this way. JFR of binary SliceLen 100 showed
 * the JSON form's cost (a map per entry, base64 both ways, a JSON tree on the client) above the tree walk itself.
 * <p>
 * The digest kinds ({@link #SLICE_LEN_DIGEST}, {@link #REVERSE_SLICE_LEN_DIGEST}) ask for the same answer's
 * {@link #digest} only (Cassandra's digest reads): the client asks one replica for the entries and the others for
 * digests, and fetches entries from a replica only when its digest differs. A node older than the digest kinds
 * refuses them as an unknown data operation (400), as it refuses any kind it does not know.
 *
 * <pre>
 *   u8      kind       {@link #SLICE_LEN}, {@link #REVERSE_SLICE_LEN}, {@link #SLICE_LEN_DIGEST} or
 *                      {@link #REVERSE_SLICE_LEN_DIGEST}
 *   u8      flags      bit 0: fromInc, bit 1: {@link Call#EXECUTE} (else {@link Call#ROUTE})
 *   varint  hops       forwards so far (≤ 255)
 *   bytes   key
 *   bytes   from       null = open (the start, or the end for the reverse walk)
 *   zigzag  len        live entries wanted (≤ 0: none, as the JSON contract's Len)
 *   bytes   authorization (UTF-8, null = none)
 * </pre>
 */
public record SliceCall(int kind, byte[] key, byte[] from, boolean fromInc, long len, String authorization, int hops,
                        int mode) {

    public static final int SLICE_LEN = 32;
    public static final int REVERSE_SLICE_LEN = 33;
    /** As {@link #SLICE_LEN}, answered with the {@link #digest} of the reply instead of the entries. */
    public static final int SLICE_LEN_DIGEST = 34;
    /** As {@link #REVERSE_SLICE_LEN}, answered with the {@link #digest} of the reply instead of the entries. */
    public static final int REVERSE_SLICE_LEN_DIGEST = 35;

    private static final int FROM_INC = 1;
    private static final int EXECUTE = 2;
    private static final byte[] EMPTY = new byte[0];

    public SliceCall {
        if (kind < SLICE_LEN || kind > REVERSE_SLICE_LEN_DIGEST) {
            throw new WireException("unknown slice operation " + kind);
        }
        if (mode != Call.ROUTE && mode != Call.EXECUTE) {
            throw new WireException("unknown call mode " + mode);
        }
        if (hops < 0 || hops > 255) {
            throw new WireException("hops out of range: " + hops);
        }
        key = key == null ? EMPTY : key;
    }

    /** Whether a {@link Ops#DATA} payload is a slice call (else a {@link DataCall}). */
    public static boolean isSlice(byte[] payload) {
        return payload.length > 0 && payload[0] >= SLICE_LEN && payload[0] <= REVERSE_SLICE_LEN_DIGEST;
    }

    public boolean reverse() {
        return kind == REVERSE_SLICE_LEN || kind == REVERSE_SLICE_LEN_DIGEST;
    }

    /** Whether the call asks for the answer's {@link #digest} (a {@link DigestReply}) instead of its entries. */
    public boolean digest() {
        return kind >= SLICE_LEN_DIGEST;
    }

    /** The same call asking for the digest (true) or the entries (false). */
    public SliceCall asDigest(boolean digest) {
        int k = reverse() ? (digest ? REVERSE_SLICE_LEN_DIGEST : REVERSE_SLICE_LEN)
                : (digest ? SLICE_LEN_DIGEST : SLICE_LEN);
        return k == kind ? this : new SliceCall(k, key, from, fromInc, len, authorization, hops, mode);
    }

    /** The JSON contract's name of the operation (without {@code DHash.}); a digest call names its slice. */
    public String method() {
        return reverse() ? "ReverseSliceLen" : "SliceLen";
    }

    public byte[] encode() {
        int size = 24 + key.length + (from == null ? 0 : from.length)
                + (authorization == null ? 0 : authorization.length() * 3 + 5);
        return new WireWriter(size).u8(kind).u8((fromInc ? FROM_INC : 0) | (mode == Call.EXECUTE ? EXECUTE : 0))
                .varint(hops).bytes(key).bytes(from).signed(len).string(authorization).toBytes();
    }

    /** Decodes a payload; anything truncated, trailing, out of range or unknown is a {@link WireException}. */
    public static SliceCall decode(byte[] payload) {
        WireReader r = new WireReader(payload);
        int kind = r.u8();
        int flags = r.u8();
        if ((flags & ~(FROM_INC | EXECUTE)) != 0) {
            throw new WireException("unknown flags " + flags);
        }
        int hops = r.count(255);
        byte[] key = r.bytes();
        byte[] from = r.bytes();
        long len = r.signed();
        String auth = r.string();
        r.end();
        return new SliceCall(kind, key, from, (flags & FROM_INC) != 0, len, auth, hops,
                (flags & EXECUTE) != 0 ? Call.EXECUTE : Call.ROUTE);
    }

    /** Bytes of a {@link #digest}. */
    public static final int DIGEST_BYTES = 32;

    /**
     * The digest of a 200 {@link Reply}'s encoding (SHA-256): it covers the count and every entry's key, exists
     * flag, timestamp and value, so two replicas' digests are equal exactly when their answers are (the encoding
     * is canonical: minimal varints). The client hashes the reply bytes it received; the node its own encoding of
     * the answer it would have sent. A cryptographic hash, so no crafted values can make two answers collide.
     */
    public static byte[] digest(byte[] okReply) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(okReply);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /**
     * The answer of a digest call: status 200 with the {@link #digest} of the {@link Reply} the same call without
     * digest would have had, or another status with a message (the {@link Reply} error form).
     *
     * <pre>
     *   varint status
     *   200:   bytes digest ({@link #DIGEST_BYTES})
     *   other: bytes message (UTF-8)
     * </pre>
     */
    public record DigestReply(int status, byte[] digest, String message) {

        /** The digest reply of a full reply: its digest when 200, else the same error. */
        public static byte[] of(Reply full) {
            if (full.status() != 200) {
                return full.encode();
            }
            return new WireWriter(DIGEST_BYTES + 4).varint(200).bytes(SliceCall.digest(full.encode())).toBytes();
        }

        public static DigestReply decode(byte[] payload) {
            WireReader r = new WireReader(payload);
            int status = r.count(999);
            DigestReply out;
            if (status == 200) {
                byte[] d = r.bytes();
                if (d == null || d.length != DIGEST_BYTES) {
                    throw new WireException("malformed slice digest");
                }
                out = new DigestReply(200, d, null);
            } else {
                String message = r.string();
                out = new DigestReply(status, null, message == null ? "" : message);
            }
            r.end();
            return out;
        }
    }

    /** One stamped entry: a value or a tombstone (exists false, value null) with its write time. */
    public record Stamped(byte[] key, boolean exists, long timestamp, byte[] value) {
    }

    /**
     * The answer: status 200 with the stamped entries in walk order (tombstones included), or another status
     * (HTTP-style) with a message.
     *
     * <pre>
     *   varint status
     *   200:   varint count, then per entry: bytes key, u8 exists, zigzag timestamp, bytes value (null unless exists)
     *   other: bytes message (UTF-8)
     * </pre>
     */
    public record Reply(int status, List<Stamped> entries, String message) {

        /** Most entries one reply may carry on decoding (a node's answer is bounded by its row limits far below). */
        public static final int MAX_ENTRIES = 1 << 22;

        public static Reply ok(List<Stamped> entries) {
            return new Reply(200, entries, null);
        }

        public static Reply error(int status, String message) {
            if (status == 200) {
                throw new IllegalArgumentException("an error needs a non-200 status");
            }
            return new Reply(status, List.of(), message == null ? "" : message);
        }

        public byte[] encode() {
            if (status != 200) {
                return new WireWriter(16 + message.length() * 3).varint(status).string(message).toBytes();
            }
            int size = 8;
            for (Stamped e : entries) {
                size += 16 + e.key().length + (e.value() == null ? 0 : e.value().length);
            }
            WireWriter w = new WireWriter(size).varint(200).varint(entries.size());
            for (Stamped e : entries) {
                w.bytes(e.key()).bool(e.exists()).signed(e.timestamp()).bytes(e.exists() ? e.value() : null);
            }
            return w.toBytes();
        }

        public static Reply decode(byte[] payload) {
            WireReader r = new WireReader(payload);
            int status = r.count(999);
            Reply out;
            if (status == 200) {
                int n = r.count(MAX_ENTRIES);
                List<Stamped> entries = new ArrayList<>(Math.min(n, 1024));
                for (int i = 0; i < n; i++) {
                    byte[] key = r.bytes();
                    boolean exists = r.bool();
                    long ts = r.signed();
                    byte[] value = r.bytes();
                    if (key == null || exists == (value == null)) {
                        throw new WireException("malformed stamped entry " + i);
                    }
                    entries.add(new Stamped(key, exists, ts, value));
                }
                out = new Reply(200, entries, null);
            } else {
                String message = r.string();
                out = new Reply(status, List.of(), message == null ? "" : message);
            }
            r.end();
            return out;
        }
    }
}
