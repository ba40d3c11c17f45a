package io.god.command;

import io.god.limits.CallBudget;
import io.god.tree.Index;
import io.god.tree.Item;
import io.god.tree.SortedView;
import io.god.tree.TreeState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The read methods of the god JSON contract on one immutable tree version: point reads, neighbours,
 * indexes, counts, slices (the Stamped ones feed the Java client's merged reads) and configuration.
 * Pure functions of a {@link TreeState} and the request, so they run on any thread (and on the event
 * loop for the point reads); {@link Executor} routes, authorises and writes, and calls these for the
 * reads it executes itself.
 */
final class TreeReads {

    private static final byte[] EMPTY = new byte[0];

    private TreeReads() {
    }

    /**
     * The answer of read method {@code name} on {@code s}, or null when it is not a tree read. A slice
     * reads at most one row over the budget's limit and counts every row it returns, so an answer over
     * god.limits.result-rows or result-bytes is refused, never truncated.
     */
    static Object read(String name, TreeState s, Wire.Req q, CallBudget budget) {
        int fetch = budget.rowsToFetch();
        return switch (name) {
            case "Get" -> {
                Item i = s.get(orEmpty(q.key));
                yield q.stamped ? stamped(q.key, null, i) : new Wire.ValueRes(q.key, i.exists() ? i.value() : null, i.exists());
            }
            case "Next" -> valueRes(s.values().ceiling(orEmpty(q.key), false));
            case "Prev" -> valueRes(s.values().floor(orEmpty(q.key), false));
            case "KeyNext" -> {
                byte[] k = s.nextKey(orEmpty(q.key));
                yield new Wire.ValueRes(k, null, k != null);
            }
            case "SubGet" -> {
                Item i = s.sub(orEmpty(q.key)).get(orEmpty(q.subKey));
                if (q.stamped) {
                    yield stamped(q.key, q.subKey, i);
                }
                yield new Wire.SubValueRes(q.key, q.subKey, i.exists() ? i.value() : null, i.exists());
            }
            case "SubNext" -> subValueRes(sub(s, q).values().ceiling(orEmpty(q.subKey), false));
            case "SubPrev" -> subValueRes(sub(s, q).values().floor(orEmpty(q.subKey), false));
            case "SubMirrorNext" -> subValueRes(sub(s, q).mirror().ceiling(orEmpty(q.subKey), true));
            case "SubMirrorPrev" -> subValueRes(sub(s, q).mirror().floor(orEmpty(q.subKey), false));
            case "First" -> subValueRes(sub(s, q).values().first());
            case "Last" -> subValueRes(sub(s, q).values().last());
            case "MirrorFirst" -> subValueRes(sub(s, q).mirror().first());
            case "MirrorLast" -> subValueRes(sub(s, q).mirror().last());
            case "NextIndex" -> indexRes(sub(s, q).values(), q.index, 1);
            case "PrevIndex" -> indexRes(sub(s, q).values(), q.index, -1);
            case "MirrorNextIndex" -> indexRes(sub(s, q).mirror(), q.index, 1);
            case "MirrorPrevIndex" -> indexRes(sub(s, q).mirror(), q.index, -1);
            case "IndexOf" -> index(sub(s, q).values().indexOf(orEmpty(q.subKey)));
            case "ReverseIndexOf" -> index(sub(s, q).values().reverseIndexOf(orEmpty(q.subKey)));
            case "MirrorIndexOf" -> index(sub(s, q).mirror().indexOf(orEmpty(q.subKey)));
            case "MirrorReverseIndexOf" -> index(sub(s, q).mirror().reverseIndexOf(orEmpty(q.subKey)));
            case "Count" -> sub(s, q).values().count(q.min, q.minInc, q.max, q.maxInc);
            case "MirrorCount" -> sub(s, q).mirror().count(q.min, q.minInc, q.max, q.maxInc);
            case "Slice" -> q.stamped ? stampedSlice(sub(s, q), q.min, q.minInc, q.max, q.maxInc, -1, false, budget)
                    : list(sub(s, q).values().slice(q.min, q.minInc, q.max, q.maxInc, fetch, false), budget);
            case "ReverseSlice" -> q.stamped ? stampedSlice(sub(s, q), q.max, q.maxInc, q.min, q.minInc, -1, true, budget)
                    : list(sub(s, q).values().slice(q.min, q.minInc, q.max, q.maxInc, fetch, true), budget);
            case "MirrorSlice" -> list(sub(s, q).mirror().slice(q.min, q.minInc, q.max, q.maxInc, fetch, false), budget);
            case "MirrorReverseSlice" -> list(sub(s, q).mirror().slice(q.min, q.minInc, q.max, q.maxInc, fetch, true),
                    budget);
            case "SliceIndex" -> list(sliceIndex(sub(s, q).values(), q, false, fetch), budget);
            case "ReverseSliceIndex" -> list(sliceIndex(sub(s, q).values(), q, true, fetch), budget);
            case "MirrorSliceIndex" -> list(sliceIndex(sub(s, q).mirror(), q, false, fetch), budget);
            case "MirrorReverseSliceIndex" -> list(sliceIndex(sub(s, q).mirror(), q, true, fetch), budget);
            case "SliceLen" -> q.stamped ? stampedSliceLen(sub(s, q), q, false, budget)
                    : list(sliceLen(sub(s, q).values(), q, false, fetch), budget);
            case "ReverseSliceLen" -> q.stamped ? stampedSliceLen(sub(s, q), q, true, budget)
                    : list(sliceLen(sub(s, q).values(), q, true, fetch), budget);
            case "MirrorSliceLen" -> list(sliceLen(sub(s, q).mirror(), q, false, fetch), budget);
            case "MirrorReverseSliceLen" -> list(sliceLen(sub(s, q).mirror(), q, true, fetch), budget);
            case "SubSize" -> sub(s, q).values().size();
            case "Configuration" -> new Wire.Conf(null, new TreeMap<>(s.configuration()), s.configurationTimestamp());
            case "SubConfiguration" -> {
                TreeState sub = sub(s, q);
                yield new Wire.Conf(orEmpty(q.key), new TreeMap<>(sub.configuration()), sub.configurationTimestamp());
            }
            default -> null;
        };
    }

    static byte[] orEmpty(byte[] b) {
        return b == null ? EMPTY : b;
    }

    /** Get/SubGet with Stamped=true (the Java client's newest-of-replicas reads): tombstones carry their time. */
    static Map<String, Object> stamped(byte[] key, byte[] subKey, Item i) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("Key", key);
        if (subKey != null) {
            m.put("SubKey", subKey);
        }
        m.put("Value", i.exists() ? i.value() : null);
        m.put("Exists", i.exists());
        m.put("Timestamp", i.timestamp());
        return m;
    }

    static TreeState sub(TreeState s, Wire.Req q) {
        return s.sub(orEmpty(q.key));
    }

    static Wire.ValueRes valueRes(Item i) {
        return i == null ? new Wire.ValueRes(null, null, false) : new Wire.ValueRes(i.key(), i.value(), true);
    }

    static Wire.SubValueRes subValueRes(Item i) {
        return i == null ? new Wire.SubValueRes(null, null, null, false)
                : new Wire.SubValueRes(i.key(), null, i.value(), true);
    }

    static Wire.SubValueIndexRes indexRes(SortedView view, long index, int step) {
        long target = index + step;
        boolean overflow = step > 0 ? target < index : target > index;
        Item i = overflow || target < 0 ? null : view.at(target);
        return i == null ? new Wire.SubValueIndexRes(null, null, null, 0, false)
                : new Wire.SubValueIndexRes(i.key(), null, i.value(), target, true);
    }

    static Wire.IndexRes index(Index i) {
        return new Wire.IndexRes(i.n(), i.existed());
    }

    static List<Wire.ValueRes> list(List<Item> items, CallBudget budget) {
        List<Wire.ValueRes> out = new ArrayList<>(items.size());
        for (Item i : items) {
            budget.row(size(i.key()) + size(i.value()));
            out.add(new Wire.ValueRes(i.key(), i.value(), true));
        }
        return out;
    }

    private static long size(byte[] b) {
        return b == null ? 0 : b.length;
    }

    /** Ordinals [from, to], at most {@code fetch} of them (the caller's budget refuses more). */
    static List<Item> sliceIndex(SortedView view, Wire.Req q, boolean reverse, int fetch) {
        long from = q.minIndex == null ? 0 : Math.max(0, q.minIndex);
        long to = q.maxIndex == null ? Long.MAX_VALUE : q.maxIndex;
        long last = from + fetch - 1;
        return view.sliceIndex(from, last < from ? to : Math.min(to, last), reverse);
    }

    /**
     * Most tombstones one Stamped slice answer carries. An answer stops right after its
     * {@value}th tombstone, so the caller (the Java client's merged slices) must treat an answer
     * holding this many tombstones as truncated at its last key and ask again from there.
     */
    static final int STAMPED_TOMBSTONE_CAP = io.god.wire.Call.STAMPED_TOMBSTONE_CAP;

    static List<Map<String, Object>> stampedSliceLen(TreeState sub, Wire.Req q, boolean reverse, CallBudget budget) {
        if (q.len <= 0) {
            return List.of();
        }
        return stampedSlice(sub, q.from, q.fromInc, null, false, q.len, reverse, budget);
    }

    /**
     * Slices with Stamped=true (the Java client's merged slices, reference §1.3 mergeRecent): every
     * stored entry between start and end in walk order, tombstones included, each as
     * {@code {Key, Value, Exists, Timestamp}}. Stops after len live entries (len < 0: no limit) or
     * after {@link #STAMPED_TOMBSTONE_CAP} tombstones, whichever comes first.
     */
    static List<Map<String, Object>> stampedSlice(TreeState sub, byte[] start, boolean startInc, byte[] end,
                                                          boolean endInc, long len, boolean reverse,
                                                          CallBudget budget) {
        List<Map<String, Object>> out = new ArrayList<>();
        long live = 0;
        int dead = 0;
        for (java.util.Iterator<io.god.tree.Entry> it = sub.entries(start, startInc, reverse); it.hasNext(); ) {
            io.god.tree.Entry e = it.next();
            if (end != null) {
                int c = Arrays.compareUnsigned(e.key(), end);
                if (reverse ? (c < 0 || (c == 0 && !endInc)) : (c > 0 || (c == 0 && !endInc))) {
                    break;
                }
            }
            if (!e.hasValue() && !e.isTombstone()) {
                continue;
            }
            budget.row(size(e.key()) + size(e.value()));
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("Key", e.key());
            m.put("Value", e.value());
            m.put("Exists", e.hasValue());
            m.put("Timestamp", e.timestamp());
            out.add(m);
            if (e.hasValue() ? len >= 0 && ++live >= len : ++dead >= STAMPED_TOMBSTONE_CAP) {
                break;
            }
        }
        return out;
    }

    /** Len ≤ 0 returns nothing (the original returned one item: a documented fix). */
    static List<Item> sliceLen(SortedView view, Wire.Req q, boolean reverse, int fetch) {
        if (q.len <= 0) {
            return List.of();
        }
        int limit = (int) Math.min(q.len, fetch);
        return reverse ? view.slice(null, false, q.from, q.fromInc, limit, true)
                : view.slice(q.from, q.fromInc, null, false, limit, false);
    }
}
