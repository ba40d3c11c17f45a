package io.god.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.testing.TimeScale;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code redis-cli} (Debian's redis-tools, installed by .ci/run) against the RESP listener: one-shot commands, a
 * {@code --pipe} mass insert of 100 000 keys, and {@code --scan}. Without redis-cli the test is skipped saying so,
 * except under {@code CI=true}, where it fails.
 */
class RedisCliTest {

    static Path cli;

    @BeforeAll
    static void findCli() {
        cli = Stream.of(System.getenv("PATH").split(java.io.File.pathSeparator)).map(d -> Path.of(d, "redis-cli"))
                .filter(Files::isExecutable).findFirst().orElse(null);
        if (cli == null) {
            assertThat(System.getenv("CI")).as("CI installs redis-tools (.ci/run)").isNotEqualTo("true");
            Assumptions.abort("no redis-cli on PATH (Debian package redis-tools)");
        }
    }

    @TempDir
    Path tmp;

    record Run(int exit, String out) {
    }

    Run cli(int port, Path stdin, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(cli.toString(), "-h", "127.0.0.1", "-p",
                String.valueOf(port)));
        command.addAll(List.of(args));
        ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true);
        if (stdin != null) {
            b.redirectInput(stdin.toFile());
        }
        Path out = Files.createTempFile(tmp, "cli", ".out");
        b.redirectOutput(out.toFile());
        Process p = b.start();
        // bounded, scaled: 100 000 Sync SETs took 73 s at load 13-16 against 120 s unscaled (the process is killed after)
        boolean finished = p.waitFor(TimeScale.seconds(120).toSeconds(), TimeUnit.SECONDS);
        if (!finished) {
            p.destroyForcibly();
        }
        assertThat(finished).as("redis-cli " + String.join(" ", args) + " finished").isTrue();
        return new Run(p.exitValue(), Files.readString(out));
    }

    @Test
    void oneShotCommandsMassInsertAndScan() throws Exception {
        try (RespNodes n = new RespNodes(Map.of()).start(1)) {
            int port = n.port(0);
            assertThat(cli(port, null, "ping").out().trim()).isEqualTo("PONG");
            assertThat(cli(port, null, "set", "greeting", "hello world").out().trim()).isEqualTo("OK");
            assertThat(cli(port, null, "get", "greeting").out().trim()).isEqualTo("hello world");
            assertThat(cli(port, null, "set", "k", "v", "EX", "5").out()).contains("god keeps no TTL");

            Path mass = tmp.resolve("mass.txt");
            try (var w = Files.newBufferedWriter(mass, StandardCharsets.UTF_8)) {
                for (int i = 0; i < 100_000; i++) {
                    String key = "mass:" + i;
                    String value = "value-" + i;
                    w.write("*3\r\n$3\r\nSET\r\n$" + key.length() + "\r\n" + key + "\r\n$" + value.length() + "\r\n"
                            + value + "\r\n");
                }
            }
            Run pipe = cli(port, mass, "--pipe");
            assertThat(pipe.exit()).as("redis-cli --pipe: " + pipe.out()).isZero();
            assertThat(pipe.out()).contains("errors: 0, replies: 100000");
            assertThat(cli(port, null, "dbsize").out().trim()).isEqualTo("100001");
            assertThat(cli(port, null, "get", "mass:99999").out().trim()).isEqualTo("value-99999");

            Run scan = cli(port, null, "--scan", "--pattern", "mass:1234*");
            assertThat(scan.exit()).isZero();
            assertThat(scan.out().lines().toList()).hasSize(11).contains("mass:1234", "mass:12349");
        }
    }

}
