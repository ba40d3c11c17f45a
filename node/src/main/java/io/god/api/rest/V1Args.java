package io.god.api.rest;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Path segments (after /v1/<collection>) and query parameters. */
final class V1Args {
    final String[] segments;
    final Map<String, byte[]> query;
    final boolean b64;

    V1Args(String[] segments, Map<String, byte[]> query) {
        this.segments = segments;
        this.query = query;
        this.b64 = flag(query, "b64", false);
    }

    byte[] seg(int i, String what) {
        return KeyText.segment(segments[i], b64, what);
    }

    boolean has(String name) {
        return query.containsKey(name);
    }

    String text(String name, String dflt) {
        byte[] v = query.get(name);
        return v == null ? dflt : new String(v, StandardCharsets.UTF_8);
    }

    byte[] key(String name) {
        byte[] v = query.get(name);
        if (v == null) {
            return null;
        }
        return b64 ? KeyText.base64Url(new String(v, StandardCharsets.UTF_8), name) : v;
    }

    boolean flag(String name) {
        return flag(query, name, false);
    }

    boolean flag(String name, boolean dflt) {
        return flag(query, name, dflt);
    }

    private static boolean flag(Map<String, byte[]> query, String name, boolean dflt) {
        byte[] v = query.get(name);
        if (v == null) {
            return dflt;
        }
        String s = new String(v, StandardCharsets.UTF_8);
        return switch (s) {
            case "true", "" -> true;
            case "false" -> false;
            default -> throw new V1Error(400, name + " must be true or false, was " + s);
        };
    }

    long number(String name, long dflt) {
        byte[] v = query.get(name);
        if (v == null) {
            return dflt;
        }
        try {
            return Long.parseLong(new String(v, StandardCharsets.UTF_8));
        } catch (NumberFormatException e) {
            throw new V1Error(400, name + " must be an integer, was " + new String(v, StandardCharsets.UTF_8));
        }
    }
}
