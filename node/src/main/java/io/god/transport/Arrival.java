package io.god.transport;

/**
 * The earliest time (monotonic ns, {@link System#nanoTime}) the request this thread is handling can have reached
 * the node: the transport's previous read on its connection, set around the handler call. Bytes read now arrived
 * after that read — and perhaps long before this one: a request that waited in the kernel's socket buffer through a
 * pause of the process is read after the pause like a fresh one ({@link io.god.time.PauseWatch} uses it; the chaos
 * campaign's "delayed write through a paused owner", seed 7113503430625268374).
 */
public final class Arrival {

    /** No transport read is known for this thread's request (not a TCP request, or not on its handler thread). */
    public static final long UNKNOWN = Long.MIN_VALUE;

    private static final ThreadLocal<long[]> AFTER = ThreadLocal.withInitial(() -> new long[] {UNKNOWN});

    private Arrival() {
    }

    /** When the current request can have arrived at the earliest, or {@link #UNKNOWN}. */
    public static long after() {
        return AFTER.get()[0];
    }

    /** Runs {@code handling} with {@link #after} = {@code readBefore}; returns what it returns. */
    static <T> T during(long readBefore, java.util.function.Supplier<T> handling) {
        long[] slot = AFTER.get();
        long outer = slot[0];
        slot[0] = readBefore;
        try {
            return handling.get();
        } finally {
            slot[0] = outer;
        }
    }
}
