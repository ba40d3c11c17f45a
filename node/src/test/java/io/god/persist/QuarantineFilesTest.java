package io.god.persist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DurableTree's stale-data quarantine: files moved (never deleted), at most keep directories, empty after. */
class QuarantineFilesTest {

    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private List<String> quarantined() throws Exception {
        try (Stream<Path> s = Files.list(dir.resolve(DurableTree.QUARANTINE))) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void dataIsMovedAsideTheTreeGoesOnEmptyAndOnlyTheNewestKeepAreKept() throws Exception {
        PersistenceOptions small = PersistenceTest.opts(FsyncPolicy.NO).withSnapshotThreshold(512);
        try (DurableTree d = PersistenceTest.open(dir, small)) {
            for (String round : List.of("a", "b", "c")) {
                for (int i = 0; i < 50; i++) {
                    d.put(b(round + i), b("value-" + i), 1_000 + i);
                }
                Path moved = d.quarantine("2026-0" + round, 2);
                assertThat(d.state().realSize()).isZero();
                try (Stream<Path> files = Files.list(moved)) {
                    assertThat(files.map(p -> p.getFileName().toString()).toList())
                            .isNotEmpty().allMatch(n -> n.endsWith(".log") || n.endsWith(".snap"));
                }
            }
            assertThat(quarantined()).containsExactly("2026-0b", "2026-0c");
            d.put(b("after"), b("x"), 5_000);
        }
        try (DurableTree d = PersistenceTest.open(dir, small)) {
            assertThat(d.state().realSize()).isEqualTo(1);
            assertThat(d.state().get(b("after")).value()).isEqualTo(b("x"));
        }
        // the moved files are a complete data directory of their own
        try (DurableTree old = PersistenceTest.open(dir.resolve(DurableTree.QUARANTINE).resolve("2026-0c"),
                PersistenceTest.opts(FsyncPolicy.NO))) {
            assertThat(old.state().realSize()).isEqualTo(50);
            assertThat(old.state().get(b("c7")).value()).isEqualTo(b("value-7"));
        }
    }
}
