package io.god.command;

import io.god.request.Command;
import io.god.request.Request.SetExpression;
import io.god.request.Request;
import java.util.ArrayList;
import java.util.List;

/**
 * The one mapping from the JSON contract's request shapes ({@link Wire.Req}, {@link Wire.ConfReq},
 * {@link Wire.SetExpressionReq}) to the {@link Request} records: the JSON codec decodes a body into the shape of
 * its command and turns it into the record here. The other way, a record's body (forwarding to a member of an older
 * version, the Java client's fallback from binary commands), is {@link io.god.request.JsonBodies}, in the client
 * module so that node and client send the same bodies.
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
}
