package io.god.resp;

import io.god.api.JsonRpc;
import io.god.command.Admission;
import io.god.command.CommandError;
import io.god.command.SubUpdates;
import io.god.command.Wire;
import io.god.limits.LimitExceededException;
import io.god.node.GodNode;
import io.god.request.Request;
import io.god.request.Result;
import io.god.wire.Call;
import io.god.wire.DataCall;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The RESP command table: each Redis command a thin codec over the node's one executor ({@link JsonRpc#execute}),
 * so credentials, node state, sizes, stamps, routing to the key's owner and Sync are the command core's. Keys and
 * values are god's top-level keys and values, raw bytes: the key space stays ordered (SCAN returns keys in byte
 * order), at the price of hot spots for sequential keys. What differs from Redis is said by its error message and
 * in docs/resp.md.
 */
final class RespCommands {

    /** One command: its Redis arity (n exact, -n at least n, the name included) and handler. */
    record Spec(String name, int arity, Handler handler) {
    }

    @FunctionalInterface
    interface Handler {
        void run(RespSession s, List<byte[]> args, RespWriter w);
    }

    static final String VERSION = "7.0.0";
    /** Keys a SCAN call examines at most, whatever its COUNT. */
    static final int SCAN_MAX = 1_000;

    private static final System.Logger LOG = System.getLogger(RespCommands.class.getName());

    final Map<String, Spec> table = new LinkedHashMap<>();
    final JsonRpc rpc;
    final GodNode node;
    final Admission admission;
    final boolean sync;
    final java.util.function.Supplier<List<RespSession>> clients;
    /** The port the listener bound (INFO tcp_port), set once it is bound. */
    volatile int port;
    final ScanCursors cursors = new ScanCursors();

    /**
     * @param sync whether writes wait for every live replica (Sync), so {@code OK} means what docs/durability.md says
     * @param clients the sessions of the connections open now, by id (INFO, CLIENT LIST/KILL)
     */
    RespCommands(JsonRpc rpc, boolean sync, java.util.function.Supplier<List<RespSession>> clients, int port) {
        this.rpc = rpc;
        this.node = rpc.node();
        this.admission = new Admission(node);
        this.sync = sync;
        this.clients = clients;
        this.port = port;
        new ConnectionCommands(this).register();
        new KeyCommands(this).register();
        new HashCommands(this).register();
        new SortedSetCommands(this).register();
        new SortedSetPicks(this).register();
        new RandomPicks(this).register();
        new SetAlgebraCommands(this).register();
        new GodCommands(this).register();
    }

    /** Runs one command and writes its reply (an error reply for any refusal). */
    void execute(RespSession s, List<byte[]> args, RespWriter w) {
        String name = name(args.get(0));
        Spec spec = table.get(name);
        if (spec == null) {
            StringBuilder b = new StringBuilder("ERR unknown command '").append(text(args.get(0)))
                    .append("', with args beginning with:");
            args.stream().skip(1).limit(8).forEach(a -> b.append(" '").append(text(a)).append('\''));
            w.error(b.toString());
            return;
        }
        if (spec.arity() > 0 ? args.size() != spec.arity() : args.size() < -spec.arity()) {
            w.error("ERR wrong number of arguments for '" + name.toLowerCase(Locale.ROOT) + "' command");
            return;
        }
        s.lastCommand = name;
        s.lastCommandAtMillis = System.currentTimeMillis();
        try {
            spec.handler().run(s, args, w);
        } catch (RuntimeException e) {
            refused(e, name, w);
        }
    }

    /** Writes the error reply for what a command threw. */
    private static void refused(RuntimeException thrown, String name, RespWriter w) {
        try {
            throw thrown;
        } catch (CommandError e) {
            w.error(switch (e.status()) {
                case 401 -> "NOAUTH Authentication required. " + e.getMessage();
                case 403 -> "NOPERM " + e.getMessage(); // a credential of another kind (Redis: an ACL refusal)
                case 503 -> "TRYAGAIN " + e.getMessage();
                case 400 -> e.getMessage().startsWith("WRONGTYPE ") ? e.getMessage() : "ERR " + e.getMessage();
                default -> "ERR " + e.getMessage();
            });
        } catch (LimitExceededException | IllegalArgumentException e) {
            w.error("ERR " + e.getMessage());
        } catch (io.god.limits.Bulkhead.Full e) {
            w.error("TRYAGAIN " + e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "RESP " + name + " failed", e);
            w.error("ERR internal error: " + e);
        }
    }

