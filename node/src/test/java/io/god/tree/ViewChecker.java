package io.god.tree;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Checks every read of a {@link SortedView} against an expected, sorted list of rows
 * {visible key, value, timestamp}, computing each answer naively.
 */
final class ViewChecker {

    private final SortedView view;
    private final List<byte[][]> rows;
    private final String label;

    ViewChecker(SortedView view, List<byte[][]> rows, String label) {
        this.view = view;
        this.rows = rows;
        this.label = label;
    }

    private Item row(int i, long index) {
        byte[][] r = rows.get(i);
        return new Item(r[0], r[1], TreeModel.longOf(r[2]), true, index);
    }

    private static int cmp(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    private boolean inRange(byte[] k, byte[] min, boolean minInc, byte[] max, boolean maxInc) {
        if (min != null && (minInc ? cmp(k, min) < 0 : cmp(k, min) <= 0)) {
            return false;
        }
        return max == null || (maxInc ? cmp(k, max) <= 0 : cmp(k, max) < 0);
    }

    void checkAll(List<byte[]> probes, Random rnd) {
        int n = rows.size();
        assertThat(view.size()).as(label + " size").isEqualTo(n);
        assertThat(view.first()).as(label + " first").isEqualTo(n == 0 ? null : row(0, 0));
        assertThat(view.last()).as(label + " last").isEqualTo(n == 0 ? null : row(n - 1, n - 1));
        for (int i = -1; i <= n; i++) {
            assertThat(view.at(i)).as(label + " at %d", i).isEqualTo(i >= 0 && i < n ? row(i, i) : null);
            assertThat(view.atReverse(i)).as(label + " atReverse %d", i)
                    .isEqualTo(i >= 0 && i < n ? row(n - 1 - i, i) : null);
        }
        for (byte[] k : probes) {
            checkProbe(k);
        }
        List<byte[]> bounds = new ArrayList<>(probes);
        bounds.add(null);
        for (int t = 0; t < 40; t++) {
            byte[] min = bounds.get(rnd.nextInt(bounds.size()));
            byte[] max = bounds.get(rnd.nextInt(bounds.size()));
            boolean minInc = rnd.nextBoolean();
            boolean maxInc = rnd.nextBoolean();
            int limit = new int[] {-1, 0, 1, 3}[rnd.nextInt(4)];
            for (boolean reverse : new boolean[] {false, true}) {
                assertThat(view.slice(min, minInc, max, maxInc, limit, reverse))
                        .as(label + " slice %s %s %s %s %d %s", hex(min), minInc, hex(max), maxInc, limit, reverse)
                        .isEqualTo(expectedSlice(min, minInc, max, maxInc, limit, reverse));
            }
            long expectedCount = rows.stream().filter(r -> inRange(r[0], min, minInc, max, maxInc)).count();
            assertThat(view.count(min, minInc, max, maxInc)).as(label + " count").isEqualTo(expectedCount);
            long from = rnd.nextInt(n + 3) - 1;
            long to = rnd.nextInt(n + 3) - 1;
            for (boolean reverse : new boolean[] {false, true}) {
                assertThat(view.sliceIndex(from, to, reverse)).as(label + " sliceIndex %d %d %s", from, to, reverse)
                        .isEqualTo(expectedSliceIndex(from, to, reverse));
            }
        }
    }

    private void checkProbe(byte[] k) {
        int lt = 0;
        int le = 0;
        for (byte[][] r : rows) {
            if (cmp(r[0], k) < 0) {
                lt++;
            }
            if (cmp(r[0], k) <= 0) {
                le++;
            }
        }
        boolean exists = le > lt;
        int n = rows.size();
        assertThat(view.indexOf(k)).as(label + " indexOf " + hex(k)).isEqualTo(new Index(lt, exists));
        assertThat(view.reverseIndexOf(k)).as(label + " reverseIndexOf " + hex(k)).isEqualTo(new Index(n - le, exists));
        assertThat(view.ceiling(k, true)).as(label + " ceiling incl " + hex(k)).isEqualTo(lt < n ? row(lt, lt) : null);
        assertThat(view.ceiling(k, false)).as(label + " ceiling excl " + hex(k)).isEqualTo(le < n ? row(le, le) : null);
        assertThat(view.floor(k, true)).as(label + " floor incl " + hex(k)).isEqualTo(le > 0 ? row(le - 1, le - 1) : null);
        assertThat(view.floor(k, false)).as(label + " floor excl " + hex(k)).isEqualTo(lt > 0 ? row(lt - 1, lt - 1) : null);
        SortedView.ViewCursor c = view.cursor();
        assertThat(c.skip(k, false)).as(label + " cursor skip " + hex(k)).isEqualTo(le < n ? row(le, -1) : null);
        assertThat(c.next()).as(label + " cursor next " + hex(k)).isEqualTo(le + 1 < n ? row(le + 1, -1) : null);
    }

    private List<Item> expectedSlice(byte[] min, boolean minInc, byte[] max, boolean maxInc, int limit, boolean reverse) {
        List<Item> out = new ArrayList<>();
        int n = rows.size();
        for (int j = 0; j < n; j++) {
            int i = reverse ? n - 1 - j : j;
            if (inRange(rows.get(i)[0], min, minInc, max, maxInc)) {
                if (limit >= 0 && out.size() >= limit) {
                    break;
                }
                out.add(row(i, reverse ? n - 1 - i : i));
            }
        }
        return out;
    }

    private List<Item> expectedSliceIndex(long from, long to, boolean reverse) {
        List<Item> out = new ArrayList<>();
        int n = rows.size();
        for (long r = Math.max(0, from); r <= Math.min(n - 1, to); r++) {
            out.add(row((int) (reverse ? n - 1 - r : r), r));
        }
        return out;
    }

    static String hex(byte[] b) {
        return b == null ? "null" : Bytes.hex(b);
    }
}
