package io.god.backup;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.client.GodClient;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Backup's split of the ring into ranges: each member's [predecessor, member), the first member's wrapping
 * range in two pieces, together the whole key space, each range owned by the member the client routes its keys to.
 */
class BackupRangesTest {

    private static final HexFormat HEX = HexFormat.of();

    @Test
    void oneMemberHoldsTheWholeKeySpaceInOneRange() {
        List<Manifest.Range> ranges = Backup.ranges(List.of(new Manifest.Member("80", "a:1")));
        assertThat(ranges).hasSize(1);
        assertRange(ranges.get(0), 0, "", "", "a:1");
    }

    @Test
    void theFirstMembersRangeWrapsAndIsSplitInTwo() {
        List<Manifest.Member> ring = List.of(new Manifest.Member("10", "a:1"), new Manifest.Member("80", "b:1"),
                new Manifest.Member("c0", "c:1"));
        List<Manifest.Range> ranges = Backup.ranges(ring);
        assertThat(ranges).hasSize(4);
        assertRange(ranges.get(0), 0, "", "10", "a:1");  // below the first member: the wrapped range's tail
        assertRange(ranges.get(1), 1, "10", "80", "b:1");
        assertRange(ranges.get(2), 2, "80", "c0", "c:1");
        assertRange(ranges.get(3), 3, "c0", "", "a:1");  // after the last member: the wrapped range's head
    }

    @Test
    void everyKeyFallsInExactlyOneRangeOwnedByTheMemberItIsRoutedTo() {
        Random random = new Random(38);
        List<Manifest.Member> ring = new ArrayList<>();
        List<GodClient.Member> members = new ArrayList<>();
        List<byte[]> positions = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            byte[] p = new byte[16];
            random.nextBytes(p);
            positions.add(p);
        }
        positions.sort(Arrays::compareUnsigned);
        for (int i = 0; i < positions.size(); i++) {
            ring.add(new Manifest.Member(HEX.formatHex(positions.get(i)), "m" + i + ":1"));
            members.add(new GodClient.Member(positions.get(i), "m" + i + ":1"));
        }
        List<Manifest.Range> ranges = Backup.ranges(ring);
        assertThat(ranges).hasSize(6);
        List<byte[]> keys = new ArrayList<>(positions); // a member's own position belongs to its successor
        keys.add(new byte[0]);
        keys.add(new byte[] {(byte) 0xff, (byte) 0xff});
        for (int i = 0; i < 2000; i++) {
            byte[] k = new byte[1 + random.nextInt(20)];
            random.nextBytes(k);
            keys.add(k);
        }
        for (byte[] key : keys) {
            List<Manifest.Range> holding = ranges.stream().filter(r -> contains(r, key)).toList();
            assertThat(holding).as("ranges holding %s", HEX.formatHex(key)).hasSize(1);
            assertThat(holding.get(0).owner).as("owner of %s", HEX.formatHex(key))
                    .isEqualTo(GodClient.replicas(members, key, 1).get(0).address());
        }
    }

    private static boolean contains(Manifest.Range r, byte[] key) {
        return (r.from.isEmpty() || Arrays.compareUnsigned(key, HEX.parseHex(r.from)) >= 0)
                && (r.to.isEmpty() || Arrays.compareUnsigned(key, HEX.parseHex(r.to)) < 0);
    }

    private static void assertRange(Manifest.Range r, int index, String from, String to, String owner) {
        assertThat(r.index).isEqualTo(index);
        assertThat(r.from).as("from of range %d", index).isEqualTo(from);
        assertThat(r.to).as("to of range %d", index).isEqualTo(to);
        assertThat(r.owner).as("owner of range %d", index).isEqualTo(owner);
        assertThat(r.complete).isFalse();
        assertThat(r.chunks).isEmpty();
    }
}
