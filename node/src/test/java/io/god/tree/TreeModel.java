package io.god.tree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The obviously-correct model the engine is checked against: TreeMaps under the same
 * last-write-wins rule (DESIGN §5), with clears as timestamps.
 */
final class TreeModel {

    static final Comparator<byte[]> ORDER = Arrays::compareUnsigned;

    /** A byte value (null = tombstone) and its timestamp. */
    record Val(byte[] value, long ts) {
    }

    static final class Sub {
        final TreeMap<byte[], Val> entries = new TreeMap<>(ORDER);
        long clearedAt;
        final TreeMap<String, String> config = new TreeMap<>();
        long configTs;

        void write(byte[] k, byte[] v, long ts) {
            TreeModel.write(entries, clearedAt, k, v, ts);
        }

        void clear(long ts) {
            if (ts > clearedAt) {
                entries.values().removeIf(x -> x.ts <= ts);
                clearedAt = ts;
            }
        }

        void configure(String k, String v, long ts) {
            if (ts > configTs) {
                if (v.isEmpty()) {
                    config.remove(k);
                } else {
                    config.put(k, v);
                }
                configTs = ts;
            }
        }

        /** Mirror content: (value, key) pairs sorted by value then key. */
        List<byte[][]> mirror() {
            List<byte[][]> out = new ArrayList<>();
            if (!"yes".equals(config.get("mirrored"))) {
                return out;
            }
            entries.forEach((k, v) -> {
                if (v.value != null) {
                    out.add(new byte[][] {v.value, k, longBytes(v.ts)});
                }
            });
            out.sort((a, b) -> {
                int c = ORDER.compare(a[0], b[0]);
                return c != 0 ? c : ORDER.compare(a[1], b[1]);
            });
            return out;
        }
    }

    final TreeMap<byte[], Val> values = new TreeMap<>(ORDER);
    final TreeMap<byte[], Sub> subs = new TreeMap<>(ORDER);
    long clearedAt;

    static boolean wins(long ts, byte[] v, Val old) {
        if (ts != old.ts) {
            return ts > old.ts;
        }
        if (v == null || old.value == null) {
            return v == null && old.value != null;
        }
        return ORDER.compare(v, old.value) > 0;
    }

    private static void write(Map<byte[], Val> map, long clearedAt, byte[] k, byte[] v, long ts) {
        if (ts <= clearedAt) {
            return;
        }
        Val old = map.get(k);
        if (old == null || wins(ts, v, old)) {
            map.put(k, new Val(v, ts));
        }
    }

    void put(byte[] k, byte[] v, long ts) {
        write(values, clearedAt, k, v, ts);
    }

    /** Sub-tree writes create the sub tree (a marker) whenever they are not older than a clear. */
    Sub sub(byte[] k, long ts) {
        return ts <= clearedAt ? null : subs.computeIfAbsent(k, x -> new Sub());
    }

    void clear(long ts) {
        if (ts > clearedAt) {
            values.values().removeIf(x -> x.ts <= ts);
            subs.values().forEach(s -> s.clear(ts));
            clearedAt = ts;
        }
    }

    long size() {
        long n = values.values().stream().filter(v -> v.value != null).count();
        for (Sub s : subs.values()) {
            n += s.entries.values().stream().filter(v -> v.value != null).count();
        }
        return n;
    }

    /** Keys holding a live value or a sub tree with a live entry (Redis' keys), in key order. */
    java.util.NavigableSet<byte[]> keys() {
        java.util.TreeSet<byte[]> out = new java.util.TreeSet<>(ORDER);
        values.forEach((k, v) -> {
            if (v.value != null) {
                out.add(k);
            }
        });
        subs.forEach((k, sub) -> {
            if (sub.entries.values().stream().anyMatch(v -> v.value != null)) {
                out.add(k);
            }
        });
        return out;
    }

    long realSize() {
        long n = values.size();
        for (Sub s : subs.values()) {
            n += s.entries.size();
        }
        return n;
    }

    /** Live (key, value, ts) triples of a map, in key order. */
    static List<byte[][]> live(TreeMap<byte[], Val> map) {
        List<byte[][]> out = new ArrayList<>();
        map.forEach((k, v) -> {
            if (v.value != null) {
                out.add(new byte[][] {k, v.value, longBytes(v.ts)});
            }
        });
        return out;
    }

    static byte[] longBytes(long v) {
        return java.nio.ByteBuffer.allocate(8).putLong(v).array();
    }

    static long longOf(byte[] b) {
        return java.nio.ByteBuffer.wrap(b).getLong();
    }

    /** Builds the model's content into a fresh tree in the given key order, with other timestamps. */
    static Tree rebuild(TreeModel m, List<byte[]> order) {
        Tree t = TreeFixtures.newTree();
        for (byte[] k : order) {
            Val v = m.values.get(k);
            if (v != null) {
                if (v.value == null) {
                    t.delete(k, 1);
                } else {
                    t.put(k, v.value, 1);
                }
            }
            Sub s = m.subs.get(k);
            if (s != null) {
                t.subClear(k, 1);
                if (!s.config.isEmpty()) {
                    t.subSetConfiguration(k, s.config, 2);
                }
                s.entries.forEach((sk, sv) -> {
                    if (sv.value == null) {
                        t.subDelete(k, sk, 3);
                    } else {
                        t.subPut(k, sk, sv.value, 3);
                    }
                });
            }
        }
        return t;
    }
}
