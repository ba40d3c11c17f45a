package io.god.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every test class of every module uses {@link ScaledTimeout}, never JUnit's fixed {@code @Timeout}. */
class NoUnscaledTimeoutTest {

    /** Split so that this file does not match itself. */
    private static final String JUNIT_TIMEOUT = "import org.junit.jupiter.api." + "Timeout;";

    @Test
    void noTestImportsJUnitsTimeout() throws IOException {
        Path root = Path.of("").toAbsolutePath().getParent(); // surefire runs in client/
        assertThat(root.resolve("pom.xml")).exists();
        List<Path> offenders;
        try (Stream<Path> files = Files.walk(root)) {
            offenders = files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> p.toString().contains("/src/test/"))
                    .filter(p -> !p.toString().contains("/target/"))
                    .filter(p -> contains(p, JUNIT_TIMEOUT))
                    .map(root::relativize)
                    .toList();
        }
        assertThat(offenders).as("use io.god.testing.ScaledTimeout (scaled by -Dgod.test.time-scale) instead")
                .isEmpty();
    }

    private static boolean contains(Path file, String text) {
        try {
            return Files.readString(file).contains(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
