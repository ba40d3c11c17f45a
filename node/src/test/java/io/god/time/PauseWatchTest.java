package io.god.time;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The pause rule on a hand-driven monotonic clock. */
class PauseWatchTest {

    long now = 1_000_000_000L;
    final PauseWatch watch = new PauseWatch(() -> now, 1_000_000_000L, 100_000_000L);

    private void beats(int n) {
        for (int i = 0; i < n; i++) {
            now += 10_000_000L;
            watch.beat();
        }
    }

    @Test
    void aWriteIsRefusedWhileAPauseIsNoticedAndRightAfterItNeverOtherwise() {
        beats(50);
        long before = now;
        assertThat(watch.refusal(now)).isNull();
        now += 900_000_000L; // a 0.9 s stall: shorter than a client's attempt
        assertThat(watch.refusal(before)).isNull();
        watch.beat();
        beats(20);
        assertThat(watch.refusal(before)).as("a stall under the threshold").isNull();

        long handled = now;
        now += 3_000_000_000L; // SIGSTOP for 3 s; the write handled just before or during it is stamped after
        assertThat(watch.refusal(handled)).as("no beat for 3 s: not noticed yet").contains("no beat for 3000 ms");
        watch.beat();
        assertThat(watch.refusal(handled)).as("handled before the pause ended").contains("paused for 3000 ms");
        assertThat(watch.refusal(now)).as("read as the node resumed: it queued during the pause").isNotNull();
        beats(20); // 200 ms later
        assertThat(watch.refusal(now)).as("a write that came after the pause").isNull();
    }
}
