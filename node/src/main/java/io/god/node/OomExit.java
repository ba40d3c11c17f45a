package io.god.node;

/**
 * The node's own exit on {@link OutOfMemoryError}, for where {@code -XX:+ExitOnOutOfMemoryError} is
 * not on the command line (an embedding, a native image started without it): after an OOM, threads
 * may have died anywhere (the log's fsync, tombstone collection, anti-entropy), so a node that goes
 * on answering would be half-alive. It exits with the JVM's own OOM exit code, 3, after one log line.
 */
public final class OomExit {

    /** The exit code of {@code -XX:+ExitOnOutOfMemoryError}. */
    public static final int EXIT_CODE = 3;

    private OomExit() {
    }

    /** Halts the process if {@code t} is (or was caused by) an OutOfMemoryError; otherwise returns. */
    public static void onError(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof OutOfMemoryError) {
                // no allocation-heavy logging: one line to stderr, then halt (no shutdown hooks: they may need memory)
                System.err.println("god node: terminating due to java.lang.OutOfMemoryError in thread "
                        + Thread.currentThread().getName() + " (exit code " + EXIT_CODE + ")");
                System.err.flush();
                Runtime.getRuntime().halt(EXIT_CODE);
            }
        }
    }

    /** Installs a default uncaught-exception handler that halts on OOM (once per process). */
    public static synchronized void install() {
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        if (previous instanceof Handler) {
            return;
        }
        Thread.setDefaultUncaughtExceptionHandler(new Handler(previous));
    }

    private record Handler(Thread.UncaughtExceptionHandler previous) implements Thread.UncaughtExceptionHandler {
        @Override
        public void uncaughtException(Thread t, Throwable e) {
            onError(e);
            if (previous != null) {
                previous.uncaughtException(t, e);
            } else {
                System.err.print("Exception in thread \"" + t.getName() + "\" ");
                e.printStackTrace();
            }
        }
    }
}
