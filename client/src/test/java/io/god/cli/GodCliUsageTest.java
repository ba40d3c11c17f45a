package io.god.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.client.GodClient;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Argument parsing without a ring: usage errors exit 2 before anything connects. */
class GodCliUsageTest {

    static int run(ByteArrayOutputStream err, String... args) {
        return GodCli.run(args, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(new byte[0]));
    }

    @Test
    void usageErrors() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertThat(run(err, "put", "k")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("Missing required parameter: 'V'");
        assertThat(run(new ByteArrayOutputStream(), "nextIndex", "k", "1x")).isEqualTo(2);
        assertThat(run(new ByteArrayOutputStream(), "sliceLen", "k", "a", "-")).isEqualTo(2);
        assertThat(run(new ByteArrayOutputStream(), "--timeout", "0s", "size")).isEqualTo(2);
        assertThat(run(new ByteArrayOutputStream(), "--bogus", "size")).isEqualTo(2);
        assertThat(run(new ByteArrayOutputStream(), "--enc", "float", "put", "k", "one")).isEqualTo(2);
        assertThat(run(new ByteArrayOutputStream(), "--help")).isZero();
        assertThat(run(new ByteArrayOutputStream(), "hash", "k")).isZero();
    }

    @Test
    void anUnreadableTokenFileIsAClearErrorBeforeAnythingConnects() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String missing = "/nonexistent/god-token";
        assertThat(GodCli.run(new String[] {"--endpoint", "127.0.0.1:1", "--token-file", missing, "get", "k"},
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(new byte[0]), java.util.Map.of())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("god-cli: cannot read the token file " + missing + " (--token-file): no such file");
        err.reset();
        assertThat(GodCli.run(new String[] {"--endpoint", "127.0.0.1:1", "get", "k"},
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(new byte[0]), java.util.Map.of("GOD_AUTH_TOKEN_FILE", missing))).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("(" + "$GOD_AUTH_TOKEN_FILE): no such file");
        java.nio.file.Path empty = java.nio.file.Files.createTempFile("god-token", "");
        try {
            java.nio.file.Files.writeString(empty, "\n");
            err.reset();
            assertThat(run(err, "--endpoint", "127.0.0.1:1", "--token-file", empty.toString(), "get", "k")).isEqualTo(2);
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("is empty");
            err.reset();
            assertThat(run(err, "--token", "abcdefgh", "--token-file", empty.toString(), "get", "k")).isEqualTo(2);
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("give --token or --token-file, not both");
        } finally {
            java.nio.file.Files.deleteIfExists(empty);
        }
    }

    @Test
    void builderValidation() {
        assertThatThrownBy(() -> GodClient.builder().build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GodClient.builder().attempts(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GodClient.builder().deadline(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThat(GodClient.hashed("k")).hasSize(16);
    }

    static String out(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = GodCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream()), new ByteArrayInputStream(new byte[0]));
        assertThat(code).as(String.join(" ", args)).isZero();
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void helpListsEveryCommandWithItsDescription() {
        String help = out("help");
        assertThat(help).contains("Usage: god-cli").contains("Talks to a god ring")
                .contains("help ").contains("god-cli help COMMAND");
        assertThat(help).containsPattern("\\bput\\s+Put K V").containsPattern("\\bslice\\s+Slice K \\[MIN \\[MAX]]")
                .containsPattern("\\bsetOp\\s+SetExpression EXPR");
        assertThat(out("--help")).isEqualTo(help);
    }

    @Test
    void helpOfOneCommandDescribesEachArgument() {
        String slice = out("help", "slice");
        assertThat(slice).contains("Usage: god-cli slice [-hV] K [MIN] [MAX]")
                .contains("K's sub tree from MIN (inclusive) to MAX (exclusive)")
                .containsPattern("K\\s+the tree's key: its UTF-8 bytes")
                .containsPattern("\\[MIN]\\s+lower bound, inclusive")
                .containsPattern("\\[MAX]\\s+upper bound, exclusive");
        assertThat(out("help", "put")).containsPattern("V\\s+the value, encoded by --enc").contains("--sync");
        assertThat(out("slice", "--help")).isEqualTo(slice);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertThat(run(err, "help", "nosuch")).isNotZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("nosuch");
    }
}
