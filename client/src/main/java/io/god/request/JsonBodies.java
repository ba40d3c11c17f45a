package io.god.request;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.god.request.Request.SetExpression;

/**
 * The JSON contract's body of a {@link Request} record (reference §2.2, the Go field names; {@code byte[]} as
 * standard base64, null as {@code null}): the one record-to-body mapping, for whoever asks a node that takes only
 * the JSON contract — a member forwarding to one of an older version, and {@code GodClient} falling back from binary
 * commands. The node's {@code io.god.command.JsonRequests} reads such a body back into the same record.
 *
 * <p>Each body holds the fields its command reads; an absent field is the zero value to the node, so nothing else is
 * sent. {@code Stamped} and {@code ExactNumbers} (god extensions) are sent only when set.
 */
public final class JsonBodies {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private JsonBodies() {
    }

    public static ObjectNode of(Request r) {
        ObjectNode b = NODES.objectNode();
        if (r instanceof SetExpression e) {
            b.set("Op", e.op() == null ? NODES.nullNode() : op(e.op()));
            b.put("Code", e.code()).put("Min", e.min()).put("Max", e.max()).put("MinInc", e.minInc())
                    .put("MaxInc", e.maxInc()).put("Len", e.len()).put("Dest", e.dest());
            if (e.exactNumbers()) {
                b.put("ExactNumbers", true);
            }
            return b;
        }
        if (r instanceof Request.AddConfiguration a) {
            return b.put("Key", a.key()).put("Value", a.value());
        }
        if (r instanceof Request.SubAddConfiguration a) {
            return b.put("TreeKey", a.treeKey()).put("Key", a.key()).put("Value", a.value());
        }
        if (r instanceof Request.Keyed k) {
            b.put("Key", k.key());
        }
        if (r.stamped()) {
            b.put("Stamped", true);
        }
        if (r instanceof Request.Put p) {
            b.put("Value", p.value()).put("Sync", p.sync());
        } else if (r instanceof Request.Del d) {
            b.put("Sync", d.sync());
        } else if (r instanceof Request.SubPut p) {
            b.put("SubKey", p.subKey()).put("Value", p.value()).put("Sync", p.sync());
        } else if (r instanceof Request.SubDel d) {
            b.put("SubKey", d.subKey()).put("Sync", d.sync());
        } else if (r instanceof Request.Nodes n) {
            if (n.expected()) {
                b.put("Expected", true);
            }
        } else if (r instanceof Request.SubClear c) {
            b.put("Sync", c.sync());
        } else if (r instanceof Request.SubUpdate u) {
            b.put("Value", u.update()).put("Sync", u.sync());
        } else if (r instanceof Request.SubGet g) {
            b.put("SubKey", g.subKey());
        } else if (r instanceof Request.SubNext n) {
            b.put("SubKey", n.subKey());
        } else if (r instanceof Request.IndexOf i) {
            b.put("SubKey", i.subKey());
        } else if (r instanceof Request.NextIndex n) {
            b.put("Index", n.index());
        } else if (r instanceof Request.Count c) {
            range(b, c.min(), c.max(), c.minInc(), c.maxInc());
        } else if (r instanceof Request.Slice s) {
            range(b, s.min(), s.max(), s.minInc(), s.maxInc());
        } else if (r instanceof Request.SliceIndex s) {
            b.put("MinIndex", s.minIndex()).put("MaxIndex", s.maxIndex());
        } else if (r instanceof Request.SliceLen s) {
            b.put("From", s.from()).put("FromInc", s.fromInc()).put("Len", s.len());
        }
        return b;
    }

    private static void range(ObjectNode b, byte[] min, byte[] max, boolean minInc, boolean maxInc) {
        b.put("Min", min).put("Max", max).put("MinInc", minInc).put("MaxInc", maxInc);
    }

    /** setop.SetOp: {@code {"Sources":[{"Key","SetOp","Weight"}…]|null,"Type","Merge"}}. */
    private static ObjectNode op(SetExpression.Op op) {
        ObjectNode j = NODES.objectNode();
        if (op.sources() == null) {
            j.putNull("Sources");
        } else {
            ArrayNode sources = j.putArray("Sources");
            for (SetExpression.Source s : op.sources()) {
                if (s == null) {
                    sources.addNull();
                    continue;
                }
                ObjectNode src = sources.addObject().put("Key", s.key());
                src.set("SetOp", s.op() == null ? NODES.nullNode() : op(s.op()));
                src.put("Weight", s.weight());
            }
        }
        return j.put("Type", op.type()).put("Merge", op.merge());
    }
}
