package io.god.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.god.node.GodNode;
import io.god.node.Store;
import io.god.persist.Record;
import io.god.setop.SetEntry;
import io.god.setop.SetExpression;
import io.god.setop.SetOp;
import io.god.setop.SetOpException;
import io.god.setop.SetOpSource;
import io.god.setop.SetOps;
import io.god.setop.TreeSource;
import io.god.tree.Entry;
import io.god.tree.Index;
import io.god.tree.Item;
import io.god.tree.SortedView;
import io.god.tree.TreeState;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The god JSON contract (reference §2.2) as a framework-free handler: (method, body bytes,
 * Authorization header) → (HTTP status, JSON bytes), over one {@link GodNode}. Mounted on Quarkus'
 * router by {@code RpcRoutes}, and mountable on any Vert.x router the same way.
 *
 * <p>Statuses: 200 with the result; 400 with a JSON string message for client errors (bad JSON,
 * bad base64, wrong types, bad s-expression with its position, unknown merge, size limits), nothing
 * changed; 401 when {@code god.auth.token} is set and a mutating call lacks it; 404 for an unknown
 * method; 500 only for real faults.
 */
public final class JsonRpc {

    /** The route prefix of every method name. */
    public static final String SERVICE = "DHash.";

    /** Methods that change data: they need the token when auth is on (SetExpression only with Dest). */
    public static final Set<String> MUTATING = Set.of("Put", "Del", "SubPut", "SubDel", "SubClear", "Clear",
            "AddConfiguration", "SubAddConfiguration");

    /** Every method name (without the {@code DHash.} prefix). */
    public static final Set<String> METHODS = Set.of("Put", "Del", "SubPut", "SubDel", "SubClear", "Get", "Next",
            "Prev", "SubGet", "SubNext", "SubPrev", "SubMirrorNext", "SubMirrorPrev", "First", "Last",
            "MirrorFirst", "MirrorLast", "NextIndex", "PrevIndex", "MirrorNextIndex", "MirrorPrevIndex", "IndexOf",
            "ReverseIndexOf", "MirrorIndexOf", "MirrorReverseIndexOf", "Count", "MirrorCount", "Slice",
            "ReverseSlice", "MirrorSlice", "MirrorReverseSlice", "SliceIndex", "ReverseSliceIndex",
            "MirrorSliceIndex", "MirrorReverseSliceIndex", "SliceLen", "ReverseSliceLen", "MirrorSliceLen",
            "MirrorReverseSliceLen", "Size", "SubSize", "Owned", "SetExpression", "AddConfiguration",
            "SubAddConfiguration", "Configuration", "SubConfiguration", "Describe", "DescribeTree", "Nodes",
            "Clear");

    /** Lines of DescribeTree output at most (it is a debug dump). */
    static final int DESCRIBE_TREE_LINES = 10_000;

    /** The outcome of one call. */
    public record Response(int status, byte[] body) {
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** Told about every call (metrics). */
    @FunctionalInterface
    public interface Observer {
        void completed(String method, int status, long nanos);
    }

    /** A client error: 400 (or the given status: 401, 404) with this message; nothing was changed. */
    public static final class ClientError extends RuntimeException {
        final int status;

        public ClientError(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    private static final System.Logger LOG = System.getLogger(JsonRpc.class.getName());
    private static final byte[] EMPTY = new byte[0];

    private final GodNode node;
    private final Auth auth;
    private final ObjectMapper json;
    private final Observer observer;

    public JsonRpc(GodNode node) {
        this(node, (m, s, n) -> { });
    }

    public JsonRpc(GodNode node, Observer observer) {
        this.node = node;
        this.auth = new Auth(node.settings().authToken());
        this.observer = observer;
        this.json = mapper();
    }

    /** The JSON mapper of the contract: Go's encoding/json conventions, strict about types. */
    public static ObjectMapper mapper() {
        JsonMapper m = JsonMapper.builder()
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
                .configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false)
                .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, false)
                .configure(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, true)
                .configure(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES, true)
                .configure(MapperFeature.ALLOW_COERCION_OF_SCALARS, false)
                .configure(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION, false)
                .build();
        m.coercionConfigFor(LogicalType.Integer).setCoercion(CoercionInputShape.String, CoercionAction.Fail);
        m.coercionConfigFor(LogicalType.Boolean).setCoercion(CoercionInputShape.String, CoercionAction.Fail);
        m.coercionConfigFor(LogicalType.Boolean).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
        return m;
    }

