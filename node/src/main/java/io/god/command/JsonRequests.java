package io.god.command;

import io.god.request.Command;
import io.god.request.Request.SetExpression;
import io.god.request.Request;
import java.util.ArrayList;
import java.util.List;

/**
 * The one mapping between the JSON contract's request shapes ({@link Wire.Req}, {@link Wire.ConfReq},
 * {@link Wire.SetExpressionReq}) and the {@link Request} records: the JSON codec decodes a body into the shape of
 * its command and turns it into the record here; forwarding turns a record back into the shape it sends to another
 * member (no wire change: the same fields, each command reading the ones it knows).
 */
public final class JsonRequests {

    private JsonRequests() {
    }

    /** The JSON shape of a command's arguments. */
    public static Class<?> wireType(Command c) {
        return switch (c.shape()) {
            case CONFIGURATION -> Wire.ConfReq.class;
            case SET_EXPRESSION -> Wire.SetExpressionReq.class;
            case KEYED -> Wire.Req.class;
        };
    }

    /** The record of a command whose arguments were decoded into {@link #wireType}. */
    public static Request of(Command c, Object wire) {
        if (!wireType(c).isInstance(wire)) {
            throw new IllegalArgumentException(c.method() + " takes a " + wireType(c).getSimpleName());
        }
        return switch (c.shape()) {
            case CONFIGURATION -> configuration(c, (Wire.ConfReq) wire);
            case SET_EXPRESSION -> setExpression((Wire.SetExpressionReq) wire);
            case KEYED -> keyed(c, (Wire.Req) wire);
        };
    }

    private static Request configuration(Command c, Wire.ConfReq q) {
        return c == Command.ADD_CONFIGURATION ? new Request.AddConfiguration(q.key, q.value)
                : new Request.SubAddConfiguration(q.treeKey, q.key, q.value);
    }

    private static Request keyed(Command c, Wire.Req q) {
        return switch (c) {
            case PUT -> new Request.Put(q.key, q.value, q.sync);
            case DEL -> new Request.Del(q.key, q.sync);
            case SUB_PUT -> new Request.SubPut(q.key, q.subKey, q.value, q.sync);
            case SUB_DEL -> new Request.SubDel(q.key, q.subKey, q.sync);
            case SUB_CLEAR -> new Request.SubClear(q.key, q.sync);
            case SUB_UPDATE -> new Request.SubUpdate(q.key, q.value, q.sync);
            case CLEAR -> new Request.Clear();
            case GET -> new Request.Get(q.key, q.stamped);
            case SUB_GET -> new Request.SubGet(q.key, q.subKey, q.stamped);
            case NEXT, PREV -> new Request.Next(c, q.key);
            case KEY_NEXT -> new Request.KeyNext(q.key);
            case SUB_NEXT, SUB_PREV, SUB_MIRROR_NEXT, SUB_MIRROR_PREV -> new Request.SubNext(c, q.key, q.subKey);
            case FIRST, LAST, MIRROR_FIRST, MIRROR_LAST -> new Request.First(c, q.key);
            case NEXT_INDEX, PREV_INDEX, MIRROR_NEXT_INDEX, MIRROR_PREV_INDEX -> new Request.NextIndex(c, q.key, q.index);
            case INDEX_OF, REVERSE_INDEX_OF, MIRROR_INDEX_OF, MIRROR_REVERSE_INDEX_OF ->
                    new Request.IndexOf(c, q.key, q.subKey);
            case COUNT, MIRROR_COUNT -> new Request.Count(c, q.key, q.min, q.max, q.minInc, q.maxInc);
            case SLICE, REVERSE_SLICE, MIRROR_SLICE, MIRROR_REVERSE_SLICE ->
                    new Request.Slice(c, q.key, q.min, q.max, q.minInc, q.maxInc, q.stamped);
            case SLICE_INDEX, REVERSE_SLICE_INDEX, MIRROR_SLICE_INDEX, MIRROR_REVERSE_SLICE_INDEX ->
                    new Request.SliceIndex(c, q.key, q.minIndex, q.maxIndex);
            case SLICE_LEN, REVERSE_SLICE_LEN, MIRROR_SLICE_LEN, MIRROR_REVERSE_SLICE_LEN ->
                    new Request.SliceLen(c, q.key, q.from, q.fromInc, q.len, q.stamped);
            case SIZE -> new Request.Size();
            case KEY_COUNT -> new Request.KeyCount();
            case SUB_SIZE -> new Request.SubSize(q.key);
            case OWNED -> new Request.Owned();
            case CONFIGURATION -> new Request.Configuration();
            case SUB_CONFIGURATION -> new Request.SubConfiguration(q.key);
            case DESCRIBE -> new Request.Describe();
            case DESCRIBE_TREE -> new Request.DescribeTree();
            case NODES -> new Request.Nodes(q.expected);
            case ADD_CONFIGURATION, SUB_ADD_CONFIGURATION, SET_EXPRESSION ->
                    throw new IllegalArgumentException(c.method() + " is not keyed");
        };
    }

