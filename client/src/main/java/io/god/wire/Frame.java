package io.god.wire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * One frame of god's binary protocol (port 9191). Every frame is
 *
 * <pre>
 *   u32  length     bytes that follow this field (11 + payload length), big-endian
 *   u64  request id chosen by the caller; a response carries the id of its request
 *   u8   kind       0 request, 1 response, 2 error response (payload = UTF-8 message), 3 hello
 *   u16  operation  {@link Ops}; a response repeats its request's operation
 *   ...  payload    operation-specific, encoded with {@link WireWriter}
 * </pre>
 *
 * Requests are pipelined: a connection carries any number of outstanding requests and responses may
 * come back in any order (matched by id). A connection's first frame is a hello whose payload is the
 * shared secret ({@code god.auth.token}, empty when auth is off); a server with a token answers every
 * request on a connection without a valid hello with an error and closes it. Frames longer than the
 * receiver's maximum are rejected by {@link FrameDecoder} before their payload is buffered.
 */
public record Frame(long id, byte kind, int op, byte[] payload) {

    public static final byte REQUEST = 0;
    public static final byte RESPONSE = 1;
    public static final byte ERROR = 2;
    public static final byte HELLO = 3;

    // big-endian views (a ByteBuffer per encoded frame showed in the node's allocation profile)
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    /** Bytes of the header after the length field. */
    public static final int HEADER = 8 + 1 + 2;

    public Frame {
        if (kind < REQUEST || kind > HELLO) {
            throw new WireException("unknown frame kind " + kind);
        }
        if (op < 0 || op > 0xFFFF) {
            throw new WireException("operation out of range: " + op);
        }
        payload = payload == null ? new byte[0] : payload;
    }

    public static Frame request(long id, int op, byte[] payload) {
        return new Frame(id, REQUEST, op, payload);
    }

    public Frame response(byte[] body) {
        return new Frame(id, RESPONSE, op, body);
    }

    public Frame error(String message) {
        return new Frame(id, ERROR, op, message.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    public String errorMessage() {
        return new String(payload, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The frame's bytes, length prefix included. */
    public byte[] encode() {
        byte[] out = new byte[4 + HEADER + payload.length];
        INT.set(out, 0, HEADER + payload.length);
        LONG.set(out, 4, id);
        out[12] = kind;
        out[13] = (byte) (op >>> 8);
        out[14] = (byte) op;
        System.arraycopy(payload, 0, out, 4 + HEADER, payload.length);
        return out;
    }

    @Override
    public String toString() {
        return "Frame[id=" + id + ", kind=" + kind + ", op=" + op + ", " + payload.length + " bytes]";
    }
}
