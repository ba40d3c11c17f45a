package io.god.setop;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * An in-memory {@link SortedSource} over entries sorted by unsigned key order, for tests and
 * benchmarks. {@link #skip} gallops (exponential then binary search from the current position), so a
 * skip over distance d costs O(log d) key comparisons; with {@code linear} it steps entry by entry
 * instead (a classic merge). Counts the key comparisons ({@link #visited()}) and skip calls
 * ({@link #seeks()}) it served. Not thread-safe.
 */
public final class ListSource implements SortedSource {
    private final SetEntry[] entries;
    private final byte[][] keys; // entries' keys, one indirection less per comparison
    private final boolean linear;
    private int pos = -1; // index of the current entry; -1 before the first read
    private long visited;
    private long seeks;

    private ListSource(SetEntry[] entries, byte[][] keys, boolean linear) {
        this.entries = entries;
        this.keys = keys;
        this.linear = linear;
    }

    private ListSource(SetEntry[] entries, boolean linear) {
        this(entries, keysOf(entries), linear);
    }

    private static byte[][] keysOf(SetEntry[] entries) {
        byte[][] keys = new byte[entries.length][];
        for (int i = 0; i < entries.length; i++) {
            keys[i] = entries[i].key();
        }
        return keys;
    }

    /** A galloping source over {@code entries}, which must be strictly ascending by key. */
    public static ListSource of(List<SetEntry> entries) {
        return new ListSource(checked(entries), false);
    }

    /** A source that skips by stepping one entry at a time (the linear-merge baseline). */
    public static ListSource linear(List<SetEntry> entries) {
        return new ListSource(checked(entries), true);
    }

    /** Entries whose value equals the key, from UTF-8 strings in any order (duplicates dropped). */
    public static List<SetEntry> entries(Collection<String> keys) {
        List<SetEntry> out = new ArrayList<>();
        keys.stream().map(k -> k.getBytes(StandardCharsets.UTF_8)).sorted(Keys::compare)
                .forEach(k -> {
                    if (out.isEmpty() || Keys.compare(out.get(out.size() - 1).key(), k) != 0) {
                        out.add(SetEntry.of(k, k));
                    }
                });
        return out;
    }

    private static SetEntry[] checked(List<SetEntry> entries) {
        SetEntry[] a = entries.toArray(new SetEntry[0]);
        for (int i = 1; i < a.length; i++) {
            if (Keys.compare(a[i - 1].key(), a[i].key()) >= 0) {
                throw new IllegalArgumentException("entries not strictly ascending at index " + i);
            }
        }
        return a;
    }

    /** Opens a fresh cursor over the same entries (shares the array). */
    public ListSource reopen() {
        return new ListSource(entries, keys, linear);
    }

    @Override
    public SetEntry skip(byte[] min, boolean inclusive) {
        seeks++;
        int from = Math.max(pos, 0);
        if (from >= entries.length) {
            pos = entries.length;
            return null;
        }
        pos = linear ? stepTo(from, min, inclusive) : gallopTo(from, min, inclusive);
        return pos < entries.length ? entries[pos] : null;
    }

    @Override
    public SetEntry next() {
        if (pos < entries.length) {
            pos++;
        }
        if (pos < entries.length) {
            visited++;
            return entries[pos];
        }
        return null;
    }

    private boolean ok(int i, byte[] min, boolean inclusive) {
        visited++;
        return Keys.atLeast(keys[i], min, inclusive);
    }

    private int stepTo(int i, byte[] min, boolean inclusive) {
        while (i < entries.length && !ok(i, min, inclusive)) {
            i++;
        }
        return i;
    }

    /** The first index ≥ from whose key satisfies the bound (entries.length when none). */
    private int gallopTo(int from, byte[] min, boolean inclusive) {
        if (ok(from, min, inclusive)) {
            return from;
        }
        int lo = from; // known not to satisfy
        int step = 1;
        int hi;
        while (true) {
            hi = lo + step;
            if (hi >= entries.length) {
                hi = entries.length;
                break;
            }
            if (ok(hi, min, inclusive)) {
                break;
            }
            lo = hi;
            step <<= 1;
        }
        // invariant: lo fails, hi satisfies (or is the end)
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (ok(mid, min, inclusive)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /** Key comparisons (and entries returned by next) so far. */
    public long visited() {
        return visited;
    }

    /** Calls of {@link #skip} so far. */
    public long seeks() {
        return seeks;
    }

    public int size() {
        return entries.length;
    }
}
