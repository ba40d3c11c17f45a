package io.god.persist;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** The real disk with faults for tests: a "full disk" after a byte budget, a gate on snapshot fsync. */
public class ForwardingDisk extends DelegatingDisk {

    /** Bytes that may still be written to logs before writes fail like a full disk (negative = no limit). */
    public final AtomicLong logBudget = new AtomicLong(-1);
    /** When set, a snapshot's fsync waits for it (the snapshot is "being written"). */
    volatile CountDownLatch snapshotGate;
    final CountDownLatch snapshotReachedGate = new CountDownLatch(1);
    volatile boolean failSnapshots;

    public ForwardingDisk() {
        super(NioDisk.INSTANCE);
    }

    @Override
    public AppendFile create(Path file) throws IOException {
        AppendFile f = disk.create(file);
        boolean log = file.getFileName().toString().endsWith(".log");
        boolean snap = file.getFileName().toString().endsWith(".snap.tmp");
        return new DelegatingFile(f) {
            @Override
            public void write(ByteBuffer buf) throws IOException {
                if (snap && failSnapshots) {
                    throw new IOException("simulated snapshot failure");
                }
                long budget = logBudget.get();
                if (log && budget >= 0) {
                    int n = buf.remaining();
                    if (n > budget) {
                        // a partial write, then no space left
                        ByteBuffer part = buf.duplicate();
                        part.limit(part.position() + (int) budget);
                        f.write(part);
                        logBudget.set(0);
                        throw new IOException("No space left on device (simulated)");
                    }
                    logBudget.addAndGet(-n);
                }
                f.write(buf);
            }

            @Override
            public void sync() throws IOException {
                CountDownLatch gate = snapshotGate;
                if (snap && gate != null) {
                    snapshotReachedGate.countDown();
                    try {
                        if (!gate.await(30, TimeUnit.SECONDS)) {
                            throw new IOException("gate never opened");
                        }
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }
                f.sync();
            }
        };
    }
}
