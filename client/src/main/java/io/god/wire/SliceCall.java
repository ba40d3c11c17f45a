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
        return sha256().digest(okReply);
    }

    /** A fresh SHA-256: a clone of one looked up once (the provider lookup showed in profiles of digest calls). */
    private static MessageDigest sha256() {
        try {
            return (MessageDigest) SHA_256.clone();
        } catch (CloneNotSupportedException e) {
            try {
                return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException impossible) {
                throw new IllegalStateException("every Java platform has SHA-256", impossible);
            }
        }
    }

    private static final MessageDigest SHA_256;

    static {
        try {
            SHA_256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /**
     * The entries of a 200 {@link Reply}, read by position and without copies: each key and value is a range of an
     * array (the node's tree keeps an entry's key and value in one array; handing them out separately would copy
     * both, per entry). The node answers from its tree's own entries through this view (no {@link Stamped} per
     * entry), the client from a decoded {@link Reply}. Arrays handed out are read, never modified.
     */
    public interface Entries {
        int size();

        /** An array whose first {@link #keyLength} bytes are entry i's key. */
        byte[] keyArray(int i);

        int keyLength(int i);

        boolean exists(int i);

        long timestamp(int i);

        /** The array holding entry i's value (an entry that exists), or null (a tombstone; or no value at all). */
        byte[] valueArray(int i);

        int valueOffset(int i);

        int valueLength(int i);
    }

    /** A 200 {@link Reply}'s encoding of {@code entries}, in one array of the exact size. */
    public static byte[] encodeOk(Entries entries) {
        int n = entries.size();
        int size = WireWriter.varintSize(200) + WireWriter.varintSize(n);
        for (int i = 0; i < n; i++) {
            size += entrySize(entries, i);
        }
        WireWriter w = new WireWriter(size).varint(200).varint(n);
        for (int i = 0; i < n; i++) {
            writeEntry(w, entries, i);
        }
        return w.toBytes();
    }

    /**
     * The {@link #digest} of {@link #encodeOk}'s bytes, hashed as they are written through a small buffer: a digest
     * call's answer is never built (JFR of the digest call showed it building and encoding the whole answer).
     */
    public static byte[] digestOk(Entries entries) {
        MessageDigest md = sha256();
        WireWriter w = new WireWriter(DIGEST_CHUNK + 64).varint(200).varint(entries.size());
        for (int i = 0, n = entries.size(); i < n; i++) {
            if (w.size() >= DIGEST_CHUNK) {
                w.drainTo(md);
            }
            writeEntry(w, entries, i);
        }
        w.drainTo(md);
        return md.digest();
    }

    /** Bytes hashed at a time by {@link #digestOk} (an entry larger than this passes in one piece). */
    private static final int DIGEST_CHUNK = 2048;

    private static int entrySize(Entries e, int i) {
        int k = e.keyLength(i);
        int size = WireWriter.varintSize(k + 1L) + k + 1 + WireWriter.varintSize(zigzag(e.timestamp(i)));
        if (!e.exists(i) || e.valueArray(i) == null) {
            return size + 1;
        }
        int v = e.valueLength(i);
        return size + WireWriter.varintSize(v + 1L) + v;
    }

    /** One entry as {@link Reply#encode} writes it: key, exists, timestamp, value (null unless exists). */
    private static void writeEntry(WireWriter w, Entries e, int i) {
        boolean exists = e.exists(i);
        w.bytes(e.keyArray(i), 0, e.keyLength(i)).bool(exists).signed(e.timestamp(i));
        byte[] v = exists ? e.valueArray(i) : null;
        if (v == null) {
            w.bytes(null);
        } else {
            w.bytes(v, e.valueOffset(i), e.valueLength(i));
        }
    }

    private static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
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
            return ok(digestOk(Reply.entries(full.entries())));
        }

        /** The digest reply of a 200 answer: its entries' {@link #digestOk}, computed without encoding them. */
        public static byte[] of(Entries entries) {
            return ok(digestOk(entries));
        }

        private static byte[] ok(byte[] digest) {
            return new WireWriter(DIGEST_BYTES + 4).varint(200).bytes(digest).toBytes();
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
            return encodeOk(entries(entries));
        }

        /** Typed entries as {@link Entries}. */
        public static Entries entries(List<Stamped> entries) {
            return new Entries() {
                @Override
                public int size() {
                    return entries.size();
                }

                @Override
                public byte[] keyArray(int i) {
                    return entries.get(i).key();
                }

                @Override
                public int keyLength(int i) {
                    return entries.get(i).key().length;
                }

                @Override
                public boolean exists(int i) {
                    return entries.get(i).exists();
                }

                @Override
                public long timestamp(int i) {
                    return entries.get(i).timestamp();
                }

                @Override
                public byte[] valueArray(int i) {
                    return entries.get(i).value();
                }

                @Override
                public int valueOffset(int i) {
                    return 0;
                }

                @Override
                public int valueLength(int i) {
                    byte[] v = entries.get(i).value();
                    return v == null ? 0 : v.length;
                }
            };
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
