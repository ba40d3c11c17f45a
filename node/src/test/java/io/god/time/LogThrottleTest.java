package io.god.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A line at the first occurrence, then at most one per period, each with the count since the last one. */
class LogThrottleTest {

    @Test
    void aFloodGetsOneLinePerPeriodWithItsCount() {
        AtomicLong now = new AtomicLong(1_000);
        LogThrottle t = new LogThrottle(now::get, Duration.ofSeconds(10));
        assertThat(t.count()).as("the first one is logged").isEqualTo(1);
        for (int i = 0; i < 99; i++) {
            now.addAndGet(Duration.ofMillis(50).toNanos()); // 4.95 s of a flood
            assertThat(t.count()).isZero();
        }
        now.addAndGet(Duration.ofSeconds(6).toNanos());
        assertThat(t.count()).as("the 99 in between and this one").isEqualTo(100);
        assertThat(t.count()).isZero();
        assertThat(t.total()).isEqualTo(102);
    }

    @Test
    void aClockGoingBackDoesNotSilenceIt() {
        AtomicLong now = new AtomicLong(Duration.ofHours(1).toNanos());
        LogThrottle t = new LogThrottle(now::get, Duration.ofSeconds(10));
        assertThat(t.count()).isEqualTo(1);
        now.set(0);
        assertThat(t.count()).isEqualTo(1);
    }
}
