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
    void builderValidation() {
        assertThatThrownBy(() -> GodClient.builder().build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GodClient.builder().attempts(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GodClient.builder().deadline(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThat(GodClient.hashed("k")).hasSize(16);
    }
}
