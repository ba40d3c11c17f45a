package io.god.sim;

import com.fasterxml.jackson.databind.JsonNode;
import io.god.api.JsonRpc;
import io.god.client.GodClient;
import io.god.node.GodNode;
import io.god.ring.Member;
import io.god.ring.Ring;
import io.god.tree.Entry;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What must hold of a run: during it, no node's copy of a key goes back in time; after quiescence,
 * every live node sees one ring (a single successor cycle over exactly the live members), the client's
 * routing agrees with the ring, every key's replica set holds identical copies, and the newest
 * acknowledged write of every key survives (last-write-wins), so deleted keys stay deleted.
 */
final class Invariants {

    /** A slot whose copies to trace as they change ({@code -Dgod.sim.watch=k0}; debugging a seed). */
    private static final String WATCH = System.getProperty("god.sim.watch", "");
    private final Simulation sim;
    private final Map<String, Long> lastSeen = new HashMap<>();

    Invariants(Simulation sim) {
        this.sim = sim;
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new InvariantViolation(message);
        }
    }

    /**
     * Per key, the newest copy among the live nodes (value or tombstone) never goes back in time while
     * the ring is calm (no partition, no node down): copies move (cleaning, migration) but the newest
     * never disappears. Per node this does not hold: a node that cleaned a key away may later get an
     * older copy from a stale replica, which LWW repairs (seeds 2186, 2226). Faults reset the baseline.
     */
    void checkTimestamps() {
        boolean calm = !sim.network.partitioned()
                && sim.nodes.stream().allMatch(n -> n.up() || n.killed || n.node == null);
        if (!calm) {
            lastSeen.clear();
            return;
        }
        for (Workload.Slot slot : sim.workload.slots) {
            Entry newest = null;
            Simulation.SimNode at = null;
            for (Simulation.SimNode n : sim.up()) {
                Entry e = Workload.entry(n.node.store().state(), slot);
                if (e != null && (newest == null || e.timestamp() > newest.timestamp())) {
                    newest = e;
                    at = n;
                }
                if (e != null && slot.id().equals(WATCH)) {
                    sim.trace.note("watch " + slot.id() + " on " + n.address + ": " + describe(e));
                }
            }
            if (newest == null) {
                continue;
            }
            Long before = lastSeen.put(slot.id(), newest.timestamp());
            check(before == null || newest.timestamp() >= before, "the newest copy of " + slot.id()
                    + " went back in time from " + before + " to " + describe(newest) + " (on " + at.address + ")");
        }
    }

    boolean ringConverged() {
        List<Simulation.SimNode> up = sim.up();
        String hash = null;
        for (Simulation.SimNode n : up) {
            if (n.node.state() != GodNode.State.ACTIVE) {
                return false;
            }
            Ring r = n.node.membership().ring();
            if (hash != null && !hash.equals(r.hash()) || r.size() != up.size()) {
                return false; // cheap checks first: a 1 000-node ring is polled every interval
            }
            hash = r.hash();
        }
        if (up.isEmpty()) {
            return true;
        }
        // one view (all hashes equal) of the right size: it must hold exactly the live members
        Set<String> addresses = new HashSet<>();
        up.forEach(n -> addresses.add(n.address));
        Set<String> seen = new HashSet<>();
        up.get(0).node.membership().ring().members().forEach(m -> seen.add(m.address()));
        return seen.equals(addresses);
    }

    void checkAll() {
        checkTimestamps();
        checkRing();
        checkRouting();
        checkReplicas();
        checkNewestWritesSurvive();
        checkDifferences();
    }

    private void checkRing() {
        check(ringConverged(), "ring views did not converge on the live members: " + views());
        for (Simulation.SimNode n : sim.up()) {
            Ring r = n.node.membership().ring();
            Member start = r.byAddress(n.address);
            Set<String> walked = new TreeSet<>();
            Member m = start;
            do {
                check(walked.add(m.address()), n.address + ": successor walk revisits " + m.address());
                m = r.successorOf(m);
            } while (!m.address().equals(start.address()));
            check(walked.size() == r.size(), n.address + ": successors form no single cycle over " + r.size());
        }
    }

    private String views() {
        StringBuilder sb = new StringBuilder();
        for (Simulation.SimNode n : sim.up()) {
            sb.append("\n  ").append(n.address).append(' ').append(n.node.state()).append(": ");
            n.node.membership().ring().members().forEach(m -> sb.append(m.address()).append(' '));
        }
        return sb.toString();
    }

    /** The client's ring (parsed from a node's Nodes answer) routes every key as the node's Ring does. */
    private void checkRouting() {
        Simulation.SimNode n = sim.up().get(0);
        JsonRpc.Response r = n.rpc.handle(JsonRpc.SERVICE + "Nodes", "{}".getBytes(StandardCharsets.UTF_8), null);
        check(r.status() == 200, "Nodes failed: " + r.text());
        List<GodClient.Member> clientRing;
        try {
            JsonNode json = JsonRpc.mapper().readTree(r.body());
            clientRing = GodClient.parseMembers(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        Ring ring = n.node.membership().ring();
        for (Workload.Slot slot : sim.workload.slots) {
            List<String> client = GodClient.replicas(clientRing, slot.key(), sim.config.redundancy()).stream()
                    .map(GodClient.Member::address).toList();
            List<String> node = ring.replicas(slot.key(), sim.config.redundancy()).stream().map(Member::address).toList();
            check(client.equals(node), "client routes " + slot.id() + " to " + client + ", the ring to " + node);
        }
    }

    private Ring ring() {
        return sim.up().get(0).node.membership().ring();
    }

    private Map<String, GodNode> byAddress() {
        Map<String, GodNode> out = new HashMap<>();
        sim.up().forEach(n -> out.put(n.address, n.node));
        return out;
    }

    /**
     * Every replica of every key holds the same copy as anti-entropy sees it: the same stamped Merkle
     * entry hash (key, live value or tombstone, sub tree, and their stamps) and the same stamp. Since
     * issue 27 the stamps count: the same value under two stamps is a difference anti-entropy aligns
     * (the reference, and this code before, hashed no timestamps and left them apart).
     */
    private void checkReplicas() {
        Ring ring = ring();
        Map<String, GodNode> nodes = byAddress();
        for (Workload.Slot slot : sim.workload.slots) {
            String first = null;
            String firstAt = null;
            for (Member m : ring.replicas(slot.key(), sim.config.redundancy())) {
                Entry e = Workload.entry(nodes.get(m.address()).store().state(), slot);
                String copy = e == null ? "absent" : e.entryHash(io.god.tree.HashVersion.STAMPED) + " " + describe(e);
                if (first == null) {
                    first = copy;
                    firstAt = m.address();
                }
                check(first.equals(copy), "replicas disagree on " + slot.id() + ": " + firstAt + " has " + first
                        + ", " + m.address() + " has " + copy);
            }
        }
    }

    /** The replica set's newest copy of a slot (after the replica check they differ only in time). */
    private Entry newest(Map<String, GodNode> nodes, Ring ring, Workload.Slot slot) {
        Entry best = null;
        for (Member m : ring.replicas(slot.key(), sim.config.redundancy())) {
            Entry e = Workload.entry(nodes.get(m.address()).store().state(), slot);
            if (e != null && (best == null || e.timestamp() > best.timestamp())) {
                best = e;
            }
        }
        return best;
    }

    /**
     * Set operations read the replicated data correctly: {@code (D a b c)} over three sub trees (every
     * rotation of the workload's trees) answers exactly a's live keys found in neither b nor c.
     */
    private void checkDifferences() {
        Ring ring = ring();
        Map<String, GodNode> nodes = byAddress();
        List<byte[]> trees = sim.workload.trees();
        for (int i = 0; i < trees.size(); i++) {
            List<byte[]> sources = List.of(trees.get(i), trees.get((i + 1) % trees.size()),
                    trees.get((i + 2) % trees.size()));
            Set<String> expected = liveSubKeys(nodes, ring, sources.get(0));
            expected.removeAll(liveSubKeys(nodes, ring, sources.get(1)));
            expected.removeAll(liveSubKeys(nodes, ring, sources.get(2)));
            Map<String, Object> op = Map.of("Type", 2, "Merge", 0, "Sources",
                    sources.stream().map(k -> Map.of("Key", java.util.Base64.getEncoder().encodeToString(k))).toList());
            Simulation.SimNode at = sim.up().get(i % sim.up().size());
            JsonRpc.Response r;
            Set<String> got = new TreeSet<>();
            try {
                r = at.rpc.handle(JsonRpc.SERVICE + "SetExpression", JsonRpc.mapper().writeValueAsBytes(Map.of("Op", op)), null);
                check(r.status() == 200, "SetExpression failed: " + r.status() + " " + r.text());
                for (JsonNode e : JsonRpc.mapper().readTree(r.body())) {
                    got.add(new String(e.get("Key").binaryValue(), StandardCharsets.UTF_8));
                }
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
            check(got.equals(new TreeSet<>(expected)), "difference of trees " + i + ", " + (i + 1) % trees.size()
                    + ", " + (i + 2) % trees.size() + " answered " + got + ", expected " + new TreeSet<>(expected));
        }
    }

    private static Set<String> liveSubKeys(Map<String, GodNode> nodes, Ring ring, byte[] tree) {
        Set<String> out = new HashSet<>();
        var state = nodes.get(ring.replicas(tree, 1).get(0).address()).store().state().sub(tree);
        for (var it = state.entries(new byte[0]); it.hasNext(); ) {
            Entry e = it.next();
            if (!e.isTombstone() && e.hasValue()) {
                out.add(new String(e.key(), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    static String describe(Entry e) {
        if (e == null) {
            return "absent";
        }
        if (e.isTombstone()) {
            return "deleted@" + e.timestamp();
        }
        return (e.hasValue() ? new String(e.value(), StandardCharsets.UTF_8) : "(no value)") + "@" + e.timestamp();
    }

    /**
     * Last write wins: the copy left is the newest acknowledged write or a newer write of the workload.
     * Exempt: with lost replicas (wiped or killed nodes) only Sync=true writes are promised, and only
     * while at most N−1 replicas were lost.
     */
    private void checkNewestWritesSurvive() {
        Ring ring = ring();
        Map<String, GodNode> nodes = byAddress();
        Workload w = sim.workload;
        for (Workload.Slot slot : w.slots) {
            Workload.Acked acked = w.required.get(slot.id());
            if (acked == null || (sim.lostReplicas > 0 && !acked.sync())
                    || sim.lostReplicas >= sim.config.redundancy()) {
                continue;
            }
            Entry e = newest(nodes, ring, slot);
            String what = slot.id() + ": newest acknowledged write " + (acked.value() == null ? "delete" : acked.value())
                    + "@" + acked.timestamp() + (acked.sync() ? " (sync)" : "") + ", left " + describe(e);
            if (e == null) {
                check(acked.value() == null, "lost " + what);
                continue;
            }
            if (e.isTombstone() || !e.hasValue()) {
                check(e.timestamp() > acked.timestamp() || acked.value() == null, "lost " + what);
                continue;
            }
            String value = new String(e.value(), StandardCharsets.UTF_8);
            check(w.issued.contains(value), "unknown value " + what);
            Long own = w.valueTimestamps.get(value);
            check(own == null || own >= acked.timestamp(), (acked.value() == null ? "deleted key came back " : "older write won ")
                    + what + " (written @" + own + ")");
            check(e.timestamp() > acked.timestamp() || value.equals(acked.value()), "lost " + what);
        }
    }

}
