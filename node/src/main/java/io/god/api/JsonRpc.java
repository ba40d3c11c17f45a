package io.god.api;

import io.god.command.Admission;
import io.god.command.Command;
import io.god.command.Command.Flag;
import io.god.command.CommandError;
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
import io.god.cluster.Cluster;
import io.god.limits.CallBudget;
import io.god.limits.LimitExceededException;
import io.god.limits.Limits;
import io.god.node.GodNode;
import io.god.node.Store;
import io.god.persist.Record;
import io.god.setop.SetEntry;
import io.god.setop.SetExpression;
import io.god.setop.SetOp;
import io.god.setop.SetOpException;
import io.god.setop.PagedSource;
import io.god.setop.SetOps;
import io.god.wire.Call;
import io.god.tree.Entry;
import io.god.tree.TreeState;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The god JSON contract (reference §2.2) as a framework-free handler: (method, body bytes,
 * Authorization header) → (HTTP status, JSON bytes), over one {@link GodNode}. Mounted on Quarkus'
 * router by {@code RpcRoutes}, and mountable on any Vert.x router the same way.
 *
 * <p>Statuses: 200 with the result; 400 with a JSON string message for client errors (bad JSON,
 * bad base64, wrong types, bad s-expression with its position, unknown merge, size limits), nothing
 * changed; 401 when {@code god.auth.token} is set and a mutating call lacks it; 404 for an unknown
 * method; 500 only for real faults.
 *
 * <p>On a ring (more than one member) every key-based call is routed to the key's owner by
 * {@link Cluster} (forwarded over the binary protocol, failing over to the next replica); writes are
 * replicated by the executing node; Size, Clear, AddConfiguration, Next and Prev run on every member
 * and their answers are combined; Nodes and Describe report this node's ring view; Owned,
 * DescribeTree and Configuration are this node's. A set expression reads sources owned elsewhere a
 * page at a time ({@link PagedSource} over forwarded SliceLen calls), executed on the owner of its
 * largest source (without Dest) or on Dest's owner (with Dest). 503 when no replica of a key answered, a Sync write was not confirmed by all replicas, or
 * the node is still joining its ring (only calls answered locally are served then).
 */
public final class JsonRpc {

    /** The route prefix of every method name. */
    public static final String SERVICE = "DHash.";

    /** Every method name (without the {@code DHash.} prefix): the command table's. */
    public static final Set<String> METHODS = Command.methods();

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

        /** A request refused by the limit with this config key (a 400). */
        default void limitRefused(String limit) {
        }

