package io.god.tree;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Small helpers shared by the engine tests. */
final class TreeFixtures {

    static final Duration DAY = Duration.ofHours(24);

    private TreeFixtures() {
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] b(int... bytes) {
        byte[] out = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = (byte) bytes[i];
        }
        return out;
    }

    static String s(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    static List<String> keys(List<Item> items) {
        return items.stream().map(i -> s(i.key())).toList();
    }

    /** A clock that only moves when told to. */
    static final class ManualClock implements io.god.time.NanoClock {
        final AtomicLong now = new AtomicLong(1_000_000_000_000L);

        @Override
        public long nanos() {
            return now.get();
        }

        void advance(Duration d) {
            now.addAndGet(d.toNanos());
        }
    }

    static Tree newTree() {
        return new Tree(new ManualClock(), DAY);
    }
}
