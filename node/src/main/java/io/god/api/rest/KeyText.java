package io.god.api.rest;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How /v1 spells bytes. In: a path segment is percent-decoded (RFC 3986, strictly: {@code %} must be
 * followed by two hex digits; {@code +} is a plus) into bytes; with {@code ?b64=true} it is base64url
 * instead (RFC 4648 §5, padding optional). Query values decode the same way, except that {@code +}
 * is a space (form encoding, as {@code curl --data-urlencode} writes it). Out: every byte field is
 * given twice, as UTF-8 text (null when the bytes are not valid UTF-8) and as standard base64.
 */
public final class KeyText {

    private KeyText() {
    }

    /** Percent-decodes one path segment or query value into bytes; 400 on a bad escape. */
    public static byte[] percentDecode(String raw, boolean plusIsSpace, String what) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length());
        byte[] in = raw.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < in.length; i++) {
            byte b = in[i];
            if (b == '%') {
                if (i + 2 >= in.length || hex(in[i + 1]) < 0 || hex(in[i + 2]) < 0) {
                    throw new V1Error(400, "bad percent-encoding in " + what + " at offset " + i
                            + ": '%' must be followed by two hex digits");
                }
                out.write(hex(in[i + 1]) << 4 | hex(in[i + 2]));
                i += 2;
            } else if (b == '+' && plusIsSpace) {
                out.write(' ');
            } else {
                out.write(b);
            }
        }
        return out.toByteArray();
    }

    private static int hex(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /** Base64url (padding optional); 400 naming the field on anything else. */
    public static byte[] base64Url(String text, String what) {
        try {
            String t = text;
            while (t.endsWith("=")) {
                t = t.substring(0, t.length() - 1);
            }
            if (t.length() % 4 == 1) {
                throw new IllegalArgumentException("bad length");
            }
            return Base64.getUrlDecoder().decode(t);
        } catch (IllegalArgumentException e) {
            throw new V1Error(400, "bad base64url in " + what + ": " + text);
        }
    }

    /** Standard base64 (as in JSON bodies); 400 naming the field. */
    public static byte[] base64(String text, String what) {
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new V1Error(400, "bad base64 in " + what + ": " + e.getMessage());
        }
    }

    /** A key from a raw (still encoded) path segment. */
    public static byte[] segment(String raw, boolean b64, String what) {
        if (b64) {
            return base64Url(new String(percentDecode(raw, false, what), StandardCharsets.UTF_8), what);
        }
        return percentDecode(raw, false, what);
    }

    /** The bytes as UTF-8 text, or null when they are not valid UTF-8 (or null). */
    public static String text(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    public static String b64(byte[] bytes) {
        return bytes == null ? null : Base64.getEncoder().encodeToString(bytes);
    }

    /**
     * Parses a raw query string: names and values percent-decoded ({@code +} = space); a name
     * given twice or not in {@code allowed} is a 400.
     */
    public static Map<String, byte[]> query(String raw, java.util.Set<String> allowed) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = new String(percentDecode(eq < 0 ? pair : pair.substring(0, eq), true, "query parameter name"),
                    StandardCharsets.UTF_8);
            byte[] value = eq < 0 ? new byte[0] : percentDecode(pair.substring(eq + 1), true, "query parameter " + name);
            if (!allowed.contains(name)) {
                throw new V1Error(400, "unknown query parameter '" + name + "' (allowed: "
                        + String.join(", ", new java.util.TreeSet<>(allowed)) + ")");
            }
            if (out.put(name, value) != null) {
                throw new V1Error(400, "query parameter '" + name + "' given twice");
            }
        }
        return out;
    }
}
