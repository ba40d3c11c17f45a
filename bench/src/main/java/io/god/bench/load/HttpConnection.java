package io.god.bench.load;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One keep-alive HTTP/1.1 connection doing blocking POSTs: the least a client can spend per request,
 * so the figures measure the server (like {@code redis-benchmark}'s one connection per client). Reads
 * Content-Length and chunked answers; reconnects once after the server closed an idle connection.
 */
final class HttpConnection implements AutoCloseable {

    /** A status and a body. */
    record Response(int status, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private static final int MAX_BODY = 64 << 20;

    private final String host;
    private final int port;
    private final String authorization;
    private Socket socket;
    private OutputStream out;
    private InputStream in;

    HttpConnection(String hostPort, String token) {
        int colon = hostPort.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("HTTP endpoint must be host:port, was " + hostPort);
        }
        this.host = hostPort.substring(0, colon);
        this.port = Integer.parseInt(hostPort.substring(colon + 1));
        this.authorization = token == null ? "" : "Authorization: Bearer " + token + "\r\n";
    }

    Response post(String path, byte[] body) {
        boolean fresh = socket == null;
        try {
            if (fresh) {
                connect();
            }
            return exchange(path, body);
        } catch (IOException e) {
            closeQuietly();
            if (fresh) {
                throw new UncheckedIOException(e);
            }
            try {
                connect();
                return exchange(path, body);
            } catch (IOException again) {
                closeQuietly();
                throw new UncheckedIOException(again);
            }
        }
    }

    private void connect() throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.connect(new InetSocketAddress(host, port), 5000);
        s.setSoTimeout(30_000);
        socket = s;
        out = new BufferedOutputStream(s.getOutputStream(), 8192);
        in = new BufferedInputStream(s.getInputStream(), 16384);
    }

    private Response exchange(String path, byte[] body) throws IOException {
        String head = "POST " + path + " HTTP/1.1\r\nHost: " + host + ":" + port
                + "\r\nContent-Type: application/json\r\n" + authorization
                + "Content-Length: " + body.length + "\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        String status = line();
        if (status == null) {
            throw new IOException("connection closed before the answer");
        }
        String[] parts = status.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
            throw new IOException("not an HTTP answer: " + status);
        }
        int code = Integer.parseInt(parts[1]);
        long length = -1;
        boolean chunked = false;
        boolean close = false;
        String h;
        while ((h = line()) != null && !h.isEmpty()) {
            int c = h.indexOf(':');
            if (c < 0) {
                continue;
            }
            String name = h.substring(0, c).trim().toLowerCase(Locale.ROOT);
            String value = h.substring(c + 1).trim();
            switch (name) {
                case "content-length" -> length = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> close = value.equalsIgnoreCase("close");
                default -> { }
            }
        }
        byte[] payload;
        if (chunked) {
            payload = chunks();
        } else if (length >= 0) {
            payload = exactly(length);
        } else {
            throw new IOException("answer without Content-Length or chunked encoding");
        }
        if (close) {
            closeQuietly();
        }
        return new Response(code, payload);
    }

    private byte[] chunks() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        while (true) {
            String size = line();
            if (size == null) {
                throw new IOException("connection closed inside a chunked answer");
            }
            int semi = size.indexOf(';');
            long n = Long.parseLong((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
            if (n == 0) {
                String trailer;
                while ((trailer = line()) != null && !trailer.isEmpty()) {
                    // trailers ignored
                }
                return b.toByteArray();
            }
            b.write(exactly(n));
            line();
            if (b.size() > MAX_BODY) {
                throw new IOException("answer larger than " + MAX_BODY + " bytes");
            }
        }
    }

    private byte[] exactly(long n) throws IOException {
        if (n > MAX_BODY) {
            throw new IOException("answer larger than " + MAX_BODY + " bytes");
        }
        byte[] b = in.readNBytes((int) n);
        if (b.length != n) {
            throw new IOException("connection closed inside the answer");
        }
        return b;
    }

    /** One CRLF-terminated header line (ASCII), null at the end of the stream. */
    private String line() throws IOException {
        StringBuilder b = new StringBuilder(64);
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                int len = b.length();
                if (len > 0 && b.charAt(len - 1) == '\r') {
                    b.setLength(len - 1);
                }
                return b.toString();
            }
            if (b.length() > 16384) {
                throw new IOException("header line longer than 16 KiB");
            }
            b.append((char) c);
        }
        return b.length() == 0 ? null : b.toString();
    }

    private void closeQuietly() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        socket = null;
    }

    @Override
    public void close() {
        closeQuietly();
    }
}
