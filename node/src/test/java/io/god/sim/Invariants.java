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

    /** Per node and key, the copy's timestamp never decreases (a wiped node starts over). */
    void checkTimestamps() {
        for (Simulation.SimNode n : sim.up()) {
            var state = n.node.store().state();
            for (Workload.Slot slot : sim.workload.slots) {
                Entry e = Workload.entry(state, slot);
                if (e == null) {
                    continue;
                }
                String id = n.address + " " + n.disk.hashCode() + " " + slot.id();
                Long before = lastSeen.put(id, e.timestamp());
                check(before == null || e.timestamp() >= before, "timestamp of " + slot.id() + " on " + n.address
                        + " went back from " + before + " to " + e.timestamp());
            }
        }
    }

    boolean ringConverged() {
        List<Simulation.SimNode> up = sim.up();
        Set<String> addresses = new HashSet<>();
        up.forEach(n -> addresses.add(n.address));
        String hash = null;
        for (Simulation.SimNode n : up) {
            if (n.node.state() != GodNode.State.ACTIVE) {
                return false;
            }
            Ring r = n.node.membership().ring();
            Set<String> seen = new HashSet<>();
            r.members().forEach(m -> seen.add(m.address()));
            if (!seen.equals(addresses) || (hash != null && !hash.equals(r.hash()))) {
                return false;
            }
            hash = r.hash();
        }
        return true;
    }

    void checkAll() {
        checkTimestamps();
        checkRing();
        checkRouting();
        checkReplicas();
        checkNewestWritesSurvive();
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

    /** Every replica of every key holds the same copy (value, timestamp, tombstone). */
    private void checkReplicas() {
        Ring ring = ring();
        Map<String, GodNode> nodes = byAddress();
        for (Workload.Slot slot : sim.workload.slots) {
            String first = null;
            String firstAt = null;
            for (Member m : ring.replicas(slot.key(), sim.config.redundancy())) {
                String copy = describe(Workload.entry(nodes.get(m.address()).store().state(), slot));
                if (first == null) {
                    first = copy;
                    firstAt = m.address();
                }
                check(first.equals(copy), "replicas disagree on " + slot.id() + ": " + firstAt + " has " + first
                        + ", " + m.address() + " has " + copy);
            }
        }
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
            Member owner = ring.replicas(slot.key(), 1).get(0);
            Entry e = Workload.entry(nodes.get(owner.address()).store().state(), slot);
            String what = slot.id() + ": newest acknowledged write " + (acked.value() == null ? "delete" : acked.value())
                    + "@" + acked.timestamp() + (acked.sync() ? " (sync)" : "") + ", left " + describe(e);
            if (e == null) {
                check(acked.value() == null, "lost " + what);
                continue;
            }
            check(e.timestamp() >= acked.timestamp(), "older copy won " + what);
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
