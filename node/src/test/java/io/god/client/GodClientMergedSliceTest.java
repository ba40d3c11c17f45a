package io.god.client;

import static io.god.client.GodClient.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.god.node.GodNode;
import io.god.persist.Record;
import io.god.testing.ScaledTimeout;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Merged slices (reference §1.3 mergeRecent, §8.1 MergeItems): Slice, ReverseSlice, SliceLen and
 * ReverseSliceLen merge every replica's entries newest-first per key, against a real 4-node ring whose
 * replicas are made to diverge by writing straight into one node's store.
 */
@ScaledTimeout(60)
class GodClientMergedSliceTest extends FourNodeRing {


    static List<String> pairs(List<GodClient.Entry> entries) {
        return entries.stream().map(e -> s(e.key()) + "=" + s(e.value())).toList();
    }

    static GodNode replica(byte[] tree, int i) {
        return rings.byAddress(client.replicas(tree).get(i).address());
    }

    @Test
    void aNewerTombstoneOnOneReplicaHidesTheOldValueInEveryMergedSlice() {
        for (int r = 0; r < 3; r++) {
            byte[] t = utf8("merge-del" + r);
            for (String k : List.of("a", "b", "c")) {
                client.subPut(t, utf8(k), utf8("old"), true);
            }
            // the delete reaches one replica only; the other two still hold the old value
            GodNode n = replica(t, r);
            n.store().apply(Record.subDelete(t, utf8("b"), n.timestamps().next() + 10_000_000));
            assertThat(keys(client.slice(t, null, null, true, true))).containsExactly("a", "c");
            assertThat(keys(client.reverseSlice(t, null, null, true, true))).containsExactly("c", "a");
            assertThat(keys(client.sliceLen(t, null, true, 10))).containsExactly("a", "c");
            assertThat(keys(client.reverseSliceLen(t, null, true, 10))).containsExactly("c", "a");
            assertThat(keys(client.sliceLen(t, utf8("a"), false, 1))).containsExactly("c");
            assertThat(keys(client.reverseSliceLen(t, utf8("c"), false, 1))).containsExactly("a");
            assertThat(keys(client.slice(t, utf8("b"), utf8("c"), true, true))).containsExactly("c");
        }
    }

    @Test
    void aNewerValueOnOneReplicaWins() {
        byte[] t = utf8("merge-new");
        for (String k : List.of("a", "b", "c")) {
            client.subPut(t, utf8(k), utf8("old"), true);
        }
        GodNode last = replica(t, 2);
        last.store().apply(Record.subPut(t, utf8("b"), utf8("new"), last.timestamps().next() + 10_000_000));
        List<String> up = List.of("a=old", "b=new", "c=old");
        List<String> down = List.of("c=old", "b=new", "a=old");
        assertThat(pairs(client.slice(t, null, null, true, true))).containsExactlyElementsOf(up);
        assertThat(pairs(client.reverseSlice(t, null, null, true, true))).containsExactlyElementsOf(down);
        assertThat(pairs(client.sliceLen(t, null, true, 3))).containsExactlyElementsOf(up);
        assertThat(pairs(client.reverseSliceLen(t, null, true, 3))).containsExactlyElementsOf(down);
    }

    @Test
    void lenFormsGiveExactlyLenAfterMergingReplicasThatEachMissDifferentKeys() {
        byte[] t = utf8("merge-len");
        long ts = replica(t, 0).timestamps().next() + 1_000_000;
        // k0..k8, each on exactly one replica (the other two missed it)
        for (int i = 0; i < 9; i++) {
            replica(t, i % 3).store().apply(Record.subPut(t, utf8("k" + i), utf8("v" + i), ts + i));
        }
        assertThat(keys(client.sliceLen(t, null, true, 5))).containsExactly("k0", "k1", "k2", "k3", "k4");
        assertThat(keys(client.reverseSliceLen(t, null, true, 5))).containsExactly("k8", "k7", "k6", "k5", "k4");
        assertThat(keys(client.sliceLen(t, utf8("k2"), false, 4))).containsExactly("k3", "k4", "k5", "k6");
        assertThat(keys(client.reverseSliceLen(t, utf8("k6"), true, 3))).containsExactly("k6", "k5", "k4");
        assertThat(keys(client.sliceLen(t, utf8("k7"), true, 5))).containsExactly("k7", "k8");
        assertThat(keys(client.slice(t, utf8("k1"), utf8("k4"), false, true))).containsExactly("k2", "k3", "k4");
        assertThat(keys(client.reverseSlice(t, null, null, true, true))).hasSize(9).first().isEqualTo("k8");
    }

    @Test
    void aReplicaCutShortAtLenIsAskedAgainFromItsLastKey() {
        byte[] t = utf8("merge-cut");
        GodNode a = replica(t, 0);
        GodNode b = replica(t, 1);
        long ts = a.timestamps().next() + 1_000_000;
        // a: live a, b and a newest tombstone for c; b: newer tombstones for a, b, an older c, and d, e
        a.store().apply(Record.subPut(t, utf8("a"), utf8("x"), ts));
        a.store().apply(Record.subPut(t, utf8("b"), utf8("x"), ts));
        a.store().apply(Record.subDelete(t, utf8("c"), ts + 100));
        b.store().apply(Record.subDelete(t, utf8("a"), ts + 10));
        b.store().apply(Record.subDelete(t, utf8("b"), ts + 10));
        b.store().apply(Record.subPut(t, utf8("c"), utf8("x"), ts + 10));
        b.store().apply(Record.subPut(t, utf8("d"), utf8("x"), ts + 10));
        b.store().apply(Record.subPut(t, utf8("e"), utf8("x"), ts + 10));
        // a's page of 2 ends at b; b's runs to d; only up to b is known everywhere, so the walk goes on
        assertThat(keys(client.sliceLen(t, null, true, 2))).containsExactly("d", "e");
        assertThat(keys(client.sliceLen(t, null, true, 1))).containsExactly("d");
        assertThat(keys(client.reverseSliceLen(t, null, true, 3))).containsExactly("e", "d");
        assertThat(keys(client.slice(t, null, null, true, true))).containsExactly("d", "e");
    }
}
