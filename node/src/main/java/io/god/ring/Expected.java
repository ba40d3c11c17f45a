package io.god.ring;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The expected membership E's bookkeeping (DESIGN §5): members that dropped out of the view still count
 * until they drain (leave) or are removed on request. Not thread-safe: {@link Membership} guards it.
 */
final class Expected {

    private final String self;
    /** Expected members that are not in the view (died, restart, partitioned away): address → last entry. */
    private final Map<String, Member> absent = new HashMap<>();
    /** Members removed on request or by their leave: address → incarnation; never absent again. */
    private final Map<String, Long> removed = new HashMap<>();
    private Ring cache;
    private Ring cachedFor;

    Expected(String self) {
        this.self = self;
    }

    /**
     * E over the live ring: the view plus the absent entries, except one whose position a live member now
     * holds (the same node back under another address). Cached per live ring.
     */
    Ring over(Ring live, View view) {
        if (cache != null && cachedFor == live) {
            return cache;
        }
        Ring out = live;
        if (!absent.isEmpty()) {
            List<Member> all = new ArrayList<>(live.members());
            for (Member m : absent.values()) {
                if (!view.contains(m.address()) && live.at(m.position()) == null) {
                    all.add(m);
                }
            }
            if (all.size() > live.size()) {
                out = new Ring(all);
            }
        }
        cache = out;
        cachedFor = live;
        return out;
    }

    /** Expected members that are not in the view now. */
    List<Member> absent(View view) {
        List<Member> out = new ArrayList<>();
        for (Member m : absent.values()) {
            if (!view.contains(m.address())) {
                out.add(m);
            }
        }
        return out;
    }

    /** The absent member named by its address or position (hex), or null. */
    Member named(String want) {
        Member found = null;
        for (Member m : absent.values()) {
            if (m.address().equals(want) || m.hex().equalsIgnoreCase(want)) {
                found = m;
            }
        }
        return found;
    }

    /** A member that dropped out of the view still counts as expected, unless it left ({@code left}) or was removed. */
    void remember(Member m, boolean left) {
        Long gone = removed.get(m.address());
        if (m.address().equals(self) || gone != null && gone >= m.incarnation() || left) {
            return;
        }
        Member have = absent.get(m.address());
        if (have == null || have.incarnation() <= m.incarnation()) {
            absent.put(m.address(), m);
            cache = null;
        }
    }

    /** The member left (drained) or was removed on request: it no longer counts as expected. */
    void forget(Member m) {
        removed.merge(m.address(), m.incarnation(), Math::max);
        Member have = absent.get(m.address());
        if (have != null && have.incarnation() <= m.incarnation()) {
            absent.remove(m.address());
        }
        cache = null;
    }

    /** A member removed on request is back (a direct contact): it is expected again once it drops out. */
    void back(String address) {
        removed.remove(address);
    }

    /** This node left: it expects nobody. */
    void clear() {
        absent.clear();
        cache = null;
    }
}
