package io.god.supervise;

import io.god.time.NanoClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Watches a node's background loops (log fsync, tombstone collection, ring ticks, anti-entropy).
 * A loop is dead when it failed, when the thread of its last iteration is gone, or when it has
 * started no iteration and reported no progress for max(5 intervals, 60 s), timed on the injected
 * clock from the moment the supervisor saw its counter last move. A dead loop turns liveness DOWN
 * ({@code /q/health/live}) and is logged once. Checks run when asked ({@link #dead()}): the
 * liveness probe asks every few seconds.
 */
public final class Supervisor {

    /** Silence that always counts as stalled, whatever the interval. */
    public static final Duration MIN_SILENCE = Duration.ofSeconds(60);

    private static final System.Logger LOG = System.getLogger(Supervisor.class.getName());

    private final NanoClock clock;
    private final List<Heartbeat> loops = new CopyOnWriteArrayList<>();
    private final Map<Heartbeat, long[]> seen = new ConcurrentHashMap<>(); // {beats, nanos when they moved}
    private final Map<Heartbeat, Boolean> reported = new ConcurrentHashMap<>();

    public Supervisor(NanoClock clock) {
        this.clock = clock;
    }

    /** A new supervised loop. */
    public Heartbeat register(String name, Duration interval) {
        return add(new Heartbeat(name, interval));
    }

    /** Supervises a heartbeat created elsewhere (e.g. by the write-ahead log). */
    public Heartbeat add(Heartbeat h) {
        seen.put(h, new long[] {h.beats(), clock.nanos()});
        loops.add(h);
        return h;
    }

    /** The names of the dead loops with the reason, e.g. {@code tombstone-gc: thread god-gc-… is gone}. */
    public synchronized List<String> dead() {
        long now = clock.nanos();
        List<String> out = new ArrayList<>();
        for (Heartbeat h : loops) {
            String why = why(h, now);
            if (why != null) {
                out.add(h.name() + ": " + why);
                if (reported.putIfAbsent(h, true) == null) {
                    LOG.log(System.Logger.Level.ERROR, "background loop " + h.name() + " is dead (" + why
                            + "): liveness is DOWN");
                }
            }
        }
        return out;
    }

    /** Whether the loop named {@code name} is alive (true when no such loop is supervised). */
    public boolean alive(String name) {
        for (String d : dead()) {
            if (d.startsWith(name + ":")) {
                return false;
            }
        }
        return true;
    }

    private String why(Heartbeat h, long now) {
        Throwable f = h.failure();
        if (f != null) {
            return "failed: " + f;
        }
        Thread t = h.thread();
        if (t != null && !t.isAlive()) {
            return "thread " + t.getName() + " is gone";
        }
        if (h.interval() == null) {
            return null; // not a loop: only its failure counts
        }
        long[] s = seen.get(h);
        long beats = h.beats();
        if (beats != s[0]) {
            s[0] = beats;
            s[1] = now;
            return null;
        }
        long silence = Math.max(h.interval().multipliedBy(5).toNanos(), MIN_SILENCE.toNanos());
        if (now - s[1] > silence) {
            return "no iteration or progress for " + io.god.node.Durations.format(Duration.ofNanos(now - s[1]));
        }
        return null;
    }

    /** The supervised loops (metrics, tests). */
    public List<Heartbeat> loops() {
        return List.copyOf(loops);
    }
}
