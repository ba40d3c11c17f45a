package io.god.backup;

/**
 * What a backup needs to know of one record body (the node's {@code io.god.persist.Record} encoding,
 * carried as-is by {@code Ops.BACKUP} and {@code Ops.REPLICATE}): its kind byte, its timestamp
 * (8 bytes, big-endian) and, for every kind but the tree-level ones, the top-level key it belongs to
 * (varint length + bytes) — the key that routes it to its replicas on restore. The rest of the body
 * is never interpreted here.
 */
record RecordBody(int kind, long timestamp, byte[] key) {

    static final int PUT = 1;
    static final int DELETE = 2;
    static final int SUB_DELETE = 4;
    static final int SUB_CLEAR = 5;
    static final int CONFIGURATION = 7;
    static final int CLEAR = 8;
    static final int DROP = 9;

    static RecordBody peek(byte[] body) {
        if (body.length < 9) {
            throw new IllegalArgumentException("record of " + body.length + " bytes is shorter than its header");
        }
        int kind = body[0] & 0xff;
        if (kind < PUT || kind >= DROP) {
            throw new IllegalArgumentException("record kind " + kind + " is not a replicated kind");
        }
        long ts = 0;
        for (int i = 1; i < 9; i++) {
            ts = ts << 8 | (body[i] & 0xff);
        }
        if (ts <= 0) {
            throw new IllegalArgumentException("record timestamp " + ts + " is not positive");
        }
        if (kind == CONFIGURATION || kind == CLEAR) {
            return new RecordBody(kind, ts, null);
        }
        int at = 9;
        int len = 0;
        for (int shift = 0; ; shift += 7) {
            if (at >= body.length || shift > 28) {
                throw new IllegalArgumentException("record key length is cut short");
            }
            int b = body[at++] & 0xff;
            len |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                break;
            }
        }
        if (len < 0 || len > body.length - at) {
            throw new IllegalArgumentException("record key length " + len + " beyond the record");
        }
        return new RecordBody(kind, ts, java.util.Arrays.copyOfRange(body, at, at + len));
    }

    /** A deletion marker: a tombstone (top-level or in a sub tree) or a sub-tree clear. */
    boolean marker() {
        return kind == DELETE || kind == SUB_DELETE || kind == SUB_CLEAR || kind == CLEAR;
    }
}
