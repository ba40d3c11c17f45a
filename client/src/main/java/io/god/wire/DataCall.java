package io.god.wire;

/**
 * One hot data operation in binary form ({@link Ops#DATA}): Get, Put, Del, SubGet, SubPut, SubDel with
 * their key, sub key and value as raw bytes. Same semantics as the JSON {@link Call} of the same method
 * (routing, replication, stamps, Sync, auth, size limits), without JSON on either side.
 *
 * <pre>
 *   u8      kind       {@link #GET} .. {@link #SUB_DEL}
 *   u8      flags      bit 0: Sync (writes only), bit 1: {@link Call#EXECUTE} (else {@link Call#ROUTE})
 *   varint  hops       forwards so far (≤ 255)
 *   bytes   key
 *   bytes   sub key    SubGet, SubPut, SubDel only
 *   bytes   value      Put, SubPut only
 *   bytes   authorization (UTF-8, null = none)
 *   zigzag  stamp      the first node's write timestamp, 0 = none ({@link Call#stamp()})
 * </pre>
 *
 * A null key or sub key means the empty one (as a missing JSON field does); a null value is empty.
 */
public record DataCall(int kind, byte[] key, byte[] subKey, byte[] value, boolean sync, String authorization,
                       int hops, int mode, long stamp) {

    public static final int GET = 1;
    public static final int PUT = 2;
    public static final int DEL = 3;
    public static final int SUB_GET = 4;
    public static final int SUB_PUT = 5;
    public static final int SUB_DEL = 6;

    private static final int SYNC = 1;
    private static final int EXECUTE = 2;

    public DataCall {
        if (kind < GET || kind > SUB_DEL) {
            throw new WireException("unknown data operation " + kind);
        }
        if (mode != Call.ROUTE && mode != Call.EXECUTE) {
            throw new WireException("unknown call mode " + mode);
        }
        if (hops < 0 || hops > 255) {
            throw new WireException("hops out of range: " + hops);
        }
        if (stamp < 0) {
            throw new WireException("stamp must not be negative");
        }
        key = key == null ? EMPTY : key;
        subKey = hasSubKey(kind) ? (subKey == null ? EMPTY : subKey) : null;
        value = hasValue(kind) ? (value == null ? EMPTY : value) : null;
        sync = sync && writes(kind);
    }

    private static final byte[] EMPTY = new byte[0];

    /** The JSON contract's name of the operation (without {@code DHash.}). */
    public String method() {
        return methodOf(kind);
    }

    /** The JSON contract's name of a kind. */
    public static String methodOf(int kind) {
        return switch (kind) {
            case GET -> "Get";
            case PUT -> "Put";
            case DEL -> "Del";
            case SUB_GET -> "SubGet";
            case SUB_PUT -> "SubPut";
            case SUB_DEL -> "SubDel";
            default -> throw new WireException("unknown data operation " + kind);
        };
    }

    /** Whether the operation changes data (needs the token, is stamped and replicated). */
    public boolean writes() {
        return writes(kind);
    }

    static boolean writes(int kind) {
        return kind != GET && kind != SUB_GET;
    }

    static boolean hasSubKey(int kind) {
        return kind >= SUB_GET;
    }

    static boolean hasValue(int kind) {
        return kind == PUT || kind == SUB_PUT;
    }

    /** The same call one hop further, in the given mode, carrying the given stamp. */
    public DataCall forwarded(int newMode, long newStamp) {
        return new DataCall(kind, key, subKey, value, sync, authorization, hops + 1, newMode, newStamp);
    }

    public byte[] encode() {
        int size = 16 + key.length + (subKey == null ? 0 : subKey.length + 5) + (value == null ? 0 : value.length + 5)
                + (authorization == null ? 0 : authorization.length() * 3 + 5);
        WireWriter w = new WireWriter(size).u8(kind).u8((sync ? SYNC : 0) | (mode == Call.EXECUTE ? EXECUTE : 0))
                .varint(hops).bytes(key);
        if (subKey != null) {
            w.bytes(subKey);
        }
        if (value != null) {
            w.bytes(value);
        }
        return w.string(authorization).signed(stamp).toBytes();
    }

    /** Decodes a payload; anything truncated, trailing, out of range or unknown is a {@link WireException}. */
    public static DataCall decode(byte[] payload) {
        WireReader r = new WireReader(payload);
        int kind = r.u8();
        if (kind < GET || kind > SUB_DEL) {
            throw new WireException("unknown data operation " + kind);
        }
        int flags = r.u8();
        if ((flags & ~(SYNC | EXECUTE)) != 0) {
            throw new WireException("unknown flags " + flags);
        }
        if ((flags & SYNC) != 0 && !writes(kind)) {
            throw new WireException("Sync on a read");
        }
        int hops = r.count(255);
        byte[] key = r.bytes();
        byte[] subKey = hasSubKey(kind) ? r.bytes() : null;
        byte[] value = hasValue(kind) ? r.bytes() : null;
        String auth = r.string();
        long stamp = r.signed();
        r.end();
        if (stamp < 0) {
            throw new WireException("stamp must not be negative");
        }
        return new DataCall(kind, key, subKey, value, (flags & SYNC) != 0, auth, hops,
                (flags & EXECUTE) != 0 ? Call.EXECUTE : Call.ROUTE, stamp);
    }

    /**
     * The answer: status 200 with, for reads, whether the entry exists, its timestamp (a tombstone's
     * too, so the newest of several replicas can be chosen) and its value; any other status (HTTP-style:
     * 400, 401, 503, 500) with a message.
     *
     * <pre>
     *   varint status
     *   200:   u8 exists, zigzag timestamp, bytes value (null unless exists)
     *   other: bytes message (UTF-8)
     * </pre>
     */
    public record Reply(int status, boolean exists, long timestamp, byte[] value, String message) {

        public static Reply ok() {
            return new Reply(200, false, 0, null, null);
        }

        public static Reply found(boolean exists, long timestamp, byte[] value) {
            return new Reply(200, exists, timestamp, exists ? (value == null ? EMPTY : value) : null, null);
        }

        public static Reply error(int status, String message) {
            if (status == 200) {
                throw new IllegalArgumentException("an error needs a non-200 status");
            }
            return new Reply(status, false, 0, null, message == null ? "" : message);
        }

        public byte[] encode() {
            if (status == 200) { // sized exactly: toBytes returns the array without a copy
                int size = WireWriter.varintSize(status) + 1 + WireWriter.varintSize((timestamp << 1) ^ (timestamp >> 63))
                        + (value == null ? 1 : WireWriter.varintSize(value.length + 1L) + value.length);
                return new WireWriter(size).varint(status).bool(exists).signed(timestamp).bytes(value).toBytes();
            }
            WireWriter w = new WireWriter(16 + (message == null ? 0 : message.length() * 3)).varint(status);
            return w.string(message).toBytes();
        }

        public static Reply decode(byte[] payload) {
            WireReader r = new WireReader(payload);
            int status = r.count(999);
            Reply out;
            if (status == 200) {
                boolean exists = r.bool();
                long ts = r.signed();
                byte[] value = r.bytes();
                if (exists == (value == null)) {
                    throw new WireException(exists ? "existing entry without a value" : "missing entry with a value");
                }
                out = new Reply(200, exists, ts, value, null);
            } else {
                String message = r.string();
                out = new Reply(status, false, 0, null, message == null ? "" : message);
            }
            r.end();
            return out;
        }
    }
}
