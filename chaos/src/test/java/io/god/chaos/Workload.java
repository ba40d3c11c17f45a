package io.god.chaos;

import io.god.client.GodClient;
import io.god.client.GodException;
import io.god.client.GodRequestException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Client threads, each with its own seeded Random (so a seed replays the workload, not the interleaving):
 * {@code Sync=true} puts of unique keys ({@code t<thread>-<n>}, value {@code v-<key>}; a quarter of them
 * {@code s<thread>-<n>}: entries of a few sub trees, {@link #keyBytes}; an eighth {@code u<thread>-<n>}: written
 * without Sync, {@link #isAsync}), {@code Sync=true}
 * deletes of keys whose put was acknowledged, reads of any acknowledged key, and {@code Sync=true}
 * overwrites and reads of a few registers per thread ({@code r<thread>-<j>}, value
 * {@code r<thread>-<j>#<seq>}: one writer each, its sequence number rising). Every call is recorded.
 */
final class Workload implements AutoCloseable {

    private static final long PACE_MS = 5;
    /** Registers per thread. */
    static final int REGISTERS = 3;

    private final GodClient client;
    private final History history;
    private final long seed;
    private final List<Thread> threads = new ArrayList<>();
    /** Keys whose put was acknowledged (any thread reads them). */
    private final List<String> acked = new ArrayList<>();
    private volatile boolean stop;

    Workload(GodClient client, History history, long seed, int threads) {
        this.client = client;
        this.history = history;
        this.seed = seed;
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread th = new Thread(() -> loop(id), "chaos-workload-" + t);
            th.setDaemon(true);
            this.threads.add(th);
        }
    }

    void start() {
        threads.forEach(Thread::start);
    }

    private void loop(int t) {
        Random r = new Random(seed * 31 + t);
        List<String> mine = new ArrayList<>(); // acknowledged, not deleted yet
        int n = 0;
        int seq = 0;
        while (!stop) {
            pace();
            int dice = r.nextInt(10);
            if (dice == 8 || dice == 9) {
                String reg = "r" + t + "-" + r.nextInt(REGISTERS);
                if (dice == 8) {
                    call(t, Op.Kind.PUT, reg, reg + "#" + ++seq);
                } else {
                    call(t, Op.Kind.GET, reg, null);
                }
            } else if (dice < 4 || mine.isEmpty()) {
                int kind = r.nextInt(8);
                String key = (kind < 2 ? "s" : kind == 2 ? "u" : "t") + t + "-" + n++;
                if (call(t, Op.Kind.PUT, key, "v-" + key) == Op.Outcome.OK) {
                    mine.add(key);
                    synchronized (acked) {
                        acked.add(key);
                    }
                }
            } else if (dice < 6) {
                String key = mine.remove(r.nextInt(mine.size()));
                call(t, Op.Kind.DEL, key, null);
            } else {
                String key;
                synchronized (acked) {
                    key = acked.get(r.nextInt(acked.size()));
                }
                call(t, Op.Kind.GET, key, null);
            }
        }
    }

    /**
     * A short pause between calls: about 200 calls a second per thread at most, so a long campaign's
     * history stays small and the nodes keep CPU for their own work on a shared machine.
     */
    private static void pace() {
        try {
            Thread.sleep(PACE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Op.Outcome call(int t, Op.Kind kind, String key, String value) {
        byte[] k = keyBytes(key);
        String node = ownerOf(k);
        long id = history.nextId();
        long invoke = history.now();
        Op.Outcome outcome = Op.Outcome.OK;
        boolean found = false;
        String read = null;
        String error = null;
        try {
            switch (kind) {
                case PUT -> write(client, key, value);
                case DEL -> delete(client, key);
                case GET -> {
                    Checker.Final v = read(client, key);
                    found = v.found();
                    read = v.value();
                }
            }
        } catch (GodRequestException e) {
            outcome = Op.Outcome.FAIL;
            error = e.getMessage();
        } catch (GodException e) {
            outcome = kind == Op.Kind.GET ? Op.Outcome.FAIL : Op.Outcome.UNKNOWN; // a read changes nothing
            error = e.getMessage();
        }
        String after = ownerOf(k); // the view may change during the call (a member back, catching up)
        history.add(new Op(id, t, kind, key, kind == Op.Kind.GET ? read : value, invoke, history.now(), outcome,
                found, after.equals(node) ? node : node + " → " + after, error));
        return outcome;
    }

    /**
     * The stored key of a workload key name: its murmur3 hash, so keys spread over the whole ring; for a
     * sub-tree entry ({@code s<thread>-<n>}) the key of its tree ({@link #SUB_TREES} per thread).
     */
    static byte[] keyBytes(String name) {
        if (isSubTreeEntry(name)) {
            int dash = name.indexOf('-');
            long n = Long.parseLong(name.substring(dash + 1));
            return GodClient.hashed("tree-" + name.substring(1, dash) + "-" + n % SUB_TREES);
        }
        return GodClient.hashed(name);
    }

    /** Sub-tree entries per thread are spread over this many trees. */
    static final int SUB_TREES = 4;

    /** {@code s<thread>-<n>}: an entry of a sub tree, its name the sub key; else a top-level key. */
    static boolean isSubTreeEntry(String name) {
        return name.startsWith("s");
    }

    /** {@code u<thread>-<n>}: a top-level key put without Sync (acknowledged once its owner applied it). */
    static boolean isAsync(String name) {
        return name.startsWith("u");
    }

    private static byte[] subKey(String name) {
        return name.getBytes(StandardCharsets.UTF_8);
    }

    static void write(GodClient c, String name, String value) {
        byte[] v = value.getBytes(StandardCharsets.UTF_8);
        if (isSubTreeEntry(name)) {
            c.subPut(keyBytes(name), subKey(name), v, true);
        } else {
            c.put(keyBytes(name), v, !isAsync(name));
        }
    }

    static void delete(GodClient c, String name) {
        if (isSubTreeEntry(name)) {
            c.subDel(keyBytes(name), subKey(name), true);
        } else {
            c.del(keyBytes(name), true);
        }
    }

    /** Reads a workload key (top level or sub tree): found and value; a failed call throws. */
    static Checker.Final read(GodClient c, String name) {
        if (isSubTreeEntry(name)) {
            GodClient.SubValue v = c.subGet(keyBytes(name), subKey(name));
            return new Checker.Final(false, v.exists(), v.exists() ? new String(v.value(), StandardCharsets.UTF_8) : null);
        }
        GodClient.Value v = c.get(keyBytes(name));
        return new Checker.Final(false, v.exists(), v.exists() ? new String(v.value(), StandardCharsets.UTF_8) : null);
    }

    /** The key's owner in the client's view, with that view's size and the members it thinks catch up. */
    private String ownerOf(byte[] key) {
        List<GodClient.Member> reps = client.replicas(key);
        java.util.Set<String> c = client.catchingUp();
        return (reps.isEmpty() ? "?" : reps.get(0).address()) + " (view " + client.ring().size()
                + (c.isEmpty() ? "" : ", catching up " + new java.util.TreeSet<>(c)) + ")";
    }

    /** Stops the threads; each finishes its current call (bounded by the client's deadline). */
    @Override
    public void close() throws InterruptedException {
        stop = true;
        for (Thread th : threads) {
            th.join(TimeUnit.SECONDS.toMillis(60));
        }
    }
}
