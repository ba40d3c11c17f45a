package io.god.client;

import static io.god.client.GodClient.hashed;
import static io.god.client.GodClient.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Reference §9.8 (dhash TestClient) through GodClient on a real 4-node ring, N = 3. */
@ScaledTimeout(60)
class GodClientReferenceCasesTest {

    static ClientRings rings;
    static GodClient c;

    @BeforeAll
    static void ring() throws Exception {
        rings = new ClientRings().start(4);
        c = GodClient.builder().endpoints(rings.address(0)).attemptTimeout(TimeScale.millis(500)).build();
    }

    @AfterAll
    static void down() {
        if (c != null) {
            c.close();
        }
        if (rings != null) {
            rings.close();
        }
    }

    static byte[] b(int... v) {
        byte[] out = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (byte) v[i];
        }
        return out;
    }

    /** keys as ints (one-byte keys), for slices. */
    static List<Integer> ks(List<GodClient.Entry> entries) {
        return entries.stream().map(e -> (int) e.key()[0]).toList();
    }

    static List<Integer> vs(List<GodClient.Entry> entries) {
        return entries.stream().map(e -> (int) e.value()[0]).toList();
    }

    static List<Integer> range(int from, int to) {
        List<Integer> out = new ArrayList<>();
        if (from <= to) {
            for (int i = from; i <= to; i++) {
                out.add(i);
            }
        } else {
            for (int i = from; i >= to; i--) {
                out.add(i);
            }
        }
        return out;
    }

    static void mirrored(byte[] tree, int from, int to, int sum) {
        c.subAddConfiguration(tree, "mirrored", "yes");
        for (int i = from; i <= to; i++) {
            c.subPut(tree, b(i), b(sum - i), true);
        }
    }

    @Test
    void getPutDel() {
        for (int i = 0; i < 1000; i++) {
            byte[] k = hashed("gpd" + i);
            byte[] v = hashed("gpdv" + i);
            assertThat(c.get(k).exists()).isFalse();
            assertThat(c.get(k).value()).isNull();
            c.put(k, v, true);
            assertThat(c.get(k).value()).isEqualTo(v);
            c.del(k, true);
            assertThat(c.get(k).exists()).isFalse();
        }
    }

    @Test
    void subGetPutDelAndSubClear() {
        for (int i = 0; i < 100; i++) {
            byte[] k = hashed("sgpd" + i);
            for (int j = 0; j < 10; j++) {
                byte[] sk = hashed("sk" + j);
                assertThat(c.subGet(k, sk).exists()).isFalse();
                c.subPut(k, sk, sk, true);
                assertThat(c.subGet(k, sk).value()).isEqualTo(sk);
                c.subDel(k, sk, true);
                assertThat(c.subGet(k, sk).exists()).isFalse();
            }
        }
        for (int i = 0; i < 10; i++) {
            c.subPut(utf8("apa"), b(i), b(i), true);
        }
        assertThat(c.subSize(utf8("apa"))).isEqualTo(10);
        c.subClear(utf8("apa"), true);
        assertThat(c.subSize(utf8("apa"))).isZero();
    }

    @Test
    void indices() {
        byte[] t = utf8("ko");
        mirrored(t, 1, 8, 9);
        assertThat(c.reverseIndexOf(t, b(9))).isEqualTo(new GodClient.Index(0, false));
        assertThat(c.mirrorReverseIndexOf(t, b(9))).isEqualTo(new GodClient.Index(0, false));
        assertThat(c.reverseIndexOf(t, b(0))).isEqualTo(new GodClient.Index(8, false));
        assertThat(c.mirrorReverseIndexOf(t, b(0))).isEqualTo(new GodClient.Index(8, false));
        assertThat(c.indexOf(t, b(9))).isEqualTo(new GodClient.Index(8, false));
        assertThat(c.mirrorIndexOf(t, b(9))).isEqualTo(new GodClient.Index(8, false));
        assertThat(c.indexOf(t, b(0))).isEqualTo(new GodClient.Index(0, false));
        assertThat(c.mirrorIndexOf(t, b(0))).isEqualTo(new GodClient.Index(0, false));
        for (int i = 1; i <= 8; i++) {
            assertThat(c.mirrorIndexOf(t, b(i))).isEqualTo(new GodClient.Index(i - 1, true));
            assertThat(c.mirrorReverseIndexOf(t, b(i))).isEqualTo(new GodClient.Index(8 - i, true));
            assertThat(c.indexOf(t, b(i))).isEqualTo(new GodClient.Index(i - 1, true));
            assertThat(c.reverseIndexOf(t, b(i))).isEqualTo(new GodClient.Index(8 - i, true));
        }
    }

    @Test
    void nextPrev() {
        c.put(utf8("testNextPrev1"), utf8("v1"), true);
        c.put(utf8("testNextPrev2"), utf8("v2"), true);
        GodClient.Value p = c.prev(utf8("testNextPrev2"));
        assertThat(p.key()).isEqualTo(utf8("testNextPrev1"));
        assertThat(p.value()).isEqualTo(utf8("v1"));
        GodClient.Value n = c.next(utf8("testNextPrev1"));
        assertThat(n.key()).isEqualTo(utf8("testNextPrev2"));
        assertThat(n.value()).isEqualTo(utf8("v2"));
    }

    @Test
    void counts() {
        byte[] t = utf8("jaguar");
        mirrored(t, 1, 8, 19);
        for (int i = 0; i < 10; i++) {
            for (int j = 0; j < 10; j++) {
                assertThat(c.count(t, b(i), b(j), true, true)).isEqualTo(Math.max(0, Math.min(j + 1, 9) - Math.max(i, 1)));
                assertThat(c.count(t, b(i), b(j), true, false)).isEqualTo(Math.max(0, Math.min(j, 9) - Math.max(i, 1)));
                assertThat(c.count(t, b(i), b(j), false, true)).isEqualTo(Math.max(0, Math.min(j + 1, 9) - Math.max(i + 1, 1)));
                assertThat(c.count(t, b(i), b(j), false, false)).isEqualTo(Math.max(0, Math.min(j, 9) - Math.max(i + 1, 1)));
                byte[] mi = b(i + 10);
                byte[] mj = b(j + 10);
                assertThat(c.mirrorCount(t, mi, mj, false, false)).isEqualTo(Math.max(0, Math.min(j + 10, 19) - Math.max(i + 11, 11)));
                assertThat(c.mirrorCount(t, mi, mj, true, false)).isEqualTo(Math.max(0, Math.min(j + 10, 19) - Math.max(i + 10, 11)));
                assertThat(c.mirrorCount(t, mi, mj, false, true)).isEqualTo(Math.max(0, Math.min(j + 11, 19) - Math.max(i + 11, 11)));
                assertThat(c.mirrorCount(t, mi, mj, true, true)).isEqualTo(Math.max(0, Math.min(j + 11, 19) - Math.max(i + 10, 11)));
            }
        }
    }

    @Test
    void nextPrevIndices() {
        byte[] t = utf8("gris");
        mirrored(t, 1, 8, 9);
        for (boolean mirror : new boolean[] {false, true}) {
            GodClient.SubValue v = mirror ? c.mirrorNextIndex(t, -1) : c.nextIndex(t, -1);
            assertThat(v).extracting(GodClient.SubValue::subKey, GodClient.SubValue::value, GodClient.SubValue::index)
                    .containsExactly(b(1), b(8), 0L);
            assertThat((mirror ? c.mirrorNextIndex(t, 7) : c.nextIndex(t, 7)).exists()).isFalse();
            v = mirror ? c.mirrorPrevIndex(t, 8) : c.prevIndex(t, 8);
            assertThat(v).extracting(GodClient.SubValue::subKey, GodClient.SubValue::value, GodClient.SubValue::index)
                    .containsExactly(b(8), b(1), 7L);
            assertThat((mirror ? c.mirrorPrevIndex(t, 0) : c.prevIndex(t, 0)).exists()).isFalse();
            for (int j = 0; j < 7; j++) {
                v = mirror ? c.mirrorNextIndex(t, j) : c.nextIndex(t, j);
                assertThat(v).extracting(GodClient.SubValue::subKey, GodClient.SubValue::value, GodClient.SubValue::index)
                        .containsExactly(b(j + 2), b(7 - j), (long) j + 1);
            }
            for (int j = 1; j < 8; j++) {
                v = mirror ? c.mirrorPrevIndex(t, j) : c.prevIndex(t, j);
                assertThat(v).extracting(GodClient.SubValue::subKey, GodClient.SubValue::value, GodClient.SubValue::index)
                        .containsExactly(b(j), b(9 - j), (long) j - 1);
            }
        }
    }

    @Test
    void slices() {
        byte[] t = utf8("banan");
        mirrored(t, 1, 8, 9);
        for (boolean mirror : new boolean[] {false, true}) {
            assertThat(ks(slice(t, mirror, false, b(2), b(5), true, true))).isEqualTo(List.of(2, 3, 4, 5));
            assertThat(vs(slice(t, mirror, false, b(2), b(5), true, true))).isEqualTo(List.of(7, 6, 5, 4));
            assertThat(ks(slice(t, mirror, false, b(2), b(5), true, false))).isEqualTo(List.of(2, 3, 4));
            assertThat(ks(slice(t, mirror, false, b(2), b(5), false, true))).isEqualTo(List.of(3, 4, 5));
            assertThat(ks(slice(t, mirror, false, b(2), b(5), false, false))).isEqualTo(List.of(3, 4));
            assertThat(ks(slice(t, mirror, true, b(2), b(5), true, true))).isEqualTo(List.of(5, 4, 3, 2));
            assertThat(vs(slice(t, mirror, true, b(2), b(5), true, true))).isEqualTo(List.of(4, 5, 6, 7));
            assertThat(ks(slice(t, mirror, true, b(2), b(5), true, false))).isEqualTo(List.of(4, 3, 2));
            assertThat(ks(slice(t, mirror, true, b(2), b(5), false, true))).isEqualTo(List.of(5, 4, 3));
            assertThat(ks(slice(t, mirror, true, b(2), b(5), false, false))).isEqualTo(List.of(4, 3));
            assertThat(ks(slice(t, mirror, false, b(2), null, true, true))).isEqualTo(range(2, 8));
            assertThat(ks(slice(t, mirror, false, b(2), null, false, true))).isEqualTo(range(3, 8));
            assertThat(ks(slice(t, mirror, true, b(2), null, true, true))).isEqualTo(range(8, 2));
            assertThat(ks(slice(t, mirror, true, b(2), null, false, true))).isEqualTo(range(8, 3));
            assertThat(ks(slice(t, mirror, false, null, b(5), true, true))).isEqualTo(range(1, 5));
            assertThat(ks(slice(t, mirror, false, null, b(5), true, false))).isEqualTo(range(1, 4));
            assertThat(ks(slice(t, mirror, true, null, b(5), true, true))).isEqualTo(range(5, 1));
            assertThat(ks(slice(t, mirror, true, null, b(5), true, false))).isEqualTo(range(4, 1));
            assertThat(ks(slice(t, mirror, false, null, null, true, true))).isEqualTo(range(1, 8));
            assertThat(ks(slice(t, mirror, true, null, null, true, true))).isEqualTo(range(8, 1));
        }
    }

    static List<GodClient.Entry> slice(byte[] t, boolean mirror, boolean reverse, byte[] min, byte[] max, boolean minInc,
                                       boolean maxInc) {
        if (mirror) {
            return reverse ? c.mirrorReverseSlice(t, min, max, minInc, maxInc) : c.mirrorSlice(t, min, max, minInc, maxInc);
        }
        return reverse ? c.reverseSlice(t, min, max, minInc, maxInc) : c.slice(t, min, max, minInc, maxInc);
    }

    @Test
    void sliceIndices() {
        byte[] t = utf8("banan2");
        mirrored(t, 1, 8, 9);
        for (boolean mirror : new boolean[] {false, true}) {
            List<GodClient.Entry> r = mirror ? c.mirrorSliceIndex(t, 2L, 5L) : c.sliceIndex(t, 2L, 5L);
            assertThat(ks(r)).isEqualTo(range(3, 6));
            assertThat(vs(r)).isEqualTo(range(6, 3));
            assertThat(ks(mirror ? c.mirrorSliceIndex(t, null, 5L) : c.sliceIndex(t, null, 5L))).isEqualTo(range(1, 6));
            assertThat(ks(mirror ? c.mirrorSliceIndex(t, 2L, null) : c.sliceIndex(t, 2L, null))).isEqualTo(range(3, 8));
            assertThat(ks(mirror ? c.mirrorSliceIndex(t, null, null) : c.sliceIndex(t, null, null))).isEqualTo(range(1, 8));
            r = mirror ? c.mirrorReverseSliceIndex(t, 2L, 5L) : c.reverseSliceIndex(t, 2L, 5L);
            assertThat(ks(r)).isEqualTo(range(6, 3));
            assertThat(vs(r)).isEqualTo(range(3, 6));
            assertThat(ks(mirror ? c.mirrorReverseSliceIndex(t, null, 5L) : c.reverseSliceIndex(t, null, 5L)))
                    .isEqualTo(range(8, 3));
            assertThat(ks(mirror ? c.mirrorReverseSliceIndex(t, 2L, null) : c.reverseSliceIndex(t, 2L, null)))
                    .isEqualTo(range(6, 1));
            assertThat(ks(mirror ? c.mirrorReverseSliceIndex(t, null, null) : c.reverseSliceIndex(t, null, null)))
                    .isEqualTo(range(8, 1));
        }
    }

    @Test
    void sliceLen() {
        byte[] t = utf8("jaguar2");
        c.subAddConfiguration(t, "mirrored", "yes");
        for (int i = 1; i <= 8; i++) {
            c.subPut(t, b(i), b(9 - i), true);
            assertThat(c.subSize(t)).isEqualTo(i);
        }
        for (boolean mirror : new boolean[] {false, true}) {
            List<GodClient.Entry> r = mirror ? c.mirrorSliceLen(t, b(2), true, 3) : c.sliceLen(t, b(2), true, 3);
            assertThat(ks(r)).isEqualTo(List.of(2, 3, 4));
            assertThat(vs(r)).isEqualTo(List.of(7, 6, 5));
            assertThat(ks(mirror ? c.mirrorSliceLen(t, b(2), false, 3) : c.sliceLen(t, b(2), false, 3)))
                    .isEqualTo(List.of(3, 4, 5));
            r = mirror ? c.mirrorReverseSliceLen(t, b(6), true, 3) : c.reverseSliceLen(t, b(6), true, 3);
            assertThat(ks(r)).isEqualTo(List.of(6, 5, 4));
            assertThat(vs(r)).isEqualTo(List.of(3, 4, 5));
            assertThat(ks(mirror ? c.mirrorReverseSliceLen(t, b(6), false, 3) : c.reverseSliceLen(t, b(6), false, 3)))
                    .isEqualTo(List.of(5, 4, 3));
        }
    }

    @Test
    void setExpression() {
        for (int i = 0; i < 10; i++) {
            c.subPut(utf8("sete1"), b(i), b(1), true);
        }
        for (int i = 5; i < 15; i++) {
            c.subPut(utf8("sete2"), b(i), b(1), true);
        }
        String expr = "(U:BigIntAnd sete1 sete2)";
        List<GodClient.SetResult> all = c.setExpression(expr, null);
        assertThat(all.stream().map(r -> (int) r.key()[0]).toList()).isEqualTo(range(0, 14));
        assertThat(all).allSatisfy(r -> assertThat(r.values()).singleElement().isEqualTo(b(1)));
        assertThat(keys(c.setExpression(expr, b(2), b(6), false, false, 0, null))).isEqualTo(List.of(3, 4, 5));
        assertThat(keys(c.setExpression(expr, b(2), b(6), true, true, 0, null))).isEqualTo(range(2, 6));
        assertThat(keys(c.setExpression(expr, b(2), b(6), true, true, 3, null))).isEqualTo(List.of(2, 3, 4));
        assertThat(c.setExpression(expr, b(2), b(6), true, true, 3, utf8("sete3"))).isEmpty();
        List<GodClient.Entry> stored = c.sliceIndex(utf8("sete3"), 0L, 100L);
        assertThat(ks(stored)).isEqualTo(List.of(2, 3, 4));
        assertThat(stored).allSatisfy(e -> assertThat(e.value()).isEqualTo(b(1)));
    }

    static List<Integer> keys(List<GodClient.SetResult> rs) {
        return rs.stream().map(r -> (int) r.key()[0]).toList();
    }

    @Test
    void emptyValuesExistAndAsyncFormsWork() {
        c.put(hashed("empty"), new byte[0], true);
        assertThat(c.get(hashed("empty"))).extracting(GodClient.Value::exists).isEqualTo(true);
        assertThat(Arrays.equals(c.getAsync(hashed("empty")).join().value(), new byte[0])).isTrue();
    }
}
