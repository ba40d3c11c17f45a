package io.god.tree;

import static io.god.tree.TreeFixtures.b;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Tombstones and empty, cleared sub trees expire after the window; collectedUpTo tracks it. */
class GarbageCollectionTest {

    private final TreeFixtures.ManualClock clock = new TreeFixtures.ManualClock();
    private final Tree tree = new Tree(clock, Duration.ofHours(1));

    private long now() {
        return clock.nanos();
    }

    @Test
    void tombstonesLiveForTheWindowThenGo() {
        long deletedAt = now();
        tree.put(b("a"), b("1"), deletedAt - 10);
        tree.delete(b("a"), deletedAt);
        clock.advance(Duration.ofMinutes(59));
        tree.put(b("b"), b("2"), now());
        assertThat(tree.state().get(b("a")).timestamp()).isEqualTo(deletedAt);
        assertThat(tree.state().realSize()).isEqualTo(2);
        assertThat(tree.collectedUpTo()).isZero();

        clock.advance(Duration.ofMinutes(2));
        tree.put(b("c"), b("3"), now()); // a write collects expired markers as it goes
        assertThat(tree.state().entry(b("a"))).isNull();
        assertThat(tree.state().realSize()).isEqualTo(2);
        assertThat(tree.collectedUpTo()).isEqualTo(deletedAt);
    }

    @Test
    void theSweepReachesColdRegionsWithBoundedWorkPerCall() {
        long t0 = now();
        for (int i = 0; i < 100; i++) {
            tree.delete(b("cold" + i), t0 + i);
        }
        clock.advance(Duration.ofHours(2));
        assertThat(tree.state().realSize()).isEqualTo(100);
        assertThat(tree.collectGarbage(10)).isTrue();
        assertThat(tree.state().realSize()).isEqualTo(90);
        while (tree.collectGarbage(10)) {
            // drain
        }
        assertThat(tree.state().realSize()).isZero();
        assertThat(tree.collectedUpTo()).isEqualTo(t0 + 99);
        assertThat(tree.state().hash()).isEqualTo(TreeState.EMPTY.hash());
    }

    @Test
    void liveValuesAndYoungTombstonesStay() {
        long t0 = now();
        tree.put(b("old-live"), b("v"), t0);
        clock.advance(Duration.ofHours(2));
        tree.delete(b("young"), now());
        while (tree.collectGarbage(10)) {
            // drain
        }
        assertThat(tree.state().get(b("old-live")).exists()).isTrue();
        assertThat(tree.state().get(b("young")).timestamp()).isEqualTo(now());
        assertThat(tree.collectedUpTo()).isZero();
    }

    @Test
    void subTreeTombstonesAndClearedEmptySubTreesExpire() {
        long t0 = now();
        tree.subPut(b("k"), b("x"), b("1"), t0);
        tree.subDelete(b("k"), b("y"), t0 + 1);
        tree.subClear(b("gone"), t0 + 2);
        tree.subConfigure(b("configured"), TreeState.MIRRORED, "yes", t0 + 3);
        clock.advance(Duration.ofHours(2));
        while (tree.collectGarbage(10)) {
            // drain
        }
        assertThat(tree.state().sub(b("k")).get(b("x")).exists()).isTrue();
        assertThat(tree.state().sub(b("k")).entry(b("y"))).isNull();
        assertThat(tree.state().entry(b("gone"))).isNull();
        // a configured sub tree is the user's setting, not garbage
        assertThat(tree.state().sub(b("configured")).isMirrored()).isTrue();
        assertThat(tree.collectedUpTo()).isEqualTo(t0 + 2);
    }

    @Test
    void olderWritesLoseToAClearEvenAfterItsMarkerWasCollected() {
        long t0 = now();
        tree.subPut(b("k"), b("x"), b("1"), t0);
        tree.subClear(b("k"), t0 + 5);
        assertThat(tree.subPut(b("k"), b("x"), b("late"), t0 + 4)).isFalse();
        assertThat(tree.subPut(b("k"), b("x"), b("new"), t0 + 6)).isTrue();
        assertThat(tree.state().sub(b("k")).clearedAt()).isEqualTo(t0 + 5);
    }

    @Test
    void rejectsANonPositiveWindow() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Tree(clock, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("window");
    }
}
