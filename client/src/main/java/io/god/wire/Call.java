package io.god.wire;

/**
 * One god JSON-contract call over the binary protocol ({@link Ops#CALL}).
 *
 * @param method e.g. {@code DHash.Get}
 * @param body the JSON request body
 * @param authorization the HTTP-style Authorization value, or null
 * @param hops how many nodes forwarded this call already (bounded by the receiver)
 * @param mode {@link #ROUTE}: the receiver routes it again if it thinks another node owns the key;
 *             {@link #EXECUTE}: the receiver executes it (failover to a replica, or a node's own part of
 *             a broadcast) without routing
 * @param stamp the write timestamp the first node chose for this call (0 = none: the executing node
 *              stamps). A receiver that gets the call later than the forwarding timeout (the forwarder
 *              may have failed over meanwhile) writes with this stamp, so a late duplicate cannot
 *              overtake newer writes. Encoded only when set, so frames without it (older nodes, reads)
 *              stay as they were.
 */
public record Call(String method, byte[] body, String authorization, int hops, int mode, long stamp) {

    public static final int ROUTE = 0;
    public static final int EXECUTE = 1;

    /**
     * Most tombstones a node puts in one Stamped slice answer (a god extension of the JSON contract): the answer
     * stops right after that many, so the client must treat an answer holding this many as truncated at its
     * last key and ask again from there. One constant for both sides so they cannot drift apart.
     */
    public static final int STAMPED_TOMBSTONE_CAP = 10_000;

    /** A call without a stamp. */
    public Call(String method, byte[] body, String authorization, int hops, int mode) {
        this(method, body, authorization, hops, mode, 0);
    }

    public byte[] encode() {
        WireWriter w = new WireWriter().string(method).bytes(body).string(authorization).varint(hops).varint(mode);
        if (stamp != 0) {
            w.signed(stamp);
        }
        return w.toBytes();
    }

    public static Call decode(byte[] payload) {
        WireReader r = new WireReader(payload);
        String method = r.string();
        byte[] body = r.bytes();
        String auth = r.string();
        int hops = r.count(255);
        int mode = r.count(EXECUTE);
        boolean stamped = !r.atEnd();
        long stamp = stamped ? r.signed() : 0;
        r.end();
        if (method == null) {
            throw new WireException("call without a method");
        }
        if (stamped && stamp <= 0) { // an encoder writes a stamp only when set
            throw new WireException("call stamp must be positive");
        }
        return new Call(method, body == null ? new byte[0] : body, auth, hops, mode, stamp);
    }

    /** The JSON contract's answer: HTTP-style status and JSON body. */
    public record Reply(int status, byte[] body) {
        public byte[] encode() {
            return new WireWriter().varint(status).bytes(body).toBytes();
        }

        public static Reply decode(byte[] payload) {
            WireReader r = new WireReader(payload);
            int status = r.count(999);
            byte[] body = r.bytes();
            r.end();
            return new Reply(status, body == null ? new byte[0] : body);
        }
    }
}
