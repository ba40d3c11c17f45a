package io.god.resp;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads RESP commands as a client sends them: arrays of bulk strings ({@code *2\r\n$3\r\nGET\r\n$1\r\nk\r\n}) or
 * inline commands (a line of space-separated words, as {@code telnet} and {@code redis-cli} pipes send). Bytes come
 * in pieces, commands may be pipelined; every length is bounded, and a protocol error is final (the connection
 * answers it and closes, as Redis does).
 */
final class RespReader {

    /** A protocol error: the message is sent as {@code -ERR Protocol error: <message>}. */
    static final class ProtocolError extends RuntimeException {
        ProtocolError(String message) {
            super(message, null, false, false);
        }
    }

    /** Redis' PROTO_INLINE_MAX_SIZE: an inline command (or an array/bulk header line) longer than this is refused. */
    static final int MAX_LINE = 64 * 1024;

    private final int maxArgs;
    private final long maxBulk;
    private final long maxCommand;
    /** Bytes of the arguments of the command being read. */
    private long commandBytes;
    private byte[] buf = new byte[1024];
    private int start;
    private int end;
    /** The command being read: its declared argument count and the arguments read so far. */
    private int expected = -1;
    private List<byte[]> args;
    private long bulk = -1;

    /**
     * @param maxArgs the most arguments one command may declare
     * @param maxBulk the longest argument (bytes)
     * @param maxCommand the most bytes all arguments of one command may hold together
     */
    RespReader(int maxArgs, long maxBulk, long maxCommand) {
        this.maxArgs = maxArgs;
        this.maxBulk = maxBulk;
        this.maxCommand = maxCommand;
    }

    /** Adds received bytes and returns the commands they complete (each a list of arguments, the name first). */
    List<List<byte[]>> feed(byte[] data) {
        append(data);
        return commands();
    }

    /** {@link #feed(byte[])} of a received buffer's readable bytes, copied once (into this reader's buffer). */
    List<List<byte[]>> feed(io.netty.buffer.ByteBuf data) {
        int n = data.readableBytes();
        reserve(n);
        data.getBytes(data.readerIndex(), buf, end, n);
        end += n;
        return commands();
    }

    private List<List<byte[]>> commands() {
        List<List<byte[]>> out = new ArrayList<>(1);
        while (true) {
            List<byte[]> command = next();
            if (command == null) {
                break;
            }
            if (!command.isEmpty()) { // an empty inline line is ignored, as by Redis
                out.add(command);
            }
        }
        compact();
        return out;
    }

    /** Bytes held for a command not yet complete. */
    int buffered() {
        return end - start;
    }

    private List<byte[]> next() {
        if (expected < 0) {
            if (start == end) {
                return null;
            }
            if (buf[start] != '*') {
                return inline();
            }
            int eol = lineEnd();
            if (eol < 0) {
                return null;
            }
            long n = number(start + 1, eol, "invalid multibulk length");
            start = eol + 2;
            if (n > maxArgs) {
                throw new ProtocolError("invalid multibulk length");
            }
            if (n <= 0) {
                return List.of(); // *0 and *-1: nothing to run
            }
            expected = (int) n;
            args = new ArrayList<>(Math.min(expected, 16));
        }
        while (args.size() < expected) {
            if (bulk < 0) {
                int eol = lineEnd();
                if (eol < 0) {
                    return null;
                }
                if (buf[start] != '$') {
                    throw new ProtocolError("expected '$', got '" + (char) buf[start] + "'");
                }
                long n = number(start + 1, eol, "invalid bulk length");
                if (n < 0 || n > maxBulk) {
                    throw new ProtocolError("invalid bulk length");
                }
                commandBytes += n;
                if (commandBytes > maxCommand) {
                    throw new ProtocolError("command of more than " + maxCommand + " bytes (god.limits.body-size)");
                }
                bulk = n;
                start = eol + 2;
            }
            if (end - start < bulk + 2) {
                return null; // the buffer grows with what arrives, never to a declared length up front
            }
            byte[] arg = new byte[(int) bulk];
            System.arraycopy(buf, start, arg, 0, arg.length);
            if (buf[start + arg.length] != '\r' || buf[start + arg.length + 1] != '\n') {
                throw new ProtocolError("expected CRLF after a bulk string");
            }
            start += arg.length + 2;
            bulk = -1;
            args.add(arg);
        }
        List<byte[]> done = args;
        expected = -1;
        args = null;
        commandBytes = 0;
        return done;
    }

    /** An inline command: the line split at spaces (quotes are not interpreted). */
    private List<byte[]> inline() {
        int eol = -1;
        for (int i = start; i < end; i++) {
            if (buf[i] == '\n') {
                eol = i;
                break;
            }
        }
        if (eol < 0) {
            if (end - start > MAX_LINE) {
                throw new ProtocolError("too big inline request");
            }
            return null;
        }
        int stop = eol > start && buf[eol - 1] == '\r' ? eol - 1 : eol;
        String line = new String(buf, start, stop - start, StandardCharsets.UTF_8);
        start = eol + 1;
        List<byte[]> words = new ArrayList<>();
        for (String w : line.trim().split("\\s+")) {
            if (!w.isEmpty()) {
                words.add(w.getBytes(StandardCharsets.UTF_8));
            }
        }
        if (words.size() > maxArgs) {
            throw new ProtocolError("invalid multibulk length");
        }
        return words;
    }

    /** The index of the CR of the next CRLF from {@code start}, or -1 when the line is not complete. */
    private int lineEnd() {
        for (int i = start; i + 1 < end; i++) {
            if (buf[i] == '\r' && buf[i + 1] == '\n') {
                return i;
            }
        }
        if (end - start > MAX_LINE) {
            throw new ProtocolError("too big header line");
        }
        return -1;
    }

    private long number(int from, int to, String what) {
        if (from >= to || to - from > 19) {
            throw new ProtocolError(what);
        }
        long n = 0;
        boolean negative = buf[from] == '-';
        for (int i = negative ? from + 1 : from; i < to; i++) {
            if (buf[i] < '0' || buf[i] > '9') {
                throw new ProtocolError(what);
            }
            n = n * 10 + (buf[i] - '0');
        }
        return negative ? -n : n;
    }

    private void append(byte[] data) {
        reserve(data.length);
        System.arraycopy(data, 0, buf, end, data.length);
        end += data.length;
    }

    /** Room for {@code more} bytes after {@code end}. */
    private void reserve(int more) {
        if (buf.length - end >= more) {
            return;
        }
        int live = end - start;
        byte[] nb = live + more <= buf.length ? buf : new byte[Math.max(live + more, Math.min(buf.length * 2, live + more
                + MAX_LINE))];
        System.arraycopy(buf, start, nb, 0, live);
        buf = nb;
        start = 0;
        end = live;
    }

    private void compact() {
        if (start == end) {
            start = 0;
            end = 0;
            if (buf.length > MAX_LINE) {
                buf = new byte[1024]; // a large command's buffer is not kept for the connection's lifetime
            }
        }
    }
}
