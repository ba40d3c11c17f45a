package io.god.client;

import static io.god.client.GodClient.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** god.auth.token: the client's hello and Authorization carry it; a wrong token is a 401, not retried. */
@ScaledTimeout(60)
class GodClientAuthTest {

    @Test
    void tokenIsPresentedAndAWrongOneFailsFast() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put("god.auth.token", "s3cret-token");
            rings.start(2);
            try (GodClient ok = GodClient.builder().endpoints(rings.address(0)).token("s3cret-token").build()) {
                assertThat(ok.ring()).hasSize(2);
                ok.put(utf8("a"), utf8("1"), true);
                assertThat(ok.get(utf8("a")).exists()).isTrue();
            }
            // god-cli: --token (or $GOD_AUTH_TOKEN); without it the node refuses: exit 1 with a 401
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
            assertThat(io.god.cli.GodCli.run(new String[] {"--endpoint", rings.address(1), "--token", "s3cret-token",
                    "get", "a"}, new java.io.PrintStream(out, true), new java.io.PrintStream(err, true),
                    java.io.InputStream.nullInputStream())).isZero();
            assertThat(out.toString()).isEqualTo("1\n");
            assertThat(io.god.cli.GodCli.run(new String[] {"--endpoint", rings.address(1), "--token", "nope-nope-nope",
                    "get", "a"}, new java.io.PrintStream(out, true), new java.io.PrintStream(err, true),
                    java.io.InputStream.nullInputStream())).isEqualTo(1);
            assertThat(err.toString()).contains("(401)");
            // --token-file and $GOD_AUTH_TOKEN_FILE: the token from a file, its trailing newline dropped
            java.nio.file.Path file = java.nio.file.Files.createTempFile("god-token", ".txt");
            try {
                java.nio.file.Files.writeString(file, "s3cret-token\n");
                out.reset();
                assertThat(io.god.cli.GodCli.run(new String[] {"--endpoint", rings.address(1), "--token-file",
                        file.toString(), "put", "--sync", "b", "2"}, new java.io.PrintStream(out, true),
                        new java.io.PrintStream(err, true), java.io.InputStream.nullInputStream(), java.util.Map.of()))
                        .isZero();
                assertThat(io.god.cli.GodCli.run(new String[] {"--endpoint", rings.address(1), "put", "--sync", "c", "3"},
                        new java.io.PrintStream(out, true), new java.io.PrintStream(err, true),
                        java.io.InputStream.nullInputStream(), java.util.Map.of("GOD_AUTH_TOKEN_FILE", file.toString())))
                        .isZero();
                try (GodClient ok = GodClient.builder().endpoints(rings.address(0)).token("s3cret-token").build()) {
                    assertThat(ok.get(utf8("b")).exists()).isTrue();
                    assertThat(ok.get(utf8("c")).exists()).isTrue();
                }
                // a file whose token is wrong: the node refuses (401)
                java.nio.file.Files.writeString(file, "not-the-token\n");
                err.reset();
                assertThat(io.god.cli.GodCli.run(new String[] {"--endpoint", rings.address(1), "put", "--sync", "d", "4"},
                        new java.io.PrintStream(out, true), new java.io.PrintStream(err, true),
                        java.io.InputStream.nullInputStream(), java.util.Map.of("GOD_AUTH_TOKEN_FILE", file.toString())))
                        .isEqualTo(1);
                assertThat(err.toString()).contains("(401)");
            } finally {
                java.nio.file.Files.deleteIfExists(file);
            }
            long t0 = System.nanoTime();
            try (GodClient bad = GodClient.builder().endpoints(rings.address(0)).token("wrong").gateway(true)
                    .deadline(TimeScale.seconds(5)).build()) {
                assertThatThrownBy(() -> bad.get(utf8("a"))).isInstanceOf(GodRequestException.class)
                        .satisfies(e -> assertThat(((GodRequestException) e).status()).isEqualTo(401));
            }
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(TimeScale.seconds(2));
        }
    }
}
