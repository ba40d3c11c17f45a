package io.god.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Members that come back are presumed catching up until their own state says otherwise: a returning member enters
 * the views with a new incarnation before its "catching up" has spread, and a replica that stayed answered reads
 * alone in between (ExpectedMembershipTest#afterAHealAWriteTheMinorityAcknowledgedIsReadEverywhereBeforeTheReplicasSync).
 */
class MemberStatesTest {

    private final AtomicReference<Ring> view = new AtomicReference<>(ring(1));
    private final MemberStates mine = new MemberStates("a", 100, view::get);

    private static Member member(String address, int position, long incarnation) {
        byte[] p = new byte[Positions.SIZE];
        p[0] = (byte) position;
        return new Member(p, address, incarnation);
    }

    /** Members a, b and c; b at incarnation {@code b}. */
    private static Ring ring(long b) {
        return new Ring(List.of(member("a", 1, 1), member("b", 2, b), member("c", 3, 1)));
    }

    /** What member {@code address} at {@code incarnation} spreads about itself. */
    private static byte[] stateOf(String address, long incarnation, boolean catchingUp) {
        MemberStates theirs = new MemberStates(address, 100, () -> new Ring(List.of()));
        theirs.setSelf(incarnation, catchingUp);
        return theirs.encode();
    }

    @Test
    void aMemberBackWithANewIncarnationIsCatchingUpUntilItsOwnStateArrives() {
        mine.setSelf(1, false);
        mine.merge(stateOf("b", 1, false));
        mine.merge(stateOf("c", 1, false));
        assertThat(mine.anyCatchingUp()).isFalse();
        assertThat(mine.catchingUp()).isEmpty();

        view.set(ring(2)); // b was declared dead and is back: in the view before its state spread
        assertThat(mine.anyCatchingUp()).as("presumed").isTrue();
        assertThat(mine.catchingUp(view.get().byAddress("b"))).isTrue();
        assertThat(mine.catchingUp(view.get().byAddress("c"))).isFalse();
        assertThat(mine.catchingUp()).containsExactly("b");

        mine.merge(stateOf("b", 2, true)); // its own word: catching up
        assertThat(mine.catchingUp()).containsExactly("b");
        MemberStates b = new MemberStates("b", 100, view::get);
        b.setSelf(2, true);
        b.setSelf(2, false); // caught up: (2, 2) is newer than (2, 1)
        mine.merge(b.encode());
        assertThat(mine.anyCatchingUp()).isFalse();
        assertThat(mine.catchingUp()).isEmpty();
    }

    @Test
    void aStateLearntBeforeTheReturnLeavesNothingToPresume() {
        mine.merge(stateOf("b", 2, false));
        mine.merge(stateOf("c", 1, false));
        view.set(ring(2));
        assertThat(mine.catchingUp()).isEmpty();
        assertThat(mine.anyCatchingUp()).isFalse();
    }

    @Test
    void aMemberThatRefusesStatesIsNotPresumedAtItsIncarnation() {
        mine.merge(stateOf("c", 1, false));
        assertThat(mine.catchingUp()).as("nothing heard of b yet").containsExactly("b");
        mine.refused("b"); // a node of an older version
        assertThat(mine.catchingUp()).isEmpty();
        assertThat(mine.anyCatchingUp()).isFalse();
        view.set(ring(2)); // it came back: presumed again until it refuses again
        assertThat(mine.catchingUp()).containsExactly("b");
        assertThat(mine.anyCatchingUp()).isTrue();
    }

    @Test
    void thisNodeIsNeverPresumedAndWhatLeftTheViewIsForgotten() {
        assertThat(mine.catchingUp()).as("b and c: nothing heard yet; a: this node").containsExactlyInAnyOrder("b", "c");
        mine.merge(stateOf("b", 1, false));
        mine.merge(stateOf("c", 1, false));
        view.set(new Ring(List.of(member("a", 1, 1), member("c", 3, 1)))); // b left
        for (int i = 0; i <= 101; i++) {
            mine.tick(address -> view.get().byAddress(address) != null);
        }
        view.set(ring(1)); // b back at the same incarnation after what it was heard of was forgotten
        assertThat(mine.catchingUp()).containsExactly("b");
    }
}