    private static Request setExpression(Wire.SetExpressionReq q) {
        return new SetExpression(q.op == null ? null : op(q.op), q.code, q.min, q.max, q.minInc, q.maxInc, q.len,
                q.dest, q.exactNumbers);
    }

    private static SetExpression.Op op(Wire.SetOpJson j) {
        List<SetExpression.Source> sources = null;
        if (j.sources != null) {
            sources = new ArrayList<>(j.sources.size());
            for (Wire.SetOpSourceJson s : j.sources) {
                sources.add(s == null ? null : new SetExpression.Source(s.key, s.setOp == null ? null : op(s.setOp),
                        s.weight));
            }
        }
        return new SetExpression.Op(sources, j.type, j.merge);
    }

    /** The JSON shape of a record, as forwarding sends it to another member. */
    public static Object toWire(Request r) {
        if (r instanceof SetExpression e) {
            Wire.SetExpressionReq q = new Wire.SetExpressionReq();
            q.op = e.op() == null ? null : op(e.op());
            q.code = e.code();
            q.min = e.min();
            q.max = e.max();
            q.minInc = e.minInc();
            q.maxInc = e.maxInc();
            q.len = e.len();
            q.dest = e.dest();
            q.exactNumbers = e.exactNumbers();
            return q;
        }
        if (r instanceof Request.AddConfiguration a) {
            return conf(null, a.key(), a.value());
        }
        if (r instanceof Request.SubAddConfiguration a) {
            return conf(a.treeKey(), a.key(), a.value());
        }
        Wire.Req q = new Wire.Req();
        if (r instanceof Request.Keyed k) {
            q.key = k.key();
        }
        q.stamped = r.stamped();
        if (r instanceof Request.Put p) {
            q.value = p.value();
            q.sync = p.sync();
        } else if (r instanceof Request.Del d) {
            q.sync = d.sync();
        } else if (r instanceof Request.SubPut p) {
            q.subKey = p.subKey();
            q.value = p.value();
            q.sync = p.sync();
        } else if (r instanceof Request.SubDel d) {
            q.subKey = d.subKey();
            q.sync = d.sync();
        } else if (r instanceof Request.Nodes n) {
            q.expected = n.expected();
        } else if (r instanceof Request.SubClear c) {
            q.sync = c.sync();
        } else if (r instanceof Request.SubUpdate u) {
            q.value = u.update();
            q.sync = u.sync();
        } else if (r instanceof Request.SubGet g) {
            q.subKey = g.subKey();
        } else if (r instanceof Request.SubNext n) {
            q.subKey = n.subKey();
        } else if (r instanceof Request.IndexOf i) {
            q.subKey = i.subKey();
        } else if (r instanceof Request.NextIndex n) {
            q.index = n.index();
        } else if (r instanceof Request.Count c) {
            range(q, c.min(), c.max(), c.minInc(), c.maxInc());
        } else if (r instanceof Request.Slice s) {
            range(q, s.min(), s.max(), s.minInc(), s.maxInc());
        } else if (r instanceof Request.SliceIndex s) {
            q.minIndex = s.minIndex();
            q.maxIndex = s.maxIndex();
        } else if (r instanceof Request.SliceLen s) {
            q.from = s.from();
            q.fromInc = s.fromInc();
            q.len = s.len();
        }
        return q;
    }

    private static void range(Wire.Req q, byte[] min, byte[] max, boolean minInc, boolean maxInc) {
        q.min = min;
        q.max = max;
        q.minInc = minInc;
        q.maxInc = maxInc;
    }

    private static Wire.ConfReq conf(byte[] treeKey, String key, String value) {
        Wire.ConfReq q = new Wire.ConfReq();
        q.treeKey = treeKey;
        q.key = key;
        q.value = value;
        return q;
    }

    private static Wire.SetOpJson op(SetExpression.Op op) {
        Wire.SetOpJson j = new Wire.SetOpJson();
        j.type = op.type();
        j.merge = op.merge();
        if (op.sources() != null) {
            j.sources = new ArrayList<>(op.sources().size());
            for (SetExpression.Source s : op.sources()) {
                Wire.SetOpSourceJson src = null;
                if (s != null) {
                    src = new Wire.SetOpSourceJson();
                    src.key = s.key();
                    src.setOp = s.op() == null ? null : op(s.op());
                    src.weight = s.weight();
                }
                j.sources.add(src);
            }
        }
        return j;
    }
}