    int size() {
        return table.size();
    }

    /** On the event loop: runs a command that never waits ({@link #answersAtOnce}) and returns true; else false. */
    boolean executeAtOnce(RespSession s, List<byte[]> command, RespWriter w) {
        if (!answersAtOnce(command)) {
            return false;
        }
        execute(s, command, w);
        return true;
    }

    /**
     * On a ring, a plain GET or SET, started without a thread waiting for the member it goes to
     * ({@link io.god.command.Executor#pointStarted}): its reply's future, for {@link #finish}; null for any other
     * command, or one this node executes and that would wait (a merged read, a Sync write), which runs as usual.
     */
    java.util.concurrent.CompletableFuture<DataCall.Reply> start(RespSession s, List<byte[]> command,
                                                                  java.util.concurrent.Executor mayWait) {
        io.god.cluster.Cluster cluster = node.cluster();
        if (cluster == null || cluster.alone() || command.size() < 2 || command.size() > 3) {
            return null;
        }
        String name = name(command.get(0));
        boolean get = command.size() == 2 && "GET".equals(name);
        if (!get && !(command.size() == 3 && "SET".equals(name))) {
            return null;
        }
        s.lastCommand = name;
        s.lastCommandAtMillis = System.currentTimeMillis();
        return rpc.executor().pointStarted(call(s, get ? DataCall.GET : DataCall.PUT, command.get(1),
                get ? null : command.get(2)), mayWait);
    }

    /**
     * The plain SETs (no options) that stand one after another in the batch from {@code from}, when there are two or
     * more and this thread may apply them together ({@link io.god.command.Executor#writesTogether}; {@code mayWait}:
     * a worker, which may wait for an fsync): applied so ({@link io.god.command.Executor#pointWrites}: one tree
     * version, one log append) and their replies written in order. Returns how many it ran: 0, nothing done, for
     * anything else (then the commands run one by one).
     */
    int setsTogether(RespSession s, List<List<byte[]>> batch, int from, RespWriter w, boolean mayWait) {
        if (from + 1 == batch.size() || !isPlainSet(batch.get(from + 1))) {
            return 0;
        }
        List<DataCall> calls = plainSets(s, batch, from, mayWait);
        List<DataCall.Reply> replies = calls == null ? null : rpc.executor().pointWrites(calls, mayWait);
        if (replies == null) {
            return 0;
        }
        setsAnswered(s, replies, w);
        return calls.size();
    }

    /**
     * The plain SETs that stand one after another in the batch from {@code from} (one or more) as calls, when this
     * thread may apply them together ({@link io.god.command.Executor#writesTogether}); else null.
     */
    List<DataCall> plainSets(RespSession s, List<List<byte[]>> batch, int from, boolean mayWait) {
        if (!isPlainSet(batch.get(from)) || !rpc.executor().writesTogether(sync, mayWait)) {
            return null;
        }
        List<DataCall> calls = new java.util.ArrayList<>();
        for (int i = from; i < batch.size() && isPlainSet(batch.get(i)); i++) {
            calls.add(call(s, DataCall.PUT, batch.get(i).get(1), batch.get(i).get(2)));
        }
        return calls;
    }

    /** Whether every SET applied together was acknowledged: then each reply is OK ({@link #setsAnswered}). */
    static boolean allOk(List<DataCall.Reply> replies) {
        for (DataCall.Reply r : replies) {
            if (r.status() != 200) {
                return false;
            }
        }
        return true;
    }

    /** SET is the session's last command (CLIENT LIST). */
    static void setNoted(RespSession s) {
        s.lastCommand = "SET";
        s.lastCommandAtMillis = System.currentTimeMillis();
    }

