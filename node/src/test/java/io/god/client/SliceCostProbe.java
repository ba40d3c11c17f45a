package io.god.client;

import static io.god.client.GodClient.utf8;

import io.god.node.GodNode;
import io.god.persist.Record;
import io.god.wire.Call;
import io.god.wire.SliceCall;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Not a test: a probe of what a binary SliceLen 100 costs in CPU (issue 29), run by hand
 * ({@code -Dtest=SliceCostProbe -Dprobe.rounds=5}, see bench/RESULTS.md). Three in-process nodes hold the same
 * 10,000-entry sub tree (16-byte keys and values, the same stamps everywhere, as bench/run.sh's ring rows); it
 * prints, per round, the CPU of this thread per call of: a node's data handler answering the entries kind and the
 * digest kind (no network), and a GodClient's merged and owner-only SliceLen 100 (the client's own CPU), plus the
 * whole process' CPU per client call (client and three nodes). Thread CPU time, not wall time: the machine is
 * shared, and CPU time moves far less with its load.
 */
class SliceCostProbe {

    private static final byte[] TREE = utf8("bencht0");
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    public static void main(String[] args) throws Exception {
        new SliceCostProbe().probe();
    }

    @org.junit.jupiter.api.Test
    void probe() throws Exception {
        String cp = System.getProperty("surefire.test.class.path");
        if (cp != null && System.getProperty("probe.classpath") != null) { // for running it without Maven
            java.nio.file.Files.writeString(java.nio.file.Path.of(System.getProperty("probe.classpath")), cp);
        }
        int rounds = Integer.getInteger("probe.rounds", 5);
        int calls = Integer.getInteger("probe.calls", 3000);
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put("god.sync.interval", "1h");
            rings.extra.put("god.ring.interval", "200ms");
            rings.start(3);
            long ts = rings.nodes.get(0).timestamps().next() + 1_000_000;
            for (GodNode n : rings.nodes) {
                for (int i = 0; i < 10_000; i++) {
                    n.store().apply(Record.subPut(TREE, utf8(String.format("sub-%012d", i)),
                            utf8(String.format("value-%010d", i)), ts + i));
                }
            }
            completed = (java.util.List<?>) field(field(rings, ClientRings.class, "rings"),
                    io.god.cluster.Rings.class, "calls");
            GodNode.DataHandler h = handler(rings.nodes.get(0));
            io.god.tree.TreeState tree = rings.nodes.get(0).store().state().sub(TREE);
            byte[] entries = new SliceCall(SliceCall.SLICE_LEN, TREE, null, true, 100, null, 0, Call.EXECUTE).encode();
            byte[] digest = new SliceCall(SliceCall.SLICE_LEN_DIGEST, TREE, null, true, 100, null, 0, Call.EXECUTE)
                    .encode();
            try (GodClient merged = GodClient.builder().endpoints(rings.address(0)).build();
                 GodClient owner = GodClient.builder().endpoints(rings.address(0)).redundancy(1).build()) {
                System.out.printf("probe: %d rounds of %d calls, load %s%n", rounds, calls, load());
                for (int r = 0; r < rounds; r++) {
                    // the node-side figures are small: 5× the calls, for a steadier reading
                    double w = cpu(5 * calls, () -> walk(tree, 100));
                    double e = cpu(5 * calls, () -> h.handle(entries, false));
                    double d = cpu(5 * calls, () -> h.handle(digest, false));
                    long p0 = OS.getProcessCpuTime();
                    java.util.Map<String, Long> t0 = byThread();
                    double m = cpu(calls, () -> merged.sliceLen(TREE, null, true, 100));
                    double mp = (OS.getProcessCpuTime() - p0) / 1e3 / calls;
                    System.out.println("  merged, CPU µs per call by thread group: " + perCall(t0, byThread(), calls,
                            mp));
                    p0 = OS.getProcessCpuTime();
                    double o = cpu(calls, () -> owner.sliceLen(TREE, null, true, 100));
                    double op = (OS.getProcessCpuTime() - p0) / 1e3 / calls;
                    System.out.printf("round %d: tree walk of 100 %.1f µs, node entries %.1f µs, "
                                    + "node digest %.1f µs, client merged %.1f µs (process %.1f), "
                                    + "client owner-only %.1f µs (process %.1f); load %s%n",
                            r, w, e, d, m, mp, o, op, load());
                }
            }
        }
    }

    /** Rings' record of every call the nodes completed: a CopyOnWriteArrayList, one copy per call, kept short. */
    private static java.util.List<?> completed;

    /** This thread's CPU µs per call of {@code call}. */
    private static double cpu(int calls, Runnable call) {
        long t0 = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < calls; i++) {
            call.run();
            if (i % 64 == 0) {
                completed.clear();
            }
        }
        return (THREADS.getCurrentThreadCpuTime() - t0) / 1e3 / calls;
    }

    /** The tree's own iteration of n entries, which every slice answer costs at least. */
    private static void walk(io.god.tree.TreeState tree, int n) {
        java.util.Iterator<io.god.tree.Entry> it = tree.entries(null, true, false);
        long sum = 0;
        for (int i = 0; i < n && it.hasNext(); i++) {
            sum += it.next().timestamp();
        }
        if (sum == 42) {
            System.out.print("");
        }
    }

    /** CPU ns so far per thread group (the name without digits). */
    private static java.util.Map<String, Long> byThread() {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        for (long id : THREADS.getAllThreadIds()) {
            java.lang.management.ThreadInfo info = THREADS.getThreadInfo(id);
            long ns = THREADS.getThreadCpuTime(id);
            if (info != null && ns > 0) {
                out.merge(info.getThreadName().replaceAll("[0-9]+", "#"), ns, Long::sum);
            }
        }
        return out;
    }

    /** The groups' CPU µs per call between two {@link #byThread} readings, and the rest (GC, JIT, exited threads). */
    private static String perCall(java.util.Map<String, Long> a, java.util.Map<String, Long> b, int calls,
                                  double process) {
        StringBuilder out = new StringBuilder();
        double sum = 0;
        for (var e : b.entrySet()) {
            double us = (e.getValue() - a.getOrDefault(e.getKey(), 0L)) / 1e3 / calls;
            sum += us;
            if (us >= 1) {
                out.append(String.format("%s %.1f, ", e.getKey(), us));
            }
        }
        return out.append(String.format("not in a thread (GC, JIT) %.1f", process - sum)).toString();
    }

    @SuppressWarnings("unchecked")
    private static GodNode.DataHandler handler(GodNode n) throws ReflectiveOperationException {
        return ((AtomicReference<GodNode.DataHandler>) field(n, GodNode.class, "dataHandler")).get();
    }

    private static Object field(Object o, Class<?> c, String name) throws ReflectiveOperationException {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
    }

    private static String load() throws java.io.IOException {
        return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).substring(0, 14);
    }
}
