package io.god.resp;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * SCAN cursors of one node. A cursor stands for the last key a SCAN call examined; Redis clients parse cursors as
 * unsigned 64-bit numbers (redis-cli with strtoull), so the key itself cannot travel: the node keeps it under a
 * number. Bounded: the oldest cursors go first when there are more than {@link #MAX_CURSORS} or their keys hold
 * more than {@link #MAX_BYTES}; an unknown cursor is an error that says to start again.
 */
final class ScanCursors {

    static final int MAX_CURSORS = 100_000;
    static final long MAX_BYTES = 16L << 20;

    private final Map<Long, byte[]> cursors = new LinkedHashMap<>(16, 0.75f, true);
    private long next = 1 + ThreadLocalRandom.current().nextLong(1L << 40); // cursors of a restarted node differ
    private long bytes;

    /** A new cursor for the position after {@code key}. */
    synchronized String save(byte[] key) {
        long id = next++;
        cursors.put(id, key);
        bytes += key.length;
        Iterator<Map.Entry<Long, byte[]>> oldest = cursors.entrySet().iterator();
        while ((cursors.size() > MAX_CURSORS || bytes > MAX_BYTES) && oldest.hasNext()) {
            bytes -= oldest.next().getValue().length;
            oldest.remove();
        }
        return Long.toUnsignedString(id);
    }

    /** The key a cursor stands for; "0" is the start (an empty key). */
    synchronized byte[] find(String cursor) {
        if (cursor.equals("0")) {
            return new byte[0];
        }
        byte[] key;
        try {
            key = cursors.get(Long.parseUnsignedLong(cursor));
        } catch (NumberFormatException e) {
            key = null;
        }
        if (key == null) {
            throw new IllegalArgumentException("invalid cursor '" + cursor + "': a SCAN cursor is kept for a while by"
                    + " the node that gave it; start again with 0");
        }
        return key;
    }
}
