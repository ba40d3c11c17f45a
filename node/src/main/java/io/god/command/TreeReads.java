package io.god.command;

import io.god.limits.CallBudget;
import io.god.request.Command;
import io.god.request.Request;
import io.god.request.Result;
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
     * The answer of a read on {@code s}. A slice reads at most one row over the budget's limit and counts every row
     * it returns, so an answer over god.limits.result-rows or result-bytes is refused, never truncated. The record
     * type of each command is fixed ({@link Request#type}), so the casts below follow from the command.
     */
    static Object read(Request.Keyed r, TreeState s, CallBudget budget) {
        int fetch = budget.rowsToFetch();
        byte[] key = orEmpty(r.key());
        return switch (r.command()) {
            case GET -> {
                Request.Get q = (Request.Get) r;
                Item i = s.get(key);
                yield q.stamped() ? stamped(q.key(), null, i)
                        : new Result.ValueRes(q.key(), i.exists() ? i.value() : null, i.exists());
            }
            case NEXT -> valueRes(s.values().ceiling(key, false));
            case PREV -> valueRes(s.values().floor(key, false));
            case KEY_NEXT -> {
                byte[] k = s.nextKey(key);
                yield new Result.ValueRes(k, null, k != null);
            }
            case SUB_GET -> {
                Request.SubGet q = (Request.SubGet) r;
                Item i = s.sub(key).get(orEmpty(q.subKey()));
                yield q.stamped() ? stamped(q.key(), q.subKey(), i)
                        : new Result.SubValueRes(q.key(), q.subKey(), i.exists() ? i.value() : null, i.exists());
            }
            case SUB_NEXT -> subValueRes(s.sub(key).values().ceiling(subKeyOrEmpty(r), false));
            case SUB_PREV -> subValueRes(s.sub(key).values().floor(subKeyOrEmpty(r), false));
            case SUB_MIRROR_NEXT -> subValueRes(s.sub(key).mirror().ceiling(subKeyOrEmpty(r), true));
            case SUB_MIRROR_PREV -> subValueRes(s.sub(key).mirror().floor(subKeyOrEmpty(r), false));
            case FIRST -> subValueRes(s.sub(key).values().first());
            case LAST -> subValueRes(s.sub(key).values().last());
            case MIRROR_FIRST -> subValueRes(s.sub(key).mirror().first());
            case MIRROR_LAST -> subValueRes(s.sub(key).mirror().last());
            case NEXT_INDEX -> indexRes(s.sub(key).values(), ((Request.NextIndex) r).index(), 1);
            case PREV_INDEX -> indexRes(s.sub(key).values(), ((Request.NextIndex) r).index(), -1);
            case MIRROR_NEXT_INDEX -> indexRes(s.sub(key).mirror(), ((Request.NextIndex) r).index(), 1);
            case MIRROR_PREV_INDEX -> indexRes(s.sub(key).mirror(), ((Request.NextIndex) r).index(), -1);
            case INDEX_OF -> index(s.sub(key).values().indexOf(subKeyOrEmpty(r)));
            case REVERSE_INDEX_OF -> index(s.sub(key).values().reverseIndexOf(subKeyOrEmpty(r)));
            case MIRROR_INDEX_OF -> index(s.sub(key).mirror().indexOf(subKeyOrEmpty(r)));
            case MIRROR_REVERSE_INDEX_OF -> index(s.sub(key).mirror().reverseIndexOf(subKeyOrEmpty(r)));
            case COUNT, MIRROR_COUNT -> {
                Request.Count q = (Request.Count) r;
                SortedView view = q.command() == Command.COUNT ? s.sub(key).values() : s.sub(key).mirror();
                yield view.count(q.min(), q.minInc(), q.max(), q.maxInc());
            }
            case SLICE, REVERSE_SLICE, MIRROR_SLICE, MIRROR_REVERSE_SLICE -> slice((Request.Slice) r, s.sub(key), fetch,
                    budget);
            case SLICE_INDEX -> list(sliceIndex(s.sub(key).values(), (Request.SliceIndex) r, false, fetch), budget);
            case REVERSE_SLICE_INDEX -> list(sliceIndex(s.sub(key).values(), (Request.SliceIndex) r, true, fetch),
                    budget);
            case MIRROR_SLICE_INDEX -> list(sliceIndex(s.sub(key).mirror(), (Request.SliceIndex) r, false, fetch),
                    budget);
            case MIRROR_REVERSE_SLICE_INDEX -> list(sliceIndex(s.sub(key).mirror(), (Request.SliceIndex) r, true,
                    fetch), budget);
            case SLICE_LEN, REVERSE_SLICE_LEN, MIRROR_SLICE_LEN, MIRROR_REVERSE_SLICE_LEN ->
                    sliceLen((Request.SliceLen) r, s.sub(key), fetch, budget);
            case SUB_SIZE -> subSize(s, key);
            case SUB_CONFIGURATION -> {
                TreeState sub = s.sub(key);
                yield new Result.Conf(key, new TreeMap<>(sub.configuration()), sub.configurationTimestamp());
            }
            default -> throw new IllegalStateException("unhandled method " + r.command().method());
        };
    }

    /** The node's configuration. */
    static Result.Conf configuration(TreeState s) {
        return new Result.Conf(null, new TreeMap<>(s.configuration()), s.configurationTimestamp());
    }

    /** The SubKey a read names (null for one without), so its size is checked as a written one's is. */
    static byte[] subKey(Request r) {
        if (r instanceof Request.SubGet q) {
            return q.subKey();
        }
        if (r instanceof Request.SubNext q) {
            return q.subKey();
        }
        return r instanceof Request.IndexOf q ? q.subKey() : null;
    }

    /** {@link #subKey}, null as the empty key. */
    private static byte[] subKeyOrEmpty(Request r) {
        return orEmpty(subKey(r));
    }

    private static Object slice(Request.Slice q, TreeState sub, int fetch, CallBudget budget) {
        return switch (q.command()) {
            case SLICE -> q.stamped()
                    ? stampedSlice(sub, q.min(), q.minInc(), q.max(), q.maxInc(), -1, false, budget)
                    : list(sub.values().slice(q.min(), q.minInc(), q.max(), q.maxInc(), fetch, false), budget);
            case REVERSE_SLICE -> q.stamped()
                    ? stampedSlice(sub, q.max(), q.maxInc(), q.min(), q.minInc(), -1, true, budget)
                    : list(sub.values().slice(q.min(), q.minInc(), q.max(), q.maxInc(), fetch, true), budget);
            case MIRROR_SLICE -> list(sub.mirror().slice(q.min(), q.minInc(), q.max(), q.maxInc(), fetch, false), budget);
            default -> list(sub.mirror().slice(q.min(), q.minInc(), q.max(), q.maxInc(), fetch, true), budget);
        };
    }

    private static Object sliceLen(Request.SliceLen q, TreeState sub, int fetch, CallBudget budget) {
        return switch (q.command()) {
            case SLICE_LEN -> q.stamped() ? stampedSliceLen(sub, q, false, budget)
                    : list(sliceLen(sub.values(), q, false, fetch), budget);
            case REVERSE_SLICE_LEN -> q.stamped() ? stampedSliceLen(sub, q, true, budget)
                    : list(sliceLen(sub.values(), q, true, fetch), budget);
            case MIRROR_SLICE_LEN -> list(sliceLen(sub.mirror(), q, false, fetch), budget);
            default -> list(sliceLen(sub.mirror(), q, true, fetch), budget);
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

    static Result.ValueRes valueRes(Item i) {
        return i == null ? new Result.ValueRes(null, null, false) : new Result.ValueRes(i.key(), i.value(), true);
    }

    static Result.SubValueRes subValueRes(Item i) {
        return i == null ? new Result.SubValueRes(null, null, null, false)
                : new Result.SubValueRes(i.key(), null, i.value(), true);
    }

    static Result.SubValueIndexRes indexRes(SortedView view, long index, int step) {
        long target = index + step;
        boolean overflow = step > 0 ? target < index : target > index;
        Item i = overflow || target < 0 ? null : view.at(target);
        return i == null ? new Result.SubValueIndexRes(null, null, null, 0, false)
                : new Result.SubValueIndexRes(i.key(), null, i.value(), target, true);
    }

    static Result.IndexRes index(Index i) {
        return new Result.IndexRes(i.n(), i.existed());
    }

    static List<Result.ValueRes> list(List<Item> items, CallBudget budget) {
        List<Result.ValueRes> out = new ArrayList<>(items.size());
        for (Item i : items) {
            budget.row(size(i.key()) + size(i.value()));
            out.add(new Result.ValueRes(i.key(), i.value(), true));
        }
        return out;
    }

    private static long size(byte[] b) {
        return b == null ? 0 : b.length;
    }

    /** Ordinals [from, to], at most {@code fetch} of them (the caller's budget refuses more). */
    static List<Item> sliceIndex(SortedView view, Request.SliceIndex q, boolean reverse, int fetch) {
        long from = q.minIndex() == null ? 0 : Math.max(0, q.minIndex());
        long to = q.maxIndex() == null ? Long.MAX_VALUE : q.maxIndex();
        long last = from + fetch - 1;
        return view.sliceIndex(from, last < from ? to : Math.min(to, last), reverse);
    }

    /**
     * Most tombstones one Stamped slice answer carries. An answer stops right after its
     * {@value}th tombstone, so the caller (the Java client's merged slices) must treat an answer
     * holding this many tombstones as truncated at its last key and ask again from there.
     */
    static final int STAMPED_TOMBSTONE_CAP = io.god.wire.Call.STAMPED_TOMBSTONE_CAP;

    static StampedRows stampedSliceLen(TreeState sub, Request.SliceLen q, boolean reverse, CallBudget budget) {
        if (q.len() <= 0) {
            return new StampedRows(List.of());
        }
        return stampedSlice(sub, q.from(), q.fromInc(), null, false, q.len(), reverse, budget);
    }

    /**
     * Slices with Stamped=true (the Java client's merged slices, reference §1.3 mergeRecent): every
     * stored entry between start and end in walk order, tombstones included (as {@link StampedRows}: in JSON
     * {@code {Key, Value, Exists, Timestamp}} each). Stops after len live entries (len < 0: no limit) or
     * after {@link #STAMPED_TOMBSTONE_CAP} tombstones, whichever comes first.
     */
    static StampedRows stampedSlice(TreeState sub, byte[] start, boolean startInc, byte[] end, boolean endInc,
                                    long len, boolean reverse, CallBudget budget) {
        List<io.god.tree.Entry> out = new ArrayList<>(len > 0 && len < 1024 ? (int) len : 16);
        long live = 0;
        int dead = 0;
        for (java.util.Iterator<io.god.tree.Entry> it = sub.entries(start, startInc, reverse); it.hasNext(); ) {
            io.god.tree.Entry e = it.next();
            if (end != null) {
                int c = Arrays.compareUnsigned(e.stored(), 0, e.keySize(), end, 0, end.length);
                if (reverse ? (c < 0 || (c == 0 && !endInc)) : (c > 0 || (c == 0 && !endInc))) {
                    break;
                }
            }
            if (!e.hasValue() && !e.isTombstone()) {
                continue;
            }
            budget.row(e.keySize() + e.valueSize()); // the sizes, not key() and value(): those copy
            out.add(e);
            if (e.hasValue() ? len >= 0 && ++live >= len : ++dead >= STAMPED_TOMBSTONE_CAP) {
                break;
            }
        }
        return new StampedRows(out);
    }

    /** Len ≤ 0 returns nothing (the original returned one item: a documented fix). */
    static List<Item> sliceLen(SortedView view, Request.SliceLen q, boolean reverse, int fetch) {
        if (q.len() <= 0) {
            return List.of();
        }
        int limit = (int) Math.min(q.len(), fetch);
        return reverse ? view.slice(null, false, q.from(), q.fromInc(), limit, true)
                : view.slice(q.from(), q.fromInc(), null, false, limit, false);
    }

    /** SubSize: the live values of the sub tree under key (0: none). */
    static long subSize(TreeState s, byte[] key) {
        return s.sub(key).values().size();
    }
}
