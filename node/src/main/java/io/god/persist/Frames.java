package io.god.persist;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Self-delimiting, checksummed frames: {@code [body length: 4 bytes BE][CRC32C of length and body:
 * 4 bytes BE][body]}. A reader stops at the first frame that is cut short or fails its checksum; the
 * bytes before it are the valid prefix of the file.
 */
final class Frames {

    static final int HEADER = 8;
    /** Bodies are bounded so a flipped length bit cannot make a reader allocate gigabytes. */
    static final int MAX_BODY = 64 << 20;

    private Frames() {
    }

    static int crc(byte[] body, int length) {
        return crc(body, 0, length);
    }

    static int crc(byte[] buf, int from, int length) {
        CRC32C c = new CRC32C();
        c.update(length >>> 24);
        c.update(length >>> 16);
        c.update(length >>> 8);
        c.update(length);
        c.update(buf, from, length);
        return (int) c.getValue();
    }

    /**
     * The body length of the frame starting at buf[p] if a whole frame with a matching checksum is
     * there, else -1. Cheap checks first (a plausible length, a known record kind) so scanning garbage
     * for the next valid frame rarely computes a checksum.
     */
    static int frameAt(byte[] buf, int p) {
        if (p < 0 || buf.length - p < HEADER + 1) {
            return -1;
        }
        ByteBuffer h = ByteBuffer.wrap(buf, p, HEADER);
        int length = h.getInt();
        int crc = h.getInt();
        if (length <= 0 || length > MAX_BODY || length > buf.length - p - HEADER) {
            return -1;
        }
        if (Record.Kind.of(buf[p + HEADER]) == null) {
            return -1;
        }
        return crc(buf, p + HEADER, length) == crc ? length : -1;
    }

    /** Appends the frame of body to out (which must have room). */
    static void put(ByteBuffer out, byte[] body) {
        out.putInt(body.length);
        out.putInt(crc(body, body.length));
        out.put(body);
    }

    static byte[] frame(byte[] body) {
        ByteBuffer b = ByteBuffer.allocate(HEADER + checkedBody(body.length));
        put(b, body);
        return b.array();
    }

    /** A body's length, refused over {@link #MAX_BODY}. */
    static int checkedBody(int length) {
        if (length > MAX_BODY) {
            throw new IllegalArgumentException("record of " + length + " bytes exceeds " + MAX_BODY);
        }
        return length;
    }

    /** Writes the header of the frame at buf[0] whose body of {@code length} bytes is already in place after it. */
    static void seal(byte[] buf, int length) {
        ByteBuffer.wrap(buf).putInt(length).putInt(crc(buf, HEADER, length));
    }

    /** Reads frames from a stream, tracking the length of the valid prefix. */
    static final class Reader {
        private final InputStream in;
        private long offset;

        Reader(InputStream in, long startOffset) {
            this.in = in;
            this.offset = startOffset;
        }

        /** Offset just after the last good frame (or the start). */
        long offset() {
            return offset;
        }

        /**
         * The next body; null at a clean end of stream. Throws {@link CorruptDataException} for a torn
         * or corrupt frame (the valid prefix ends at {@link #offset()}).
         */
        byte[] next() throws IOException {
            byte[] header = new byte[HEADER];
            int n = in.readNBytes(header, 0, HEADER);
            if (n == 0) {
                return null;
            }
            if (n < HEADER) {
                throw new CorruptDataException("torn frame header (" + n + " of " + HEADER + " bytes) at offset " + offset);
            }
            ByteBuffer h = ByteBuffer.wrap(header);
            int length = h.getInt();
            int crc = h.getInt();
            if (length <= 0 || length > MAX_BODY) {
                throw new CorruptDataException("impossible frame length " + length + " at offset " + offset);
            }
            byte[] body = in.readNBytes(length);
            if (body.length < length) {
                throw new CorruptDataException("torn frame (" + body.length + " of " + length + " bytes) at offset " + offset);
            }
            if (crc(body, length) != crc) {
                throw new CorruptDataException("checksum mismatch in frame at offset " + offset);
            }
            offset += HEADER + length;
            return body;
        }

        static void readMagic(InputStream in, byte[] magic, String what) throws IOException {
            byte[] got = in.readNBytes(magic.length);
            if (got.length < magic.length) {
                throw new CorruptDataException(what + " header is torn (" + got.length + " bytes)");
            }
            if (!java.util.Arrays.equals(got, magic)) {
                throw new CorruptDataException(what + " does not start with the expected magic bytes");
            }
        }
    }
}
