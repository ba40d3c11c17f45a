package io.god.api.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.god.api.JsonRpc;
import io.god.api.NodeBean;
import io.god.client.ValueEncoding;
import io.god.command.CommandError;
import io.god.command.Wire;
import io.god.request.Command;
import io.god.request.Request;
import io.god.request.Result;
import io.god.setop.SetOpException;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameters;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The /v1 resource API for humans and curl, on the node's one execution path
 * ({@link JsonRpc#execute}): every route builds the command's {@link Request} record and runs it, so
 * limits, auth, atomicity and (with the ring) routing are the contract's. Keys come from the raw path
 * (see {@link KeyText}); the JAX-RS path parameters only document the routes.
 */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "god /v1", description = "Keys, sub trees, set expressions. Path segments: percent-encoded UTF-8 "
        + "(any bytes via %XX), or base64url with ?b64=true. Writes need `Authorization: Bearer <token>` when "
        + "god.auth.token is set. Errors are {\"error\": message} with 400 (bad input, nothing changed), 401 or 404.")
public class V1Resource {

    /** Page size when {@code limit} is absent, and its maximum. */
    public static final int DEFAULT_LIMIT = 100;
    public static final int MAX_LIMIT = 10_000;
    static final String ENC_DOC = "how values are spelled in and out (default string: UTF-8): int and float are the "
            + "8-byte numbers the merges read (IntegerSum…, FloatSum…; their bytes sort like the numbers only when "
            + "≥ 0), ordered-int and ordered-float 8 bytes that sort as the numbers do, negatives included (not read by "
            + "the merges), big an unsigned big-endian magnitude (BigInt merges), hex any bytes. Bytes that are no "
            + "such value come back as value null (valueBase64 always has them)";

    /** The request parser, under the node's JSON limits (god.limits.json-depth, json-string). */
    private static volatile ObjectMapper json;
    private static volatile io.god.limits.Limits jsonLimits;

    @Inject
    NodeBean bean;

    @Context
    HttpServerRequest request;

    // ------------------------------------------------------------------ top-level keys

    @PUT
    @Path("/keys/{key}")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Put a value", description = "The body is the value: raw bytes (any Content-Type but "
            + "JSON), or with Content-Type application/json {\"value\": text} or {\"valueBase64\": b64}.")
    @Parameters({@Parameter(name = "b64", in = ParameterIn.QUERY, description = "true: path segments are base64url",
            schema = @Schema(type = SchemaType.BOOLEAN)),
            @Parameter(name = "sync", in = ParameterIn.QUERY, description = "true: return after every replica has it",
                    schema = @Schema(type = SchemaType.BOOLEAN)),
            @Parameter(name = "enc", in = ParameterIn.QUERY, description = ENC_DOC,
                    schema = @Schema(type = SchemaType.STRING, enumeration = {"string", "int", "float", "big",
                            "ordered-int", "ordered-float", "hex"}))})
    @RequestBody(content = {@Content(mediaType = "application/octet-stream",
            schema = @Schema(type = SchemaType.STRING, format = "binary")),
            @Content(mediaType = "application/json", schema = @Schema(implementation = V1Json.ValueBody.class))})
    @APIResponse(responseCode = "204", description = "stored")
    @APIResponse(responseCode = "400", description = "bad key, body or limit",
            content = @Content(schema = @Schema(implementation = V1Json.Error.class)))
    @APIResponse(responseCode = "401", description = "token missing")
    public Response putKey(@PathParam("key") String key, byte[] body) {
        V1Args a = args(3, Set.of("b64", "sync", "enc"));
        ValueIn v = valueIn(body, a);
        exec(new Request.Put(a.seg(0, "key"), v.value, v.sync));
        return Response.noContent().build();
    }

    @GET
    @Path("/keys/{key}")
    @Operation(summary = "Get a value")
    @Parameters({@Parameter(name = "b64", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.BOOLEAN)),
            @Parameter(name = "raw", in = ParameterIn.QUERY, description = "true: the value's bytes as "
                    + "application/octet-stream", schema = @Schema(type = SchemaType.BOOLEAN)),
            @Parameter(name = "enc", in = ParameterIn.QUERY, description = ENC_DOC,
                    schema = @Schema(type = SchemaType.STRING, enumeration = {"string", "int", "float", "big",
                            "ordered-int", "ordered-float", "hex"}))})
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = V1Json.Value.class)))
    @APIResponse(responseCode = "404", description = "no such key",
            content = @Content(schema = @Schema(implementation = V1Json.Error.class)))
    public Response getKey(@PathParam("key") String key) {
        V1Args a = args(3, Set.of("b64", "raw", "enc"));
        byte[] k = a.seg(0, "key");
        Result.ValueRes r = (Result.ValueRes) exec(new Request.Get(k, false));
        if (!r.exists()) {
            throw new V1Error(404, "no value for key " + show(k));
        }
        return a.flag("raw") ? raw(r.value()) : Response.ok(V1Json.Value.of(k, r.value(), enc(a))).build();
    }

    @DELETE
    @Path("/keys/{key}")
    @Operation(summary = "Delete a value (a tombstone; sub tree under the key untouched)")
    @Parameters({@Parameter(name = "b64", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.BOOLEAN)),
            @Parameter(name = "sync", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.BOOLEAN))})
    @APIResponse(responseCode = "204", description = "deleted (also when it did not exist)")
    public Response deleteKey(@PathParam("key") String key) {
        V1Args a = args(3, Set.of("b64", "sync"));
        exec(new Request.Del(a.seg(0, "key"), a.flag("sync")));
        return Response.noContent().build();
    }

    // ------------------------------------------------------------------ sub trees

    @PUT
    @Path("/trees/{key}/{subkey}")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Put a value into sub tree key", description = "Body as for PUT /v1/keys/{key}.")
    @Parameters({@Parameter(name = "b64", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.BOOLEAN)),
            @Parameter(name = "sync", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.BOOLEAN)),
            @Parameter(name = "enc", in = ParameterIn.QUERY, description = ENC_DOC,
                    schema = @Schema(type = SchemaType.STRING, enumeration = {"string", "int", "float", "big",
                            "ordered-int", "ordered-float", "hex"}))})
    @RequestBody(content = {@Content(mediaType = "application/octet-stream",
            schema = @Schema(type = SchemaType.STRING, format = "binary")),
            @Content(mediaType = "application/json", schema = @Schema(implementation = V1Json.ValueBody.class))})
    @APIResponse(responseCode = "204", description = "stored")
    @APIResponse(responseCode = "400", content = @Content(schema = @Schema(implementation = V1Json.Error.class)))
    public Response putSub(@PathParam("key") String key, @PathParam("subkey") String subKey, byte[] body) {
        V1Args a = args(4, Set.of("b64", "sync", "enc"));
        ValueIn v = valueIn(body, a);
        exec(new Request.SubPut(a.seg(0, "key"), a.seg(1, "subkey"), v.value, v.sync));
        return Response.noContent().build();
    }

    @GET
    @Path("/trees/{key}/{subkey}")
    @Operation(summary = "Get a value of sub tree key")
    @Parameters({@Parameter(name = "b64", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.BOOLEAN)),
            @Parameter(name = "raw", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.BOOLEAN)),
            @Parameter(name = "enc", in = ParameterIn.QUERY, description = ENC_DOC,
                    schema = @Schema(type = SchemaType.STRING, enumeration = {"string", "int", "float", "big",
                            "ordered-int", "ordered-float", "hex"}))})
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = V1Json.SubValue.class)))
    @APIResponse(responseCode = "404", content = @Content(schema = @Schema(implementation = V1Json.Error.class)))
    public Response getSub(@PathParam("key") String key, @PathParam("subkey") String subKey) {
        V1Args a = args(4, Set.of("b64", "raw", "enc"));
        byte[] k = a.seg(0, "key");
        byte[] sk = a.seg(1, "subkey");
        Result.SubValueRes r = (Result.SubValueRes) exec(new Request.SubGet(k, sk, false));
        if (!r.exists()) {
            throw new V1Error(404, "no value for sub key " + show(sk) + " in tree " + show(k));
        }
        return a.flag("raw") ? raw(r.value())
                : Response.ok(V1Json.SubValue.of(k, sk, r.value(), enc(a))).build();
    }

    @DELETE
    @Path("/trees/{key}/{subkey}")
    @Operation(summary = "Delete a value of sub tree key")
    @Parameters({@Parameter(name = "b64", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.BOOLEAN)),
            @Parameter(name = "sync", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.BOOLEAN))})
    @APIResponse(responseCode = "204", description = "deleted")
    public Response deleteSub(@PathParam("key") String key, @PathParam("subkey") String subKey) {
        V1Args a = args(4, Set.of("b64", "sync"));
        exec(new Request.SubDel(a.seg(0, "key"), a.seg(1, "subkey"), a.flag("sync")));
        return Response.noContent().build();
    }

    @DELETE
    @Path("/trees/{key}")
    @Operation(summary = "Clear sub tree key (configuration kept)")
    @Parameters({@Parameter(name = "b64", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.BOOLEAN)),
            @Parameter(name = "sync", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.BOOLEAN))})
    @APIResponse(responseCode = "204", description = "cleared")
    public Response clearTree(@PathParam("key") String key) {
        V1Args a = args(3, Set.of("b64", "sync"));
        exec(new Request.SubClear(a.seg(0, "key"), a.flag("sync")));
        return Response.noContent().build();
    }

    @GET
    @Path("/trees/{key}")
    @Operation(summary = "A page of sub tree key", description = "Range paging: entries with from ≤ k < to "
            + "(fromInc/toInc change the bounds), at most limit of them, descending with reverse=true; ordinal "
            + "paging: offset (0-based position, counted from the end with reverse=true) and limit, without "
            + "from/to. by=value orders by value (the tree must be mirrored) and from/to bound values. "
            + "more=true when the range holds further entries.")
    @Parameters({@Parameter(name = "b64", in = ParameterIn.QUERY, description = "true: path segments and from/to "
            + "are base64url", schema = @Schema(type = SchemaType.BOOLEAN)),
            @Parameter(name = "from", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING)),
            @Parameter(name = "to", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING)),
            @Parameter(name = "fromInc", in = ParameterIn.QUERY, description = "default true",
                    schema = @Schema(type = SchemaType.BOOLEAN)),
            @Parameter(name = "toInc", in = ParameterIn.QUERY, description = "default false",
                    schema = @Schema(type = SchemaType.BOOLEAN)),
            @Parameter(name = "offset", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.INTEGER,
                    minimum = "0")),
            @Parameter(name = "limit", in = ParameterIn.QUERY, description = "1.." + MAX_LIMIT + ", default "
                    + DEFAULT_LIMIT, schema = @Schema(type = SchemaType.INTEGER)),
            @Parameter(name = "reverse", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.BOOLEAN)),
            @Parameter(name = "by", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING,
                    enumeration = {"key", "value"})),
            @Parameter(name = "enc", in = ParameterIn.QUERY, description = ENC_DOC,
                    schema = @Schema(type = SchemaType.STRING, enumeration = {"string", "int", "float", "big",
                            "ordered-int", "ordered-float", "hex"}))})
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = V1Json.Page.class)))
    @APIResponse(responseCode = "400", content = @Content(schema = @Schema(implementation = V1Json.Error.class)))
    public Response page(@PathParam("key") String key) {
        V1Args a = args(3, Set.of("b64", "from", "to", "fromInc", "toInc", "offset", "limit", "reverse", "by",
                "enc"));
        ValueEncoding enc = enc(a);
        byte[] tree = a.seg(0, "key");
        String by = a.text("by", "key");
        if (!by.equals("key") && !by.equals("value")) {
            throw new V1Error(400, "by must be key or value, was " + by);
        }
        boolean mirror = by.equals("value");
        boolean reverse = a.flag("reverse");
        long limit = a.number("limit", DEFAULT_LIMIT);
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new V1Error(400, "limit must be 1.." + MAX_LIMIT + ", was " + limit);
        }
        // by=value: the bounds are values, spelled by enc (as text; with b64=true their bytes)
        byte[] from = mirror && !a.b64 && a.has("from") ? encode(enc, a.text("from", null), "from") : a.key("from");
        byte[] to = mirror && !a.b64 && a.has("to") ? encode(enc, a.text("to", null), "to") : a.key("to");
        boolean fromInc = a.flag("fromInc", true);
        boolean toInc = a.flag("toInc", false);
        List<Result.ValueRes> items;
        if (a.has("offset")) {
            if (from != null || to != null) {
                throw new V1Error(400, "offset pages by position: it cannot be combined with from/to");
            }
            long offset = a.number("offset", 0);
            if (offset < 0) {
                throw new V1Error(400, "offset must be ≥ 0, was " + offset);
            }
            Command cmd = mirror ? (reverse ? Command.MIRROR_REVERSE_SLICE_INDEX : Command.MIRROR_SLICE_INDEX)
                    : reverse ? Command.REVERSE_SLICE_INDEX : Command.SLICE_INDEX;
            // one more than asked, to tell whether there is more
            items = list(exec(new Request.SliceIndex(cmd, tree, offset, offset + limit)));
        } else {
            Command cmd = mirror ? (reverse ? Command.MIRROR_REVERSE_SLICE_LEN : Command.MIRROR_SLICE_LEN)
                    : reverse ? Command.REVERSE_SLICE_LEN : Command.SLICE_LEN;
            byte[] start = reverse ? to : from;
            boolean startInc = start == null || (reverse ? toInc : fromInc);
            items = new ArrayList<>(list(exec(new Request.SliceLen(cmd, tree, start, startInc, limit + 1, false))));
            byte[] stop = reverse ? from : to;
            boolean stopInc = reverse ? fromInc : toInc;
            if (stop != null) {
                for (Iterator<Result.ValueRes> it = items.iterator(); it.hasNext(); ) {
                    int c = Arrays.compareUnsigned(it.next().key(), stop);
                    boolean outside = reverse ? (c < 0 || (c == 0 && !stopInc)) : (c > 0 || (c == 0 && !stopInc));
                    if (outside) {
                        it.remove();
                    }
                }
            }
        }
        boolean more = items.size() > limit;
        List<V1Json.Entry> entries = new ArrayList<>();
        for (Result.ValueRes r : items.subList(0, (int) Math.min(items.size(), limit))) {
            // the mirror's entries are (value, sub key): give them back as (sub key, value)
            entries.add(mirror ? V1Json.Entry.of(r.value(), r.key(), enc) : V1Json.Entry.of(r.key(), r.value(), enc));
        }
        return Response.ok(new V1Json.Page(KeyText.text(tree), KeyText.b64(tree), by, more, entries)).build();
    }

    // ------------------------------------------------------------------ configuration

    @GET
    @Path("/trees/{key}/config")
    @Operation(summary = "Configuration of sub tree key", description = "A sub key named config is reached with "
            + "?b64=true (`/v1/trees/<b64url key>/Y29uZmln`).")
    @Parameters(@Parameter(name = "b64", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.BOOLEAN)))
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = V1Json.Config.class)))
    public Response getConfig(@PathParam("key") String key) {
        V1Args a = args(4, Set.of("b64"));
        return Response.ok(config(a.seg(0, "key"))).build();
    }

    @PUT
    @Path("/trees/{key}/config")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Set configuration keys of sub tree key", description = "Body: a JSON object of strings, "
            + "e.g. {\"mirrored\": \"yes\"}; \"\" removes a key. Answers the new configuration.")
    @Parameters(@Parameter(name = "b64", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.BOOLEAN)))
    @RequestBody(content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.OBJECT,
            additionalProperties = Schema.True.class)))
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = V1Json.Config.class)))
    @APIResponse(responseCode = "400", content = @Content(schema = @Schema(implementation = V1Json.Error.class)))
    public Response putConfig(@PathParam("key") String key, byte[] body) {
        V1Args a = args(4, Set.of("b64"));
        byte[] tree = a.seg(0, "key");
        JsonNode n = json(body, "configuration");
        if (!n.isObject() || n.isEmpty()) {
            throw new V1Error(400, "configuration body must be a non-empty JSON object of strings");
        }
        long keyLimit = bean.node().settings().keySize();
        long valueLimit = bean.node().settings().valueSize();
        Map<String, String> changes = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isTextual()) {
                throw new V1Error(400, "configuration value of " + e.getKey() + " must be a string");
            }
            if (e.getKey().getBytes(StandardCharsets.UTF_8).length > keyLimit
                    || e.getValue().asText().getBytes(StandardCharsets.UTF_8).length > valueLimit) {
                bean.rpc().limitRefused(e.getKey().getBytes(StandardCharsets.UTF_8).length > keyLimit
                        ? io.god.node.NodeSettings.KEY_SIZE : io.god.node.NodeSettings.VALUE_SIZE);
                throw new V1Error(400, "configuration " + e.getKey() + " exceeds god.limits.key-size/value-size");
            }
            changes.put(e.getKey(), e.getValue().asText());
        }
        for (Map.Entry<String, String> e : changes.entrySet()) {
            exec(new Request.SubAddConfiguration(tree, e.getKey(), e.getValue()));
        }
        return Response.ok(config(tree)).build();
    }

    private V1Json.Config config(byte[] tree) {
        Result.Conf c = (Result.Conf) exec(new Request.SubConfiguration(tree));
        return new V1Json.Config(KeyText.text(tree), KeyText.b64(tree), c.data(), c.timestamp());
    }

    // ------------------------------------------------------------------ set expressions

    @POST
    @Path("/setops")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Evaluate a set expression", description = "Answers the results, or with dest stores "
            + "them into sub tree dest (needs the token) and answers 204.")
    @RequestBody(required = true, content = @Content(mediaType = "application/json",
            schema = @Schema(implementation = V1Json.SetOpsBody.class)))
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(
            implementation = V1Json.SetOpResults.class)))
    @APIResponse(responseCode = "204", description = "stored into dest")
    @APIResponse(responseCode = "400", description = "bad expression (with its position), merge or limit",
            content = @Content(schema = @Schema(implementation = V1Json.Error.class)))
    @Parameters({@Parameter(name = "enc", in = ParameterIn.QUERY, description = ENC_DOC,
                    schema = @Schema(type = SchemaType.STRING, enumeration = {"string", "int", "float", "big",
                            "ordered-int", "ordered-float", "hex"}))})
    public Response setOps(byte[] body) {
        ValueEncoding enc = enc(args(2, Set.of("enc")));
        JsonNode n = json(body, "set expression");
        if (!n.isObject()) {
            throw new V1Error(400, "set expression body must be a JSON object {expr, min, max, limit, dest}");
        }
        Set<String> known = Set.of("expr", "min", "minBase64", "minInc", "max", "maxBase64", "maxInc", "limit",
                "dest", "destBase64");
        n.fieldNames().forEachRemaining(f -> {
            if (!known.contains(f)) {
                throw new V1Error(400, "unknown field " + f + " (known: " + new java.util.TreeSet<>(known) + ")");
            }
        });
        if (!n.path("expr").isTextual()) {
            throw new V1Error(400, "expr must be a string, e.g. \"(U a b)\"");
        }
        byte[] min = bytesField(n, "min");
        byte[] max = bytesField(n, "max");
        boolean minInc = boolField(n, "minInc", true);
        boolean maxInc = boolField(n, "maxInc", false);
        byte[] dest = bytesField(n, "dest");
        long len = 0;
        if (n.has("limit")) {
            if (!n.get("limit").canConvertToInt() || !n.get("limit").isIntegralNumber() || n.get("limit").asInt() < 0) {
                throw new V1Error(400, "limit must be an integer ≥ 0 (0 = no limit)");
            }
            len = n.get("limit").asInt();
        }
        // exactNumbers: a numeric merge over a value that is not 8 bytes is a 400 naming it
        Object r = exec(new Request.SetExpression(null, n.get("expr").asText(), min, max, minInc, maxInc, len, dest,
                true));
        if (dest != null) {
            return Response.noContent().build();
        }
        List<V1Json.SetOpResult> out = new ArrayList<>();
        for (Object o : (List<?>) r) {
            Result.SetOpResult e = (Result.SetOpResult) o;
            List<V1Json.Bytes> values = new ArrayList<>();
            for (byte[] v : e.values()) {
                values.add(V1Json.Bytes.of(v, enc));
            }
            out.add(new V1Json.SetOpResult(KeyText.text(e.key()), KeyText.b64(e.key()), values));
        }
        return Response.ok(new V1Json.SetOpResults(out)).build();
    }

    // ------------------------------------------------------------------ errors

    @ServerExceptionMapper
    public Response mapV1(V1Error e) {
        return error(e.status(), e.getMessage());
    }

    @ServerExceptionMapper
    public Response mapClient(CommandError e) {
        return error(e.status(), e.getMessage());
    }

    @ServerExceptionMapper
    public Response mapLimit(io.god.limits.LimitExceededException e) {
        bean.rpc().limitRefused(e.limit());
        return error(400, e.getMessage());
    }

    @ServerExceptionMapper
    public Response mapBusy(io.god.limits.Bulkhead.Full e) {
        bean.rpc().bulkheadRejected();
        return error(503, e.getMessage());
    }

    @ServerExceptionMapper
    public Response mapSetOp(SetOpException e) {
        return error(400, e.getMessage());
    }

    // ------------------------------------------------------------------ anything else under /v1

    /*
     * Any /v1 path no route above matches (GET /v1/keys, a typo): the same JSON 404 as every other /v1
     * error, not the framework's HTML page. JAX-RS prefers the more literal templates above, so these
     * only match what nothing else does; a known path with an unsupported method stays a 405.
     */
    @GET
    @Path("/{unknown: .*}")
    @Operation(hidden = true)
    public Response unknownGet(@PathParam("unknown") String path) {
        return unknownPath("GET", path);
    }

    @PUT
    @Path("/{unknown: .*}")
    @Operation(hidden = true)
    public Response unknownPut(@PathParam("unknown") String path) {
        return unknownPath("PUT", path);
    }

    @POST
    @Path("/{unknown: .*}")
    @Operation(hidden = true)
    public Response unknownPost(@PathParam("unknown") String path) {
        return unknownPath("POST", path);
    }

    @DELETE
    @Path("/{unknown: .*}")
    @Operation(hidden = true)
    public Response unknownDelete(@PathParam("unknown") String path) {
        return unknownPath("DELETE", path);
    }

    private static Response unknownPath(String method, String path) {
        return error(404, "no such /v1 route: " + method + " /v1/" + path
                + " (routes: /v1/keys/{key}, /v1/trees/{key}, /v1/trees/{key}/{subkey}, /v1/trees/{key}/config,"
                + " /v1/setops; see /q/openapi)");
    }

    static Response error(int status, String message) {
        Response.ResponseBuilder r = Response.status(status).type(MediaType.APPLICATION_JSON)
                .entity(new V1Json.Error(message));
        if (status == 503) {
            r.header("Retry-After", "1"); // busy (god.limits.expensive-*), joining or not confirmed: retry soon
        }
        return r.build();
    }

    // ------------------------------------------------------------------ helpers

    private Object exec(Request req) {
        return bean.rpc().execute(req, io.god.api.RequestCredential.of(request));
    }

    @SuppressWarnings("unchecked")
    private static List<Result.ValueRes> list(Object o) {
        return (List<Result.ValueRes>) o;
    }

    private static Response raw(byte[] value) {
        return Response.ok(value == null ? new byte[0] : value, MediaType.APPLICATION_OCTET_STREAM).build();
    }

    private static String show(byte[] b) {
        String t = KeyText.text(b);
        return t != null ? "'" + t + "'" : "(base64) " + KeyText.b64(b);
    }

    private JsonNode json(byte[] body, String what) {
        checkBody(body);
        if (body == null || body.length == 0) {
            throw new V1Error(400, "the " + what + " needs a JSON body");
        }
        try {
            JsonNode n = json().readTree(body);
            if (n == null) {
                throw new V1Error(400, "the " + what + " needs a JSON body");
            }
            return n;
        } catch (JsonProcessingException e) {
            io.god.limits.LimitExceededException limit = bean.node().settings().limits().jsonLimit(e);
            if (limit != null) {
                bean.rpc().limitRefused(limit.limit());
                throw new V1Error(400, limit.getMessage());
            }
            throw new V1Error(400, "bad JSON in the " + what + ": " + e.getOriginalMessage());
        } catch (java.io.IOException e) {
            throw new V1Error(400, "unreadable body: " + e.getMessage());
        }
    }

    private ObjectMapper json() {
        io.god.limits.Limits limits = bean.node().settings().limits();
        ObjectMapper m = json;
        if (m == null || jsonLimits != limits) {
            m = limits.constrain(com.fasterxml.jackson.databind.json.JsonMapper.builder()
                    .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());
            json = m;
            jsonLimits = limits;
        }
        return m;
    }

    private void checkBody(byte[] body) {
        long limit = bean.node().settings().bodySize();
        if (body != null && body.length > limit) {
            bean.rpc().limitRefused(io.god.node.NodeSettings.BODY_SIZE);
            throw new V1Error(400, "request body of " + body.length + " bytes exceeds god.limits.body-size ("
                    + limit + " bytes)");
        }
    }

    private static byte[] bytesField(JsonNode n, String name) {
        JsonNode text = n.get(name);
        JsonNode b64 = n.get(name + "Base64");
        if (text != null && !text.isNull() && b64 != null && !b64.isNull()) {
            throw new V1Error(400, "give " + name + " or " + name + "Base64, not both");
        }
        if (text != null && !text.isNull()) {
            if (!text.isTextual()) {
                throw new V1Error(400, name + " must be a string");
            }
            return text.asText().getBytes(StandardCharsets.UTF_8);
        }
        if (b64 != null && !b64.isNull()) {
            if (!b64.isTextual()) {
                throw new V1Error(400, name + "Base64 must be a string");
            }
            return KeyText.base64(b64.asText(), name + "Base64");
        }
        return null;
    }

    private static boolean boolField(JsonNode n, String name, boolean dflt) {
        JsonNode v = n.get(name);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (!v.isBoolean()) {
            throw new V1Error(400, name + " must be true or false");
        }
        return v.asBoolean();
    }

    private record ValueIn(byte[] value, boolean sync) {
    }

    /** The value of a PUT: the raw body, or a JSON {value | valueBase64, sync} body. */
    private ValueIn valueIn(byte[] body, V1Args a) {
        checkBody(body);
        boolean sync = a.flag("sync");
        String type = request.getHeader("Content-Type");
        if (type != null && type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
            JsonNode n = json(body, "value");
            if (!n.isObject()) {
                throw new V1Error(400, "a JSON value body is {\"value\": text} or {\"valueBase64\": base64}");
            }
            n.fieldNames().forEachRemaining(f -> {
                if (!Set.of("value", "valueBase64", "sync").contains(f)) {
                    throw new V1Error(400, "unknown field " + f + " (known: value, valueBase64, sync)");
                }
            });
            byte[] v = bytesField(n, "value");
            if (v == null) {
                throw new V1Error(400, "a JSON value body needs value (text) or valueBase64");
            }
            if (n.has("value")) {
                v = encode(enc(a), n.get("value").asText(), "value");
            }
            return new ValueIn(v, sync || boolField(n, "sync", false));
        }
        byte[] raw = body == null ? new byte[0] : body;
        ValueEncoding enc = enc(a);
        return new ValueIn(enc == ValueEncoding.STRING ? raw
                : encode(enc, new String(raw, java.nio.charset.StandardCharsets.UTF_8).strip(), "body"), sync);
    }

    /** The enc= of a request (default string). */
    private static ValueEncoding enc(V1Args a) {
        try {
            return ValueEncoding.named(a.text("enc", "string"));
        } catch (IllegalArgumentException e) {
            throw new V1Error(400, "enc: " + e.getMessage());
        }
    }

    private static byte[] encode(ValueEncoding enc, String text, String what) {
        try {
            return enc.encode(text);
        } catch (IllegalArgumentException e) {
            throw new V1Error(400, what + ": " + e.getMessage());
        }
    }

    /** The raw path segments after /v1 and the parsed query of this request. */
    private V1Args args(int segments, Set<String> allowed) {
        String path = request.path();
        String[] parts = path.split("/", -1);
        if (parts.length != segments + 1) {
            throw new V1Error(400, "unexpected path " + path);
        }
        Map<String, byte[]> query = KeyText.query(request.query(), allowed);
        return new V1Args(Arrays.copyOfRange(parts, 3, parts.length), query);
    }
}
