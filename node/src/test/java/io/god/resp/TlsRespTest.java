package io.god.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.god.testing.ScaledTimeout;
import io.god.tls.TestPki;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RESP with god.tls.*: redis-cli --tls --cacert writes and reads, also after the certificate was renewed (the next
 * connection gets the new one); plain redis-cli and a wrong CA get nothing.
 */
@ScaledTimeout(90)
class TlsRespTest {

    @TempDir
    Path dir;

    @Test
    void redisCliOverTls() throws Exception {
        RedisCliTest.findCli(); // skipped saying so without redis-cli (fails under CI=true)
        assumeTrue(run(dir.resolve("help.txt"), "redis-cli", "--help").contains("--tls"),
                "this redis-cli was built without TLS support");
        TestPki ca = TestPki.ca("resp CA");
        Path files = ca.issue("node", TestPki.Use.PEER, List.of("node.test"), List.of("127.0.0.1", "127.0.0.2"))
                .write(dir.resolve("node"), true);
        Map<String, String> settings = new HashMap<>();
        settings.put("god.tls.cert-file", files.resolve("tls.crt").toString());
        settings.put("god.tls.key-file", files.resolve("tls.key").toString());
        settings.put("god.tls.ca-file", files.resolve("ca.crt").toString());
        settings.put("god.tls.reload-interval", "100ms");
        try (RespNodes nodes = new RespNodes(settings).start(1)) {
            String port = String.valueOf(nodes.port(0));
            List<String> tls = List.of("redis-cli", "--tls", "--cacert", files.resolve("ca.crt").toString(),
                    "-h", "127.0.0.1", "-p", port);
            assertThat(run(dir.resolve("set.txt"), with(tls, "SET", "greeting", "hello"))).isEqualTo("OK\n");
            assertThat(run(dir.resolve("get.txt"), with(tls, "GET", "greeting"))).isEqualTo("hello\n");
            // a renewed certificate: the next connection gets it, redis-cli still works
            TestPki.Issued renewed = ca.issue("node", TestPki.Use.PEER, List.of("node.test"), List.of("127.0.0.1"));
            Path next = renewed.write(dir.resolve("renewed"), true);
            TestPki.atomically(files.resolve("tls.key"), Files.readString(next.resolve("tls.key")));
            TestPki.atomically(files.resolve("tls.crt"), Files.readString(next.resolve("tls.crt")));
            org.awaitility.Awaitility.await().atMost(io.god.testing.TimeScale.seconds(10)).ignoreExceptions().until(() ->
                    TestPki.served("127.0.0.1:" + port, files.resolve("ca.crt")).equals(renewed.cert()));
            assertThat(run(dir.resolve("get2.txt"), with(tls, "GET", "greeting"))).isEqualTo("hello\n");
            // plain RESP against the TLS port: nothing comes back that redis-cli could read
            String plain = run(dir.resolve("plain.txt"), "redis-cli", "-h", "127.0.0.1", "-p", port, "GET", "greeting");
            assertThat(plain).doesNotContain("hello");
            // a CA the node's certificate does not chain to: the handshake fails, named by redis-cli
            Path other = TestPki.ca("other").issue("x", TestPki.Use.SERVER, List.of(), List.of()).write(dir.resolve("o"), false);
            String wrong = run(dir.resolve("wrong.txt"), "redis-cli", "--tls", "--cacert",
                    other.resolve("ca.crt").toString(), "-h", "127.0.0.1", "-p", port, "GET", "greeting");
            assertThat(wrong).doesNotContain("hello").containsIgnoringCase("SSL");
        }
    }

    private static String[] with(List<String> base, String... args) {
        List<String> all = new ArrayList<>(base);
        all.addAll(List.of(args));
        return all.toArray(new String[0]);
    }

    /** Runs a command with a bounded wait, output (both streams) to a file; returns it. */
    static String run(Path out, String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        try {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                throw new AssertionError(String.join(" ", command) + " did not finish");
            }
        } finally {
            p.destroyForcibly();
        }
        return Files.readString(out, StandardCharsets.UTF_8);
    }
}
