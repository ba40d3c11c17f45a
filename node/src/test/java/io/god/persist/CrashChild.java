package io.god.persist;

import io.god.tree.Tree;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Child process of {@link KillNineTest}: writes {@link #op(int)} 0, 1, 2, ... through a DurableTree
 * with fsync=always and tiny snapshot thresholds, printing "ACK i" after each write returned, until it
 * is killed.
 */
public final class CrashChild {

    private CrashChild() {
    }

    /** Op i: every 5th op tombstones the key written two ops before, every 7th is a sub-tree put. */
    static Record op(int i) {
        long ts = i + 1L;
        if (i % 5 == 4) {
            return Record.delete(key(i - 2), ts);
        }
        if (i % 7 == 6) {
            return Record.subPut(key(-1), key(i), value(i), ts);
        }
        return Record.put(key(i), value(i), ts);
    }

    static byte[] key(int i) {
        return ("k" + i).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] value(int i) {
        return ("value-" + i).getBytes(StandardCharsets.UTF_8);
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        int start = Integer.parseInt(args[1]);
        PersistenceOptions o = new PersistenceOptions(FsyncPolicy.ALWAYS, 2048, 2);
        DurableTree d = DurableTree.open(dir, new Tree(() -> 1_000_000L, Duration.ofDays(365)), o);
        System.out.println("OPEN " + d.recovery());
        System.out.flush();
        for (int i = start; i < start + 10_000_000; i++) {
            d.apply(op(i));
            System.out.println("ACK " + i);
            System.out.flush();
        }
    }
}
