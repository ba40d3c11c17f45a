package io.god.request;

import io.god.wire.WireException;
import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The answer of a binary command ({@link io.god.wire.Ops#COMMAND}), typed: the result objects the node's executor
 * returns here ({@link Result}, counts, stamped entries as maps, lists of them) are what the other end decodes, so a forwarding node hands a front end the same object it would have
 * built itself, and the JSON contract writes the same bytes.
 *
 * <pre>
 *   varint status        HTTP-style: 200, or 400, 401, 403, 404, 500, 503
 *   200:   u8 tag, then the result (below)
 *   other: bytes message (UTF-8)
 * </pre>
 *
 * Tags: 0 null (a SetExpression with Dest); 1 {@code {}} (writes, Clear, configuration); 2 a count (zigzag);
 * 3 a value {@code {Key, Value, Exists}}; 4 a sub value {@code {Key, SubKey, Value, Exists}}; 5 a sub value with its
 * Index; 6 an index {@code {N, Existed}}; 7 SubUpdate's {@code {N, Values}}; 8 a list of values (slices); 9 a stamped
 * entry (Get/SubGet with Stamped: Timestamp, tombstones too); 10 a list of stamped entries; 11 set-expression results
 * {@code {Key, Values}}; 12 a configuration {@code {TreeKey, Data, Timestamp}}; 13 ring members; 14 Describe's
 * description; 15 text (DescribeTree); 16 an empty list. A list is a varint count, checked against the bytes left
 * before anything is allocated for it.
 */
public final class BinaryResults {

    private BinaryResults() {
    }

    private static final int NULL = 0, NOTHING = 1, COUNT = 2, VALUE = 3, SUB_VALUE = 4, SUB_VALUE_INDEX = 5,
            INDEX = 6, UPDATE = 7, VALUES = 8, STAMPED = 9, STAMPED_LIST = 10, SET_RESULTS = 11, CONF = 12,
            MEMBERS = 13, DESCRIPTION = 14, TEXT = 15, EMPTY_LIST = 16;

    /** Entries a node keeps in its own form, written as their JSON-contract rows (the node's Stamped slices). */
    public interface Rows {
        List<?> json();
    }

    /** A command's answer: its result (status 200) or its refusal's status and message. */
    public record Reply(int status, Object result, String message) {

        public static Reply ok(Object result) {
            return new Reply(200, result, null);
        }

        public static Reply error(int status, String message) {
            if (status == 200) {
                throw new IllegalArgumentException("an error needs a non-200 status");
            }
            return new Reply(status, null, message == null ? "" : message);
        }

        public byte[] encode() {
            WireWriter w = new WireWriter(64).varint(status);
            if (status != 200) {
                return w.string(message).toBytes();
            }
            BinaryResults.result(result, w);
            return w.toBytes();
        }

        /** Decodes a reply; anything truncated, trailing or unknown is a {@link WireException}. */
        public static Reply decode(byte[] payload) {
            WireReader r = new WireReader(payload);
            int status = r.count(999);
            Reply out = status == 200 ? ok(BinaryResults.result(r)) : error(status, r.string());
            r.end();
            return out;
        }
    }

    // ------------------------------------------------------------------ writing

    private static void result(Object o, WireWriter w) {
        if (o == null) {
            w.u8(NULL);
        } else if (o instanceof Map<?, ?> m && m.isEmpty()) {
            w.u8(NOTHING);
        } else if (o instanceof Number n) {
            w.u8(COUNT).signed(n.longValue());
        } else if (o instanceof Result.ValueRes v) {
            value(v, w.u8(VALUE));
        } else if (o instanceof Result.SubValueRes v) {
            w.u8(SUB_VALUE).bytes(v.key()).bytes(v.subKey()).bytes(v.value()).bool(v.exists());
        } else if (o instanceof Result.SubValueIndexRes v) {
            w.u8(SUB_VALUE_INDEX).bytes(v.key()).bytes(v.subKey()).bytes(v.value()).signed(v.index()).bool(v.exists());
        } else if (o instanceof Result.IndexRes i) {
            w.u8(INDEX).signed(i.n()).bool(i.existed());
        } else if (o instanceof Result.UpdateRes u) {
            w.u8(UPDATE).signed(u.n()).bool(u.values() != null);
            if (u.values() != null) {
                w.byteList(u.values());
            }
        } else if (o instanceof Map<?, ?> m) {
            stamped(m, w.u8(STAMPED));
        } else if (o instanceof Result.Conf c) {
            w.u8(CONF).bytes(c.treeKey()).varint(c.data().size());
            c.data().forEach((k, v) -> w.string(k).string(v));
            w.signed(c.timestamp());
        } else if (o instanceof Result.Description d) {
            w.u8(DESCRIPTION).string(d.addr()).bytes(d.pos()).string(d.lastReroute()).string(d.lastSync())
                    .string(d.lastMigrate()).string(d.timer()).signed(d.ownedEntries()).signed(d.heldEntries())
                    .signed(Double.doubleToRawLongBits(d.load()));
            members(d.nodes(), w);
        } else if (o instanceof String s) {
            w.u8(TEXT).string(s);
        } else if (o instanceof Rows rows) { // a node's own Stamped slice entries
            list(rows.json(), w);
        } else if (o instanceof List<?> l) {
            list(l, w);
        } else {
            throw new IllegalStateException("no binary encoding for a result of " + o.getClass().getName());
        }
    }

    private static void list(List<?> l, WireWriter w) {
        if (l.isEmpty()) {
            w.u8(EMPTY_LIST);
            return;
        }
        Object first = l.get(0);
        if (first instanceof Result.ValueRes) {
            w.u8(VALUES).varint(l.size());
            l.forEach(v -> value((Result.ValueRes) v, w));
        } else if (first instanceof Map<?, ?>) {
            w.u8(STAMPED_LIST).varint(l.size());
            l.forEach(m -> stamped((Map<?, ?>) m, w));
        } else if (first instanceof Result.SetOpResult) {
            w.u8(SET_RESULTS).varint(l.size());
            for (Object o : l) {
                Result.SetOpResult s = (Result.SetOpResult) o;
                w.bytes(s.key()).byteList(s.values());
            }
        } else if (first instanceof Result.Remote) {
            members(l, w.u8(MEMBERS));
        } else {
            throw new IllegalStateException("no binary encoding for a list of " + first.getClass().getName());
        }
    }

    private static void value(Result.ValueRes v, WireWriter w) {
        w.bytes(v.key()).bytes(v.value()).bool(v.exists());
    }

    /** A stamped entry as TreeReads builds it: Key, SubKey (SubGet only), Value, Exists, Timestamp. */
    private static void stamped(Map<?, ?> m, WireWriter w) {
        w.bytes((byte[]) m.get("Key")).bool(m.containsKey("SubKey"));
        if (m.containsKey("SubKey")) {
            w.bytes((byte[]) m.get("SubKey"));
        }
        w.bytes((byte[]) m.get("Value")).bool((Boolean) m.get("Exists")).signed(((Number) m.get("Timestamp")).longValue());
    }

    private static void members(List<?> l, WireWriter w) {
        w.varint(l.size());
        for (Object o : l) {
            Result.Remote m = (Result.Remote) o;
            w.bytes(m.pos()).string(m.addr()).string(m.state());
        }
    }

    // ------------------------------------------------------------------ reading

    private static Object result(WireReader r) {
        int tag = r.u8();
        return switch (tag) {
            case NULL -> null;
            case NOTHING -> Map.of();
            case COUNT -> r.signed();
            case VALUE -> value(r);
            case SUB_VALUE -> new Result.SubValueRes(r.bytes(), r.bytes(), r.bytes(), r.bool());
            case SUB_VALUE_INDEX -> new Result.SubValueIndexRes(r.bytes(), r.bytes(), r.bytes(), r.signed(), r.bool());
            case INDEX -> new Result.IndexRes(r.signed(), r.bool());
            case UPDATE -> new Result.UpdateRes(r.signed(), r.bool() ? r.byteList(r.remaining()) : null);
            case STAMPED -> stamped(r);
            case CONF -> {
                byte[] treeKey = r.bytes();
                int n = count(r);
                Map<String, String> data = new TreeMap<>();
                for (int i = 0; i < n; i++) {
                    data.put(r.string(), r.string());
                }
                yield new Result.Conf(treeKey, data, r.signed());
            }
            case DESCRIPTION -> new Result.Description(r.string(), r.bytes(), r.string(), r.string(), r.string(),
                    r.string(), r.signed(), r.signed(), Double.longBitsToDouble(r.signed()), members(r));
            case TEXT -> r.string();
            case EMPTY_LIST -> List.of();
            case VALUES, STAMPED_LIST, SET_RESULTS -> {
                int n = count(r);
                List<Object> out = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    out.add(tag == VALUES ? value(r) : tag == STAMPED_LIST ? stamped(r)
                            : new Result.SetOpResult(r.bytes(), r.byteList(r.remaining())));
                }
                yield out;
            }
            case MEMBERS -> members(r);
            default -> throw new WireException("unknown result tag " + tag);
        };
    }

    /** A list's length: every element takes a byte at least, so no more than the bytes left. */
    private static int count(WireReader r) {
        return r.count(r.remaining());
    }

    private static Result.ValueRes value(WireReader r) {
        return new Result.ValueRes(r.bytes(), r.bytes(), r.bool());
    }

    private static Map<String, Object> stamped(WireReader r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("Key", r.bytes());
        if (r.bool()) {
            m.put("SubKey", r.bytes());
        }
        m.put("Value", r.bytes());
        m.put("Exists", r.bool());
        m.put("Timestamp", r.signed());
        return m;
    }

    private static List<Result.Remote> members(WireReader r) {
        int n = count(r);
        List<Result.Remote> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new Result.Remote(r.bytes(), r.string(), r.string()));
        }
        return out;
    }
}
