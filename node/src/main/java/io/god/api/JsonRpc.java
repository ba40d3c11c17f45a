package io.god.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.god.command.CommandError;
import io.god.command.CommandObserver;
import io.god.command.Executor;
import io.god.command.JsonRequests;
import io.god.command.Wire;
import io.god.limits.LimitExceededException;
import io.god.limits.Limits;
import io.god.node.GodNode;
import io.god.request.Command;
import io.god.request.Request;
import io.god.wire.Call;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * The god JSON contract (reference §2.2) as a codec over the node's one {@link Executor}: (method, body bytes,
 * Authorization header) → (HTTP status, JSON bytes). Mounted on Quarkus' router by {@code RpcRoutes}, and the
 * handler of the calls other members forward here.
 *
 * <p>Statuses: 200 with the result; 400 with a JSON string message for client errors (bad JSON, bad base64, wrong
 * types, bad s-expression with its position, unknown merge, size limits), nothing changed; 401 without the
 * credential; 404 for an unknown method; 503 when the node cannot serve it now (joining, no replica answered, a
 * Sync write not confirmed); 500 only for real faults. What each status means is the executor's; this class only
 * turns bytes into a command's arguments and its result or refusal into bytes.
 */
public final class JsonRpc {

    /** The route prefix of every method name. */
    public static final String SERVICE = Command.SERVICE;

    /** Every method name (without the {@code DHash.} prefix): the command table's. */
    public static final Set<String> METHODS = Command.methods();

    /** The outcome of one call. */
    public record Response(int status, byte[] body) {
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private static final byte[] EMPTY = new byte[0];

    private final GodNode node;
    private final Executor executor;
    private final CommandObserver observer;
    private final ObjectMapper json;
    private final Limits limits;

    public JsonRpc(GodNode node) {
        this(node, (m, s, n) -> { });
    }

    public JsonRpc(GodNode node, CommandObserver observer) {
        this.node = node;
        this.observer = observer;
        this.executor = new Executor(node, observer);
        this.limits = node.settings().limits();
        this.json = Wire.constrained(limits);
        node.installCallHandler(c -> {
            Response r = handle(c.method(), c.body(), c.authorization(), c.hops(), c.mode(), c.stamp());
            return new Call.Reply(r.status(), r.body());
        });
        node.installDataHandler(new DataCalls(executor));
        node.installCommandHandler(new CommandCalls(executor));
    }

    /** The node's one executor, which every front end hands its commands to. */
    public Executor executor() {
        return executor;
    }

    /** The node (its settings and limits). */
    public GodNode node() {
        return node;
    }

    /** Whether a call never waits, so it may run on a network event loop ({@link Executor#answersAtOnce}). */
    public boolean answersOnEventLoop(String method) {
        return executor.answersAtOnce(Command.named(name(method)));
    }

    /** The JSON mapper of the contract: Go's encoding/json conventions, strict about types. */
    public static ObjectMapper mapper() {
        return Wire.mapper();
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
        return executor.bulkhead();
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
        Command command = Command.named(name(method));
        Response r;
        try {
            r = command == null ? error(404, "rpc: can't find method " + method)
                    : decodeAndRun(command, body == null ? EMPTY : body, new Executor.Origin(authorization, hops, mode,
                            stamp, start));
        } catch (RuntimeException e) {
            CommandError refused = executor.failure(e, method);
            r = error(refused.status(), refused.getMessage());
        } catch (OutOfMemoryError e) {
            io.god.node.OomExit.onError(e); // the frameworks above would only log it and answer 500
            throw e;
        }
        observer.completed(command == null ? "unknown" : command.method(), r.status(), System.nanoTime() - start);
        return r;
    }

    private Response decodeAndRun(Command command, byte[] body, Executor.Origin origin) {
        long limit = node.settings().bodySize();
        if (body.length > limit) {
            observer.limitRefused(io.god.node.NodeSettings.BODY_SIZE);
            throw new CommandError(400, "request body of " + body.length + " bytes exceeds god.limits.body-size ("
                    + limit + " bytes)");
        }
        if (origin.hops() == 0) {
            ClientStamps.refuse(command.method(), body);
        }
        Request request = JsonRequests.of(command, read(body, JsonRequests.wireType(command), command.method()));
        Object result = executor.run(request, origin);
        return new Response(200, result instanceof Executor.Relayed relayed ? relayed.body() : write(result));
    }

    /**
     * Executes one command a front end built itself ({@code /v1}, RESP, the dashboard): the result object (a
     * {@link Wire} record, a list, a number, {@code {}} or null); throws {@link CommandError} (400/401/503) or what
     * {@link Executor#failure} maps, with nothing changed.
     */
    public Object execute(Request request, String authorization) {
        return executor.execute(request, authorization);
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
}
