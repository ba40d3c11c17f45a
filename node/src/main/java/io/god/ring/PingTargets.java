package io.god.ring;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Whom an ACTIVE member pings in one interval: its {@code neighbours} nearest successors and
 * predecessors (the members that hold its replicas and whose replicas it holds, so their failures are
 * seen first-hand within {@code god.ring.failures} intervals) plus {@code fanout} random other members
 * (so failures and changes anywhere are also seen directly, and rumors spread across the ring). On a
 * ring of at most {@code 2·neighbours + fanout + 1} members that is everyone: small rings ping
 * all-to-all, as before. The cost per member per interval is bounded by a constant, not by n.
 */
final class PingTargets {

    private PingTargets() {
    }

    /** The addresses self pings this interval, neighbours first (deterministic for a seeded random). */
    static List<String> pick(Ring ring, Member self, int neighbours, int fanout, Random random) {
        List<Member> members = ring.members();
        int n = members.size();
        int at = Collections.binarySearch(members, self);
        Set<String> out = new LinkedHashSet<>();
        if (at < 0 || n - 1 <= 2 * neighbours + fanout) {
            for (Member m : members) {
                if (!m.address().equals(self.address())) {
                    out.add(m.address());
                }
            }
            return new ArrayList<>(out);
        }
        for (int i = 1; i <= neighbours; i++) {
            out.add(members.get((at + i) % n).address());
            out.add(members.get(((at - i) % n + n) % n).address());
        }
        out.remove(self.address());
        int wanted = out.size() + fanout;
        int tries = 0;
        while (out.size() < wanted && tries++ < 4 * fanout) {
            Member m = members.get(random.nextInt(n));
            if (!m.address().equals(self.address())) {
                out.add(m.address());
            }
        }
        return new ArrayList<>(out);
    }
}
