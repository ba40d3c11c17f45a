package io.god.client;

import static io.god.client.Json.bytes;
import static io.god.client.Json.conf;
import static io.god.client.Json.entries;
import static io.god.client.Json.index;
import static io.god.client.Json.orEmpty;
import static io.god.client.Json.subValue;
import static io.god.client.Json.text;
import static io.god.client.Json.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.god.request.Command;
import io.god.request.Request;
import io.god.wire.Call;
import io.god.wire.DataCall;
import io.god.wire.Ops;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * The Java client of god over the binary protocol (port 9191). Get, Put, Del, SubGet, SubPut and SubDel
 * travel as binary {@link DataCall}s ({@link io.god.wire.Ops#DATA}: raw key and value bytes, no JSON);
 * the typed methods beyond them as binary commands ({@link io.god.wire.Ops#COMMAND}: the node's own {@link Request}
 * records, encoded and decoded by the codecs the node uses), or as the JSON contract's {@link Call}
 * ({@link io.god.wire.Ops#CALL}) to a node older than binary commands, which refuses them; {@link #raw} is JSON.
 *
 * <p><b>Ring-aware mode</b> (default): the client caches the ring ({@code Nodes} of any node), refreshed
 * every {@link Builder#ringRefresh} and (in the background) after any failed attempt. Keyed calls go to the key's owner
 * (the first member whose position is greater than the key); if it does not answer within the attempt
 * timeout the call fails over to the next replica, which executes it without routing. {@code Get} and
 * {@code SubGet} ask every replica in parallel and return the answer with the newest timestamp, where a
 * newer tombstone beats an older value. {@code Slice}, {@code ReverseSlice}, {@code SliceLen} and
 * {@code ReverseSliceLen} are merged reads: every replica answers its entries with timestamps and
 * tombstones, the newest copy of each key wins, and the Len forms are cut after merging (replicas that do not
 * answer in time are left out while at least one answers). Other reads, including index-based and
 * Mirror* slices, are answered by the owner (failing over to replicas). Size, Clear, Next, Prev, AddConfiguration and SetExpression go to any member, which
 * broadcasts or routes them.
 *
 * <p><b>Gateway mode</b> ({@link Builder#gateway}): every call goes to the given endpoint(s) (e.g. the
 * client Service) and the node routes it.
 *
 * <p>Retries are bounded: at most {@link Builder#attempts} attempts with exponential backoff within the
 * call's {@link Builder#deadline}. 4xx answers throw {@link GodRequestException} at once; exhausting
 * the attempts throws {@link GodUnavailableException}. Thread-safe; a small pool of pipelined connections per
 * node ({@link Builder#connectionsPerNode}).
 *
 * <p>This class is the typed API; the work is done by package-private parts, one concern each:
 * {@code Connections} (pools, exchanges within a budget), {@code NodeCalls} (one attempt at one node),
 * {@code RingView} (members, replica sets, refresh), {@code Routing} (retries, failover),
 * {@code ReplicaReads} and {@code MergedSlices} (newest-of-replicas reads), {@code Json} (bodies, answers).
 */
public final class GodClient implements AutoCloseable {

    /** A ring member. */
    public record Member(byte[] position, String address) {
        public String hex() {
            return HexFormat.of().formatHex(position);
        }

        @Override
        public String toString() {
            return hex() + "@" + address;
        }
    }

    /** Get, Next, Prev: key, value, whether it exists; {@code timestamp} is 0 unless known. */
    public record Value(byte[] key, byte[] value, boolean exists, long timestamp) {
        @Override
        public String toString() {
            return "Value[key=" + Printable.of(key) + ", value=" + Printable.of(value) + ", exists=" + exists
                    + (timestamp == 0 ? "" : ", timestamp=" + timestamp) + "]";
        }
    }

    /** Sub-tree reads: key, sub key, value, index (for index walks) and whether it exists. */
    public record SubValue(byte[] key, byte[] subKey, byte[] value, long index, boolean exists) {
        @Override
        public String toString() {
            return "SubValue[key=" + Printable.of(key) + ", subKey=" + Printable.of(subKey) + ", value="
                    + Printable.of(value) + ", index=" + index + ", exists=" + exists + "]";
        }
    }

    /** IndexOf and friends. */
    public record Index(long n, boolean existed) {
    }

    /** One entry of a slice. */
    public record Entry(byte[] key, byte[] value) {
        /** {@code Entry["alice"="30"]}; bytes that are not printable text as 0x hex. */
        @Override
        public String toString() {
            return "Entry[" + Printable.of(key) + "=" + Printable.of(value) + "]";
        }
    }

    /** One row of a SetExpression result. */
    public record SetResult(byte[] key, List<byte[]> values) {
        @Override
        public String toString() {
            return "SetResult[" + Printable.of(key) + "=" + (values == null ? "null"
                    : values.stream().map(Printable::of).collect(java.util.stream.Collectors.joining(", ", "[", "]")))
                    + "]";
        }
    }

    private final boolean gateway;
    private final Connections connections;
    private final RingView view;
    private final Routing routing;
    private final ReplicaReads reads;
    private final MergedSlices slices;
    private final ExecutorService async;

    private GodClient(Builder b) {
        if (b.endpoints.isEmpty()) {
            throw new IllegalArgumentException("at least one endpoint (host:port) is needed");
        }
        this.gateway = b.gateway;
        this.connections = new Connections(b.token, b.tls ? io.god.tls.Jsse.clientContext(b.ca, b.cert, b.key) : null,
                b.connections, b.attemptTimeout);
        NodeCalls calls = new NodeCalls(connections);
        this.view = new RingView(b.endpoints, b.gateway, b.redundancy, b.attemptTimeout, calls);
        BinaryCommands commands = new BinaryCommands(connections, calls);
        this.routing = new Routing(b.gateway, b.attemptTimeout, b.deadline, b.attempts, b.backoff, connections, calls,
                commands, view);
        this.reads = new ReplicaReads(routing, view, calls, commands);
        this.slices = new MergedSlices(reads, calls);
        this.async = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "god-client-async");
            t.setDaemon(true);
            return t;
        });
        view.start(b.ringRefresh);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Ring-aware client seeded by the given node addresses (host:port of the 9191 binary port). */
    public static GodClient connect(String... seeds) {
        return builder().endpoints(seeds).build();
    }

    /** The murmur3-128 key of a string (reference §9.2): spreads keys evenly over the ring. */
    public static byte[] hashed(String key) {
        return KeyHash.murmur(key);
    }

    public static byte[] hashed(byte[] key) {
        return KeyHash.murmur(key);
    }

    public static byte[] utf8(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    public boolean gatewayMode() {
        return gateway;
    }

    // ------------------------------------------------------------------ ring

    /** The cached ring (empty in gateway mode until {@link #nodes()} is called). */
    public List<Member> ring() {
        return view.ring();
    }

    /**
     * Asks a node for the ring now (Nodes) and caches it: the members of the cached view first, then the
     * configured endpoints (e.g. the Service), which stay the fallback whatever the view says. A
     * one-member answer (a node cut off, or alone in its view) replaces a larger view only when no other
     * node answers.
     */
    public List<Member> refreshRing() {
        return view.refresh();
    }

    /** Members the last ring refresh reported as catching up (they get no reads while a replica does not). */
    public java.util.Set<String> catchingUp() {
        return view.catchingUp();
    }

    /** The ring as the node at the first reachable endpoint sees it. */
    public List<Member> nodes() {
        return parseMembers(anyNode(new Request.Nodes(false)));
    }

    /**
     * One raw binary-protocol request ({@link Ops}) to one node, with this client's token, no retry: for
     * tools that speak peer operations (backup and restore, {@link Ops#BACKUP}, {@link Ops#REPLICATE}).
     * A refusal or an error frame is a {@link GodException}.
     */
    public byte[] call(String address, int op, byte[] payload, Duration timeout) {
        return connections.exchange(address, Ops.name(op), op, payload, timeout).answer();
    }

    /** The members of a {@code Nodes} answer, sorted by position: the ring the client routes with. */
    public static List<Member> parseMembers(JsonNode n) {
        return RingView.parseMembers(n);
    }

    /** The key's replica set in the cached ring: owner first. */
    public List<Member> replicas(byte[] key) {
        return view.replicas(key);
    }

    /** The key's replica set in ring r (sorted by position): owner (first position above key) first. */
    public static List<Member> replicas(List<Member> r, byte[] key, int redundancy) {
        return RingView.replicas(r, key, redundancy);
    }

    // ------------------------------------------------------------------ writes

    public void put(byte[] key, byte[] value) {
        put(key, value, false);
    }

    /** @param sync return only after every replica confirmed the write (503 → retried, then unavailable) */
    public void put(byte[] key, byte[] value, boolean sync) {
        write(DataCall.PUT, key, null, value, sync);
    }

    public void del(byte[] key) {
        del(key, false);
    }

    public void del(byte[] key, boolean sync) {
        write(DataCall.DEL, key, null, null, sync);
    }

    public void subPut(byte[] key, byte[] subKey, byte[] value) {
        subPut(key, subKey, value, false);
    }

    public void subPut(byte[] key, byte[] subKey, byte[] value, boolean sync) {
        write(DataCall.SUB_PUT, key, subKey, value, sync);
    }

    public void subDel(byte[] key, byte[] subKey) {
        subDel(key, subKey, false);
    }

    public void subDel(byte[] key, byte[] subKey, boolean sync) {
        write(DataCall.SUB_DEL, key, subKey, null, sync);
    }

    public void subClear(byte[] key) {
        subClear(key, false);
    }

    public void subClear(byte[] key, boolean sync) {
        keyed(new Request.SubClear(key, sync));
    }

    /** Clears every node (broadcast). */
    public void clear() {
        anyNode(new Request.Clear());
    }

    public void addConfiguration(String key, String value) {
        anyNode(new Request.AddConfiguration(key, value));
    }

    public void subAddConfiguration(byte[] treeKey, String key, String value) {
        routing.keyed(new Request.SubAddConfiguration(treeKey, key, value), treeKey);
    }

    // ------------------------------------------------------------------ point reads

    /** The newest value among the key's replicas (a newer delete wins); an empty value exists. */
    public Value get(byte[] key) {
        DataCall.Reply r = newestData(DataCall.GET, key, null);
        return new Value(key, r.value(), r.exists(), r.timestamp());
    }

    public SubValue subGet(byte[] key, byte[] subKey) {
        DataCall.Reply r = newestData(DataCall.SUB_GET, key, subKey);
        return new SubValue(key, subKey, r.value(), 0, r.exists());
    }

    /** The first key after {@code key} on the whole ring (asked of every node). */
    public Value next(byte[] key) {
        return value(anyNode(new Request.Next(Command.NEXT, key)));
    }

    public Value prev(byte[] key) {
        return value(anyNode(new Request.Next(Command.PREV, key)));
    }

    /** The first live entry after subKey, newest of the replicas (see {@link #first}). */
    public SubValue subNext(byte[] key, byte[] subKey) {
        return walkNewest(key, Command.SUB_NEXT, subKey, true);
    }

    public SubValue subPrev(byte[] key, byte[] subKey) {
        return walkNewest(key, Command.SUB_PREV, subKey, false);
    }

    public SubValue subMirrorNext(byte[] key, byte[] value) {
        return subValue(key, keyed(new Request.SubNext(Command.SUB_MIRROR_NEXT, key, value)));
    }

    public SubValue subMirrorPrev(byte[] key, byte[] value) {
        return subValue(key, keyed(new Request.SubNext(Command.SUB_MIRROR_PREV, key, value)));
    }

    /**
     * The first live entry of the sub tree by the newest copy of each entry: every replica proposes its
     * first entry, the smallest proposal is checked with a newest-of-replicas SubGet, and a proposal that
     * is deleted (or changed) on a newer replica is skipped by walking on after it.
     */
    public SubValue first(byte[] key) {
        return walkNewest(key, Command.FIRST, null, true);
    }

    public SubValue last(byte[] key) {
        return walkNewest(key, Command.LAST, null, false);
    }

    public SubValue mirrorFirst(byte[] key) {
        return subValue(key, keyed(new Request.First(Command.MIRROR_FIRST, key)));
    }

    public SubValue mirrorLast(byte[] key) {
        return subValue(key, keyed(new Request.First(Command.MIRROR_LAST, key)));
    }

    /** The entry at index + 1 of the sub tree (the reference's NextIndex walk). */
    public SubValue nextIndex(byte[] key, long index) {
        return subValue(key, keyed(new Request.NextIndex(Command.NEXT_INDEX, key, index)));
    }

    public SubValue prevIndex(byte[] key, long index) {
        return subValue(key, keyed(new Request.NextIndex(Command.PREV_INDEX, key, index)));
    }

    public SubValue mirrorNextIndex(byte[] key, long index) {
        return subValue(key, keyed(new Request.NextIndex(Command.MIRROR_NEXT_INDEX, key, index)));
    }

    public SubValue mirrorPrevIndex(byte[] key, long index) {
        return subValue(key, keyed(new Request.NextIndex(Command.MIRROR_PREV_INDEX, key, index)));
    }

    public Index indexOf(byte[] key, byte[] subKey) {
        return index(keyed(new Request.IndexOf(Command.INDEX_OF, key, subKey)));
    }

    public Index reverseIndexOf(byte[] key, byte[] subKey) {
        return index(keyed(new Request.IndexOf(Command.REVERSE_INDEX_OF, key, subKey)));
    }

    public Index mirrorIndexOf(byte[] key, byte[] value) {
        return index(keyed(new Request.IndexOf(Command.MIRROR_INDEX_OF, key, value)));
    }

    public Index mirrorReverseIndexOf(byte[] key, byte[] value) {
        return index(keyed(new Request.IndexOf(Command.MIRROR_REVERSE_INDEX_OF, key, value)));
    }

    // ------------------------------------------------------------------ counts and slices

    /** Entries of the sub tree in [min, max] (null = unbounded; inclusivity per flag). */
    public long count(byte[] key, byte[] min, byte[] max, boolean minInc, boolean maxInc) {
        return keyed(new Request.Count(Command.COUNT, key, min, max, minInc, maxInc)).asLong();
    }

    public long mirrorCount(byte[] key, byte[] min, byte[] max, boolean minInc, boolean maxInc) {
        return keyed(new Request.Count(Command.MIRROR_COUNT, key, min, max, minInc, maxInc)).asLong();
    }

    /**
     * Live entries of the sub tree in [min, max] (null = unbounded; inclusivity per flag), ascending.
     * A merged read (reference §1.3 mergeRecent): every replica of the tree is asked in parallel for its
     * entries with timestamps and tombstones, each key keeps its newest copy (DESIGN §5: a newer delete on
     * one replica hides an older value on another) and tombstones are dropped. Replicas that do not answer
     * within the attempt are left out as long as at least one answers; if none does, the call is retried
     * and fails over like any other.
     */
    public List<Entry> slice(byte[] key, byte[] min, byte[] max, boolean minInc, boolean maxInc) {
        if (gateway) {
            return entries(keyed(new Request.Slice(Command.SLICE, key, min, max, minInc, maxInc, false)));
        }
        return merged("Slice", key, min, minInc, max, maxInc, -1, false);
    }

    /** As {@link #slice}, descending (a merged read of every replica). */
    public List<Entry> reverseSlice(byte[] key, byte[] min, byte[] max, boolean minInc, boolean maxInc) {
        if (gateway) {
            return entries(keyed(new Request.Slice(Command.REVERSE_SLICE, key, min, max, minInc, maxInc, false)));
        }
        return merged("ReverseSlice", key, max, maxInc, min, minInc, -1, true);
    }

    public List<Entry> mirrorSlice(byte[] key, byte[] min, byte[] max, boolean minInc, boolean maxInc) {
        return entries(keyed(new Request.Slice(Command.MIRROR_SLICE, key, min, max, minInc, maxInc, false)));
    }

    public List<Entry> mirrorReverseSlice(byte[] key, byte[] min, byte[] max, boolean minInc, boolean maxInc) {
        return entries(keyed(new Request.Slice(Command.MIRROR_REVERSE_SLICE, key, min, max, minInc, maxInc, false)));
    }

    /**
     * Entries with index in [minIndex, maxIndex] (null = unbounded). Answered by the owner (failing over
     * to replicas), never merged: an index is a position in one replica's tree and cannot be combined
     * across replicas; the same holds for every Mirror* slice (mirror keys are values, not keys).
     */
    public List<Entry> sliceIndex(byte[] key, Long minIndex, Long maxIndex) {
        return entries(keyed(new Request.SliceIndex(Command.SLICE_INDEX, key, minIndex, maxIndex)));
    }

    public List<Entry> reverseSliceIndex(byte[] key, Long minIndex, Long maxIndex) {
        return entries(keyed(new Request.SliceIndex(Command.REVERSE_SLICE_INDEX, key, minIndex, maxIndex)));
    }

    public List<Entry> mirrorSliceIndex(byte[] key, Long minIndex, Long maxIndex) {
        return entries(keyed(new Request.SliceIndex(Command.MIRROR_SLICE_INDEX, key, minIndex, maxIndex)));
    }

    public List<Entry> mirrorReverseSliceIndex(byte[] key, Long minIndex, Long maxIndex) {
        return entries(keyed(new Request.SliceIndex(Command.MIRROR_REVERSE_SLICE_INDEX, key, minIndex, maxIndex)));
    }

    /**
     * At most len live entries from {@code from} (null = the start), ascending. Never more than len. A
     * merged read like {@link #slice}: the replicas' entries are merged newest-first per key and cut to
     * len after merging (replicas that each miss different keys still give exactly len entries).
     */
    public List<Entry> sliceLen(byte[] key, byte[] from, boolean fromInc, long len) {
        if (gateway || len <= 0) {
            return page(Command.SLICE_LEN, key, from, fromInc, len);
        }
        return merged("SliceLen", key, from, fromInc, null, false, len, false);
    }

    /** As {@link #sliceLen}, descending from {@code from} (null = the end); a merged read. */
    public List<Entry> reverseSliceLen(byte[] key, byte[] from, boolean fromInc, long len) {
        if (gateway || len <= 0) {
            return page(Command.REVERSE_SLICE_LEN, key, from, fromInc, len);
        }
        return merged("ReverseSliceLen", key, from, fromInc, null, false, len, true);
    }

    public List<Entry> mirrorSliceLen(byte[] key, byte[] from, boolean fromInc, long len) {
        return page(Command.MIRROR_SLICE_LEN, key, from, fromInc, len);
    }

    public List<Entry> mirrorReverseSliceLen(byte[] key, byte[] from, boolean fromInc, long len) {
        return page(Command.MIRROR_REVERSE_SLICE_LEN, key, from, fromInc, len);
    }

    private List<Entry> page(Command c, byte[] key, byte[] from, boolean fromInc, long len) {
        List<Entry> out = entries(keyed(new Request.SliceLen(c, key, from, fromInc, len, false)));
        return out.size() > len ? out.subList(0, (int) Math.max(0, len)) : out;
    }

    /** Entries (values and sub trees) owned by the whole ring. */
    public long size() {
        return anyNode(new Request.Size()).asLong();
    }

    public long subSize(byte[] key) {
        return keyed(new Request.SubSize(key)).asLong();
    }

    // ------------------------------------------------------------------ configuration, set expressions, description

    public Map<String, String> configuration() {
        return conf(anyNode(new Request.Configuration()));
    }

    public Map<String, String> subConfiguration(byte[] key) {
        return conf(keyed(new Request.SubConfiguration(key)));
    }

    /** Evaluates a set expression (reference §3), e.g. {@code (U a b)}; with dest the result is stored. */
    public List<SetResult> setExpression(String code, byte[] dest) {
        return setExpression(code, null, null, false, false, 0, dest);
    }

    /**
     * A set expression with a key range of its result ([min, max], null = unbounded, inclusivity per
     * flag) and at most len results (0 = all); with dest the result is stored there and nothing returned.
     */
    public List<SetResult> setExpression(String code, byte[] min, byte[] max, boolean minInc, boolean maxInc, long len,
                                         byte[] dest) {
        Request.SetExpression q = new Request.SetExpression(null, code, min, max, minInc, maxInc, len, dest, false);
        List<SetResult> out = new ArrayList<>();
        for (JsonNode r : anyNode(q)) {
            List<byte[]> values = new ArrayList<>();
            for (JsonNode v : r.path("Values")) {
                values.add(orEmpty(bytes(v)));
            }
            out.add(new SetResult(bytes(r.get("Key")), values));
        }
        return out;
    }

    /** The Describe text of one node (the first endpoint's in gateway mode). */
    public String describe(String address) {
        Request q = new Request.Describe();
        return text(address == null ? anyNode(q) : routing.at(address, q));
    }

    public String describeTree(String address) {
        Request q = new Request.DescribeTree();
        return text(address == null ? anyNode(q) : routing.at(address, q));
    }

    /** Any god JSON-contract method with a raw body, routed by {@code key} (null: any node). */
    public JsonNode raw(String method, byte[] key, ObjectNode body) {
        return key == null ? anyNode(method, body) : keyed(method, key, body);
    }

    // ------------------------------------------------------------------ async

    /** Runs any blocking call of this client asynchronously: {@code client.async(c -> c.get(k))}. */
    public <T> CompletableFuture<T> async(Function<GodClient, T> call) {
        return CompletableFuture.supplyAsync(() -> call.apply(this), async);
    }

    public CompletableFuture<Value> getAsync(byte[] key) {
        return async(c -> c.get(key));
    }

    public CompletableFuture<Void> putAsync(byte[] key, byte[] value, boolean sync) {
        return async(c -> {
            c.put(key, value, sync);
            return null;
        });
    }

    public CompletableFuture<SubValue> subGetAsync(byte[] key, byte[] subKey) {
        return async(c -> c.subGet(key, subKey));
    }

    public CompletableFuture<Void> subPutAsync(byte[] key, byte[] subKey, byte[] value, boolean sync) {
        return async(c -> {
            c.subPut(key, subKey, value, sync);
            return null;
        });
    }

    // ------------------------------------------------------------------ the parts that do the work

    private JsonNode keyed(String method, byte[] key, ObjectNode body) {
        return routing.keyed(method, key, body);
    }

    private JsonNode anyNode(String method, ObjectNode body) {
        return routing.anyNode(method, body);
    }

    private JsonNode keyed(Request.Keyed q) {
        return routing.keyed(q, q.key());
    }

    private JsonNode anyNode(Request q) {
        return routing.anyNode(q);
    }

    private void write(int kind, byte[] key, byte[] subKey, byte[] value, boolean sync) {
        routing.write(kind, key, subKey, value, sync);
    }

    private DataCall.Reply newestData(int kind, byte[] key, byte[] subKey) {
        return reads.newestData(kind, key, subKey);
    }

    private SubValue walkNewest(byte[] key, Command c, byte[] subKey, boolean up) {
        return reads.walkNewest(key, c, subKey, up);
    }

    private List<Entry> merged(String method, byte[] key, byte[] start, boolean startInc, byte[] end, boolean endInc,
                               long len, boolean reverse) {
        return slices.merged(method, key, start, startInc, end, endInc, len, reverse);
    }

    @Override
    public void close() {
        connections.refuseNew(); // first: calls in their retry loops stop, no connection opens
        view.close();
        async.shutdownNow();
        connections.close();
    }

    /** Client settings. */
    public static final class Builder {
        private final List<String> endpoints = new ArrayList<>();
        private boolean gateway;
        private String token;
        private boolean tls;
        private java.nio.file.Path ca;
        private java.nio.file.Path cert;
        private java.nio.file.Path key;
        private int redundancy = 3;
        private Duration attemptTimeout = Duration.ofMillis(1000);
        private Duration deadline = Duration.ofSeconds(5);
        private int attempts = 6;
        private Duration backoff = Duration.ofMillis(10);
        private Duration ringRefresh = Duration.ofSeconds(5);
        private int connections = 2;

        /** Pipelined connections per node, used round robin (default 2). */
        public Builder connectionsPerNode(int n) {
            if (n < 1 || n > 64) {
                throw new IllegalArgumentException("connections per node must be between 1 and 64");
            }
            this.connections = n;
            return this;
        }

        /** Seed nodes (ring-aware) or the gateway endpoints: host:port of the binary port. */
        public Builder endpoints(String... addresses) {
            endpoints.addAll(List.of(addresses));
            return this;
        }

        /** All calls go to the endpoints and the node routes (for clients outside the cluster). */
        public Builder gateway(boolean gateway) {
            this.gateway = gateway;
            return this;
        }

        /**
         * TLS on every connection (the node's {@code god.tls.cert-file}): the node's certificate must chain to the
         * {@link #ca} (default: the JVM's trust store) and name the host of the address connected to.
         */
        public Builder tls(boolean tls) {
            this.tls = tls;
            return this;
        }

        /** The CA certificates (PEM) that sign the nodes' certificates; implies {@link #tls}. */
        public Builder ca(java.nio.file.Path caFile) {
            this.ca = caFile;
            this.tls |= caFile != null;
            return this;
        }

        /**
         * A client certificate and its key (PEM; PKCS#8 or PKCS#1) presented to nodes that ask for one; implies
         * {@link #tls}. A certificate that passes as a peer's (the nodes' {@code god.tls.peer-ca-file} and
         * {@code god.tls.peer-san}) may also call peer operations (the backup tool needs one).
         */
        public Builder clientCertificate(java.nio.file.Path certFile, java.nio.file.Path keyFile) {
            this.cert = certFile;
            this.key = keyFile;
            this.tls |= certFile != null;
            return this;
        }

        public Builder token(String token) {
            this.token = token == null || token.isEmpty() ? null : token;
            return this;
        }

        /** N, the ring's god.redundancy (default 3). */
        public Builder redundancy(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("redundancy must be at least 1");
            }
            this.redundancy = n;
            return this;
        }

        /** How long one attempt at one node may take (default 1 s). */
        public Builder attemptTimeout(Duration d) {
            this.attemptTimeout = positive(d);
            return this;
        }

        /** The whole call's budget, retries included (default 5 s). */
        public Builder deadline(Duration d) {
            this.deadline = positive(d);
            return this;
        }

        /** Attempts per call (default 6). */
        public Builder attempts(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("attempts must be at least 1");
            }
            this.attempts = n;
            return this;
        }

        /** First backoff, doubled per attempt up to 500 ms (default 10 ms). */
        public Builder backoff(Duration d) {
            this.backoff = d;
            return this;
        }

        public Builder ringRefresh(Duration d) {
            this.ringRefresh = positive(d);
            return this;
        }

        public GodClient build() {
            return new GodClient(this);
        }

        private static Duration positive(Duration d) {
            if (d == null || d.isZero() || d.isNegative()) {
                throw new IllegalArgumentException("duration must be positive");
            }
            return d;
        }
    }
}