    /** Writes the replies of SETs applied together: OK, or each refused one's error as a lone SET gets it. */
    void setsAnswered(RespSession s, List<DataCall.Reply> replies, RespWriter w) {
        setNoted(s);
        for (DataCall.Reply r : replies) {
            if (r.status() == 200) {
                w.simple("OK");
            } else {
                refused(new CommandError(r.status(), r.message()), "SET", w);
            }
        }
    }

    /** A GET that runs on the event loop at once ({@link #answersAtOnce}: a node alone in its ring). */
    boolean isPlainGet(List<byte[]> command) {
        return command.size() == 2 && "GET".equals(name(command.get(0)))
                && rpc.executor().answersAtOnce(io.god.request.Command.GET);
    }

    private static boolean isPlainSet(List<byte[]> command) {
        return command.size() == 3 && command.get(0).length == 3 && "SET".equals(name(command.get(0)));
    }

    /**
     * Writes the reply of a command {@link #start} started; returns false, nothing written, when that needs a wait
     * and {@code mayWait} is false (a GET that found no string asks whether the key holds a sub tree: WRONGTYPE).
     */
    boolean finish(RespSession s, List<byte[]> command, DataCall.Reply r, RespWriter w, boolean mayWait) {
        try {
            if (r.status() != 200) {
                throw new CommandError(r.status(), r.message());
            }
            if (command.size() == 3) {
                w.simple("OK");
            } else if (r.exists()) {
                w.bulk(r.value());
            } else if (!mayWait) {
                return false;
            } else {
                w.bulk(missing(s, command.get(1)));
            }
        } catch (RuntimeException e) {
            refused(e, command.size() == 3 ? "SET" : "GET", w);
        }
        return true;
    }

    /**
     * Before a pipelined read's commands run: the keys of its GETs and SETs brought into the CPU cache together
     * ({@link io.god.command.Executor#prefetch}); their descents' cache misses overlap instead of coming one command
     * after another. Returns what the prefetch read (keep it).
     */
    int prefetch(List<List<byte[]>> batch) {
        byte[][] keys = new byte[batch.size()][];
        int n = 0;
        for (List<byte[]> command : batch) { // a loop, not a stream: this runs for every pipelined read
            int size = command.size();
            if ((size == 2 || size == 3) && command.get(0).length == 3) {
                String name = name(command.get(0));
                if (size == 2 ? "GET".equals(name) : "SET".equals(name)) {
                    keys[n++] = command.get(1);
                }
            }
        }
        return n < 2 ? 0 : rpc.executor().prefetch(keys, n);
    }

    /**
     * Commands that never wait, run on the network event loop: point reads and plain SETs ({@link
     * io.god.command.Executor#writesAtOnce}) of a node alone in its ring, and PING/ECHO.
     */
    private static final java.util.Set<String> READS_AT_ONCE = java.util.Set.of("GET", "MGET", "EXISTS", "STRLEN",
            "TYPE");

    /**
     * Hash and sorted-set writes that are one SubUpdate of one key (a read-modify-write at the key, bounded by the
     * request's size): on a node alone whose writes wait for nothing they run on the event loop as a plain SET does —
     * the hop to a worker and back cost ZADD a fifth of its rate on two cores (43k → 52k/s, bench/RESULTS.md).
     */
    private static final java.util.Set<String> SUB_UPDATES_AT_ONCE = java.util.Set.of("ZADD", "ZINCRBY", "ZREM",
            "HSET", "HMSET", "HSETNX", "HDEL", "HINCRBY", "HINCRBYFLOAT");

    boolean answersAtOnce(List<byte[]> command) {
        String name = name(command.get(0));
        return switch (name) {
            case "PING", "ECHO" -> true;
            case "SET" -> command.size() == 3 && rpc.executor().writesAtOnce(sync); // options: the worker's error
            default -> READS_AT_ONCE.contains(name) ? rpc.executor().answersAtOnce(io.god.request.Command.GET)
                    : SUB_UPDATES_AT_ONCE.contains(name) && rpc.executor().writesAtOnce(sync);
        };
    }

