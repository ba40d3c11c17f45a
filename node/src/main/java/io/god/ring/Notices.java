package io.god.ring;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Death notices: members this node considers down, each with the entry that died (address and
 * incarnation) and the tick it learnt so, whether from its own failed pings or from another member's
 * notice. A notice beats gossip of the same or an older incarnation; it is forgotten after
 * {@code forget-after}. Down members are probed (partitions heal, restarted nodes come back) in a
 * rotating order, {@link #toProbe} at a time.
 */
final class Notices {

    record Notice(Member member, long since) {
    }

    private final Map<String, Notice> notices = new HashMap<>();
    private final ArrayDeque<String> rotation = new ArrayDeque<>();

    Notice get(String address) {
        return notices.get(address);
    }

    /** True when a notice covers this entry (same address, incarnation not newer than the notice's). */
    boolean covers(Member m) {
        Notice n = notices.get(m.address());
        return n != null && n.member().incarnation() >= m.incarnation();
    }

    void put(Member dead, long tick) {
        if (notices.put(dead.address(), new Notice(dead, tick)) == null) {
            rotation.addLast(dead.address());
        }
        if (rotation.size() > 2 * notices.size() + 16) { // drop addresses whose notice went
            rotation.clear();
            notices.keySet().stream().sorted().forEach(rotation::addLast);
        }
    }

    Notice remove(String address) {
        return notices.remove(address); // the rotation skips addresses without a notice
    }

    int size() {
        return notices.size();
    }

    Set<String> addresses() {
        return Set.copyOf(notices.keySet());
    }

    Collection<Notice> all() {
        return notices.values();
    }

    void clear() {
        notices.clear();
        rotation.clear();
    }

    void expire(long tick, long forgetAfter) {
        notices.values().removeIf(n -> tick - n.since() > forgetAfter);
    }

    /**
     * The down members to probe this interval: all of them when {@code all}; else on average
     * {@code probes · down / members} (at most {@code probes}), in rotation. So every down member
     * is probed about {@code probes} times per interval by the whole ring, whatever its size, and a
     * node never probes more than {@code probes} per interval.
     */
    List<String> toProbe(boolean all, int probes, int members, Random random) {
        List<String> out = new ArrayList<>();
        if (all) {
            out.addAll(notices.keySet());
            out.sort(null); // a HashMap's order must not leak into a seeded run
            return out;
        }
        double expected = Math.min(probes, (double) probes * notices.size() / Math.max(1, members));
        int count = (int) expected + (random.nextDouble() < expected - (int) expected ? 1 : 0);
        while (out.size() < count && !rotation.isEmpty()) {
            String a = rotation.pollFirst();
            if (notices.containsKey(a)) {
                rotation.addLast(a);
                if (out.contains(a)) {
                    break;
                }
                out.add(a);
            }
        }
        return out;
    }
}
