package io.god.resp;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** Replies in RESP2 or RESP3 (HELLO 3): each method appends one value to the buffer. */
final class RespWriter {

    private static final byte[] CRLF = {'\r', '\n'};

    private final Buffer out;
    private final RespSession session;

    /** Replies in the session's protocol at the time of each reply (HELLO 3 answers in RESP3 already). */
    RespWriter(Buffer out, RespSession session) {
        this.out = out;
        this.session = session;
    }

    RespWriter simple(String s) {
        out.appendByte((byte) '+').appendString(s).appendBytes(CRLF);
        return this;
    }

    /** An error: {@code message} starts with its code ("ERR ...", "NOAUTH ..."); line breaks become spaces. */
    RespWriter error(String message) {
        out.appendByte((byte) '-').appendString(message.replace('\r', ' ').replace('\n', ' ')).appendBytes(CRLF);
        return this;
    }

    RespWriter integer(long n) {
        out.appendByte((byte) ':').appendString(Long.toString(n)).appendBytes(CRLF);
        return this;
    }

    RespWriter bulk(byte[] b) {
        if (b == null) {
            return nil();
        }
        out.appendByte((byte) '$').appendString(Integer.toString(b.length)).appendBytes(CRLF).appendBytes(b)
                .appendBytes(CRLF);
        return this;
    }

    RespWriter bulk(String s) {
        return bulk(s == null ? null : s.getBytes(StandardCharsets.UTF_8));
    }

    /** The null reply: {@code $-1} in RESP2, {@code _} in RESP3. */
    RespWriter nil() {
        out.appendString(session.protocol == 3 ? "_" : "$-1").appendBytes(CRLF);
        return this;
    }

    /** The null array (ZMPOP finding nothing): {@code *-1} in RESP2, {@code _} in RESP3. */
    RespWriter nilArray() {
        out.appendString(session.protocol == 3 ? "_" : "*-1").appendBytes(CRLF);
        return this;
    }

    RespWriter array(int n) {
        out.appendByte((byte) '*').appendString(Integer.toString(n)).appendBytes(CRLF);
        return this;
    }

    RespWriter bulks(List<byte[]> items) {
        array(items.size());
        items.forEach(this::bulk);
        return this;
    }

    /** A map: {@code %n} in RESP3, a flat array of keys and values in RESP2. Values: String, Long, List or Map. */
    RespWriter map(Map<String, ?> m) {
        if (session.protocol == 3) {
            out.appendByte((byte) '%').appendString(Integer.toString(m.size())).appendBytes(CRLF);
        } else {
            array(m.size() * 2);
        }
        m.forEach((k, v) -> {
            bulk(k);
            value(v);
        });
        return this;
    }

    @SuppressWarnings("unchecked")
    private void value(Object v) {
        if (v instanceof Long n) {
            integer(n);
        } else if (v instanceof Integer n) {
            integer(n);
        } else if (v instanceof List<?> list) {
            array(list.size());
            list.forEach(this::value);
        } else if (v instanceof Map<?, ?> m) {
            map((Map<String, ?>) m);
        } else if (v instanceof byte[] b) {
            bulk(b);
        } else {
            bulk(v == null ? null : v.toString());
        }
    }
}
