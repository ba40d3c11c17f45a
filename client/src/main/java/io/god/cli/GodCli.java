package io.god.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.god.client.GodClient;
import io.god.client.GodException;
import io.god.client.GodRequestException;
import io.god.client.KeyHash;
import io.god.client.ValueEncoding;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * god-cli: the original god_cli's commands (reference §2.6) over {@link GodClient}. Every argument is
 * matched whole (a number must be a number), missing or extra arguments are usage errors (exit 2),
 * failures exit 1. Without a command it prints the ring.
 */
@Command(name = "god-cli", mixinStandardHelpOptions = true, version = "god-cli 0.1.0",
        description = "Talks to a god ring. Without a command: prints the ring.",
        subcommands = CommandLine.HelpCommand.class, subcommandsRepeatable = false,
        footer = {"", "`god-cli help COMMAND` (or `god-cli COMMAND --help`) describes one command."})
public final class GodCli implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    // descriptions of the commands' arguments, shown by `help COMMAND`
    static final String D_K = "the tree's key: its UTF-8 bytes (with --hash: their murmur3-128)";
    static final String D_SK = "a sub key in K's sub tree: its UTF-8 bytes";
    static final String D_V = "the value, encoded by --enc (string: UTF-8)";
    static final String D_MIN = "lower bound, inclusive (keys: UTF-8; values: --enc); omitted or \"\": from the first";
    static final String D_MAX = "upper bound, exclusive (keys: UTF-8; values: --enc); omitted: to the last";
    static final String D_I = "an index (0 = the first entry)";
    static final String D_J = "an index, exclusive";
    static final String D_FROM = "the first key, inclusive (UTF-8; mirror commands: a value by --enc)";
    static final String D_N = "how many entries at most";
    static final String D_EXPR = "a set expression, e.g. '(U a b)' or '(I:IntegerSum a b)'";
    static final String D_DEST = "the tree that receives the result";
    static final String D_KEY = "a configuration key, e.g. mirrored";
    static final String D_VAL = "the configuration value, e.g. yes";
    static final String D_NODE = "a member's address (host:port) or hex position; default: the endpoint";

    @Option(names = "--endpoint", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:9191",
            description = "node (or client Service) binary port (default: ${DEFAULT-VALUE})")
    String endpoint;

    @Option(names = "--direct", description = "route by the cached ring from this machine (needs every node's "
            + "address reachable); default: gateway mode, the endpoint routes")
    boolean direct;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "5s", converter = DurationConverter.class,
            description = "deadline of each call, retries included: 500ms, 5s, 1m (default: ${DEFAULT-VALUE})")
    Duration timeout;

    @Option(names = "--token", paramLabel = "TOKEN",
            description = "god.auth.token (default: $GOD_AUTH_TOKEN, else the file named by $GOD_AUTH_TOKEN_FILE)")
    String token;

    @Option(names = "--token-file", paramLabel = "PATH",
            description = "read god.auth.token from this file (one trailing newline dropped); not with --token")
    java.nio.file.Path tokenFile;

    /** --tls, --ca, --cert, --key (god-backup has the same). */
    @CommandLine.Mixin
    TlsOptions tlsOptions;

    @Option(names = "--json", description = "print results as JSON")
    boolean json;

    @Option(names = "--hash", description = "use murmur3-128 of the (top-level) key instead of its UTF-8 bytes")
    boolean hash;

    @Option(names = "--enc", paramLabel = "ENC", defaultValue = "string",
            description = "value encoding: string, int (8-byte big-endian), float (IEEE754), big (big-endian magnitude), "
                    + "ordered-int, ordered-float (8 bytes that sort as the numbers do, negatives included), "
                    + "hex (the bytes as hex digits)")
    ValueEncoding enc;

    /** The environment ($GOD_AUTH_TOKEN, $GOD_AUTH_TOKEN_FILE); tests pass their own. */
    Map<String, String> env = System.getenv();

    PrintStream out = System.out;
    PrintStream err = System.err;
    InputStream in = System.in;
    private GodClient client;

    // ------------------------------------------------------------------ entry points

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err, System.in));
    }

    /** Runs one command line; returns the exit code (0 ok, 1 failure, 2 usage error). */
    public static int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
        return run(args, out, err, in, System.getenv());
    }

    /** As above with the environment {@code env} instead of the process's. */
    public static int run(String[] args, PrintStream out, PrintStream err, InputStream in, Map<String, String> env) {
        GodCli cli = new GodCli();
        cli.env = env;
        cli.out = out;
        cli.err = err;
        cli.in = in;
        try {
            return commandLine(cli).execute(args);
        } finally {
            if (cli.client != null) {
                cli.client.close();
            }
        }
    }

    /** The command line of one god-cli invocation (or one line of the shell) with its converters and errors. */
    static CommandLine commandLine(GodCli cli) {
        CommandLine cl = new CommandLine(cli);
        cl.setOut(new PrintWriter(cli.out, true));
        cl.setErr(new PrintWriter(cli.err, true));
        cl.registerConverter(ValueEncoding.class, s -> {
            try {
                return ValueEncoding.named(s);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        });
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            String msg = e instanceof GodRequestException r ? "request rejected (" + r.status() + "): " + r.getMessage()
                    : e instanceof GodException ? "unavailable: " + e.getMessage()
                    : e instanceof IllegalArgumentException ? e.getMessage() : e.toString();
            cmd.getErr().println("god-cli: " + msg);
            return e instanceof IllegalArgumentException ? 2 : 1;
        });
        return cl;
    }

    @Command(name = "shell", description = {"An interactive shell: one command per line, as after `god-cli`, with "
            + "history, Tab completion, `help` and `help COMMAND`; `exit`, `quit` or Ctrl-D ends it.",
            "Every line uses the connection and the options the shell started with (a line may add --json, --enc, "
                    + "--hash for itself)."})
    int shell(@Option(names = "--history", paramLabel = "FILE",
            description = "history file (default: ~/.god_cli_history)") java.nio.file.Path history) {
        int members = client().nodes().size(); // a wrong endpoint fails here, not on every line
        out.println("god-cli shell: a ring of " + members + " member(s) via " + endpoint
                + "; `help` lists the commands, `exit` or Ctrl-D ends it");
        java.nio.file.Path file = history != null ? history
                : java.nio.file.Path.of(env.getOrDefault("HOME", "."), ".god_cli_history");
        return new Shell(this, file).run();
    }

    /** A god-cli for one line of the shell: this one's output, environment and client. */
    GodCli forLine() {
        GodCli line = new GodCli();
        line.env = env;
        line.out = out;
        line.err = err;
        line.in = in;
        line.client = client();
        return line;
    }

    /**
     * The shell's defaults for the top-level options of each line: the values it was started with
     * (picocli's default provider; null = the option's own default).
     */
    String launchValue(CommandLine.Model.ArgSpec arg) {
        if (!(arg instanceof CommandLine.Model.OptionSpec o) || arg.command().parent() != null) {
            return null;
        }
        return switch (o.longestName()) {
            case "--endpoint" -> endpoint;
            case "--timeout" -> timeout.toMillis() + "ms";
            case "--direct" -> String.valueOf(direct);
            case "--json" -> String.valueOf(json);
            case "--hash" -> String.valueOf(hash);
            case "--enc" -> enc.label();
            default -> null;
        };
    }

    @Override
    public Integer call() {
        return ring();
    }

    // ------------------------------------------------------------------ commands

    @Command(mixinStandardHelpOptions = true,
            name = "ring",
            description = "Prints the ring: index, position and address of every member.")
    int ring() {
        List<GodClient.Member> members = client().nodes();
        if (json) {
            ArrayNode a = JSON.createArrayNode();
            members.forEach(m -> a.addObject().put("position", m.hex()).put("address", m.address()));
            print(a);
        } else {
            for (int i = 0; i < members.size(); i++) {
                out.println(i + ": [" + members.get(i).hex() + "@" + members.get(i).address() + "]");
            }
        }
        return 0;
    }

    @Command(mixinStandardHelpOptions = true,
            name = "put", description = "Put K V")
    int put(@Parameters(paramLabel = "K", description = D_K) String k,
            @Parameters(paramLabel = "V", description = D_V) String v,
            @Option(names = "--sync", description = "wait for every replica") boolean sync) {
        client().put(key(k), encode(v), sync);
        return 0;
    }

    @Command(mixinStandardHelpOptions = true,
            name = "get", description = "Get K: prints the value if it exists")
    int get(@Parameters(paramLabel = "K", description = D_K) String k) {
        GodClient.Value v = client().get(key(k));
        if (json) {
            print(obj(k, null, v.value(), v.exists()));
        } else if (v.exists()) {
            out.println(decode(v.value()));
        }
        return 0;
    }

    @Command(mixinStandardHelpOptions = true,
            name = "del", description = "Del K")
    int del(@Parameters(paramLabel = "K", description = D_K) String k, @Option(names = "--sync") boolean sync) {
        client().del(key(k), sync);
        return 0;
    }

    @Command(mixinStandardHelpOptions = true,
            name = "subPut", description = "SubPut K SK V")
    int subPut(@Parameters(paramLabel = "K", description = D_K) String k,
               @Parameters(paramLabel = "SK", description = D_SK) String sk,
               @Parameters(paramLabel = "V", description = D_V) String v, @Option(names = "--sync") boolean sync) {
        client().subPut(key(k), utf8(sk), encode(v), sync);
        return 0;
    }

    @Command(mixinStandardHelpOptions = true,
            name = "subGet", description = "SubGet K SK")
    int subGet(@Parameters(paramLabel = "K", description = D_K) String k,
               @Parameters(paramLabel = "SK", description = D_SK) String sk) {
        GodClient.SubValue v = client().subGet(key(k), utf8(sk));
        if (json) {
            print(obj(k, sk, v.value(), v.exists()));
        } else if (v.exists()) {
            out.println(decode(v.value()));
        }
        return 0;
    }

    @Command(mixinStandardHelpOptions = true,
            name = "subDel", description = "SubDel K SK")
    int subDel(@Parameters(paramLabel = "K", description = D_K) String k,
               @Parameters(paramLabel = "SK", description = D_SK) String sk,
               @Option(names = "--sync") boolean sync) {
        client().subDel(key(k), utf8(sk), sync);
        return 0;
    }

    @Command(mixinStandardHelpOptions = true,
            name = "subClear", description = "SubClear K")
    int subClear(@Parameters(paramLabel = "K", description = D_K) String k, @Option(names = "--sync") boolean sync) {
        client().subClear(key(k), sync);
        return 0;
    }

    @Command(mixinStandardHelpOptions = true,
            name = "subSize", description = "SubSize K")
    int subSize(@Parameters(paramLabel = "K", description = D_K) String k) {
        return number(client().subSize(key(k)));
    }

    @Command(mixinStandardHelpOptions = true,
            name = "size", description = "Size of the whole ring")
    int size() {
        return number(client().size());
    }

    @Command(mixinStandardHelpOptions = true,
            name = "count",
            description = "Count K [MIN [MAX]]: entries of K's sub tree from MIN (inclusive) to MAX (exclusive); "
                    + "a bound left out is open")
    int count(@Parameters(paramLabel = "K", description = D_K) String k,
              @Parameters(paramLabel = "MIN", arity = "0..1", description = D_MIN) String min,
              @Parameters(paramLabel = "MAX", arity = "0..1", description = D_MAX) String max) {
        return number(client().count(key(k), utf8(min), utf8(max), true, false));
    }

    @Command(mixinStandardHelpOptions = true,
            name = "mirrorCount", description = "MirrorCount K [MIN [MAX]]: as count, by value")
    int mirrorCount(@Parameters(paramLabel = "K", description = D_K) String k,
                    @Parameters(paramLabel = "MIN", arity = "0..1", description = D_MIN) String min,
                    @Parameters(paramLabel = "MAX", arity = "0..1", description = D_MAX) String max) {
        return number(client().mirrorCount(key(k), encode(min), encode(max), true, false));
    }

    @Command(mixinStandardHelpOptions = true,
            name = "slice",
            description = "Slice K [MIN [MAX]]: K's sub tree from MIN (inclusive) to MAX (exclusive), by sub key; "
                    + "a bound left out is open: `slice K` lists it all")
    int slice(@Parameters(paramLabel = "K", description = D_K) String k,
              @Parameters(paramLabel = "MIN", arity = "0..1", description = D_MIN) String min,
              @Parameters(paramLabel = "MAX", arity = "0..1", description = D_MAX) String max) {
        return entries(client().slice(key(k), utf8(min), utf8(max), true, false), false, true);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "reverseSlice", description = "ReverseSlice K [MIN [MAX]]: as slice, descending")
    int reverseSlice(@Parameters(paramLabel = "K", description = D_K) String k,
                     @Parameters(paramLabel = "MIN", arity = "0..1", description = D_MIN) String min,
                     @Parameters(paramLabel = "MAX", arity = "0..1", description = D_MAX) String max) {
        return entries(client().reverseSlice(key(k), utf8(min), utf8(max), true, false), false, true);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "mirrorSlice",
            description = "MirrorSlice K [MIN [MAX]]: as slice, by value (K must be mirrored)")
    int mirrorSlice(@Parameters(paramLabel = "K", description = D_K) String k,
                    @Parameters(paramLabel = "MIN", arity = "0..1", description = D_MIN) String min,
                    @Parameters(paramLabel = "MAX", arity = "0..1", description = D_MAX) String max) {
        return entries(client().mirrorSlice(key(k), encode(min), encode(max), true, false), true, true);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "mirrorReverseSlice",
            description = "MirrorReverseSlice K [MIN [MAX]]: as mirrorSlice, descending")
    int mirrorReverseSlice(@Parameters(paramLabel = "K", description = D_K) String k,
                           @Parameters(paramLabel = "MIN", arity = "0..1", description = D_MIN) String min,
                           @Parameters(paramLabel = "MAX", arity = "0..1", description = D_MAX) String max) {
        return entries(client().mirrorReverseSlice(key(k), encode(min), encode(max), true, false), true, true);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "sliceIndex", description = "SliceIndex K I J")
    int sliceIndex(@Parameters(paramLabel = "K", description = D_K) String k,
                   @Parameters(paramLabel = "I", description = D_I) long i,
                   @Parameters(paramLabel = "J", description = D_J) long j) {
        return entries(client().sliceIndex(key(k), i, j), false, true);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "reverseSliceIndex", description = "ReverseSliceIndex K I J")
    int reverseSliceIndex(@Parameters(paramLabel = "K", description = D_K) String k,
                          @Parameters(paramLabel = "I", description = D_I) long i,
                          @Parameters(paramLabel = "J", description = D_J) long j) {
        return entries(client().reverseSliceIndex(key(k), i, j), false, true);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "mirrorSliceIndex", description = "MirrorSliceIndex K I J")
    int mirrorSliceIndex(@Parameters(paramLabel = "K", description = D_K) String k,
                         @Parameters(paramLabel = "I", description = D_I) long i,
                         @Parameters(paramLabel = "J", description = D_J) long j) {
        return entries(client().mirrorSliceIndex(key(k), i, j), true, true);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "mirrorReverseSliceIndex", description = "MirrorReverseSliceIndex K I J")
    int mirrorReverseSliceIndex(@Parameters(paramLabel = "K", description = D_K) String k,
                                @Parameters(paramLabel = "I", description = D_I) long i,
                                @Parameters(paramLabel = "J", description = D_J) long j) {
        return entries(client().mirrorReverseSliceIndex(key(k), i, j), true, true);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "sliceLen", description = "SliceLen K FROM N (FROM inclusive)")
    int sliceLen(@Parameters(paramLabel = "K", description = D_K) String k,
                 @Parameters(paramLabel = "FROM", description = D_FROM) String from,
                 @Parameters(paramLabel = "N", description = D_N) long n) {
        return entries(client().sliceLen(key(k), utf8(from), true, n), false, false);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "reverseSliceLen", description = "ReverseSliceLen K FROM N")
    int reverseSliceLen(@Parameters(paramLabel = "K", description = D_K) String k,
                        @Parameters(paramLabel = "FROM", description = D_FROM) String from,
                        @Parameters(paramLabel = "N", description = D_N) long n) {
        return entries(client().reverseSliceLen(key(k), utf8(from), true, n), false, false);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "mirrorSliceLen", description = "MirrorSliceLen K FROM N")
    int mirrorSliceLen(@Parameters(paramLabel = "K", description = D_K) String k,
                       @Parameters(paramLabel = "FROM", description = D_FROM) String from,
                       @Parameters(paramLabel = "N", description = D_N) long n) {
        return entries(client().mirrorSliceLen(key(k), encode(from), true, n), true, false);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "mirrorReverseSliceLen", description = "MirrorReverseSliceLen K FROM N")
    int mirrorReverseSliceLen(@Parameters(paramLabel = "K", description = D_K) String k,
                              @Parameters(paramLabel = "FROM", description = D_FROM) String from,
                              @Parameters(paramLabel = "N", description = D_N) long n) {
        return entries(client().mirrorReverseSliceLen(key(k), encode(from), true, n), true, false);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "first", description = "First K")
    int first(@Parameters(paramLabel = "K", description = D_K) String k) {
        return sub(client().first(key(k)), false);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "last", description = "Last K")
    int last(@Parameters(paramLabel = "K", description = D_K) String k) {
        return sub(client().last(key(k)), false);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "mirrorFirst", description = "MirrorFirst K")
    int mirrorFirst(@Parameters(paramLabel = "K", description = D_K) String k) {
        return sub(client().mirrorFirst(key(k)), true);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "mirrorLast", description = "MirrorLast K")
    int mirrorLast(@Parameters(paramLabel = "K", description = D_K) String k) {
        return sub(client().mirrorLast(key(k)), true);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "next", description = "Next K: the first key after K on the ring")
    int next(@Parameters(paramLabel = "K", description = D_K) String k) {
        return value(client().next(key(k)));
    }

    @Command(mixinStandardHelpOptions = true,
            name = "prev", description = "Prev K")
    int prev(@Parameters(paramLabel = "K", description = D_K) String k) {
        return value(client().prev(key(k)));
    }

    @Command(mixinStandardHelpOptions = true,
            name = "subNext", description = "SubNext K SK")
    int subNext(@Parameters(paramLabel = "K", description = D_K) String k,
                @Parameters(paramLabel = "SK", description = D_SK) String sk) {
        return sub(client().subNext(key(k), utf8(sk)), false);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "subPrev", description = "SubPrev K SK")
    int subPrev(@Parameters(paramLabel = "K", description = D_K) String k,
                @Parameters(paramLabel = "SK", description = D_SK) String sk) {
        return sub(client().subPrev(key(k), utf8(sk)), false);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "subMirrorNext", description = "SubMirrorNext K V")
    int subMirrorNext(@Parameters(paramLabel = "K", description = D_K) String k,
                      @Parameters(paramLabel = "V", description = D_V) String v) {
        return sub(client().subMirrorNext(key(k), encode(v)), true);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "subMirrorPrev", description = "SubMirrorPrev K V")
    int subMirrorPrev(@Parameters(paramLabel = "K", description = D_K) String k,
                      @Parameters(paramLabel = "V", description = D_V) String v) {
        return sub(client().subMirrorPrev(key(k), encode(v)), true);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "nextIndex", description = "NextIndex K I")
    int nextIndex(@Parameters(paramLabel = "K", description = D_K) String k,
                  @Parameters(paramLabel = "I", description = D_I) long i) {
        return sub(client().nextIndex(key(k), i), false);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "prevIndex", description = "PrevIndex K I")
    int prevIndex(@Parameters(paramLabel = "K", description = D_K) String k,
                  @Parameters(paramLabel = "I", description = D_I) long i) {
        return sub(client().prevIndex(key(k), i), false);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "mirrorNextIndex", description = "MirrorNextIndex K I")
    int mirrorNextIndex(@Parameters(paramLabel = "K", description = D_K) String k,
                        @Parameters(paramLabel = "I", description = D_I) long i) {
        return sub(client().mirrorNextIndex(key(k), i), true);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "mirrorPrevIndex", description = "MirrorPrevIndex K I")
    int mirrorPrevIndex(@Parameters(paramLabel = "K", description = D_K) String k,
                        @Parameters(paramLabel = "I", description = D_I) long i) {
        return sub(client().mirrorPrevIndex(key(k), i), true);
    }

    @Command(mixinStandardHelpOptions = true,
            name = "indexOf", description = "IndexOf K SK: prints the index if SK exists")
    int indexOf(@Parameters(paramLabel = "K", description = D_K) String k,
                @Parameters(paramLabel = "SK", description = D_SK) String sk) {
        return index(client().indexOf(key(k), utf8(sk)));
    }

    @Command(mixinStandardHelpOptions = true,
            name = "reverseIndexOf", description = "ReverseIndexOf K SK")
    int reverseIndexOf(@Parameters(paramLabel = "K", description = D_K) String k,
                       @Parameters(paramLabel = "SK", description = D_SK) String sk) {
        return index(client().reverseIndexOf(key(k), utf8(sk)));
    }

    @Command(mixinStandardHelpOptions = true,
            name = "mirrorIndexOf", description = "MirrorIndexOf K V")
    int mirrorIndexOf(@Parameters(paramLabel = "K", description = D_K) String k,
                      @Parameters(paramLabel = "V", description = D_V) String v) {
        return index(client().mirrorIndexOf(key(k), encode(v)));
    }

    @Command(mixinStandardHelpOptions = true,
            name = "mirrorReverseIndexOf", description = "MirrorReverseIndexOf K V")
    int mirrorReverseIndexOf(@Parameters(paramLabel = "K", description = D_K) String k,
                             @Parameters(paramLabel = "V", description = D_V) String v) {
        return index(client().mirrorReverseIndexOf(key(k), encode(v)));
    }

    @Command(mixinStandardHelpOptions = true,
            name = "setOp", description = "SetExpression EXPR (one quoted argument), e.g. '(U a b)'")
    int setOp(@Parameters(paramLabel = "EXPR", description = D_EXPR) String expr) {
        return setResults(client().setExpression(expr, null));
    }

    @Command(mixinStandardHelpOptions = true,
            name = "dumpSetOp", description = "SetExpression EXPR stored into DEST")
    int dumpSetOp(@Parameters(paramLabel = "DEST", description = D_DEST) String dest,
                  @Parameters(paramLabel = "EXPR", description = D_EXPR) String expr) {
        return setResults(client().setExpression(expr, key(dest)));
    }

    @Command(mixinStandardHelpOptions = true,
            name = "dump",
            description = "Puts key=value lines from stdin (stops at the first other line)")
    int dump() throws java.io.IOException {
        return readPairs((k, v) -> client().put(key(k), encode(v), false));
    }

    @Command(mixinStandardHelpOptions = true,
            name = "subDump", description = "SubPuts subkey=value lines from stdin into K")
    int subDump(@Parameters(paramLabel = "K", description = D_K) String k) throws java.io.IOException {
        byte[] tree = key(k);
        return readPairs((sk, v) -> client().subPut(tree, utf8(sk), encode(v), false));
    }

    @Command(mixinStandardHelpOptions = true,
            name = "clear", description = "Clears every node")
    int clear() {
        client().clear();
        return 0;
    }

    @Command(mixinStandardHelpOptions = true,
            name = "describe",
            description = "Describe the node at ADDRESS or hex POSITION (default: the endpoint)")
    int describe(@Parameters(paramLabel = "NODE", arity = "0..1", description = D_NODE) String node) {
        out.println(client().describe(address(node)));
        return 0;
    }

    @Command(mixinStandardHelpOptions = true,
            name = "describeAll", description = "Describe every node")
    int describeAll() {
        for (GodClient.Member m : client().nodes()) {
            out.println(client().describe(m.address()));
        }
        return 0;
    }

    @Command(mixinStandardHelpOptions = true,
            name = "describeTree", description = "DescribeTree of the node at ADDRESS or hex POSITION")
    int describeTree(@Parameters(paramLabel = "NODE", arity = "0..1", description = D_NODE) String node) {
        out.println(client().describeTree(address(node)));
        return 0;
    }

    @Command(mixinStandardHelpOptions = true,
            name = "describeAllTrees", description = "DescribeTree of every node")
    int describeAllTrees() {
        for (GodClient.Member m : client().nodes()) {
            out.println(m + ":");
            out.println(client().describeTree(m.address()));
        }
        return 0;
    }

    @Command(mixinStandardHelpOptions = true,
            name = "configuration", description = "The ring's configuration")
    int configuration() {
        return conf(client().configuration());
    }

    @Command(mixinStandardHelpOptions = true,
            name = "subConfiguration", description = "SubConfiguration K")
    int subConfiguration(@Parameters(paramLabel = "K", description = D_K) String k) {
        return conf(client().subConfiguration(key(k)));
    }

    @Command(mixinStandardHelpOptions = true,
            name = "configure", description = "AddConfiguration KEY VAL")
    int configure(@Parameters(paramLabel = "KEY", description = D_KEY) String k,
                  @Parameters(paramLabel = "VAL", description = D_VAL) String v) {
        client().addConfiguration(k, v);
        return 0;
    }

    @Command(mixinStandardHelpOptions = true,
            name = "subConfigure", description = "SubAddConfiguration K KEY VAL (e.g. mirrored yes)")
    int subConfigure(@Parameters(paramLabel = "K", description = D_K) String k,
                     @Parameters(paramLabel = "KEY", description = D_KEY) String ck,
                     @Parameters(paramLabel = "VAL", description = D_VAL) String v) {
        client().subAddConfiguration(key(k), ck, v);
        return 0;
    }

    @Command(mixinStandardHelpOptions = true,
            name = "hash",
            description = "Prints the murmur3-128 key of K as hex, base64 (/rpc) and base64url (/v1 ?b64=true)")
    int hashKey(@Parameters(paramLabel = "K", description = D_K) String k) {
        byte[] h = KeyHash.murmur(k);
        String hex = HexFormat.of().formatHex(h);
        String b64 = java.util.Base64.getEncoder().encodeToString(h);
        String b64url = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(h);
        if (json) {
            print(JSON.createObjectNode().put("hex", hex).put("base64", b64).put("base64url", b64url));
        } else {
            out.println(hex + " " + b64 + " " + b64url);
        }
        return 0;
    }

    // ------------------------------------------------------------------ helpers

    private GodClient client() {
        if (client == null) {
            client = tlsOptions.apply(GodClient.builder().endpoints(endpoint).gateway(!direct).token(token())
                    .deadline(timeout)
                    .attemptTimeout(timeout.compareTo(Duration.ofSeconds(2)) < 0 ? timeout : Duration.ofSeconds(2)))
                    .build();
        }
        return client;
    }

    /**
     * The token: --token, else --token-file, else $GOD_AUTH_TOKEN, else the file $GOD_AUTH_TOKEN_FILE
     * names; a file's one trailing newline (\n or \r\n) is dropped. Null: none.
     */
    String token() {
        return token(token, tokenFile, env);
    }

    /** The same rule for other command-line tools (god-backup): token, else tokenFile, else the environment. */
    public static String token(String token, java.nio.file.Path tokenFile, Map<String, String> env) {
        if (token != null && tokenFile != null) {
            throw new IllegalArgumentException("give --token or --token-file, not both");
        }
        if (token != null) {
            return token;
        }
        if (tokenFile != null) {
            return readToken(tokenFile, "--token-file");
        }
        String t = env.get("GOD_AUTH_TOKEN");
        if (t != null && !t.isEmpty()) {
            return t;
        }
        String f = env.get("GOD_AUTH_TOKEN_FILE");
        return f == null || f.isEmpty() ? null : readToken(java.nio.file.Path.of(f), "$GOD_AUTH_TOKEN_FILE");
    }

    private static String readToken(java.nio.file.Path file, String from) {
        String t;
        try {
            t = java.nio.file.Files.readString(file, StandardCharsets.UTF_8);
        } catch (java.io.IOException | RuntimeException e) {
            throw new IllegalArgumentException("cannot read the token file " + file + " (" + from + "): "
                    + (e instanceof java.nio.file.NoSuchFileException ? "no such file"
                    : e instanceof java.nio.file.AccessDeniedException ? "permission denied" : e.toString()));
        }
        t = t.endsWith("\r\n") ? t.substring(0, t.length() - 2) : t.endsWith("\n") ? t.substring(0, t.length() - 1) : t;
        if (t.isEmpty()) {
            throw new IllegalArgumentException("the token file " + file + " (" + from + ") is empty");
        }
        return t;
    }

    private String address(String node) {
        if (node == null) {
            return null;
        }
        if (node.matches("[0-9a-fA-F]{32}")) {
            for (GodClient.Member m : client().nodes()) {
                if (m.hex().equalsIgnoreCase(node)) {
                    return m.address();
                }
            }
            throw new GodRequestException(404, "No node with position " + node + " found");
        }
        return node;
    }

    private byte[] key(String k) {
        return hash ? KeyHash.murmur(k) : utf8(k);
    }

    /** UTF-8 bytes; null stays null (an omitted bound: unbounded). */
    private static byte[] utf8(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    byte[] encode(String v) {
        return v == null ? null : enc.encode(v);
    }

    /** The value as --enc spells it; bytes that are no such value: as text, or their bytes (numbers), or hex. */
    String decode(byte[] v) {
        if (v == null) {
            return "";
        }
        String text = enc.decode(v);
        if (text != null) {
            return text;
        }
        return switch (enc) {
            case STRING -> new String(v, StandardCharsets.UTF_8);
            case INT, FLOAT -> java.util.Arrays.toString(v);
            default -> "hex:" + HexFormat.of().formatHex(v);
        };
    }

    private ObjectNode obj(String k, String sk, byte[] value, boolean exists) {
        ObjectNode o = JSON.createObjectNode().put("key", k);
        if (sk != null) {
            o.put("subKey", sk);
        }
        if (exists) {
            o.put("value", decode(value));
        } else {
            o.putNull("value");
        }
        return o.put("exists", exists);
    }

    private void print(Object o) {
        try {
            out.println(JSON.writeValueAsString(o));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private int number(long n) {
        out.println(n);
        return 0;
    }

    private int value(GodClient.Value v) {
        if (json) {
            print(v.exists() ? obj(new String(v.key(), StandardCharsets.UTF_8), null, v.value(), true)
                    : JSON.createObjectNode().put("exists", false));
        } else if (v.exists()) {
            out.println(new String(v.key(), StandardCharsets.UTF_8) + " => " + decode(v.value()));
        }
        return 0;
    }

    private int sub(GodClient.SubValue v, boolean mirror) {
        String k = v.exists() ? (mirror ? decode(v.subKey()) : new String(v.subKey(), StandardCharsets.UTF_8)) : null;
        String val = v.exists() ? (mirror ? new String(v.value(), StandardCharsets.UTF_8) : decode(v.value())) : null;
        if (json) {
            ObjectNode o = JSON.createObjectNode().put("exists", v.exists());
            if (v.exists()) {
                o.put("key", k).put("value", val).put("index", v.index());
            }
            print(o);
        } else if (v.exists()) {
            out.println(k + " => " + val);
        }
        return 0;
    }

    private int index(GodClient.Index i) {
        if (json) {
            print(JSON.createObjectNode().put("index", i.n()).put("existed", i.existed()));
        } else if (i.existed()) {
            out.println(i.n());
        }
        return 0;
    }

    private int entries(List<GodClient.Entry> list, boolean mirror, boolean numbered) {
        ArrayNode a = JSON.createArrayNode();
        for (int i = 0; i < list.size(); i++) {
            GodClient.Entry e = list.get(i);
            String k = mirror ? decode(e.key()) : new String(e.key(), StandardCharsets.UTF_8);
            String v = mirror ? new String(e.value(), StandardCharsets.UTF_8) : decode(e.value());
            if (json) {
                a.addObject().put("key", k).put("value", v);
            } else {
                out.println((numbered ? i + ": " : "") + k + " => " + v);
            }
        }
        if (json) {
            print(a);
        }
        return 0;
    }

    private int setResults(List<GodClient.SetResult> results) {
        ArrayNode a = JSON.createArrayNode();
        for (GodClient.SetResult r : results) {
            String k = new String(r.key(), StandardCharsets.UTF_8);
            List<String> vs = r.values().stream().map(this::decode).toList();
            if (json) {
                ObjectNode o = a.addObject().put("key", k);
                vs.forEach(o.putArray("values")::add);
            } else {
                out.println(k + " => " + vs);
            }
        }
        if (json) {
            print(a);
        }
        return 0;
    }

    private int conf(Map<String, String> m) {
        if (json) {
            print(m);
        } else {
            StringBuilder sb = new StringBuilder("map[");
            m.forEach((k, v) -> sb.append(sb.length() > 4 ? " " : "").append(k).append(':').append(v));
            out.println(sb.append(']'));
        }
        return 0;
    }

    private int readPairs(java.util.function.BiConsumer<String, String> put) throws java.io.IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        String line;
        int n = 0;
        while ((line = r.readLine()) != null) {
            String[] parts = line.split("=", -1);
            if (parts.length != 2) {
                break;
            }
            put.accept(parts[0], parts[1]);
            n++;
        }
        if (json) {
            print(JSON.createObjectNode().put("written", n));
        } else {
            out.println(n + " entries written");
        }
        return 0;
    }

    /** 500ms, 5s, 2m, or plain milliseconds (shared with god-backup). */
    public static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String s) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)(ms|s|m)?").matcher(s);
            if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
                throw new CommandLine.TypeConversionException("expected a positive duration like 500ms, 5s or 1m, was '"
                        + s + "'");
            }
            long n = Long.parseLong(m.group(1));
            return m.group(2) == null || m.group(2).equals("ms") ? Duration.ofMillis(n)
                    : m.group(2).equals("s") ? Duration.ofSeconds(n) : Duration.ofMinutes(n);
        }
    }
}
