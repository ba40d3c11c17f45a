package io.god.api;

import java.util.function.Function;

/**
 * The RESP listener's settings: {@code god.resp.port} (default 6379; -1 off; a default port already taken only
 * warns, a port set explicitly must bind), {@code god.resp.host} (default: the binary protocol's bind host),
 * {@code god.resp.sync} (writes wait for every live replica, default true), {@code god.resp.max-connections}
 * (10 000), {@code god.resp.threads} (workers running commands that wait, 16) and {@code god.resp.event-loops}
 * (listeners on the port, each on its own event loop: default {@link #defaultEventLoops}).
 */
record RespSettings(int port, boolean portSet, String host, boolean sync, int maxConnections, int threads,
                    int eventLoops) {

    static final int DEFAULT_PORT = 6379;

    static RespSettings from(Function<String, java.util.Optional<String>> config) {
        java.util.Optional<String> port = config.apply("god.resp.port").map(String::trim);
        return new RespSettings(port.map(p -> number("god.resp.port", p, -1, 65_535)).orElse(DEFAULT_PORT),
                port.isPresent(), config.apply("god.resp.host").map(String::trim).filter(h -> !h.isEmpty()).orElse(null),
                config.apply("god.resp.sync").map(v -> bool("god.resp.sync", v)).orElse(true),
                config.apply("god.resp.max-connections").map(v -> number("god.resp.max-connections", v, 1, 1_000_000))
                        .orElse(10_000),
                config.apply("god.resp.threads").map(v -> number("god.resp.threads", v, 1, 1_024)).orElse(16),
                config.apply("god.resp.event-loops").map(v -> number("god.resp.event-loops", v, 1, 64))
                        .orElse(defaultEventLoops(Runtime.getRuntime().availableProcessors())));
    }

    /**
     * One event loop a core but one, at least one: the spare core runs the rest of the node (collection, the ring's
     * transport and replication, snapshots), as Redis advises to leave a core spare of its I/O threads. On two cores
     * one loop also served 50 unpipelined clients on the same host 15–25 % faster than two (bench/RESULTS.md): a loop
     * woken for more ready connections at once, fewer sleeps and wake-ups.
     */
    static int defaultEventLoops(int cores) {
        return Math.max(1, Math.min(64, cores - 1));
    }

    private static int number(String key, String value, int min, int max) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(key + " must be a whole number from " + min + " to " + max + ", got '"
                + value + "'");
    }

    private static boolean bool(String key, String value) {
        return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(key + " must be true or false, got '" + value + "'");
        };
    }
}
