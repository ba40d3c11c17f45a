package io.god.sim;

import io.god.api.JsonRpc;
import io.god.client.KeyHash;
import io.god.tree.Entry;
import io.god.tree.TreeState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Client calls made through a node's JSON handler (the call path clients use: routing, forwarding,
 * fail-over, replication, Sync=true), and what their acknowledgements promise. Every write carries a
 * unique value; an acknowledged write's timestamp is read back from the node that has it. A slot (key,
 * or key + sub key) has at most one call in flight, so "the newest acknowledged write" is well defined.
 */
final class Workload {

    static final int KEYS = 24;
    static final int SUB_TREES = 4;
    static final int SUB_KEYS = 4;

    /** A top-level key (sub == null) or one entry of a sub tree. */
    record Slot(byte[] key, byte[] sub, String id) {
    }

    /** The newest acknowledged write of a slot: what must survive (LWW), unless exempted. */
    record Acked(long timestamp, String value, boolean sync) {
    }

    private final Simulation sim;
    final List<Slot> slots = new ArrayList<>();
    final Map<String, Acked> required = new HashMap<>();
    /** Value → timestamp of the acknowledged write that stored it. */
    final Map<String, Long> valueTimestamps = new HashMap<>();
    final Set<String> issued = new HashSet<>();
    private final Set<String> inFlight = new HashSet<>();
    private int next;
    long acked;
    long failed;

    Workload(Simulation sim) {
        this.sim = sim;
        for (int i = 0; i < KEYS; i++) {
            byte[] k = KeyHash.murmur("key-" + i);
            slots.add(new Slot(k, null, "k" + i));
        }
        for (int t = 0; t < SUB_TREES; t++) {
            byte[] k = KeyHash.murmur("tree-" + t);
            for (int s = 0; s < SUB_KEYS; s++) {
                slots.add(new Slot(k, ("s" + s).getBytes(StandardCharsets.UTF_8), "t" + t + "/s" + s));
            }
        }
    }

    void schedule(long start, long span) {
        for (int i = 0; i < sim.config.operations(); i++) {
            long at = start + (long) (sim.random.nextDouble() * span);
            sim.loop.at(at - sim.loop.now(), SimLoop.Kind.START, this::operation);
        }
    }

    /** The keys of the workload's sub trees. */
    List<byte[]> trees() {
        List<byte[]> out = new ArrayList<>();
        for (int t = 0; t < SUB_TREES; t++) {
            out.add(KeyHash.murmur("tree-" + t));
        }
        return out;
    }

    static Entry entry(TreeState s, Slot slot) {
        if (slot.sub() == null) {
            return s.entry(slot.key());
        }
        return s.sub(slot.key()).entry(slot.sub());
    }

    private void operation() {
        List<Simulation.SimNode> up = sim.up();
        if (up.isEmpty()) {
            return;
        }
        Simulation.SimNode at = up.get(sim.random.nextInt(up.size()));
        // with reordering faults, one hot key: its writes follow each other closely enough for their
        // replication messages to overtake each other
        boolean reordering = sim.config.faults().contains(Simulation.Fault.JITTER)
                || sim.config.faults().contains(Simulation.Fault.DUPLICATE);
        Slot slot = slots.get(reordering && sim.random.nextInt(4) == 0 ? 0 : sim.random.nextInt(slots.size()));
        if (!inFlight.add(slot.id())) {
            return;
        }
        boolean delete = sim.random.nextInt(4) == 0;
        boolean sync = sim.random.nextBoolean();
        String value = "v" + (next++);
        Map<String, Object> body = new HashMap<>();
        body.put("Key", b64(slot.key()));
        if (slot.sub() != null) {
            body.put("SubKey", b64(slot.sub()));
        }
        if (!delete) {
            body.put("Value", b64(value.getBytes(StandardCharsets.UTF_8)));
            issued.add(value);
        }
        body.put("Sync", sync);
        String method = JsonRpc.SERVICE + (slot.sub() == null ? "" : "Sub") + (delete ? "Del" : "Put");
        JsonRpc.Response r;
        try {
            r = at.rpc.handle(method, JsonRpc.mapper().writeValueAsBytes(body), null);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        } finally {
            inFlight.remove(slot.id());
        }
        String what = method.substring(JsonRpc.SERVICE.length()) + " " + slot.id() + (delete ? "" : "=" + value)
                + (sync ? " sync" : "") + " via " + at.address;
        if (r.status() != 200) {
            failed++;
            sim.trace.note(what + " -> " + r.status() + " " + r.text());
            return;
        }
        acked++;
        Long ts = delete ? newestTombstone(slot) : timestampOf(slot, value);
        sim.trace.note(what + " -> ok @" + ts);
        if (ts == null) {
            return; // the node that executed it crashed meanwhile: nothing promised we can check
        }
        if (!delete) {
            valueTimestamps.put(value, ts);
        }
        Acked prev = required.get(slot.id());
        if (prev == null || ts > prev.timestamp()) {
            required.put(slot.id(), new Acked(ts, delete ? null : value, sync));
        }
    }

    private Long timestampOf(Slot slot, String value) {
        byte[] v = value.getBytes(StandardCharsets.UTF_8);
        for (Simulation.SimNode n : sim.up()) {
            Entry e = entry(n.node.store().state(), slot);
            if (e != null && !e.isTombstone() && java.util.Arrays.equals(e.value(), v)) {
                return e.timestamp();
            }
        }
        return null;
    }

    private Long newestTombstone(Slot slot) {
        Long best = null;
        for (Simulation.SimNode n : sim.up()) {
            Entry e = entry(n.node.store().state(), slot);
            if (e != null && e.isTombstone() && (best == null || e.timestamp() > best)) {
                best = e.timestamp();
            }
        }
        return best;
    }

    private static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }
}
