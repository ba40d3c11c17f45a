package io.god.bench;

import io.god.client.KeyHash;
import io.god.time.NanoClock;
import io.god.tree.Item;
import io.god.tree.SortedView;
import io.god.tree.Tree;
import java.time.Duration;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The engine against the JDK's sorted maps at 1 M keys: put (overwrite), get, a 100-entry slice and
 * an ordinal lookup. Keys are 16-byte murmur hashes (as god's hashed keys), values 16 bytes.
 * Run: {@code java -jar bench/target/benchmarks.jar TreeBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xms4g", "-Xmx4g"})
@State(Scope.Benchmark)
public class TreeBenchmark {

    @Param({"1000000"})
    public int keys;

    private byte[][] keyList;
    private byte[] value;
    private Tree tree;
    private TreeMap<byte[], byte[]> treeMap;
    private ConcurrentSkipListMap<byte[], byte[]> skipList;
    private long timestamp;

    @Setup(Level.Trial)
    public void setUp() {
        keyList = new byte[keys][];
        value = KeyHash.murmur("value");
        tree = new Tree(NanoClock.system(), Duration.ofHours(24));
        treeMap = new TreeMap<>(Arrays::compareUnsigned);
        skipList = new ConcurrentSkipListMap<>(Arrays::compareUnsigned);
        for (int i = 0; i < keys; i++) {
            keyList[i] = KeyHash.murmur(i);
            tree.put(keyList[i], value, 1);
            treeMap.put(keyList[i], value);
            skipList.put(keyList[i], value);
        }
        timestamp = 2;
    }

    private byte[] randomKey() {
        return keyList[ThreadLocalRandom.current().nextInt(keys)];
    }

    @Benchmark
    public boolean godPut() {
        return tree.put(randomKey(), value, timestamp++);
    }

    @Benchmark
    public byte[] treeMapPut() {
        return treeMap.put(randomKey(), value);
    }

    @Benchmark
    public byte[] skipListPut() {
        return skipList.put(randomKey(), value);
    }

    @Benchmark
    public Item godGet() {
        return tree.state().get(randomKey());
    }

    @Benchmark
    public byte[] treeMapGet() {
        return treeMap.get(randomKey());
    }

    @Benchmark
    public byte[] skipListGet() {
        return skipList.get(randomKey());
    }

    @Benchmark
    public void godSlice100(Blackhole bh) {
        for (Item i : tree.state().values().slice(randomKey(), true, null, true, 100, false)) {
            bh.consume(i);
        }
    }

    @Benchmark
    public void treeMapSlice100(Blackhole bh) {
        slice(treeMap, bh);
    }

    @Benchmark
    public void skipListSlice100(Blackhole bh) {
        slice(skipList, bh);
    }

    private void slice(NavigableMap<byte[], byte[]> map, Blackhole bh) {
        Iterator<Map.Entry<byte[], byte[]>> it = map.tailMap(randomKey(), true).entrySet().iterator();
        for (int i = 0; i < 100 && it.hasNext(); i++) {
            bh.consume(it.next());
        }
    }

    /** Ordinal of a key: O(depth) in god; the JDK maps can only count, O(n). */
    @Benchmark
    public long godIndexOf() {
        SortedView v = tree.state().values();
        return v.indexOf(randomKey()).n();
    }

    @Benchmark
    public int treeMapIndexOf() {
        return treeMap.headMap(randomKey()).size();
    }
}
