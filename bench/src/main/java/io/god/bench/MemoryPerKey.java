package io.god.bench;

import io.god.client.KeyHash;
import io.god.time.NanoClock;
import io.god.tree.Tree;
import java.time.Duration;
import java.util.Arrays;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.openjdk.jol.info.GraphLayout;

/**
 * Retained bytes per key (JOL object-graph walk) of the engine, a TreeMap and a
 * ConcurrentSkipListMap holding the same keys (16-byte murmur hashes) and 16-byte values.
 * Run: {@code java -cp bench/target/benchmarks.jar io.god.bench.MemoryPerKey [keys]}.
 */
public final class MemoryPerKey {

    private MemoryPerKey() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        Tree tree = new Tree(NanoClock.system(), Duration.ofHours(24));
        TreeMap<byte[], byte[]> treeMap = new TreeMap<>(Arrays::compareUnsigned);
        ConcurrentSkipListMap<byte[], byte[]> skipList = new ConcurrentSkipListMap<>(Arrays::compareUnsigned);
        for (int i = 0; i < n; i++) {
            byte[] k = KeyHash.murmur(i);
            byte[] v = KeyHash.murmur(-i);
            tree.put(k, v, 1);
            treeMap.put(k, v);
            skipList.put(k, v);
        }
        report("god tree", GraphLayout.parseInstance(tree.state()).totalSize(), n);
        report("TreeMap", GraphLayout.parseInstance(treeMap).totalSize(), n);
        report("ConcurrentSkipListMap", GraphLayout.parseInstance(skipList).totalSize(), n);
    }

    private static void report(String what, long bytes, int n) {
        System.out.printf("%-24s %,14d bytes  %6.1f bytes/key (keys and values of 16 bytes included)%n",
                what, bytes, (double) bytes / n);
    }
}
