package io.god.ring;

import java.util.ArrayList;
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
    static List<String> pick(View view, Member self, int neighbours, int fanout, Random random) {
        int n = view.size();
        Set<String> out = new LinkedHashSet<>();
        if (!view.contains(self.address()) || n - 1 <= 2 * neighbours + fanout) {
            for (Member m : view.ring().members()) {
                if (!m.address().equals(self.address())) {
                    out.add(m.address());
                }
            }
            return new ArrayList<>(out);
        }
        Member up = self;
        Member down = self;
        for (int i = 1; i <= neighbours; i++) {
            up = view.after(up);
            down = view.before(down);
            out.add(up.address());
            out.add(down.address());
        }
        int wanted = out.size() + fanout;
        int tries = 0;
        while (out.size() < wanted && tries++ < 4 * fanout) {
            Member m = view.random(random);
            if (!m.address().equals(self.address())) {
                out.add(m.address());
            }
        }
        return new ArrayList<>(out);
    }
}
