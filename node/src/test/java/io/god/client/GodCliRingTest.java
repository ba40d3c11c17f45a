package io.god.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.cli.GodCli;
import io.god.testing.ScaledTimeout;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** god-cli in-process against a real 3-node ring: every command, output formats, exit codes. */
@ScaledTimeout(60)
class GodCliRingTest {

    static ClientRings rings;

    record Result(int code, String out, String err) {
    }

    @BeforeAll
    static void ring() throws Exception {
        rings = new ClientRings().start(3);
    }

    @AfterAll
    static void down() {
        if (rings != null) {
            rings.close();
        }
    }

    static Result cli(String stdin, String... args) {
        List<String> all = new ArrayList<>(List.of("--timeout", "3s"));
        all.addAll(List.of(args));
        return cliAt(rings.address(1), stdin, all.toArray(String[]::new));
    }

    static Result cliAt(String endpoint, String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>(List.of("--endpoint", endpoint));
        all.addAll(List.of(args));
        int code = GodCli.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static String ok(String... args) {
        Result r = cli("", args);
        assertThat(r.code()).as(String.join(" ", args) + " → " + r.err()).isZero();
        return r.out();
    }

    @Test
    void everyCommand() {
        assertThat(ok()).contains("0: [").contains(rings.address(0)).contains(rings.address(2));
        assertThat(ok("ring").lines()).hasSize(3);
        assertThat(ok("--json", "ring")).startsWith("[{\"position\":");

        assertThat(ok("put", "--sync", "k1", "v1")).isEmpty();
        assertThat(ok("get", "k1")).isEqualTo("v1\n");
        assertThat(ok("--json", "get", "k1")).isEqualTo("{\"key\":\"k1\",\"value\":\"v1\",\"exists\":true}\n");
        assertThat(ok("get", "nope")).isEmpty();
        assertThat(ok("--json", "get", "nope")).contains("\"exists\":false");
        assertThat(ok("next", "k0")).isEqualTo("k1 => v1\n");
        assertThat(ok("prev", "k2")).isEqualTo("k1 => v1\n");
        assertThat(ok("del", "--sync", "k1")).isEmpty();
        assertThat(ok("get", "k1")).isEmpty();
        assertThat(ok("size")).isEqualTo("0\n");

        // --hash: the key is murmur3-128 of the string (same bytes as GodClient.hashed)
        ok("--hash", "put", "--sync", "hk", "hv");
        assertThat(ok("--hash", "get", "hk")).isEqualTo("hv\n");
        assertThat(ok("get", "hk")).isEmpty();
        assertThat(ok("hash", "hk")).startsWith(java.util.HexFormat.of().formatHex(GodClient.hashed("hk")));

        // --enc int for values
        ok("--enc", "int", "put", "--sync", "n", "42");
        assertThat(ok("--enc", "int", "get", "n")).isEqualTo("42\n");

        ok("subConfigure", "t", "mirrored", "yes");
        assertThat(ok("subConfiguration", "t")).isEqualTo("map[mirrored:yes]\n");
        for (int i = 1; i <= 4; i++) {
            ok("subPut", "--sync", "t", "s" + i, "v" + (5 - i));
        }
        assertThat(ok("subGet", "t", "s2")).isEqualTo("v3\n");
        assertThat(ok("subSize", "t")).isEqualTo("4\n");
        assertThat(ok("count", "t", "s1", "s3")).isEqualTo("2\n");
        assertThat(ok("mirrorCount", "t", "v1", "v9")).isEqualTo("4\n");
        assertThat(ok("slice", "t", "s1", "s3")).isEqualTo("0: s1 => v4\n1: s2 => v3\n");
        assertThat(ok("reverseSlice", "t", "s1", "s3")).isEqualTo("0: s2 => v3\n1: s1 => v4\n");
        assertThat(ok("mirrorSlice", "t", "v1", "v3")).isEqualTo("0: v1 => s4\n1: v2 => s3\n");
        assertThat(ok("mirrorReverseSlice", "t", "v1", "v3")).isEqualTo("0: v2 => s3\n1: v1 => s4\n");
        // unbounded: a bound left out is open, "" as MIN is from the first
        assertThat(ok("slice", "t")).isEqualTo("0: s1 => v4\n1: s2 => v3\n2: s3 => v2\n3: s4 => v1\n");
        assertThat(ok("slice", "t", "s3")).isEqualTo("0: s3 => v2\n1: s4 => v1\n");
        assertThat(ok("slice", "t", "", "s2")).isEqualTo("0: s1 => v4\n");
        assertThat(ok("reverseSlice", "t", "s3")).isEqualTo("0: s4 => v1\n1: s3 => v2\n");
        assertThat(ok("mirrorSlice", "t", "v3")).isEqualTo("0: v3 => s2\n1: v4 => s1\n");
        assertThat(ok("mirrorReverseSlice", "t")).isEqualTo("0: v4 => s1\n1: v3 => s2\n2: v2 => s3\n3: v1 => s4\n");
        assertThat(ok("count", "t")).isEqualTo("4\n");
        assertThat(ok("count", "t", "s2")).isEqualTo("3\n");
        assertThat(ok("mirrorCount", "t", "v2")).isEqualTo("3\n");
        assertThat(ok("sliceIndex", "t", "1", "2")).isEqualTo("0: s2 => v3\n1: s3 => v2\n");
        assertThat(ok("reverseSliceIndex", "t", "0", "0")).isEqualTo("0: s4 => v1\n");
        assertThat(ok("mirrorSliceIndex", "t", "0", "0")).isEqualTo("0: v1 => s4\n");
        assertThat(ok("mirrorReverseSliceIndex", "t", "0", "0")).isEqualTo("0: v4 => s1\n");
        assertThat(ok("sliceLen", "t", "s2", "2")).isEqualTo("s2 => v3\ns3 => v2\n");
        assertThat(ok("reverseSliceLen", "t", "s2", "2")).isEqualTo("s2 => v3\ns1 => v4\n");
        assertThat(ok("mirrorSliceLen", "t", "v3", "9")).isEqualTo("v3 => s2\nv4 => s1\n");
        assertThat(ok("mirrorReverseSliceLen", "t", "v1", "9")).isEqualTo("v1 => s4\n");
        assertThat(ok("--json", "sliceLen", "t", "s4", "1")).isEqualTo("[{\"key\":\"s4\",\"value\":\"v1\"}]\n");
        assertThat(ok("first", "t")).isEqualTo("s1 => v4\n");
        assertThat(ok("last", "t")).isEqualTo("s4 => v1\n");
        assertThat(ok("mirrorFirst", "t")).isEqualTo("v1 => s4\n");
        assertThat(ok("mirrorLast", "t")).isEqualTo("v4 => s1\n");
        assertThat(ok("subNext", "t", "s2")).isEqualTo("s3 => v2\n");
        assertThat(ok("subPrev", "t", "s2")).isEqualTo("s1 => v4\n");
        assertThat(ok("subMirrorNext", "t", "v2")).startsWith("v");
        assertThat(ok("subMirrorPrev", "t", "v2")).isEqualTo("v1 => s4\n");
        assertThat(ok("nextIndex", "t", "0")).isEqualTo("s2 => v3\n");
        assertThat(ok("prevIndex", "t", "1")).isEqualTo("s1 => v4\n");
        assertThat(ok("mirrorNextIndex", "t", "0")).isEqualTo("v2 => s3\n");
        assertThat(ok("mirrorPrevIndex", "t", "1")).isEqualTo("v1 => s4\n");
        assertThat(ok("indexOf", "t", "s3")).isEqualTo("2\n");
        assertThat(ok("indexOf", "t", "zz")).isEmpty();
        assertThat(ok("reverseIndexOf", "t", "s3")).isEqualTo("1\n");
        assertThat(ok("mirrorIndexOf", "t", "v1")).isEqualTo("0\n");
        assertThat(ok("mirrorReverseIndexOf", "t", "v1")).isEqualTo("3\n");
        assertThat(ok("--json", "indexOf", "t", "zz")).isEqualTo("{\"index\":4,\"existed\":false}\n");

        Result dump = cli("a=1\nb=2\nbad line\nc=3\n", "subDump", "u");
        assertThat(dump.code()).isZero();
        assertThat(dump.out()).isEqualTo("2 entries written\n");
        assertThat(cli("x=1\n", "dump").out()).isEqualTo("1 entries written\n");
        assertThat(ok("get", "x")).isEqualTo("1\n");
        assertThat(ok("setOp", "(U t u)")).contains("a => [1]").contains("s1 => [v4]");
        assertThat(ok("dumpSetOp", "d", "(I:ConCat u u)")).isEmpty();
        assertThat(ok("subSize", "d")).isEqualTo("2\n");
        ok("subDel", "--sync", "t", "s1");
        assertThat(ok("subGet", "t", "s1")).isEmpty();
        ok("subClear", "--sync", "t");
        assertThat(ok("subSize", "t")).isEqualTo("0\n");

        ok("configure", "cli-test", "yes");
        assertThat(ok("--json", "configuration")).startsWith("{");
        assertThat(ok("describe")).contains(rings.address(1));
        assertThat(ok("describe", rings.address(2))).contains(rings.address(2));
        String pos = rings.nodes.get(0).membership().self().hex();
        assertThat(ok("describe", pos)).contains(rings.address(0));
        assertThat(ok("describeAll")).contains(rings.address(0)).contains(rings.address(2));
        assertThat(ok("describeTree")).isNotNull();
        assertThat(ok("describeAllTrees")).contains(rings.address(0));
        ok("clear");
        assertThat(ok("get", "x")).isEmpty();
    }

    @Test
    void orderedEncodingsSortNumbersNumerically() {
        // string values sort as bytes: "100" before "25"
        ok("subConfigure", "plain", "mirrored", "yes");
        for (String v : new String[] {"25", "100", "3"}) {
            ok("subPut", "--sync", "plain", "p" + v, v);
        }
        assertThat(ok("mirrorSlice", "plain")).isEqualTo("0: 100 => p100\n1: 25 => p25\n2: 3 => p3\n");
        // ordered-int: 8 bytes that sort as the numbers do, negatives included
        ok("subConfigure", "oi", "mirrored", "yes");
        for (String v : new String[] {"25", "100", "-7", "3", "-1000"}) {
            ok("--enc", "ordered-int", "subPut", "--sync", "oi", "n" + v, v);
        }
        assertThat(ok("--enc", "ordered-int", "mirrorSlice", "oi"))
                .isEqualTo("0: -1000 => n-1000\n1: -7 => n-7\n2: 3 => n3\n3: 25 => n25\n4: 100 => n100\n");
        assertThat(ok("--enc", "ordered-int", "mirrorSlice", "oi", "0", "50")).isEqualTo("0: 3 => n3\n1: 25 => n25\n");
        assertThat(ok("--enc", "ordered-int", "subGet", "oi", "n-7")).isEqualTo("-7\n");
        assertThat(ok("--enc", "hex", "subGet", "oi", "n-7")).isEqualTo("7ffffffffffffff9\n");
        // ordered-float
        ok("subConfigure", "of", "mirrored", "yes");
        for (String v : new String[] {"2.5", "-0.5", "10", "-30.25", "0"}) {
            ok("--enc", "ordered-float", "subPut", "--sync", "of", "f" + v, v);
        }
        assertThat(ok("--enc", "ordered-float", "mirrorReverseSlice", "of"))
                .isEqualTo("0: 10.0 => f10\n1: 2.5 => f2.5\n2: 0.0 => f0\n3: -0.5 => f-0.5\n4: -30.25 => f-30.25\n");
        // hex: any bytes in and out; a value that is no 8-byte number prints as hex under the ordered encodings
        ok("--enc", "hex", "put", "--sync", "bin", "00ff10");
        assertThat(ok("--enc", "hex", "get", "bin")).isEqualTo("00ff10\n");
        assertThat(ok("--enc", "ordered-int", "get", "bin")).isEqualTo("hex:00ff10\n");
        // bad input: a usage error naming the value, nothing written
        Result r = cli("", "--enc", "ordered-int", "put", "bad", "1.5");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("'1.5' is not a valid ordered-int value");
        r = cli("", "--enc", "hex", "put", "bad", "abc");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("'abc' is not a valid hex value");
        r = cli("", "--enc", "ordered-float", "put", "bad", "NaN");
        assertThat(r.code()).isEqualTo(2);
        assertThat(ok("get", "bad")).isEmpty();
    }

    @Test
    void badArgumentsAreUsageErrors() {
        Result r = cli("", "get");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("Missing required parameter").contains("Usage:");
        assertThat(cli("", "get", "a", "b").code()).isEqualTo(2);
        // anchored: "a1" is not an index
        r = cli("", "sliceIndex", "t", "a1", "2");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("a1");
        assertThat(cli("", "nosuchcommand").code()).isEqualTo(2);
        assertThat(cli("", "--timeout", "soon", "size").code()).isEqualTo(2);
        assertThat(cli("", "--enc", "roman", "get", "k").code()).isEqualTo(2);
        r = cli("", "--enc", "int", "put", "k", "x");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("not a valid int");
    }

    @Test
    void failuresExitNonZeroWithTheServersMessage() {
        Result r = cli("", "setOp", "(U a");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("request rejected (400)");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = GodCli.run(new String[] {"--endpoint", "127.0.0.1:1", "--timeout", "300ms", "size"},
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(new byte[0]));
        assertThat(code).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("unavailable");
    }

    /**
     * The interactive shell on piped input: commands run on one connection with the shell's options,
     * a line may add its own, a failing line prints its error and the shell goes on, help works,
     * history is saved, Ctrl-D (end of input) ends it.
     */
    @Test
    void theShellRunsOneCommandPerLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path history = dir.resolve("history");
        String lines = String.join("\n", "put --sync 'shell key' \"two words\"", "get 'shell key'",
                "--json get 'shell key'", "--enc int put --sync n 7", "get nothing-here", "setOp '(U a'",
                "get", "nosuchcommand", "shell", "help subPut", "--enc int get n", "") ;
        Result r = cli(lines, "shell", "--history", history.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("two words\n")
                .contains("{\"key\":\"shell key\",\"value\":\"two words\",\"exists\":true}")
                .contains("SubPut K SK V").contains("7\n");
        assertThat(r.err()).contains("request rejected (400)").contains("Missing required parameter")
                .contains("Unmatched argument at index 0: 'nosuchcommand'").contains("already in the shell");
        assertThat(ok("get", "shell key")).isEqualTo("two words\n");
        assertThat(java.nio.file.Files.readString(history)).contains("get 'shell key'").contains("help subPut");
        // exit ends it before the rest of the input
        r = cli("exit\nput --sync after-exit x\n", "shell", "--history", history.toString());
        assertThat(r.code()).isZero();
        assertThat(ok("get", "after-exit")).isEmpty();
        // a shell that cannot reach its endpoint says so at once
        Result down = cliAt("127.0.0.1:1", "get x\n", "--timeout", "300ms", "shell", "--history", history.toString());
        assertThat(down.code()).isEqualTo(1);
        assertThat(down.err()).contains("unavailable");
    }
}
