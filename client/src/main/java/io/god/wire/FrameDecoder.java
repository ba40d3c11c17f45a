package io.god.wire;

import java.io.ByteArrayOutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits a byte stream into {@link Frame}s. Feed it whatever arrived; it returns the frames completed
 * so far and keeps the rest. A length over the maximum, or a length too short for a header, or an
 * unknown kind throws a {@link WireException} as soon as the header is seen (the connection is then
 * unusable and should be closed); nothing of an oversized frame is buffered.
 */
public final class FrameDecoder {

    // big-endian views of the buffer: a ByteBuffer.wrap per frame was most of what a binary Get allocated (JFR)
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    /** Buffer capacity kept between frames; a larger one (grown for a large frame) is dropped when empty. */
    private static final int KEEP = 64 * 1024;

    private int maxFrame;
    /** Before authentication: no frame after a HELLO is decoded until the server has checked it ({@link #raise}). */
    private boolean holdAfterHello;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private byte[] buf = new byte[0];
    private int start;
    private int end;

    /** @param maxFrame largest accepted frame (header and payload, without the length field) */
    public FrameDecoder(int maxFrame) {
        if (maxFrame < Frame.HEADER) {
            throw new IllegalArgumentException("max frame must be at least " + Frame.HEADER);
        }
        this.maxFrame = maxFrame;
    }

    public int maxFrame() {
        return maxFrame;
    }

    /**
     * A server connection's decoder before its peer authenticated: frames of at most {@code preAuthMax} bytes, and
     * decoding stops after a HELLO, so a large request sent right behind the credential is judged by the limit that
     * applies once the server accepted it ({@link #raise}).
     */
    public static FrameDecoder beforeAuth(int preAuthMax) {
        FrameDecoder d = new FrameDecoder(preAuthMax);
        d.holdAfterHello = true;
        return d;
    }

    /** Whether this decoder still waits for the server to accept a credential ({@link #beforeAuth}). */
    public boolean beforeAuth() {
        return holdAfterHello;
    }

    /** The peer authenticated: frames up to {@code max} bytes, decoded without stopping at a HELLO. */
    public void raise(int max) {
        this.maxFrame = Math.max(this.maxFrame, max);
        this.holdAfterHello = false;
    }

    public List<Frame> feed(byte[] data) {
        return feed(data, 0, data.length);
    }

    public List<Frame> feed(byte[] data, int off, int len) {
        append(data, off, len);
        List<Frame> out = new ArrayList<>(1);
        while (end - start >= 4) {
            long ulength = Integer.toUnsignedLong((int) INT.get(buf, start));
            if (ulength < Frame.HEADER || ulength > maxFrame) {
                throw new WireException(ulength < Frame.HEADER
                        ? "frame length " + ulength + " is shorter than a header"
                        : "frame of " + ulength + " bytes exceeds the maximum of " + maxFrame + " bytes");
            }
            int length = (int) ulength;
            if (end - start >= 4 + Frame.HEADER) {
                byte kind = buf[start + 12];
                if (kind < Frame.REQUEST || kind > Frame.HELLO) {
                    throw new WireException("unknown frame kind " + kind);
                }
            }
            if (end - start < 4 + length) {
                break;
            }
            long id = (long) LONG.get(buf, start + 4);
            byte kind = buf[start + 12];
            int op = (buf[start + 13] & 0xFF) << 8 | buf[start + 14] & 0xFF;
            byte[] payload = Arrays.copyOfRange(buf, start + 4 + Frame.HEADER, start + 4 + length);
            out.add(new Frame(id, kind, op, payload));
            start += 4 + length;
            if (holdAfterHello && kind == Frame.HELLO) {
                break;
            }
        }
        if (start == end) {
            start = 0;
            end = 0;
            if (buf.length > KEEP) {
                buf = new byte[0]; // a large frame's buffer is not kept for the connection's lifetime
            }
        }
        return out;
    }

    /** Bytes received but not yet part of a complete frame. */
    public int buffered() {
        return end - start;
    }

    private void append(byte[] data, int off, int len) {
        if (len == 0) {
            return;
        }
        if (buf.length - end < len) {
            int live = end - start;
            int need = live + len;
            byte[] nb = need <= buf.length ? buf : new byte[Math.max(need, Math.min(buf.length * 2, 4 + maxFrame))];
            if (nb.length < need) {
                nb = new byte[need];
            }
            System.arraycopy(buf, start, nb, 0, live);
            buf = nb;
            start = 0;
            end = live;
        }
        System.arraycopy(data, off, buf, end, len);
        end += len;
    }
}