    /** Handles {@code POST /rpc/<method>}; method is {@code DHash.<Name>}. */
    public Response handle(String method, byte[] body, String authorization) {
        long start = System.nanoTime();
        Response r;
        try {
            r = dispatch(method, body == null ? EMPTY : body, authorization);
        } catch (ClientError e) {
            r = error(e.status, e.getMessage());
        } catch (SetOpException e) {
            r = error(400, e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "DHash call " + method + " failed", e);
            r = error(500, "internal error: " + e);
        }
        observer.completed(METHODS.contains(name(method)) ? name(method) : "unknown", r.status(),
                System.nanoTime() - start);
        return r;
    }

    private static String name(String method) {
        return method != null && method.startsWith(SERVICE) ? method.substring(SERVICE.length()) : "";
    }

    private Response error(int status, String message) {
        return new Response(status, write(message));
    }

    private byte[] write(Object o) {
        try {
            return json.writeValueAsBytes(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise " + o.getClass(), e);
        }
    }

    private Response dispatch(String method, byte[] body, String authorization) {
        String name = name(method);
        if (!METHODS.contains(name)) {
            return error(404, "rpc: can't find method " + method);
        }
        long limit = node.settings().bodySize();
        if (body.length > limit) {
            throw new ClientError(400, "request body of " + body.length + " bytes exceeds god.limits.body-size ("
                    + limit + " bytes)");
        }
        checkAuth(name, authorization);
        Object result = run(name, read(body, requestType(name), name), authorization);
        return new Response(200, write(result));
    }

    /** The request class of a method: {@link Wire.Req}, {@link Wire.ConfReq} or {@link Wire.SetExpressionReq}. */
    public static Class<?> requestType(String name) {
        return switch (name) {
            case "AddConfiguration", "SubAddConfiguration" -> Wire.ConfReq.class;
            case "SetExpression" -> Wire.SetExpressionReq.class;
            default -> Wire.Req.class;
        };
    }

    /**
     * Executes one method on decoded arguments: the one execution path of every API of the node
     * ({@code /rpc} parses JSON into the request, {@code /v1} builds it from paths and bodies).
     * Returns the result object that {@code /rpc} serialises (a {@link Wire} record, a list, a number,
     * {@code {}} or null); throws {@link ClientError} (400/401/404) or {@link SetOpException} (400)
     * with nothing changed.
     *
     * @param name the method without {@code DHash.}
     * @param request an instance of {@link #requestType(String)}
     */
    public Object execute(String name, Object request, String authorization) {
        if (!METHODS.contains(name)) {
            throw new ClientError(404, "rpc: can't find method " + SERVICE + name);
        }
        checkAuth(name, authorization);
        if (!requestType(name).isInstance(request)) {
            throw new IllegalArgumentException(name + " takes a " + requestType(name).getSimpleName());
        }
        return run(name, request, authorization);
    }

    private void checkAuth(String name, String authorization) {
        if (MUTATING.contains(name) && !auth.allows(authorization)) {
            throw new ClientError(401, "DHash." + name + " needs Authorization: Bearer <god.auth.token>");
        }
    }

    private Object run(String name, Object request, String authorization) {
        return switch (name) {
            case "AddConfiguration", "SubAddConfiguration" -> configure(name, (Wire.ConfReq) request);
            case "SetExpression" -> setExpression((Wire.SetExpressionReq) request, authorization);
            default -> call(name, (Wire.Req) request);
        };
    }

    /** The node's settings (limits) and whether it asks for a token. */
    public GodNode node() {
        return node;
    }

    private <T> T read(byte[] body, Class<T> type, String method) {
        try {
            if (isBlank(body)) {
                return type.getDeclaredConstructor().newInstance();
            }
            JsonNode tree = json.readTree(body);
            if (tree == null || tree.isNull()) {
                return type.getDeclaredConstructor().newInstance();
            }
            if (!tree.isObject()) {
                throw new ClientError(400, "bad request body for DHash." + method + ": expected a JSON object, got "
                        + tree.getNodeType().toString().toLowerCase(java.util.Locale.ROOT));
            }
            return json.treeToValue(tree, type);
        } catch (JsonProcessingException e) {
            throw new ClientError(400, "bad request body for DHash." + method + ": " + describe(e));
        } catch (java.io.IOException | ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String describe(JsonProcessingException e) {
        String msg = e.getOriginalMessage();
        if (e instanceof com.fasterxml.jackson.databind.JsonMappingException m && !m.getPath().isEmpty()) {
            StringBuilder field = new StringBuilder();
            for (com.fasterxml.jackson.databind.JsonMappingException.Reference ref : m.getPath()) {
                if (ref.getFieldName() != null) {
                    field.append(field.length() == 0 ? "" : ".").append(ref.getFieldName());
                } else if (ref.getIndex() >= 0) {
                    field.append('[').append(ref.getIndex()).append(']');
                }
            }
            msg = "field " + field + ": " + msg;
        }
        if (e.getLocation() != null && !(e instanceof com.fasterxml.jackson.databind.JsonMappingException)) {
            msg += " at offset " + e.getLocation().getCharOffset();
        }
        return msg;
    }

    private static boolean isBlank(byte[] body) {
        for (byte b : body) {
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return false;
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ limits

    private byte[] key(byte[] k, String field) {
        byte[] key = k == null ? EMPTY : k;
        if (key.length > node.settings().keySize()) {
            throw new ClientError(400, field + " of " + key.length + " bytes exceeds god.limits.key-size ("
                    + node.settings().keySize() + " bytes)");
        }
        return key;
    }

    private byte[] value(byte[] v, String field) {
        byte[] value = v == null ? EMPTY : v;
        if (value.length > node.settings().valueSize()) {
            throw new ClientError(400, field + " of " + value.length + " bytes exceeds god.limits.value-size ("
                    + node.settings().valueSize() + " bytes)");
        }
        return value;
    }

    private static byte[] orEmpty(byte[] b) {
        return b == null ? EMPTY : b;
    }

    private long stamp() {
        return node.timestamps().next();
    }

    private Store store() {
        return node.store();
    }

    private static final Map<String, String> NOTHING = Map.of();

    // ------------------------------------------------------------------ data methods

    private Object call(String name, Wire.Req q) {
        TreeState s = store().state();
        return switch (name) {
            case "Put" -> write(Record.put(key(q.key, "Key"), value(q.value, "Value"), stamp()));
            case "Del" -> write(Record.delete(key(q.key, "Key"), stamp()));
            case "SubPut" -> write(Record.subPut(key(q.key, "Key"), key(q.subKey, "SubKey"), value(q.value, "Value"),
                    stamp()));
            case "SubDel" -> write(Record.subDelete(key(q.key, "Key"), key(q.subKey, "SubKey"), stamp()));
            case "SubClear" -> write(Record.subClear(key(q.key, "Key"), stamp()));
            case "Clear" -> write(Record.clear(stamp()));
            case "Get" -> {
                Item i = s.get(orEmpty(q.key));
                yield new Wire.ValueRes(q.key, i.exists() ? i.value() : null, i.exists());
            }
            case "Next" -> valueRes(s.values().ceiling(orEmpty(q.key), false));
            case "Prev" -> valueRes(s.values().floor(orEmpty(q.key), false));
            case "SubGet" -> {
                Item i = s.sub(orEmpty(q.key)).get(orEmpty(q.subKey));
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
            case "Slice" -> list(sub(s, q).values().slice(q.min, q.minInc, q.max, q.maxInc, -1, false));
            case "ReverseSlice" -> list(sub(s, q).values().slice(q.min, q.minInc, q.max, q.maxInc, -1, true));
            case "MirrorSlice" -> list(sub(s, q).mirror().slice(q.min, q.minInc, q.max, q.maxInc, -1, false));
            case "MirrorReverseSlice" -> list(sub(s, q).mirror().slice(q.min, q.minInc, q.max, q.maxInc, -1, true));
            case "SliceIndex" -> list(sliceIndex(sub(s, q).values(), q, false));
            case "ReverseSliceIndex" -> list(sliceIndex(sub(s, q).values(), q, true));
            case "MirrorSliceIndex" -> list(sliceIndex(sub(s, q).mirror(), q, false));
            case "MirrorReverseSliceIndex" -> list(sliceIndex(sub(s, q).mirror(), q, true));
            case "SliceLen" -> list(sliceLen(sub(s, q).values(), q, false));
            case "ReverseSliceLen" -> list(sliceLen(sub(s, q).values(), q, true));
            case "MirrorSliceLen" -> list(sliceLen(sub(s, q).mirror(), q, false));
            case "MirrorReverseSliceLen" -> list(sliceLen(sub(s, q).mirror(), q, true));
            case "Size" -> s.size();
            case "Owned" -> s.realSize();
            case "SubSize" -> sub(s, q).values().size();
            case "Configuration" -> new Wire.Conf(null, new TreeMap<>(s.configuration()), s.configurationTimestamp());
            case "SubConfiguration" -> {
                TreeState sub = sub(s, q);
                yield new Wire.Conf(orEmpty(q.key), new TreeMap<>(sub.configuration()), sub.configurationTimestamp());
            }
            case "Describe" -> describe(s);
            case "DescribeTree" -> describeTree(s);
            case "Nodes" -> List.of(self());
            default -> throw new IllegalStateException("unhandled method " + name);
        };
    }

    private Object write(Record r) {
        store().apply(r);
        return NOTHING;
    }

    private static TreeState sub(TreeState s, Wire.Req q) {
        return s.sub(orEmpty(q.key));
    }

    private static Wire.ValueRes valueRes(Item i) {
        return i == null ? new Wire.ValueRes(null, null, false) : new Wire.ValueRes(i.key(), i.value(), true);
    }

    private static Wire.SubValueRes subValueRes(Item i) {
        return i == null ? new Wire.SubValueRes(null, null, null, false)
                : new Wire.SubValueRes(i.key(), null, i.value(), true);
    }

    private static Wire.SubValueIndexRes indexRes(SortedView view, long index, int step) {
        long target = index + step;
        boolean overflow = step > 0 ? target < index : target > index;
        Item i = overflow || target < 0 ? null : view.at(target);
        return i == null ? new Wire.SubValueIndexRes(null, null, null, 0, false)
                : new Wire.SubValueIndexRes(i.key(), null, i.value(), target, true);
    }

    private static Wire.IndexRes index(Index i) {
        return new Wire.IndexRes(i.n(), i.existed());
    }

    private static List<Wire.ValueRes> list(List<Item> items) {
        List<Wire.ValueRes> out = new ArrayList<>(items.size());
        for (Item i : items) {
            out.add(new Wire.ValueRes(i.key(), i.value(), true));
        }
        return out;
    }

    private static List<Item> sliceIndex(SortedView view, Wire.Req q, boolean reverse) {
        long from = q.minIndex == null ? 0 : q.minIndex;
        long to = q.maxIndex == null ? Long.MAX_VALUE : q.maxIndex;
        return view.sliceIndex(from, to, reverse);
    }

    /** Len ≤ 0 returns nothing (the original returned one item: a documented fix). */
    private static List<Item> sliceLen(SortedView view, Wire.Req q, boolean reverse) {
        if (q.len <= 0) {
            return List.of();
        }
        int limit = (int) Math.min(q.len, Integer.MAX_VALUE);
        return reverse ? view.slice(null, false, q.from, q.fromInc, limit, true)
                : view.slice(q.from, q.fromInc, null, false, limit, false);
    }

    // ------------------------------------------------------------------ configuration

    private Object configure(String name, Wire.ConfReq q) {
        String k = q.key == null ? "" : q.key;
        String v = q.value == null ? "" : q.value;
        if (k.getBytes(StandardCharsets.UTF_8).length > node.settings().keySize()) {
            throw new ClientError(400, "configuration Key exceeds god.limits.key-size");
        }
        if (v.getBytes(StandardCharsets.UTF_8).length > node.settings().valueSize()) {
            throw new ClientError(400, "configuration Value exceeds god.limits.value-size");
        }
        if ("AddConfiguration".equals(name)) {
            store().configure(k, v, stamp());
        } else {
            store().subConfigure(key(q.treeKey, "TreeKey"), k, v, stamp());
        }
        return NOTHING;
    }

    // ------------------------------------------------------------------ set expressions

    private Object setExpression(Wire.SetExpressionReq q, String authorization) {
        if (q.dest != null && !auth.allows(authorization)) {
            throw new ClientError(401, "DHash.SetExpression with Dest needs Authorization: Bearer <god.auth.token>");
        }
        if (q.op == null && q.code == null) {
            throw new ClientError(400, "SetExpression needs Code or Op");
        }
        SetOp op = q.op != null ? op(q.op, 1) : null;
        int len = (int) Math.max(Math.min(q.len, Integer.MAX_VALUE), Integer.MIN_VALUE);
        SetExpression expr = SetExpression.of(q.code, op, q.min, q.max, q.minInc, q.maxInc, len, q.dest);
        TreeState s = store().state();
        if (q.dest == null) {
            List<Wire.SetOpResult> out = new ArrayList<>();
            SetOps.each(expr, TreeSource.subTrees(s), e -> out.add(new Wire.SetOpResult(e.key(), e.values())));
            return out;
        }
        byte[] dest = key(q.dest, "Dest");
        SetOps.checkStorable(expr);
        List<SetEntry> results = SetOps.evaluate(expr, TreeSource.subTrees(s));
        List<Record> writes = new ArrayList<>(results.size());
        for (SetEntry e : results) {
            writes.add(Record.subPut(dest, key(e.key(), "result key"), value(e.firstValue(), "result value"), stamp()));
        }
        if (!writes.isEmpty()) {
            store().applyAll(writes);
        }
        return null;
    }

    private static SetOp op(Wire.SetOpJson j, int depth) {
        if (depth > SetOp.MAX_DEPTH) {
            throw new ClientError(400, "SetOp nested deeper than " + SetOp.MAX_DEPTH + " levels");
        }
        if (j.sources == null || j.sources.isEmpty()) {
            throw new ClientError(400, "SetOp without sources not allowed");
        }
        List<SetOpSource> sources = new ArrayList<>(j.sources.size());
        for (Wire.SetOpSourceJson src : j.sources) {
            if (src == null) {
                throw new ClientError(400, "SetOp source must not be null");
            }
            sources.add(SetOpSource.of(src.setOp == null ? orEmptyIfNoOp(src) : null,
                    src.setOp == null ? null : op(src.setOp, depth + 1), src.weight));
        }
        return SetOp.of(j.type, j.merge, sources);
    }

    /** A source with neither Key nor SetOp names the empty key (Go's nil key). */
    private static byte[] orEmptyIfNoOp(Wire.SetOpSourceJson src) {
        return src.key == null ? EMPTY : src.key;
    }

    // ------------------------------------------------------------------ node description

    private Wire.Remote self() {
        return new Wire.Remote(node.position(), node.address());
    }

    private Wire.Description describe(TreeState s) {
        String epoch = rfc3339(0);
        return new Wire.Description(node.address(), node.position(), rfc3339(node.startedAt()), epoch, epoch,
                rfc3339(node.clock().nanos()), s.realSize(), s.realSize(), 0.0, List.of(self()));
    }

    /** Go's RFC3339Nano: fraction without trailing zeros, none when zero. */
    public static String rfc3339(long nanos) {
        Instant i = Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
        String base = i.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        base = base.substring(0, base.length() - 1);
        if (i.getNano() == 0) {
            return base + "Z";
        }
        String frac = String.format("%09d", i.getNano()).replaceAll("0+$", "");
        return base + "." + frac + "Z";
    }

    private static String describeTree(TreeState s) {
        HexFormat hex = HexFormat.of();
        StringBuilder sb = new StringBuilder();
        sb.append("<Tree size:").append(s.size()).append(" realSize:").append(s.realSize()).append(" hash:")
                .append(s.hash()).append(" configuration:").append(s.configuration()).append(">\n");
        int lines = 1;
        for (Iterator<Entry> it = s.entries(null); it.hasNext(); ) {
            Entry e = it.next();
            if (lines++ >= DESCRIBE_TREE_LINES) {
                sb.append("...\n");
                break;
            }
            sb.append("  ").append(hex.formatHex(e.key())).append(" ");
            if (e.hasValue()) {
                sb.append("=> ").append(hex.formatHex(e.value()));
            } else if (e.isTombstone()) {
                sb.append("(tombstone)");
            }
            sb.append(" @").append(e.timestamp());
            if (e.sub() != null) {
                sb.append(" sub{size:").append(e.sub().size()).append(", mirrored:").append(e.sub().isMirrored())
                        .append("}");
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
