package io.god.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.god.wire.Call;
import io.god.wire.DataCall;
import io.god.wire.Ops;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The Java client of god over the binary protocol (port 9191). Get, Put, Del, SubGet, SubPut and SubDel
 * travel as binary {@link DataCall}s ({@link io.god.wire.Ops#DATA}: raw key and value bytes, no JSON);
 * every other method as a god JSON-contract {@link Call} ({@link io.god.wire.Ops#CALL}).
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
 */
public final class GodClient implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SERVICE = "DHash.";

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

    private final List<String> seeds;
    private final boolean gateway;
    private final String token;
    /** The TLS context of every connection, or null for plain TCP. */
    private final javax.net.ssl.SSLContext tls;
    private final int redundancy;
    private final Duration attemptTimeout;
    private final Duration deadline;
    private final int attempts;
    private final Duration backoff;
    private final Map<String, NodeConnection[]> connections = new ConcurrentHashMap<>();
    private final int poolSize;
    private final ExecutorService async;
    private final ScheduledExecutorService refresher;
    private final AtomicInteger spread = new AtomicInteger();
    private final AtomicInteger roundRobin = new AtomicInteger();
    private final java.util.concurrent.atomic.AtomicBoolean refreshing = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile List<Member> ring = List.of();
    /** Members the last {@code Nodes} answer marked CATCHING_UP: not asked for reads while others are. */
    private volatile java.util.Set<String> catchingUp = java.util.Set.of();
    private volatile boolean closed;

    private GodClient(Builder b) {
        if (b.endpoints.isEmpty()) {
            throw new IllegalArgumentException("at least one endpoint (host:port) is needed");
        }
        this.seeds = List.copyOf(b.endpoints);
        this.gateway = b.gateway;
        this.token = b.token;
        this.tls = b.tls ? io.god.tls.Jsse.clientContext(b.ca, b.cert, b.key) : null;
        this.redundancy = b.redundancy;
        this.attemptTimeout = b.attemptTimeout;
        this.deadline = b.deadline;
        this.attempts = b.attempts;
        this.backoff = b.backoff;
        this.poolSize = b.connections;
        this.async = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "god-client-async");
            t.setDaemon(true);
            return t;
        });
        this.refresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "god-client-ring");
            t.setDaemon(true);
            return t;
        });
        if (!gateway) {
            try {
                refreshRing();
            } catch (GodException e) {
                // the first call retries; keep the client usable while the ring comes up
            }
            long every = b.ringRefresh.toMillis();
            refresher.scheduleWithFixedDelay(() -> {
                try {
                    refreshRing();
                } catch (RuntimeException ignored) {
                    // next round
                }
            }, every, every, TimeUnit.MILLISECONDS);
        }
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
        return ring;
    }

    /**
     * Asks a node for the ring now (Nodes) and caches it: the members of the cached view first, then the
     * configured endpoints (e.g. the Service), which stay the fallback whatever the view says. A
     * one-member answer (a node cut off, or alone in its view) replaces a larger view only when no other
     * node answers.
     */
    public List<Member> refreshRing() {
        List<String> tryOrder = new ArrayList<>();
        for (Member m : ring) {
            tryOrder.add(m.address());
        }
        for (String s : seeds) {
            if (!tryOrder.contains(s)) {
                tryOrder.add(s);
            }
        }
        GodException last = null;
        JsonNode alone = null;
        for (String address : tryOrder) {
            try {
                JsonNode n = once(address, "Nodes", JSON.createObjectNode(), Call.EXECUTE, attemptTimeout);
                List<Member> members = parseMembers(n);
                if (members.size() == 1 && ring.size() > 1) {
                    alone = alone == null ? n : alone; // ask the others first
                    continue;
                }
                if (!members.isEmpty()) {
                    adopt(members, n);
                    return members;
                }
            } catch (GodRequestException e) {
                throw e;
            } catch (GodException e) {
                last = e;
            }
        }
        if (alone != null) {
            List<Member> members = parseMembers(alone);
            adopt(members, alone);
            return members;
        }
        throw new GodUnavailableException("no node answered Nodes (" + tryOrder + ")", last);
    }

    private void adopt(List<Member> members, JsonNode answer) {
        java.util.Set<String> c = new java.util.HashSet<>();
        for (JsonNode m : answer) {
            if ("CATCHING_UP".equals(m.path("State").asText(null))) {
                c.add(m.path("Addr").asText());
            }
        }
        catchingUp = java.util.Set.copyOf(c);
        ring = members;
    }

    /** Members the last ring refresh reported as catching up (they get no reads while a replica does not). */
    public java.util.Set<String> catchingUp() {
        return catchingUp;
    }

    /** The ring as the node at the first reachable endpoint sees it. */
    public List<Member> nodes() {
        return parseMembers(anyNode("Nodes", JSON.createObjectNode()));
    }

    /**
     * One raw binary-protocol request ({@link Ops}) to one node, with this client's token, no retry: for
     * tools that speak peer operations (backup and restore, {@link Ops#BACKUP}, {@link Ops#REPLICATE}).
     * A refusal or an error frame is a {@link GodException}.
     */
    public byte[] call(String address, int op, byte[] payload, Duration timeout) {
        return exchange(address, Ops.name(op), op, payload, timeout).answer();
    }

    /** The members of a {@code Nodes} answer, sorted by position: the ring the client routes with. */
    public static List<Member> parseMembers(JsonNode n) {
        List<Member> members = new ArrayList<>();
        for (JsonNode m : n) {
            members.add(new Member(bytes(m.get("Pos")), m.get("Addr").asText()));
        }
        members.sort(Comparator.<Member, byte[]>comparing(Member::position, Arrays::compareUnsigned)
                .thenComparing(Member::address));
        return List.copyOf(members);
    }

    /** The key's replica set in the cached ring: owner first. */
    public List<Member> replicas(byte[] key) {
        return replicas(ring, key, redundancy);
    }

    /** The replicas to read from: those not catching up (all of them when every one is). */
    private List<Member> readReplicas(byte[] key) {
        return readable(replicas(key), catchingUp);
    }

    /**
     * The replicas a read asks: those not catching up, as long as they are a majority of the replica set; else
     * all of them, and the newest answer wins. Dropping members below a majority would let one replica stand for
     * the set: a member back from a partition sees the others return and lists them as catching up, and a client
     * that took its view from it read only it, and got a value older than an acknowledged write (chaos, seed 27).
     */
    static List<Member> readable(List<Member> reps, java.util.Set<String> catchingUp) {
        if (catchingUp.isEmpty()) {
            return reps;
        }
        List<Member> out = new ArrayList<>();
        for (Member m : reps) {
            if (!catchingUp.contains(m.address())) {
                out.add(m);
            }
        }
        return out.size() * 2 > reps.size() ? out : reps;
    }

    /** The key's replica set in ring r (sorted by position): owner (first position above key) first. */
    public static List<Member> replicas(List<Member> r, byte[] key, int redundancy) {
        List<Member> out = new ArrayList<>();
        if (r.isEmpty()) {
            return out;
        }
        int start = 0;
        while (start < r.size() && Arrays.compareUnsigned(r.get(start).position(), key) <= 0) {
            start++;
        }
        int count = Math.min(redundancy, r.size());
        for (int i = 0; i < count; i++) {
            out.add(r.get((start + i) % r.size()));
        }
        return out;
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
        keyed("SubClear", key, body().put("Key", key).put("Sync", sync));
    }

    /** Clears every node (broadcast). */
    public void clear() {
        anyNode("Clear", body());
    }

    public void addConfiguration(String key, String value) {
        anyNode("AddConfiguration", body().put("Key", key).put("Value", value));
    }

    public void subAddConfiguration(byte[] treeKey, String key, String value) {
        keyed("SubAddConfiguration", treeKey, body().put("TreeKey", treeKey).put("Key", key).put("Value", value));
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
        return value(anyNode("Next", body().put("Key", key)));
    }

    public Value prev(byte[] key) {
        return value(anyNode("Prev", body().put("Key", key)));
    }

    /** The first live entry after subKey, newest of the replicas (see {@link #first}). */
    public SubValue subNext(byte[] key, byte[] subKey) {
        return walkNewest(key, "SubNext", subKey, true);
    }

    public SubValue subPrev(byte[] key, byte[] subKey) {
        return walkNewest(key, "SubPrev", subKey, false);
    }

    public SubValue subMirrorNext(byte[] key, byte[] value) {
        return subValue(key, keyed("SubMirrorNext", key, body().put("Key", key).put("SubKey", value)));
    }

    public SubValue subMirrorPrev(byte[] key, byte[] value) {
        return subValue(key, keyed("SubMirrorPrev", key, body().put("Key", key).put("SubKey", value)));
    }

    /**
     * The first live entry of the sub tree by the newest copy of each entry: every replica proposes its
     * first entry, the smallest proposal is checked with a newest-of-replicas SubGet, and a proposal that
     * is deleted (or changed) on a newer replica is skipped by walking on after it.
     */
    public SubValue first(byte[] key) {
        return walkNewest(key, "First", null, true);
    }

    public SubValue last(byte[] key) {
        return walkNewest(key, "Last", null, false);
    }

    public SubValue mirrorFirst(byte[] key) {
        return subValue(key, keyed("MirrorFirst", key, body().put("Key", key)));
    }

    public SubValue mirrorLast(byte[] key) {
        return subValue(key, keyed("MirrorLast", key, body().put("Key", key)));
    }

    /** The entry at index + 1 of the sub tree (the reference's NextIndex walk). */
    public SubValue nextIndex(byte[] key, long index) {
        return subValue(key, keyed("NextIndex", key, body().put("Key", key).put("Index", index)));
    }

    public SubValue prevIndex(byte[] key, long index) {
        return subValue(key, keyed("PrevIndex", key, body().put("Key", key).put("Index", index)));
    }

    public SubValue mirrorNextIndex(byte[] key, long index) {
        return subValue(key, keyed("MirrorNextIndex", key, body().put("Key", key).put("Index", index)));
    }

    public SubValue mirrorPrevIndex(byte[] key, long index) {
        return subValue(key, keyed("MirrorPrevIndex", key, body().put("Key", key).put("Index", index)));
    }

    public Index indexOf(byte[] key, byte[] subKey) {
        return index(keyed("IndexOf", key, body().put("Key", key).put("SubKey", subKey)));
    }

    public Index reverseIndexOf(byte[] key, byte[] subKey) {
        return index(keyed("ReverseIndexOf", key, body().put("Key", key).put("SubKey", subKey)));
    }

    public Index mirrorIndexOf(byte[] key, byte[] value) {
        return index(keyed("MirrorIndexOf", key, body().put("Key", key).put("SubKey", value)));
    }

    public Index mirrorReverseIndexOf(byte[] key, byte[] value) {
        return index(keyed("MirrorReverseIndexOf", key, body().put("Key", key).put("SubKey", value)));
    }

    // ------------------------------------------------------------------ counts and slices

    /** Entries of the sub tree in [min, max] (null = unbounded; inclusivity per flag). */
    public long count(byte[] key, byte[] min, byte[] max, boolean minInc, boolean maxInc) {
        return keyed("Count", key, range(key, min, max, minInc, maxInc)).asLong();
    }

    public long mirrorCount(byte[] key, byte[] min, byte[] max, boolean minInc, boolean maxInc) {
        return keyed("MirrorCount", key, range(key, min, max, minInc, maxInc)).asLong();
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
            return entries(keyed("Slice", key, range(key, min, max, minInc, maxInc)));
        }
        return merged("Slice", key, min, minInc, max, maxInc, -1, false);
    }

    /** As {@link #slice}, descending (a merged read of every replica). */
    public List<Entry> reverseSlice(byte[] key, byte[] min, byte[] max, boolean minInc, boolean maxInc) {
        if (gateway) {
            return entries(keyed("ReverseSlice", key, range(key, min, max, minInc, maxInc)));
        }
        return merged("ReverseSlice", key, max, maxInc, min, minInc, -1, true);
    }

    public List<Entry> mirrorSlice(byte[] key, byte[] min, byte[] max, boolean minInc, boolean maxInc) {
        return entries(keyed("MirrorSlice", key, range(key, min, max, minInc, maxInc)));
    }

    public List<Entry> mirrorReverseSlice(byte[] key, byte[] min, byte[] max, boolean minInc, boolean maxInc) {
        return entries(keyed("MirrorReverseSlice", key, range(key, min, max, minInc, maxInc)));
    }

    /**
     * Entries with index in [minIndex, maxIndex] (null = unbounded). Answered by the owner (failing over
     * to replicas), never merged: an index is a position in one replica's tree and cannot be combined
     * across replicas; the same holds for every Mirror* slice (mirror keys are values, not keys).
     */
    public List<Entry> sliceIndex(byte[] key, Long minIndex, Long maxIndex) {
        return entries(keyed("SliceIndex", key, indexRange(key, minIndex, maxIndex)));
    }

    public List<Entry> reverseSliceIndex(byte[] key, Long minIndex, Long maxIndex) {
        return entries(keyed("ReverseSliceIndex", key, indexRange(key, minIndex, maxIndex)));
    }

    public List<Entry> mirrorSliceIndex(byte[] key, Long minIndex, Long maxIndex) {
        return entries(keyed("MirrorSliceIndex", key, indexRange(key, minIndex, maxIndex)));
    }

    public List<Entry> mirrorReverseSliceIndex(byte[] key, Long minIndex, Long maxIndex) {
        return entries(keyed("MirrorReverseSliceIndex", key, indexRange(key, minIndex, maxIndex)));
    }

    /**
     * At most len live entries from {@code from} (null = the start), ascending. Never more than len. A
     * merged read like {@link #slice}: the replicas' entries are merged newest-first per key and cut to
     * len after merging (replicas that each miss different keys still give exactly len entries).
     */
    public List<Entry> sliceLen(byte[] key, byte[] from, boolean fromInc, long len) {
        if (gateway || len <= 0) {
            return page("SliceLen", key, from, fromInc, len);
        }
        return merged("SliceLen", key, from, fromInc, null, false, len, false);
    }

    /** As {@link #sliceLen}, descending from {@code from} (null = the end); a merged read. */
    public List<Entry> reverseSliceLen(byte[] key, byte[] from, boolean fromInc, long len) {
        if (gateway || len <= 0) {
            return page("ReverseSliceLen", key, from, fromInc, len);
        }
        return merged("ReverseSliceLen", key, from, fromInc, null, false, len, true);
    }

    public List<Entry> mirrorSliceLen(byte[] key, byte[] from, boolean fromInc, long len) {
        return page("MirrorSliceLen", key, from, fromInc, len);
    }

    public List<Entry> mirrorReverseSliceLen(byte[] key, byte[] from, boolean fromInc, long len) {
        return page("MirrorReverseSliceLen", key, from, fromInc, len);
    }

    private List<Entry> page(String method, byte[] key, byte[] from, boolean fromInc, long len) {
        List<Entry> out = entries(keyed(method, key, body().put("Key", key).put("From", from).put("FromInc", fromInc)
                .put("Len", len)));
        return out.size() > len ? out.subList(0, (int) Math.max(0, len)) : out;
    }

    /** Entries (values and sub trees) owned by the whole ring. */
    public long size() {
        return anyNode("Size", body()).asLong();
    }

    public long subSize(byte[] key) {
        return keyed("SubSize", key, body().put("Key", key)).asLong();
    }

    // ------------------------------------------------------------------ configuration, set expressions, description

    public Map<String, String> configuration() {
        return conf(anyNode("Configuration", body()));
    }

    public Map<String, String> subConfiguration(byte[] key) {
        return conf(keyed("SubConfiguration", key, body().put("Key", key)));
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
        ObjectNode b = body().put("Code", code).put("Min", min).put("Max", max).put("MinInc", minInc)
                .put("MaxInc", maxInc).put("Len", len);
        if (dest != null) {
            b.put("Dest", dest);
        }
        List<SetResult> out = new ArrayList<>();
        for (JsonNode r : anyNode("SetExpression", b)) {
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
        return text(address == null ? anyNode("Describe", body()) : at(address, "Describe", body()));
    }

    public String describeTree(String address) {
        return text(address == null ? anyNode("DescribeTree", body()) : at(address, "DescribeTree", body()));
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

    // ------------------------------------------------------------------ routing core

    private interface Attempt<T> {
        /** @param budget this attempt's timeout: the attempt timeout, or what is left of the deadline */
        T run(int attempt, Duration budget) throws GodException;
    }

    /** One attempt at one node (a JSON or a binary data call), in two steps: send, then wait for the answer. */
    private interface AtNode<T> {
        Sent<T> send(String address, Duration budget) throws GodException;
    }

    /** A request sent by this thread; {@link #answer} waits for (and decodes) its reply on this thread. */
    private interface Sent<T> {
        T answer() throws GodException;
    }

    /**
     * Bounded retries with exponential backoff inside the deadline. A node that answers 503 (a Sync
     * write confirmed by fewer replicas than {@code god.sync.acks} needs, a node still joining) is
     * retried until the deadline, beyond the attempt count: the ring is about to be whole again
     * (a member restarts) and retrying a write is safe (the same last-write-wins outcome).
     */
    private <T> T retrying(String method, Attempt<T> a) {
        long end = System.nanoTime() + deadline.toNanos();
        GodException last = null;
        for (int i = 0; i < attempts || last instanceof GodUnavailableException u && u.status() == 503; i++) {
            if (closed) {
                throw new GodUnavailableException("client closed", last);
            }
            long remaining = end - System.nanoTime();
            if (remaining <= 0) {
                break;
            }
            try {
                return a.run(i, Duration.ofNanos(Math.min(attemptTimeout.toNanos(), remaining)));
            } catch (GodRequestException e) {
                throw e;
            } catch (GodException e) {
                last = e;
            }
            if (!gateway) {
                refreshSoon();
            }
            long sleep = Math.min(backoff.toNanos() << Math.min(i, 10), TimeUnit.MILLISECONDS.toNanos(500));
            if (System.nanoTime() + sleep >= end) {
                break;
            }
            try {
                TimeUnit.NANOSECONDS.sleep(sleep);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new GodUnavailableException(method + " interrupted", last);
            }
        }
        throw new GodUnavailableException(method + " failed after retries: "
                + (last == null ? "deadline" : last.getMessage()), last);
    }

    /** Refreshes the ring in the background (once at a time) so a hung node cannot eat a call's deadline. */
    private void refreshSoon() {
        if (refreshing.compareAndSet(false, true)) {
            try {
                refresher.execute(() -> {
                    try {
                        refreshQuietly();
                    } finally {
                        refreshing.set(false);
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException e) {
                refreshing.set(false);
            }
        }
    }

    private void refreshQuietly() {
        try {
            refreshRing();
        } catch (RuntimeException ignored) {
            // keep the old view
        }
    }

    /** Owner first; attempt i goes to replica i mod n, which executes it without routing. */
    private JsonNode keyed(String method, byte[] key, ObjectNode body) {
        if (gateway) {
            return anyNode(method, body);
        }
        return retrying(method, (i, budget) -> {
            List<Member> reps = replicas(key);
            int r = i % (reps.size() + 1);
            if (r == reps.size()) {
                return once(fallback(), method, body, Call.ROUTE, budget); // a configured endpoint routes it
            }
            return once(reps.get(r).address(), method, body, r == 0 ? Call.ROUTE : Call.EXECUTE, budget);
        });
    }

    /**
     * A binary write: to the key's owner (which routes it again if its view differs), failing over to
     * the next replicas, which execute it (as {@link #keyed}); in gateway mode to any endpoint.
     */
    private void write(int kind, byte[] key, byte[] subKey, byte[] value, boolean sync) {
        String method = DataCall.methodOf(kind);
        if (gateway) {
            retrying(method, (i, budget) -> data(nextSeed(), new DataCall(kind, key, subKey, value, sync, authorization(),
                    0, Call.ROUTE, 0), budget));
            return;
        }
        retrying(method, (i, budget) -> {
            List<Member> reps = replicas(key);
            int r = i % (reps.size() + 1);
            if (r == reps.size()) {
                // every replica of the view failed once: a configured endpoint (e.g. the Service) routes it
                return data(fallback(), new DataCall(kind, key, subKey, value, sync, authorization(), 0, Call.ROUTE, 0),
                        budget);
            }
            return data(reps.get(r).address(), new DataCall(kind, key, subKey, value, sync, authorization(), 0,
                    r == 0 ? Call.ROUTE : Call.EXECUTE, 0), budget);
        });
    }

    /**
     * A binary Get/SubGet: every replica in parallel, the newest timestamp wins (ties: a tombstone, then
     * the larger value; {@link #newer}), tombstones included. Gateway mode: the node routes it.
     */
    private DataCall.Reply newestData(int kind, byte[] key, byte[] subKey) {
        String method = DataCall.methodOf(kind);
        if (gateway) {
            return retrying(method, (i, budget) -> data(nextSeed(), new DataCall(kind, key, subKey, null, false, authorization(),
                    0, Call.ROUTE, 0), budget));
        }
        DataCall call = new DataCall(kind, key, subKey, null, false, authorization(), 0, Call.EXECUTE, 0);
        DataCall routed = new DataCall(kind, key, subKey, null, false, authorization(), 0, Call.ROUTE, 0);
        DataCall.Reply best = null;
        for (DataCall.Reply r : fromReplicas(method, key, (address, budget) -> sendData(address, call, budget),
                (address, budget) -> sendData(address, routed, budget))) {
            if (best == null || newer(r.timestamp(), !r.exists(), r.value(), best.timestamp(), !best.exists(),
                    best.value())) {
                best = r;
            }
        }
        return best;
    }

    /**
     * The store's last-write-wins rule (DESIGN §5): higher timestamp wins; on equal timestamps a
     * tombstone beats a value, otherwise the larger value bytes win.
     */
    static boolean newer(JsonNode a, JsonNode b) {
        return newer(a.path("Timestamp").asLong(0), !a.path("Exists").asBoolean(), bytes(a.get("Value")),
                b.path("Timestamp").asLong(0), !b.path("Exists").asBoolean(), bytes(b.get("Value")));
    }

    static boolean newer(long ta, boolean deadA, byte[] valueA, long tb, boolean deadB, byte[] valueB) {
        if (ta != tb) {
            return ta > tb;
        }
        if (deadA != deadB) {
            return deadA;
        }
        return Arrays.compareUnsigned(orEmpty(valueA), orEmpty(valueB)) > 0;
    }

    /** The answers of the replicas that answered (a majority of them, else retried), asked in parallel. */
    private List<JsonNode> fromReplicas(String method, byte[] key, ObjectNode body) {
        return fromReplicas(method, key, (address, budget) -> sendOnce(address, method, body, Call.EXECUTE, budget));
    }

    private <T> List<T> fromReplicas(String method, byte[] key, AtNode<T> call) {
        return fromReplicas(method, key, call, null);
    }

    /**
     * As above; {@code routed} (may be null): the same call in ROUTE mode, sent to a configured endpoint
     * (e.g. the Service) on the attempt after one where no replica of the view answered at all.
     */
    private <T> List<T> fromReplicas(String method, byte[] key, AtNode<T> call, AtNode<T> routed) {
        boolean[] noAnswer = {false};
        return retrying(method, (i, budget) -> {
            if (noAnswer[0] && routed != null) {
                noAnswer[0] = false;
                return List.of(routed.send(fallback(), budget).answer());
            }
            List<Member> reps = readReplicas(key);
            if (reps.isEmpty()) {
                throw new GodUnavailableException("no ring known yet", null);
            }
            // Every replica is asked from this thread: all requests are sent first, then the answers
            // read one after the other (they travel in parallel). JFR profiles of Get-heavy loads showed
            // hand-offs to a pool costing a third of the client's CPU.
            List<Object> sent = new ArrayList<>(reps.size()); // a Sent, or the GodException of its send
            for (Member m : reps) {
                try {
                    sent.add(call.send(m.address(), budget));
                } catch (GodException e) {
                    sent.add(e);
                }
            }
            List<T> answers = new ArrayList<>(reps.size());
            GodException failure = null;
            GodRequestException refused = null;
            for (Object o : sent) {
                try {
                    if (o instanceof GodException e) {
                        throw e;
                    }
                    @SuppressWarnings("unchecked")
                    Sent<T> s = (Sent<T>) o;
                    answers.add(s.answer()); // every sent request is awaited, so none is left pending
                } catch (GodRequestException e) {
                    refused = refused == null ? e : refused;
                } catch (GodException e) {
                    failure = e;
                }
            }
            if (refused != null) {
                throw refused;
            }
            if (answers.isEmpty()) {
                noAnswer[0] = refused == null;
                throw failure;
            }
            if (failure != null && answers.size() * 2 <= reps.size()) {
                // A minority may be replicas that have not received the key yet (a member that just joined,
                // moved or took over a leaving node's range): its "not found" is no answer. Sync writes reach
                // every replica, so a majority always includes one that applied them.
                throw new GodUnavailableException("only " + answers.size() + " of " + reps.size()
                        + " replicas answered: " + failure.getMessage(), failure);
            }
            return answers;
        });
    }

    /**
     * Most tombstones a node puts in one Stamped slice answer (the node's
     * {@code TreeReads.STAMPED_TOMBSTONE_CAP}); an answer holding this many is truncated at its last key.
     */
    static final int STAMPED_TOMBSTONE_CAP = 10_000;

    /**
     * A merged slice: every replica answers the Stamped form from a cursor; each answer covers the keys up
     * to its last one when it was cut short (len live entries, or the tombstone cap), else the whole
     * rest of the range. Keys up to the nearest such cut are known on every answering replica, so they are
     * merged (newest copy per key), tombstones dropped, and the walk goes on strictly after the cut until
     * len live entries are found (len < 0: all) or no answer was cut. Each round moves past at least one
     * entry.
     *
     * @param start where the walk begins (forward: the low bound; reverse: the high bound), null = open
     * @param end   where it stops (the other bound), null = open
     */
    private List<Entry> merged(String method, byte[] key, byte[] start, boolean startInc, byte[] end, boolean endInc,
                               long len, boolean reverse) {
        boolean paged = method.endsWith("Len");
        List<Entry> out = new ArrayList<>();
        byte[] cursor = start;
        boolean cursorInc = startInc;
        while (true) {
            long want = len < 0 ? -1 : len - out.size();
            ObjectNode b;
            if (paged) {
                b = body().put("Key", key).put("From", cursor).put("FromInc", cursorInc).put("Len", want);
            } else if (reverse) {
                b = range(key, end, cursor, endInc, cursorInc);
            } else {
                b = range(key, cursor, end, cursorInc, endInc);
            }
            List<JsonNode> answers = fromReplicas(method, key, b.put("Stamped", true));
            byte[] cut = null;
            for (JsonNode a : answers) {
                if (a.isEmpty() || !truncated(a, want)) {
                    continue;
                }
                byte[] last = orEmpty(bytes(a.get(a.size() - 1).get("Key")));
                if (cut == null || (reverse ? Arrays.compareUnsigned(last, cut) > 0
                        : Arrays.compareUnsigned(last, cut) < 0)) {
                    cut = last;
                }
            }
            for (JsonNode e : mergeByKey(answers, reverse)) {
                byte[] k = orEmpty(bytes(e.get("Key")));
                if (cut != null && (reverse ? Arrays.compareUnsigned(k, cut) < 0 : Arrays.compareUnsigned(k, cut) > 0)) {
                    break;
                }
                if (e.path("Exists").asBoolean()) {
                    out.add(new Entry(k, orEmpty(bytes(e.get("Value")))));
                    if (len >= 0 && out.size() >= len) {
                        return out;
                    }
                }
            }
            if (cut == null) {
                return out;
            }
            cursor = cut;
            cursorInc = false;
        }
    }

    /** Whether a Stamped slice answer was cut short (want live entries, or the tombstone cap). */
    private static boolean truncated(JsonNode answer, long want) {
        long live = 0;
        long dead = 0;
        for (JsonNode e : answer) {
            if (e.path("Exists").asBoolean()) {
                live++;
            } else {
                dead++;
            }
        }
        return (want >= 0 && live >= want) || dead >= STAMPED_TOMBSTONE_CAP;
    }

    /**
     * Stamped slice answers merged by key: the newest copy of each key ({@link #newer}), tombstones
     * included, ascending (descending when reverse).
     */
    static List<JsonNode> mergeByKey(List<JsonNode> answers, boolean reverse) {
        java.util.TreeMap<byte[], JsonNode> byKey = new java.util.TreeMap<>(Arrays::compareUnsigned);
        for (JsonNode a : answers) {
            for (JsonNode e : a) {
                byKey.merge(orEmpty(bytes(e.get("Key"))), e, (old, cur) -> newer(cur, old) ? cur : old);
            }
        }
        return new ArrayList<>(reverse ? byKey.descendingMap().values() : byKey.values());
    }

    /** The live entries of merged Stamped slice answers, in order (a newer tombstone hides older values). */
    static List<Entry> merge(List<JsonNode> answers, boolean reverse) {
        List<Entry> out = new ArrayList<>();
        for (JsonNode e : mergeByKey(answers, reverse)) {
            if (e.path("Exists").asBoolean()) {
                out.add(new Entry(orEmpty(bytes(e.get("Key"))), orEmpty(bytes(e.get("Value")))));
            }
        }
        return out;
    }

    /** Rounds a First/Last/SubNext/SubPrev walk may skip entries deleted on a newer replica. */
    private static final int MAX_WALK_ROUNDS = 64;

    /**
     * Newest-of-replicas walks: each replica proposes its answer; the best proposal (smallest going up,
     * largest going down) is checked with a newest-of-replicas SubGet. If a newer replica deleted it,
     * the walk goes on strictly after it. Correct under last-write-wins: the true answer's newest copy
     * is live on some replica, which therefore proposes it or something before it.
     */
    private SubValue walkNewest(byte[] key, String method, byte[] subKey, boolean up) {
        if (gateway) {
            ObjectNode b = body().put("Key", key);
            if (method.startsWith("Sub")) {
                b.put("SubKey", subKey);
            }
            return subValue(key, anyNode(method, b));
        }
        byte[] cursor = subKey;
        for (int round = 0; round < MAX_WALK_ROUNDS; round++) {
            ObjectNode b = body().put("Key", key);
            if (method.startsWith("Sub")) {
                b.put("SubKey", cursor);
            }
            byte[] candidate = null;
            for (JsonNode n : fromReplicas(method, key, b)) {
                if (n.path("Exists").asBoolean()) {
                    byte[] k = orEmpty(bytes(n.get("Key")));
                    int c = candidate == null ? 0 : Arrays.compareUnsigned(k, candidate);
                    if (candidate == null || (up ? c < 0 : c > 0)) {
                        candidate = k;
                    }
                }
            }
            if (candidate == null) {
                return new SubValue(key, null, null, 0, false);
            }
            DataCall.Reply v = newestData(DataCall.SUB_GET, key, candidate);
            if (v.exists()) {
                return new SubValue(key, candidate, v.value(), 0, true);
            }
            method = up ? "SubNext" : "SubPrev";
            cursor = candidate;
        }
        throw new GodUnavailableException("more than " + MAX_WALK_ROUNDS + " deleted entries in a row differ "
                + "between the replicas of this tree; retry after anti-entropy", null);
    }

    /** Broadcasts and any-node calls: the node routes; fails over to other members. */
    private JsonNode anyNode(String method, ObjectNode body) {
        return retrying(method, (i, budget) -> once(nextSeed(), method, body, Call.ROUTE, budget));
    }

    /** The next configured endpoint (round robin): the fallback when the view's members do not answer. */
    private String fallback() {
        return seeds.get(Math.floorMod(spread.getAndIncrement(), seeds.size()));
    }

    /** The next node of the seeds (gateway mode, or no ring yet) or of the ring, round robin. */
    private String nextSeed() {
        List<Member> r = ring;
        if (gateway || r.isEmpty()) {
            return seeds.get(Math.floorMod(spread.getAndIncrement(), seeds.size()));
        }
        return r.get(Math.floorMod(spread.getAndIncrement(), r.size())).address();
    }

    private String authorization() {
        return token == null ? null : "Bearer " + token;
    }

    private JsonNode at(String address, String method, ObjectNode body) {
        return retrying(method, (i, budget) -> once(address, method, body, Call.EXECUTE, budget));
    }

    /** One attempt at one node within the attempt timeout. */
    private JsonNode once(String address, String method, ObjectNode body, int mode, Duration budget) {
        return sendOnce(address, method, body, mode, budget).answer();
    }

    private Sent<JsonNode> sendOnce(String address, String method, ObjectNode body, int mode, Duration budget) {
        byte[] json;
        try {
            json = JSON.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        Sent<byte[]> sent = exchange(address, method, Ops.CALL,
                new Call(SERVICE + method, json, authorization(), 0, mode).encode(), budget);
        return () -> json(address, sent.answer());
    }

    private static JsonNode json(String address, byte[] payload) {
        Call.Reply r;
        try {
            r = Call.Reply.decode(payload);
        } catch (RuntimeException e) {
            throw new GodUnavailableException("malformed reply from " + address + ": " + e.getMessage(), e);
        }
        String text = new String(r.body(), StandardCharsets.UTF_8);
        if (r.status() >= 400 && r.status() < 500) {
            throw new GodRequestException(r.status(), message(text));
        }
        if (r.status() != 200) {
            throw new GodUnavailableException(address + " answered " + r.status() + ": " + message(text), null,
                    r.status());
        }
        try {
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new GodUnavailableException("malformed JSON from " + address + ": " + e.getMessage(), e);
        }
    }

    /** One binary data call at one node within the budget: its 200 reply, or the error (4xx: not retried). */
    private DataCall.Reply data(String address, DataCall call, Duration budget) {
        return sendData(address, call, budget).answer();
    }

    private Sent<DataCall.Reply> sendData(String address, DataCall call, Duration budget) {
        Sent<byte[]> sent = exchange(address, call.method(), Ops.DATA, call.encode(), budget);
        return () -> dataReply(address, sent.answer());
    }

    private static DataCall.Reply dataReply(String address, byte[] payload) {
        DataCall.Reply r;
        try {
            r = DataCall.Reply.decode(payload);
        } catch (RuntimeException e) {
            throw new GodUnavailableException("malformed reply from " + address + ": " + e.getMessage(), e);
        }
        if (r.status() >= 400 && r.status() < 500) {
            throw new GodRequestException(r.status(), r.message());
        }
        if (r.status() != 200) {
            throw new GodUnavailableException(address + " answered " + r.status() + ": " + r.message(), null,
                    r.status());
        }
        return r;
    }

    /** Sends one request on a pooled connection; its answer is the reply payload, awaited within the budget. */
    private Sent<byte[]> exchange(String address, String method, int op, byte[] request, Duration budget) {
        NodeConnection c;
        NodeConnection.Waiter w;
        try {
            c = connection(address);
            w = c.send(op, request, budget.toNanos());
        } catch (IOException e) {
            throw new GodUnavailableException(address + ": " + e.getMessage(), e);
        }
        return () -> answer(c, w, address, method, budget);
    }

    private static byte[] answer(NodeConnection c, NodeConnection.Waiter w, String address, String method,
                                 Duration budget) {
        try {
            return c.await(w);
        } catch (TimeoutException e) {
            throw new GodUnavailableException(address + " did not answer " + method + " within "
                    + budget.toMillis() + " ms", e);
        } catch (NodeConnection.AuthException e) {
            throw new GodRequestException(401, e.getMessage());
        } catch (java.io.InterruptedIOException e) {
            Thread.currentThread().interrupt();
            throw new GodUnavailableException("interrupted", e);
        } catch (IOException e) {
            throw new GodUnavailableException(address + ": " + e.getMessage(), e);
        }
    }

    /** One of the node's pooled, pipelined connections (round robin), opened on first use or after a break. */
    private NodeConnection connection(String address) throws IOException {
        NodeConnection[] pool = connections.computeIfAbsent(address, a -> new NodeConnection[poolSize]);
        int slot = Math.floorMod(roundRobin.getAndIncrement(), pool.length);
        NodeConnection c = pool[slot];
        if (c != null && !c.broken()) {
            return c;
        }
        synchronized (pool) {
            c = pool[slot];
            if (c != null && !c.broken()) {
                return c;
            }
            if (closed) {
                throw new IOException("client closed");
            }
            c = new NodeConnection(address, token, (int) Math.max(1, Math.min(attemptTimeout.toMillis(), Integer.MAX_VALUE)),
                    tls);
            pool[slot] = c;
            return c;
        }
    }

    private static String message(String text) {
        try {
            JsonNode n = JSON.readTree(text);
            return n.isTextual() ? n.asText() : text;
        } catch (IOException e) {
            return text;
        }
    }

    // ------------------------------------------------------------------ JSON helpers

    private static ObjectNode body() {
        return JSON.createObjectNode();
    }

    private static ObjectNode range(byte[] key, byte[] min, byte[] max, boolean minInc, boolean maxInc) {
        return body().put("Key", key).put("Min", min).put("Max", max).put("MinInc", minInc).put("MaxInc", maxInc);
    }

    private static ObjectNode indexRange(byte[] key, Long minIndex, Long maxIndex) {
        return body().put("Key", key).put("MinIndex", minIndex).put("MaxIndex", maxIndex);
    }

    static byte[] bytes(JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            return null;
        }
        try {
            return n.binaryValue();
        } catch (IOException e) {
            throw new GodUnavailableException("bad base64 in a reply: " + e.getMessage(), e);
        }
    }

    private static byte[] orEmpty(byte[] b) {
        return b == null ? new byte[0] : b;
    }

    private static Value value(JsonNode n) {
        boolean exists = n.path("Exists").asBoolean();
        return new Value(bytes(n.get("Key")), exists ? orEmpty(bytes(n.get("Value"))) : null, exists, 0);
    }

    private static SubValue subValue(byte[] key, JsonNode n) {
        boolean exists = n.path("Exists").asBoolean();
        return new SubValue(key, exists ? orEmpty(bytes(n.get("Key"))) : null, exists ? orEmpty(bytes(n.get("Value"))) : null,
                n.path("Index").asLong(0), exists);
    }

    private static Index index(JsonNode n) {
        return new Index(n.path("N").asLong(), n.path("Existed").asBoolean());
    }

    private static List<Entry> entries(JsonNode n) {
        List<Entry> out = new ArrayList<>();
        for (JsonNode e : n) {
            out.add(new Entry(orEmpty(bytes(e.get("Key"))), orEmpty(bytes(e.get("Value")))));
        }
        return out;
    }

    private static Map<String, String> conf(JsonNode n) {
        Map<String, String> out = new LinkedHashMap<>();
        n.path("Data").fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    private static String text(JsonNode n) {
        return n.isTextual() ? n.asText() : n.toString();
    }

    @Override
    public void close() {
        closed = true;
        refresher.shutdownNow();
        async.shutdownNow();
        for (NodeConnection[] pool : connections.values()) {
            synchronized (pool) {
                for (NodeConnection c : pool) {
                    if (c != null) {
                        c.close();
                    }
                }
            }
        }
        connections.clear();
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
