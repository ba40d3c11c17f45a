package io.god.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Reference §9.1 ring cases (positions as 16-byte values) and position arithmetic mod 2^128. */
class RingTest {

    static byte[] pos(int first) {
        byte[] p = new byte[16];
        p[0] = (byte) first;
        return p;
    }

    static Member m(int first, String addr) {
        return new Member(pos(first), addr, 0);
    }

    @Test
    void ringIndices() {
        Ring r = new Ring(List.of(m(0, "a"), m(1, "b"), m(2, "c"), m(3, "d"), m(4, "e"), m(6, "f"), m(7, "g")));
        int[][] cases = {{0, 7, 0, 1}, {1, 0, 1, 2}, {2, 1, 2, 3}, {3, 2, 3, 4}, {4, 3, 4, 6}, {5, 4, -1, 6},
                {6, 4, 6, 7}, {7, 6, 7, 0}};
        for (int[] c : cases) {
            assertThat(r.predecessor(pos(c[0])).position()).as("before " + c[0]).isEqualTo(pos(c[1]));
            Member at = r.at(pos(c[0]));
            if (c[2] < 0) {
                assertThat(at).isNull();
            } else {
                assertThat(at.position()).isEqualTo(pos(c[2]));
            }
            assertThat(r.successor(pos(c[0])).position()).as("after " + c[0]).isEqualTo(pos(c[3]));
        }
        // ownership [predecessor, self): a key equal to a position belongs to the next member
        assertThat(r.successor(pos(1)).address()).isEqualTo("c");
        assertThat(r.successor(new byte[] {1}).address()).as("a proper prefix sorts first").isEqualTo("b");
        assertThat(r.successor(new byte[] {(byte) 0xFF}).address()).as("wraps").isEqualTo("a");
        assertThat(r.successor(new byte[0]).address()).as("the empty key sorts before 16 zero bytes").isEqualTo("a");
    }

    @Test
    void ringEqualPositions() {
        Member a = m(0, "a");
        Member b = m(2, "b");
        Member c = m(2, "c");
        Member d = m(4, "d");
        Member e = m(5, "e");
        Ring r = new Ring(List.of(e, d, c, b, a));
        assertThat(r.members()).containsExactly(a, b, c, d, e);
        assertThat(r.predecessorOf(a)).isEqualTo(e);
        assertThat(r.predecessorOf(m(1, "aa"))).isEqualTo(a);
        assertThat(r.predecessorOf(b)).isEqualTo(a);
        assertThat(r.predecessorOf(c)).isEqualTo(b);
        assertThat(r.predecessorOf(m(3, "ca"))).isEqualTo(c);
        assertThat(r.predecessorOf(d)).isEqualTo(c);
        assertThat(r.predecessorOf(e)).isEqualTo(d);
        assertThat(r.successorOf(a)).isEqualTo(b);
        assertThat(r.successorOf(m(1, "aa"))).isEqualTo(b);
        assertThat(r.successorOf(b)).isEqualTo(c);
        assertThat(r.successorOf(c)).isEqualTo(d);
        assertThat(r.successorOf(m(3, "ca"))).isEqualTo(d);
        assertThat(r.successorOf(d)).isEqualTo(e);
        assertThat(r.successorOf(e)).isEqualTo(a);
    }

    @Test
    void replicasAreTheOwnerAndItsSuccessors() {
        Ring r = new Ring(List.of(m(0, "a"), m(1, "b"), m(2, "c"), m(3, "d")));
        assertThat(r.replicas(pos(1), 3)).extracting(Member::address).containsExactly("c", "d", "a");
        assertThat(r.replicas(pos(3), 3)).extracting(Member::address).containsExactly("a", "b", "c");
        assertThat(r.replicas(pos(3), 10)).hasSize(4);
        assertThat(new Ring(List.of(m(9, "x"))).replicas(pos(3), 3)).extracting(Member::address).containsExactly("x");
    }

    @Test
    void ringHashDependsOnMembersNotOnInsertionOrder() {
        Ring one = new Ring(List.of(m(0, "a"), m(1, "b")));
        Ring two = new Ring(List.of(m(1, "b"), m(0, "a")));
        assertThat(one.hash()).isEqualTo(two.hash());
        assertThat(new Ring(List.of(m(0, "a"), m(2, "b"))).hash()).isNotEqualTo(one.hash());
        assertThat(new Ring(List.of(m(0, "a"), m(1, "c"))).hash()).isNotEqualTo(one.hash());
    }

    @Test
    void positionsAreSixteenBytesModuloTwoToThe128() {
        BigInteger mod = BigInteger.ONE.shiftLeft(128);
        assertThat(Positions.of(mod.add(BigInteger.valueOf(5)))).hasSize(16).isEqualTo(Positions.of(BigInteger.valueOf(5)));
        assertThat(Positions.of(BigInteger.ONE)[15]).isEqualTo((byte) 1);
        assertThat(Positions.of(BigInteger.valueOf(-1))).containsOnly((byte) 0xFF);
        assertThat(Positions.gap(pos(0xF0), pos(0x10))).isEqualTo(BigInteger.valueOf(0x20).shiftLeft(120));
        assertThat(Positions.gap(pos(3), pos(3))).isEqualTo(mod);
    }

    @Test
    void aNewNodeTakesTheBiggestGapAndConcurrentJoinersDiffer() {
        Random random = new Random(42);
        List<byte[]> ring = new ArrayList<>(List.of(pos(0)));
        // from a single node at 0 the first pick is in the middle half of the whole ring, around 0x80…
        byte[] first = Positions.biggestGap(ring, random);
        assertThat(first[0] & 0xFF).isBetween(0x40, 0xC0);
        // a ring with one big gap: the pick lands in the middle half of that gap
        List<byte[]> lopsided = List.of(pos(0x00), pos(0x10), pos(0x20), pos(0x30));
        for (int i = 0; i < 100; i++) {
            int p = Positions.biggestGap(lopsided, random)[0] & 0xFF;
            assertThat(p).isBetween(0x30 + 0xD0 / 4, 0x30 + 3 * 0xD0 / 4 + 1);
        }
        java.util.Set<String> picks = new java.util.HashSet<>();
        for (int i = 0; i < 50; i++) {
            picks.add(java.util.HexFormat.of().formatHex(Positions.biggestGap(ring, random)));
        }
        assertThat(picks).as("joiners with the same view pick distinct positions").hasSize(50);
        assertThat(Positions.biggestGap(List.of(), random)).hasSize(16);
    }
}
