package io.god.ring;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A node's live members, kept in ring order with the ring hash updated per change (O(log n)), and
 * the immutable {@link Ring} built only when someone asks for it after a change. A 1 000-member view
 * changes many times per ring interval during a join storm; rebuilding (sorting and hashing) the ring
 * on every message made that O(n log n) per message. Not thread-safe: {@link Membership} guards it,
 * except {@link #cached()}, which any thread may read.
 */
final class View {

    private final Map<String, Member> byAddress = new HashMap<>();
    private final Map<String, long[]> hashes = new HashMap<>();
    private final TreeSet<Member> sorted = new TreeSet<>();
    /** The members in no order, for O(1) random picks (a removal moves the last one into the gap). */
    private final java.util.ArrayList<Member> any = new java.util.ArrayList<>();
    private final Map<String, Integer> slot = new HashMap<>();
    private long lo;
    private long hi;
    private volatile Ring ring = new Ring(List.of());

    Member get(String address) {
        return byAddress.get(address);
    }

    boolean contains(String address) {
        return byAddress.containsKey(address);
    }

    int size() {
        return byAddress.size();
    }

    boolean isEmpty() {
        return byAddress.isEmpty();
    }

    Collection<Member> members() {
        return byAddress.values();
    }

    /** Adds m or replaces the entry of its address (whatever its incarnation: callers decide). */
    void put(Member m) {
        remove(m.address());
        long[] h = Ring.memberHash(m);
        byAddress.put(m.address(), m);
        hashes.put(m.address(), h);
        sorted.add(m);
        slot.put(m.address(), any.size());
        any.add(m);
        lo += h[0];
        hi += h[1];
        ring = null;
    }

    /** Removes the entry of an address; returns it (null when absent). */
    Member remove(String address) {
        Member old = byAddress.remove(address);
        if (old == null) {
            return null;
        }
        long[] h = hashes.remove(address);
        sorted.remove(old);
        int i = slot.remove(address);
        Member last = any.remove(any.size() - 1);
        if (i < any.size()) {
            any.set(i, last);
            slot.put(last.address(), i);
        }
        lo -= h[0];
        hi -= h[1];
        ring = null;
        return old;
    }

    void clear() {
        byAddress.clear();
        hashes.clear();
        sorted.clear();
        any.clear();
        slot.clear();
        lo = 0;
        hi = 0;
        ring = null;
    }

    /** A uniformly random member. */
    Member random(java.util.Random random) {
        return any.get(random.nextInt(any.size()));
    }

    /** The next member after m in ring order (wrapping), without building the ring. */
    Member after(Member m) {
        Member next = sorted.higher(m);
        return next != null ? next : sorted.first();
    }

    /** The member before m in ring order (wrapping). */
    Member before(Member m) {
        Member prev = sorted.lower(m);
        return prev != null ? prev : sorted.last();
    }

    /**
     * This member's neighbourhood: its {@code k} nearest predecessors and successors with itself, each
     * with its position, address and incarnation (the whole view's hash on a ring of at most 2k + 1).
     * Equal strings mean nothing changed around self, whatever happened elsewhere in the ring.
     */
    String around(Member self, int k) {
        if (!contains(self.address()) || size() <= 2 * k + 1) {
            return hash();
        }
        StringBuilder out = new StringBuilder();
        Member m = self;
        for (int i = 0; i < k; i++) {
            m = before(m);
        }
        for (int i = 0; i <= 2 * k; i++) {
            out.append(m).append('#').append(m.incarnation()).append(' ');
            m = after(m);
        }
        return out.toString();
    }

    /** The ring hash of the current members (equals {@code ring().hash()}), without building the ring. */
    String hash() {
        Ring r = ring;
        return r != null ? r.hash() : Ring.hashText(lo, hi);
    }

    /** The current ring, built now if the members changed since it was last built. */
    Ring ring() {
        Ring r = ring;
        if (r == null) {
            r = new Ring(List.copyOf(sorted), Ring.hashText(lo, hi));
            ring = r;
        }
        return r;
    }

    /** The ring if it is up to date, else null (lock-free readers fall back to {@link #ring()}). */
    Ring cached() {
        return ring;
    }
}
