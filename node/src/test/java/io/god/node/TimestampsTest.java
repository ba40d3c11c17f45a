package io.god.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.time.SkewBound;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Issue 23 on an injected clock: stamps from outside move the floor at most to physical now + max skew. */
class TimestampsTest {

    static final long SKEW = Duration.ofMinutes(1).toNanos();
    static final long YEAR_2200 = nanos("2200-01-01T00:00:00Z");

    static long nanos(String instant) {
        Instant i = Instant.parse(instant);
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }

    final AtomicLong now = new AtomicLong(nanos("2026-11-24T12:00:00Z"));
    final SkewBound bound = new SkewBound(now::get, Duration.ofMinutes(1));
    final Timestamps ts = new Timestamps(now::get, bound);

    @Test
    void aFloorFromTheFutureMovesAtMostToPhysicalNowPlusTheSkewAndCannotRatchet() {
        ts.advanceTo(YEAR_2200, "replication");
        assertThat(ts.last()).isEqualTo(now.get() + SKEW);
        assertThat(ts.newestSeen()).as("kept for the restart report").isEqualTo(YEAR_2200);
        for (int i = 0; i < 1000; i++) { // the same record again and again: measured against the clock, not the floor
            ts.advanceTo(YEAR_2200, "replication");
        }
        assertThat(ts.last()).isEqualTo(now.get() + SKEW);
        assertThat(ts.next()).isEqualTo(now.get() + SKEW + 1);
        assertThat(bound.clamps()).isEqualTo(1001);
        now.addAndGet(Duration.ofSeconds(10).toNanos());
        ts.advanceTo(Long.MAX_VALUE - 1, "anti-entropy");
        assertThat(ts.next()).isEqualTo(now.get() + SKEW + 1);
        // a floor within the bound is taken as it is, and not counted
        long clamps = bound.clamps();
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        ts.advanceTo(now.get() + SKEW - 100, "replication");
        assertThat(ts.next()).isEqualTo(now.get() + SKEW - 99);
        assertThat(bound.clamps()).isEqualTo(clamps);
    }

    @Test
    void aForwardedStampFromTheFutureGetsAFreshStampNotTheGivenOne() {
        long window = Duration.ofSeconds(2).toNanos();
        long s = ts.forWrite(YEAR_2200, window);
        assertThat(s).isEqualTo(now.get() + SKEW + 1);
        assertThat(ts.forWrite(Long.MAX_VALUE - 1, window)).isEqualTo(now.get() + SKEW + 2);
        assertThat(ts.newestSeen()).as("no record carries the offered stamp").isEqualTo(now.get() + SKEW + 2);
        // a late forwarded write (older than the window) still keeps its first stamp
        long old = now.get() - Duration.ofSeconds(30).toNanos();
        assertThat(ts.forWrite(old, window)).isEqualTo(old);
        assertThat(ts.forWrite(0, window)).isEqualTo(now.get() + SKEW + 4);
    }

    @Test
    void nearLongMaxValueStampsFailClearlyInsteadOfWrapping() {
        AtomicLong far = new AtomicLong(Long.MAX_VALUE - 1);
        Timestamps unbounded = new Timestamps(far::get);
        assertThat(unbounded.next()).isEqualTo(Long.MAX_VALUE - 1);
        assertThat(unbounded.next()).isEqualTo(Long.MAX_VALUE);
        assertThatThrownBy(unbounded::next).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("timestamp space exhausted").hasMessageContaining("docs/durability.md");
        assertThat(unbounded.last()).isEqualTo(Long.MAX_VALUE);
        // the bound itself saturates instead of overflowing
        SkewBound atTheEnd = new SkewBound(() -> Long.MAX_VALUE - 5, Duration.ofDays(1));
        assertThat(atTheEnd.limit()).isEqualTo(Long.MAX_VALUE);
        assertThat(SkewBound.saturatedAdd(Long.MIN_VALUE + 1, -5)).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void offsetsAreLimitedBothWays() {
        assertThat(bound.offset(SKEW, "t")).isEqualTo(SKEW);
        assertThat(bound.offset(-SKEW, "t")).isEqualTo(-SKEW);
        assertThat(bound.offset(SKEW + 1, "t")).isEqualTo(SKEW);
        assertThat(bound.offset(Long.MIN_VALUE, "t")).isEqualTo(-SKEW);
        assertThat(bound.clamps()).isEqualTo(2);
    }
}
