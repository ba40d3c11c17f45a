package io.god.wire;

import java.util.Arrays;

/**
 * The store's one last-write-wins rule (DESIGN §5), shared by the node's trees and the client's pick among
 * replica answers so the two can never disagree: the higher timestamp wins; on equal timestamps a tombstone
 * beats a value, and otherwise the larger value bytes (unsigned) win.
 */
public final class LastWriteWins {

    private LastWriteWins() {
    }

    /**
     * Whether a write (timestamp, value) beats another; a null value is a tombstone (an empty value is a value).
     * Equal writes do not beat each other.
     */
    public static boolean newer(long timestamp, byte[] value, long otherTimestamp, byte[] otherValue) {
        if (timestamp != otherTimestamp) {
            return timestamp > otherTimestamp;
        }
        if (value == null || otherValue == null) {
            return value == null && otherValue != null;
        }
        return Arrays.compareUnsigned(value, otherValue) > 0;
    }
}
