package io.god.setop;

import java.util.Arrays;

/** Key order and bound checks shared by sources and operators. */
final class Keys {
    private Keys() {}

    static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    /** True when {@code key} satisfies the lower bound ({@code min == null}: no bound). */
    static boolean atLeast(byte[] key, byte[] min, boolean inclusive) {
        if (min == null) {
            return true;
        }
        int c = Arrays.compareUnsigned(key, min);
        return c > 0 || (inclusive && c == 0);
    }

    /** True when {@code key} is beyond the upper bound ({@code max == null}: no bound). */
    static boolean beyond(byte[] key, byte[] max, boolean inclusive) {
        if (max == null) {
            return false;
        }
        int c = Arrays.compareUnsigned(key, max);
        return c > 0 || (!inclusive && c == 0);
    }
}
