package io.god.ring;

import com.google.common.hash.Hasher;
import com.google.common.hash.Hashing;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * An immutable ring: members sorted by position then address. A key (any byte string, compared
 * unsigned with the 16-byte positions, a proper prefix first) is owned by the first member whose
 * position is greater than the key, wrapping around: ownership is {@code [predecessor, self)}, and
 * a key equal to a position belongs to the next member (reference §1.3). Its replicas are the owner
 * and the next {@code min(N, size) − 1} members.
 */
public final class Ring {

    private final List<Member> members;
    private final String hash;

    public Ring(Collection<Member> members) {
        TreeSet<Member> sorted = new TreeSet<>(members);
        this.members = List.copyOf(sorted);
        long lo = 0;
        long hi = 0;
        for (Member m : this.members) {
            long[] h = memberHash(m);
            lo += h[0];
            hi += h[1];
        }
        this.hash = hashText(lo, hi);
    }

    /** A ring of members already in ring order (no duplicates) with their precomputed {@link #hash}. */
    Ring(List<Member> sorted, String hash) {
        this.members = List.copyOf(sorted);
        this.hash = hash;
    }

    /**
     * murmur3-128 of one member (position and address) as two longs. The ring hash is their sum
     * (mod 2^64 per half): it depends only on the set of members, so {@link View} keeps it up to date
     * in O(1) per change instead of rehashing the whole ring.
     */
    static long[] memberHash(Member m) {
        Hasher h = Hashing.murmur3_128().newHasher();
        h.putBytes(m.raw()).putString(m.address(), StandardCharsets.UTF_8);
        byte[] b = h.hash().asBytes();
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b);
        return new long[] {buf.getLong(), buf.getLong()};
    }

    static String hashText(long lo, long hi) {
        return String.format("%016x%016x", hi, lo);
    }

    public List<Member> members() {
        return members;
    }

    public int size() {
        return members.size();
    }

    public boolean isEmpty() {
        return members.isEmpty();
    }

    /** The sum of the members' murmur3-128 hashes (hex): equal views, equal hashes. */
    public String hash() {
        return hash;
    }

    /** Index of the first member with position > key (wrapping to 0). */
    private int afterIndex(byte[] key) {
        int lo = 0;
        int hi = members.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Arrays.compareUnsigned(members.get(mid).raw(), key) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo == members.size() ? 0 : lo;
    }

    /** The owner of a key. */
    public Member successor(byte[] key) {
        return members.isEmpty() ? null : members.get(afterIndex(key));
    }

    /** The last member with position < key (wrapping). */
    public Member predecessor(byte[] key) {
        if (members.isEmpty()) {
            return null;
        }
        int lo = 0;
        int hi = members.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Arrays.compareUnsigned(members.get(mid).raw(), key) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return members.get((lo - 1 + members.size()) % members.size());
    }

    /** The member with exactly this position (the first such), or null. */
    public Member at(byte[] position) {
        for (Member m : members) {
            if (Arrays.equals(m.raw(), position)) {
                return m;
            }
        }
        return null;
    }

    /** The member before m in ring order (m itself on a one-member ring; neighbours if m is absent). */
    public Member predecessorOf(Member m) {
        int i = java.util.Collections.binarySearch(members, m);
        int prev = i >= 0 ? i - 1 : -i - 2;
        return members.get((prev + members.size()) % members.size());
    }

    /** The member after m in ring order. */
    public Member successorOf(Member m) {
        int i = java.util.Collections.binarySearch(members, m);
        int next = i >= 0 ? i + 1 : -i - 1;
        return members.get(next % members.size());
    }

    /** The owner and the next min(n, size) − 1 members: the replica set of key. */
    public List<Member> replicas(byte[] key, int n) {
        List<Member> out = new ArrayList<>();
        if (members.isEmpty()) {
            return out;
        }
        int start = afterIndex(key);
        int count = Math.min(n, members.size());
        for (int i = 0; i < count; i++) {
            out.add(members.get((start + i) % members.size()));
        }
        return out;
    }

    /** Whether the member at {@code address} is one of the n replicas of {@code key} (no allocation). */
    public boolean isReplica(byte[] key, int n, String address) {
        if (members.isEmpty()) {
            return false;
        }
        int start = afterIndex(key);
        int count = Math.min(n, members.size());
        for (int i = 0; i < count; i++) {
            if (members.get((start + i) % members.size()).address().equals(address)) {
                return true;
            }
        }
        return false;
    }

    public Member byAddress(String address) {
        for (Member m : members) {
            if (m.address().equals(address)) {
                return m;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return members.toString();
    }
}