    /**
     * A command's name in upper case: GET and SET (any case) without building a string — every command's name is
     * looked at twice (here and {@link #execute}), and these two are what a benchmark sends a million times.
     */
    static String name(byte[] raw) {
        if (raw.length == 3 && (raw[1] | 0x20) == 'e' && (raw[2] | 0x20) == 't') {
            int first = raw[0] | 0x20;
            if (first == 'g') {
                return "GET";
            }
            if (first == 's') {
                return "SET";
            }
        }
        return text(raw).toUpperCase(Locale.ROOT);
    }

    void add(String name, int arity, Handler h) {
        table.put(name, new Spec(name, arity, h));
    }

    // ---- calls to the executor ----------------------------------------------------------------------------------

    Object call(RespSession s, Request request) {
        return rpc.execute(request, s.authorization);
    }

    /**
     * A point command (GET, SET, DEL of a top-level key) in its binary form: routed to the key's owner over the binary
     * protocol, as the Java client's calls are, not as a JSON body.
     */
    DataCall.Reply point(RespSession s, int kind, byte[] key, byte[] value) {
        DataCall.Reply r = rpc.executor().point(call(s, kind, key, value));
        if (r.status() != 200) {
            throw new CommandError(r.status(), r.message());
        }
        return r;
    }

    private DataCall call(RespSession s, int kind, byte[] key, byte[] value) {
        return new DataCall(kind, key, null, value, kind != DataCall.GET && sync, s.authorization, 0, Call.ROUTE, 0);
    }

    Result.ValueRes get(RespSession s, byte[] key) {
        DataCall.Reply r = point(s, DataCall.GET, key, null);
        return new Result.ValueRes(key, r.exists() ? r.value() : null, r.exists());
    }

    void put(RespSession s, byte[] key, byte[] value) {
        point(s, DataCall.PUT, key, value);
    }

    long size(RespSession s) {
        return ((Number) rpc.execute(new Request.KeyCount(), s == null ? null : s.authorization)).longValue();
    }

    /** A read-modify-write of the key at its owner ({@link SubUpdates}). */
    Result.UpdateRes update(RespSession s, byte[] key, String op, List<byte[]> args) {
        return (Result.UpdateRes) call(s, new Request.SubUpdate(key, SubUpdates.encode(op, args), sync));
    }

    /** The read of a sub-tree entry. */
    static Request sub(byte[] key, byte[] subKey) {
        return new Request.SubGet(key, subKey, false);
    }

    /** A GET's answer for a key without a string value: nil, or WRONGTYPE when the key holds a sub tree. */
    byte[] missing(RespSession s, byte[] key) {
        long here = rpc.executor().subSizeAfterMiss(key);
        if ((here < 0 ? subSize(s, key) : here) > 0) {
            throw new CommandError(400, SubUpdates.WRONGTYPE);
        }
        return null;
    }

    long subSize(RespSession s, byte[] key) {
        return ((Number) call(s, new Request.SubSize(key))).longValue();
    }

    /** The type of a key, as three reads tell it (the owner decides it again for a write). */
    SubUpdates.Kind kind(RespSession s, byte[] key) {
        if (get(s, key).exists()) {
            return SubUpdates.Kind.STRING;
        }
        if (subSize(s, key) == 0) {
            return SubUpdates.Kind.NONE;
        }
        return mirrored(s, key) ? SubUpdates.Kind.ZSET : SubUpdates.Kind.HASH;
    }

    private boolean mirrored(RespSession s, byte[] key) {
        Result.Conf c = (Result.Conf) call(s, new Request.SubConfiguration(key));
        return "yes".equals(c.data().get(io.god.tree.TreeState.MIRRORED));
    }

    /** Refuses (WRONGTYPE) a key of another type than {@code kind}; absent keys pass. */
    void expect(RespSession s, byte[] key, SubUpdates.Kind kind) {
        boolean wrong = get(s, key).exists() || mirrored(s, key) != (kind == SubUpdates.Kind.ZSET) && subSize(s, key) > 0;
        if (wrong) {
            throw new CommandError(400, SubUpdates.WRONGTYPE);
        }
    }

    static void need(List<byte[]> a, int n, String command) {
        if (a.size() != n) {
            throw new IllegalArgumentException("wrong number of arguments for '" + command + "' command");
        }
    }

    static long number(byte[] b) {
        try {
            return Long.parseLong(text(b));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("value is not an integer or out of range");
        }
    }

    static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
