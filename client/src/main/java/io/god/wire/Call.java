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
 */
public record Call(String method, byte[] body, String authorization, int hops, int mode) {

    public static final int ROUTE = 0;
    public static final int EXECUTE = 1;

    public byte[] encode() {
        return new WireWriter().string(method).bytes(body).string(authorization).varint(hops).varint(mode).toBytes();
    }

    public static Call decode(byte[] payload) {
        WireReader r = new WireReader(payload);
        String method = r.string();
        byte[] body = r.bytes();
        String auth = r.string();
        int hops = r.count(255);
        int mode = r.count(EXECUTE);
        r.end();
        if (method == null) {
            throw new WireException("call without a method");
        }
        return new Call(method, body == null ? new byte[0] : body, auth, hops, mode);
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
