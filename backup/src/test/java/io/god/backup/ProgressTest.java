package io.god.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Progress lines: the rate from this run's bytes and time, the ETA from the ranges this run finished. */
class ProgressTest {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    private final AtomicLong nanos = new AtomicLong(5_000_000_000L);

    private String lastLine() {
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        return lines[lines.length - 1];
    }

    @Test
    void etaFromTheRangesDoneAndTheTimeTaken() {
        Progress p = new Progress(out, "backup", 0, nanos::get);
        nanos.addAndGet(1_000_000_000L);
        p.add(512, 0, 4, 1);
        assertThat(lastLine()).isEqualTo("backup: 0/4 ranges, 1 chunks, 512 B, 512 B/s, ETA ?");
        nanos.addAndGet(9_000_000_000L);
        p.add(2048 * 1024 - 512, 1, 4, 2);
        assertThat(lastLine()).isEqualTo("backup: 1/4 ranges, 2 chunks, 2.0 MiB, 204.8 KiB/s, ETA 30s");
    }

    @Test
    void aResumedBackupCountsOnlyTheRangesThisRunFinished() {
        // three of six ranges were complete before the resume: they took none of this run's time
        Progress p = new Progress(out, "backup", 3, nanos::get);
        nanos.addAndGet(4_000_000_000L);
        p.add(100, 3, 6, 9);
        assertThat(lastLine()).endsWith("ETA ?"); // nothing finished in this run yet
        nanos.addAndGet(6_000_000_000L);
        p.add(100, 4, 6, 10);
        assertThat(lastLine()).isEqualTo("backup: 4/6 ranges, 10 chunks, 200 B, 20 B/s, ETA 20s"); // 10 s per range
    }
}
