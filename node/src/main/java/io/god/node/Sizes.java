package io.god.node;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Byte sizes as Quarkus writes them: {@code 1048576}, {@code 64K}, {@code 8M}, {@code 1G} (binary units). */
public final class Sizes {

    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmgt]?)(i?b)?");

    private Sizes() {
    }

    public static long parse(String text) {
        String s = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        Matcher m = SIZE.matcher(s);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a size: '" + text + "' (use bytes or K, M, G, T, e.g. 64K, 8M)");
        }
        int shift = switch (m.group(2)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            default -> 0;
        };
        long n = Long.parseLong(m.group(1));
        if (n > (Long.MAX_VALUE >> shift)) {
            throw new IllegalArgumentException("size too large: '" + text + "'");
        }
        return n << shift;
    }
}