        /** An expensive call refused by the bulkhead (a 503). */
        default void bulkheadRejected() {
        }
    }

    private static final System.Logger LOG = System.getLogger(JsonRpc.class.getName());
    private static final byte[] EMPTY = new byte[0];

    private final GodNode node;
    private final Admission admission;
    private final ObjectMapper json;
    private final Limits limits;
    private final io.god.limits.Bulkhead bulkhead;
    private final Observer observer;
    private final SetSources setSources;
    private final io.god.command.SubUpdates subUpdates;

    public JsonRpc(GodNode node) {
        this(node, (m, s, n) -> { });
    }

    public JsonRpc(GodNode node, Observer observer) {
        this.node = node;
        this.admission = new Admission(node, observer::limitRefused);
        this.observer = observer;
        this.limits = node.settings().limits();
        this.json = limits.constrain(mapper());
        this.bulkhead = io.god.limits.Bulkhead.of(limits);
        this.setSources = new SetSources(node, json);
        this.subUpdates = new io.god.command.SubUpdates(node, admission);
        node.installCallHandler(c -> {
            Response r = handle(c.method(), c.body(), c.authorization(), c.hops(), c.mode(), c.stamp());
            return new Call.Reply(r.status(), r.body());
        });
        node.installDataHandler(new DataCalls(node, admission, observer));
    }

    /**
     * Whether a call never waits, so it may run on a network event loop: a point read (no routing) on
     * a node alone in its ring. Writes stay on the workers: measured on the event loops, HTTP Put lost
     * a third of its rate (the writers then queue for the tree's lock on the loops themselves).
     */
    public boolean answersOnEventLoop(String method) {
        Cluster cluster = node.cluster();
        Command c = Command.named(name(method));
        return c != null && c.is(Flag.POINT_READ) && (cluster == null || cluster.alone());
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

    /**
     * Counts a refusal by the limit with this config key that happened outside {@link #handle} (the
     * {@code /v1} API, the HTTP body limit): {@code god_limit_refusals_total{limit}}.
     */
    public void limitRefused(String limit) {
        observer.limitRefused(limit);
    }

    /** Counts an expensive call the bulkhead refused outside {@link #handle} (the {@code /v1} API). */
    public void bulkheadRejected() {
        observer.bulkheadRejected();
    }

    /** The bulkhead of expensive calls (tests fill it). */
    public io.god.limits.Bulkhead bulkhead() {
        return bulkhead;
    }

    /** Handles {@code POST /rpc/<method>}; method is {@code DHash.<Name>}. */
    public Response handle(String method, byte[] body, String authorization) {
        return handle(method, body, authorization, 0, Call.ROUTE);
    }

    /**
     * Handles a call that may have come from another node: {@code hops} forwards so far, and
     * {@link Call#EXECUTE} to execute it here without routing.
     */
    public Response handle(String method, byte[] body, String authorization, int hops, int mode) {
        return handle(method, body, authorization, hops, mode, 0);
    }

    /** As above, for a write the first node stamped already ({@link Call#stamp()}, 0 = none). */
    public Response handle(String method, byte[] body, String authorization, int hops, int mode, long stamp) {
        long start = System.nanoTime();
        Response r;
        try {
            r = dispatch(method, body == null ? EMPTY : body, authorization, hops, mode, stamp);
        } catch (CommandError e) {
            r = error(e.status(), e.getMessage());
        } catch (LimitExceededException e) {
            observer.limitRefused(e.limit());
            r = error(400, e.getMessage());
        } catch (io.god.limits.Bulkhead.Full e) {
            observer.bulkheadRejected();
            r = error(503, e.getMessage());
        } catch (SetOpException e) {
            r = error(400, e.getMessage());
        } catch (io.god.persist.PersistenceException e) {
            r = error(500, UnloggedWrites.NODE.refuse(method, e));
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "DHash call " + method + " failed", e);
            r = error(500, "internal error: " + e);
        } catch (OutOfMemoryError e) {
            io.god.node.OomExit.onError(e); // the frameworks above would only log it and answer 500
            throw e;
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

    private Response dispatch(String method, byte[] body, String authorization, int hops, int mode, long given) {
        long since = System.nanoTime();
        String name = name(method);
        Command command = Command.named(name);
        if (command == null) {
            return error(404, "rpc: can't find method " + method);
        }
        long limit = node.settings().bodySize();
        if (body.length > limit) {
            observer.limitRefused(io.god.node.NodeSettings.BODY_SIZE);
            throw new CommandError(400, "request body of " + body.length + " bytes exceeds god.limits.body-size ("
                    + limit + " bytes)");
        }
        admission.authorize(command, authorization);
        if (hops == 0) {
            ClientStamps.refuse(name, body, given);
        }
        admission.admit(command);
        Cluster cluster = node.cluster();
        long stamp = admission.stamp(command, given, hops, since);
        // a node catching up hands reads it was asked to execute to a replica that serves reads (DESIGN §7)
        boolean handOver = mode == Call.EXECUTE && cluster != null && !cluster.servesReads() && hops < Cluster.MAX_HOPS
                && !command.is(Flag.MUTATING) && !command.is(Flag.LOCAL) && !command.is(Flag.BROADCAST);
        if ((mode == Call.ROUTE || handOver) && cluster != null && !cluster.alone()) {
            Response routed = route(cluster, command, body, authorization, hops, stamp);
            if (routed != null) {
                return routed;
            }
        }
        if (cluster != null && !cluster.ownCopyComplete() && !cluster.servesReads() && !command.is(Flag.MUTATING)
                && !command.is(Flag.LOCAL)) { // no read (nor a part of one) from a copy that lost records to damage
            throw new CommandError(503, DataCalls.AWAITS_REPAIR);
        }
        Object result = run(command, read(body, requestType(name), name), authorization, stamp);
        return new Response(200, write(result));
    }

    /** The request class of a method: {@link Wire.Req}, {@link Wire.ConfReq} or {@link Wire.SetExpressionReq}. */
    public static Class<?> requestType(String name) {
        Command c = Command.named(name);
        return switch (c == null ? Command.Shape.KEYED : c.shape()) {
            case CONFIGURATION -> Wire.ConfReq.class;
            case SET_EXPRESSION -> Wire.SetExpressionReq.class;
            case KEYED -> Wire.Req.class;
        };
    }

    /**
     * Executes one method on decoded arguments: the one execution path of every API of the node
     * ({@code /rpc} parses JSON into the request, {@code /v1} builds it from paths and bodies).
     * Returns the result object that {@code /rpc} serialises (a {@link Wire} record, a list, a number,
     * {@code {}} or null); throws {@link CommandError} (400/401/404) or {@link SetOpException} (400)
     * with nothing changed.
     *
     * @param name the method without {@code DHash.}
     * @param request an instance of {@link #requestType(String)}
     */
    public Object execute(String name, Object request, String authorization) {
        long since = System.nanoTime();
        Command command = Command.named(name);
        if (command == null) {
            throw new CommandError(404, "rpc: can't find method " + SERVICE + name);
        }
        admission.authorize(command, authorization);
        if (!requestType(name).isInstance(request)) {
            throw new IllegalArgumentException(name + " takes a " + requestType(name).getSimpleName());
        }
        admission.admit(command);
        Cluster cluster = node.cluster();
        long stamp = admission.stamp(command, 0, 0, since);
        if (!command.is(Flag.LOCAL) && cluster != null && !cluster.alone()) {
            Response routed = route(cluster, command, write(request), authorization, 0, stamp);
            if (routed != null) {
                return typed(name, routed, request instanceof Wire.Req q && q.stamped);
            }
        }
        return run(command, request, authorization, stamp);
    }

    /** A routed reply as the result object {@link #execute} returns (or its error as a CommandError). */
    private Object typed(String name, Response r, boolean stamped) {
        try {
            if (r.status() != 200) {
                JsonNode msg = json.readTree(r.body());
                throw new CommandError(r.status(), msg != null && msg.isTextual() ? msg.asText() : r.text());
            }
            if (stamped) {
                return json.readTree(r.body()); // keeps Timestamp (Stamped answers are god extensions)
            }
            var types = json.getTypeFactory();
            com.fasterxml.jackson.databind.JavaType t = switch (name) {
                case "Get", "Next", "Prev" -> types.constructType(Wire.ValueRes.class);
                case "SubGet", "SubNext", "SubPrev", "SubMirrorNext", "SubMirrorPrev", "First", "Last", "MirrorFirst",
                        "MirrorLast" -> types.constructType(Wire.SubValueRes.class);
                case "NextIndex", "PrevIndex", "MirrorNextIndex", "MirrorPrevIndex" ->
                        types.constructType(Wire.SubValueIndexRes.class);
                case "IndexOf", "ReverseIndexOf", "MirrorIndexOf", "MirrorReverseIndexOf" ->
                        types.constructType(Wire.IndexRes.class);
                case "Count", "MirrorCount", "Size", "SubSize", "Owned" -> types.constructType(Long.class);
                case "SubUpdate" -> types.constructType(Wire.UpdateRes.class);
                case "SetExpression" -> types.constructCollectionType(List.class, Wire.SetOpResult.class);
                case "SubConfiguration", "Configuration" -> types.constructType(Wire.Conf.class);
                default -> name.contains("Slice") ? types.constructCollectionType(List.class, Wire.ValueRes.class)
                        : types.constructMapType(Map.class, String.class, String.class);
            };
            return json.readValue(r.body(), t);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("bad reply from a ring member for " + name + ": " + e, e);
        }
    }

    private Object run(Command command, Object request, String authorization, long stamp) {
        String name = command.method();
        Cluster cluster = node.cluster();
        if (("Get".equals(name) || "SubGet".equals(name)) && cluster != null && !cluster.servesReads()) {
            Wire.Req q = (Wire.Req) request; // every replica of the key is catching up: the newest of them
            byte[] k = q.key == null ? EMPTY : q.key;
            if (!cluster.mergeRead(k, "SubGet".equals(name) ? (q.subKey == null ? EMPTY : q.subKey) : null)) {
                throw new CommandError(503, DataCalls.MERGE_UNAVAILABLE);
            }
        }
        if (command.is(Flag.EXPENSIVE)) {
            return bulkhead.run(() -> runHere(name, request, authorization, stamp));
        }
        return runHere(name, request, authorization, stamp);
    }

    private Object runHere(String name, Object request, String authorization, long stamp) {
        return switch (name) {
            case "AddConfiguration", "SubAddConfiguration" -> configure(name, (Wire.ConfReq) request);
            case "SetExpression" -> setExpression((Wire.SetExpressionReq) request, authorization);
            default -> call(name, (Wire.Req) request, stamp);
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
            if (startsWithObject(body)) {
                // straight into the request: a JFR profile showed the intermediate tree costing a
                // quarter of a Get's time on the node
                return json.readValue(body, type);
            }
            JsonNode tree = json.readTree(body);
            if (tree == null || tree.isNull()) {
                return type.getDeclaredConstructor().newInstance();
            }
            if (!tree.isObject()) {
                throw new CommandError(400, "bad request body for DHash." + method + ": expected a JSON object, got "
                        + tree.getNodeType().toString().toLowerCase(java.util.Locale.ROOT));
            }
            return json.treeToValue(tree, type);
        } catch (JsonProcessingException e) {
            LimitExceededException limit = limits.jsonLimit(e);
            if (limit != null) {
                throw limit;
            }
            throw new CommandError(400, "bad request body for DHash." + method + ": " + JsonErrors.describe(e));
        } catch (java.io.IOException | ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether the first non-blank byte opens a JSON object. */
    private static boolean startsWithObject(byte[] body) {
        for (byte b : body) {
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return b == '{';
            }
        }
        return false;
    }

    private static boolean isBlank(byte[] body) {
        for (byte b : body) {
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return false;
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ routing

    private Response route(Cluster cluster, Command command, byte[] body, String authorization, int hops, long stamp) {
        String name = command.method();
        if (command.is(Flag.LOCAL)) {
            return null;
        }
        if (command.is(Flag.BROADCAST)) {
            return broadcast(cluster, name, body, authorization);
        }
        byte[] key;
        if ("SetExpression".equals(name)) {
            Wire.SetExpressionReq q = read(body, Wire.SetExpressionReq.class, name);
            key = q.dest;
            if (key == null) {
                key = hops > 0 ? null : setSources.largest(cluster, q, authorization);
                if (key == null) {
                    return null;
                }
            }
        } else if ("SubAddConfiguration".equals(name)) {
            key = key(read(body, Wire.ConfReq.class, name).treeKey, "TreeKey");
        } else {
            key = key(read(body, Wire.Req.class, name).key, "Key");
        }
        boolean read = !command.is(Flag.MUTATING) && !(command == Command.SET_EXPRESSION && hops == 0
                && read(body, Wire.SetExpressionReq.class, name).dest != null);
        Call.Reply r = cluster.route(SERVICE + name, body, authorization, hops, key, stamp, read);
        return r == null ? null : new Response(r.status(), r.body());
    }

    private Response broadcast(Cluster cluster, String name, byte[] body, String authorization) {
        List<Call.Reply> replies = cluster.broadcast(SERVICE + name, body, authorization, () -> {
            Response r = handle(SERVICE + name, body, authorization, Cluster.MAX_HOPS, Call.EXECUTE);
            return new Call.Reply(r.status(), r.body());
        });
        for (Call.Reply r : replies) {
            if (r.status() != 200) {
                return new Response(r.status(), r.body());
            }
        }
        try {
            switch (name) {
                case "Size" -> {
                    long sum = 0;
                    for (Call.Reply r : replies) {
                        sum += json.readTree(r.body()).asLong();
                    }
                    return new Response(200, write(sum));
                }
                case "Next", "Prev" -> {
                    JsonNode best = null;
                    byte[] bestKey = null;
                    for (Call.Reply r : replies) {
                        JsonNode n = json.readTree(r.body());
                        if (!n.path("Exists").asBoolean(false)) {
                            continue;
                        }
                        byte[] k = n.get("Key").isNull() ? EMPTY : n.get("Key").binaryValue();
                        int c = bestKey == null ? 0 : java.util.Arrays.compareUnsigned(k, bestKey);
                        if (bestKey == null || ("Next".equals(name) ? c < 0 : c > 0)) {
                            best = n;
                            bestKey = k;
                        }
                    }
                    return new Response(200, best == null ? write(new Wire.ValueRes(null, null, false)) : write(best));
                }
                default -> {
                    return new Response(200, write(NOTHING));
                }
            }
        } catch (java.io.IOException e) {
            throw new IllegalStateException("bad reply from a ring member: " + e, e);
        }
    }

    /** This node's part of Size/Owned on a ring: its owned range [predecessor, self). */
    private long owned(TreeState s, boolean real) {
        Cluster cluster = node.cluster();
        byte[][] range = cluster == null ? null : cluster.ownedRange();
        if (range == null) {
            return real ? s.realSize() : s.size();
        }
        byte[] from = range[0];
        byte[] to = range[1];
        int c = java.util.Arrays.compareUnsigned(from, to);
        if (c < 0) {
            return real ? s.realSizeBetween(from, to) : s.sizeBetween(from, to);
        }
        if (c == 0) {
            return real ? s.realSize() : s.size();
        }
        return real ? s.realSizeBetween(from, null) + s.realSizeBetween(null, to)
                : s.sizeBetween(from, null) + s.sizeBetween(null, to);
    }

    /** The ring view (Admission refuses it while this node is stale or joining: RING_VIEW). */
    private List<Wire.Remote> nodes() {
        Cluster cluster = node.cluster();
        if (cluster == null || cluster.ring().isEmpty()) {
            return List.of(self());
        }
        List<Wire.Remote> out = new ArrayList<>();
        java.util.Set<String> catchingUp = node.memberStates() == null ? java.util.Set.of()
                : node.memberStates().catchingUp();
        for (io.god.ring.Member m : cluster.ring().members()) {
            out.add(new Wire.Remote(m.position(), m.address(),
                    catchingUp.contains(m.address()) ? GodNode.State.CATCHING_UP.name() : null));
        }
        return out;
    }

    // ------------------------------------------------------------------ limits

    private byte[] key(byte[] k, String field) {
        admission.checkKey(k, field);
        return k == null ? EMPTY : k;
    }

    private byte[] value(byte[] v, String field) {
        admission.checkValue(v, field);
        return v == null ? EMPTY : v;
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

    /** Runs a data method; {@code stamp} is the write timestamp of a STAMPED one ({@link Admission#stamp}). */
    private Object call(String name, Wire.Req q, long stamp) {
        key(q.key, "Key"); // reads too: one size rule for every command and codec
        key(q.subKey, "SubKey");
        TreeState s = store().state();
        return switch (name) {
            case "Put" -> write(Record.put(key(q.key, "Key"), value(q.value, "Value"), stamp), q.sync);
            case "Del" -> write(Record.delete(key(q.key, "Key"), stamp), q.sync);
            case "SubPut" -> write(Record.subPut(key(q.key, "Key"), key(q.subKey, "SubKey"), value(q.value, "Value"),
                    stamp), q.sync);
            case "SubDel" -> write(Record.subDelete(key(q.key, "Key"), key(q.subKey, "SubKey"), stamp), q.sync);
            case "SubClear" -> write(Record.subClear(key(q.key, "Key"), stamp), q.sync);
            case "SubUpdate" -> {
                io.god.command.SubUpdates.Outcome o = subUpdates.run(store(), key(q.key, "Key"), q.value);
                if (!o.records().isEmpty()) {
                    replicate(o.records(), q.key, q.sync);
                }
                yield new Wire.UpdateRes(o.n(), o.values());
            }
            case "Clear" -> {
                store().apply(Record.clear(stamp()));
                yield NOTHING;
            }
            case "Size" -> owned(s, false);
            case "Owned" -> owned(s, true);
            case "Describe" -> describe(s);
            case "DescribeTree" -> describeTree(s);
            case "Nodes" -> nodes();
            default -> {
                Object read = TreeReads.read(name, s, q, limits.budget(node.clock()));
                if (read == null) {
                    throw new IllegalStateException("unhandled method " + name);
                }
                yield read;
            }
        };
    }

    private Object write(Record r, boolean sync) {
        store().apply(r);
        replicate(List.of(r), r.key(), sync);
        return NOTHING;
    }

    private void replicate(List<Record> records, byte[] key, boolean sync) {
        Cluster cluster = node.cluster();
        if (cluster == null) { // also when alone in the view: Sync counts over the expected membership
            return;
        }
        try {
            cluster.replicate(records, key, sync);
        } catch (Cluster.ReplicationException e) {
            throw new CommandError(503, e.getMessage());
        }
    }

    // ------------------------------------------------------------------ configuration

    private Object configure(String name, Wire.ConfReq q) {
        String k = q.key == null ? "" : q.key;
        String v = q.value == null ? "" : q.value;
        if (k.getBytes(StandardCharsets.UTF_8).length > node.settings().keySize()) {
            observer.limitRefused(io.god.node.NodeSettings.KEY_SIZE);
            throw new CommandError(400, "configuration Key exceeds god.limits.key-size");
        }
        if (v.getBytes(StandardCharsets.UTF_8).length > node.settings().valueSize()) {
            observer.limitRefused(io.god.node.NodeSettings.VALUE_SIZE);
            throw new CommandError(400, "configuration Value exceeds god.limits.value-size");
        }
        if ("AddConfiguration".equals(name)) {
            store().configure(k, v, stamp());
        } else {
            byte[] treeKey = key(q.treeKey, "TreeKey");
            store().subConfigure(treeKey, k, v, stamp());
            TreeState sub = store().state().sub(treeKey);
            replicate(List.of(Record.subSetConfiguration(treeKey, sub.configuration(), sub.configurationTimestamp())),
                    treeKey, true);
        }
        return NOTHING;
    }

    // ------------------------------------------------------------------ set expressions

    private Object setExpression(Wire.SetExpressionReq q, String authorization) {
        if (q.dest != null) {
            admission.authorizeWrite("SetExpression with Dest", authorization);
        }
        if (q.op == null && q.code == null) {
            throw new CommandError(400, "SetExpression needs Code or Op");
        }
        SetOp op = q.op != null ? SetSources.op(q.op, 1, limits) : limits.parse(q.code);
        int len = (int) Math.max(Math.min(q.len, Integer.MAX_VALUE), Integer.MIN_VALUE);
        SetExpression expr = SetExpression.of(null, op, q.min, q.max, q.minInc, q.maxInc, len, q.dest);
        if (q.exactNumbers) {
            expr = expr.withExactNumbers();
        }
        TreeState s = store().state();
        CallBudget budget = limits.budget(node.clock());
        if (q.dest == null) {
            List<Wire.SetOpResult> out = new ArrayList<>();
            SetOps.each(expr, setSources.resolver(s, authorization), budget, e -> {
                budget.row(rowSize(e));
                out.add(new Wire.SetOpResult(e.key(), e.values()));
            });
            return out;
        }
        byte[] dest = key(q.dest, "Dest");
        SetOps.checkStorable(expr);
        List<SetEntry> results = SetOps.evaluate(expr, setSources.resolver(s, authorization), budget,
                e -> budget.row(rowSize(e)));
        List<Record> writes = new ArrayList<>(results.size());
        for (SetEntry e : results) {
            writes.add(Record.subPut(dest, key(e.key(), "result key"), value(e.firstValue(), "result value"), stamp()));
        }
        if (!writes.isEmpty()) {
            store().applyAll(writes);
            replicate(writes, dest, false);
        }
        return null;
    }

    /** Bytes of a set-expression result: its key and every value. */
    private static long rowSize(SetEntry e) {
        long n = e.key().length;
        for (byte[] v : e.values()) {
            n += v == null ? 0 : v.length;
        }
        return n;
    }

    // ------------------------------------------------------------------ node description

    private Wire.Remote self() {
        return new Wire.Remote(node.position(), node.address());
    }

    private Wire.Description describe(TreeState s) {
        // LastSync: the last anti-entropy round with successors; LastMigrate: the last move; the epoch = never
        long synced = node.antiEntropy() == null ? 0 : node.antiEntropy().lastSyncAt();
        return new Wire.Description(node.address(), node.position(), rfc3339(node.startedAt()), rfc3339(synced),
                rfc3339(node.lastMigrateAt()),
                rfc3339(node.clock().nanos()), owned(s, true), s.realSize(), 0.0, nodes());
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
