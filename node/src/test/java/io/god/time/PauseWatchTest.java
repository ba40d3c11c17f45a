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

    /**
     * The chaos campaign's "delayed write through a paused owner" (seed 7113503430625268374): a put waited in the
     * socket through a 10 s SIGSTOP and was read more than the grace after the resume, so it was stamped as fresh
     * and brought back a key its client had since deleted elsewhere. A request counts from its connection's previous
     * read: one that can have arrived before the pause ended is refused however late it is read.
     */
    @Test
    void aWriteThatWaitedThroughAPauseIsRefusedEvenWhenReadLateAfterIt() {
        beats(50);
        long lastReadBeforeThePause = now;
        now += 10_000_000_000L; // SIGSTOP for 10 s
        watch.beat();
        beats(50); // the node reads the waiting request 500 ms after the resume: past the 100 ms grace
        assertThat(watch.refusal(now)).as("counted from when it was read, it looks fresh").isNull();
        assertThat(watch.refusal(now, lastReadBeforeThePause)).as("its connection was last read before the pause")
                .contains("paused for 10000 ms");
        long readAfterThePause = now - 100_000_000L;
        assertThat(watch.refusal(now, readAfterThePause)).as("sent after its connection was read past the pause")
                .isNull();
        assertThat(watch.refusal(now, Long.MIN_VALUE)).as("arrival unknown: as read").isNull();

        beats((int) (PauseWatch.MAX_BACKLOG / 10_000_000L));
        assertThat(watch.refusal(now, lastReadBeforeThePause))
                .as("an idle connection's first write long after the pause: not held back by it").isNull();
    }

    long waited;
    final PauseWatch loaded = new PauseWatch(() -> now, () -> waited, 1_000_000_000L, 100_000_000L);

    @Test
    void aBeatLateForWantOfACpuIsNoPauseButAStopIs() {
        loaded.beat();
        now += 2_000_000_000L; // the beat thread ready for 1.99 s, every CPU busy (a saturated host)
        waited += 1_990_000_000L;
        loaded.beat();
        assertThat(loaded.refusal(now)).as("a saturated host, not a paused process").isNull();

        now += 1_500_000_000L; // SIGSTOP: the stopped thread is off the run queue, only 10 ms of it waited
        waited += 10_000_000L;
        loaded.beat();
        assertThat(loaded.refusal(now)).as("stalled 1.49 s off the run queue").contains("paused for 1500 ms");
    }

    @Test
    void aLateBeatRefusesWritesOnlyIfNoWriteWasLetThroughMeanwhile() {
        beats(10);
        assertThat(watch.refusal(now)).isNull();
        for (int i = 0; i < 30; i++) { // the beat thread waits for a CPU for 3 s; writes keep being handled
            now += 100_000_000L;
            assertThat(watch.refusal(now)).as("the process is running: its writes show it").isNull();
        }
        long handled = now;
        now += 1_200_000_000L; // then the whole process stops: neither beats nor writes for 1.2 s
        assertThat(watch.refusal(handled)).as("a write handled across the stop").contains("no beat for 4200 ms");
        assertThat(watch.refusal(now)).as("refusing lets no write through").contains("no beat for");
    }

    @Test
    void theRunQueueWaitIsTheSchedstatsSecondField() {
        assertThat(RunQueueWait.parse("123456 7890 42\n")).isEqualTo(7890);
        RunQueueWait own = new RunQueueWait();
        long first = own.getAsLong();
        assertThat(first).isNotNegative();
        assertThat(own.getAsLong()).as("a total: it never goes down").isGreaterThanOrEqualTo(first);
    }
}
