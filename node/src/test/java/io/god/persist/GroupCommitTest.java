package io.god.persist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group commit under {@code fsync=always}: a lone writer gets one fsync per record and never waits to gather
 * others; concurrent writers share fsyncs.
 */
class GroupCommitTest {

    /** Counts fsyncs and the records they made durable. */
    static final class Counting implements PersistenceObserver {
        final AtomicLong fsyncs = new AtomicLong();
        final AtomicLong records = new AtomicLong();

        @Override
        public void synced(long nanos, long n) {
            fsyncs.incrementAndGet();
            records.addAndGet(n);
        }
    }

    private static final byte[] FRAME = new byte[32];

    @Test
    void aLoneWriterGetsOneFsyncPerRecordWithoutGathering(@TempDir Path dir) throws Exception {
        Counting c = new Counting();
        try (WriteAheadLog wal = WriteAheadLog.open(NioDisk.INSTANCE, dir, 1, FsyncPolicy.ALWAYS)) {
            wal.observer = c;
            for (int i = 0; i < 50; i++) {
                wal.awaitDurable(wal.append(FRAME));
                assertThat(wal.together()).isEqualTo(1); // nothing to gather: the leader syncs at once
            }
        }
        assertThat(c.fsyncs.get()).isGreaterThanOrEqualTo(50);
        assertThat(c.records.get()).isEqualTo(50);
    }

    @Test
    void concurrentWritersShareFsyncs(@TempDir Path dir) throws Exception {
        Counting c = new Counting();
        int writers = 8;
        int each = 100;
        try (WriteAheadLog wal = WriteAheadLog.open(NioDisk.INSTANCE, dir, 1, FsyncPolicy.ALWAYS)) {
            wal.observer = c;
            Object appendLock = new Object(); // the caller serialises appends (DurableTree's write lock)
            CyclicBarrier start = new CyclicBarrier(writers);
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                Thread t = new Thread(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < each; i++) {
                            long lsn;
                            synchronized (appendLock) {
                                lsn = wal.append(FRAME);
                            }
                            wal.awaitDurable(lsn);
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                t.start();
                threads.add(t);
            }
            for (Thread t : threads) {
                t.join();
            }
        }
        assertThat(c.records.get()).isEqualTo((long) writers * each);
        // every record durable, and on average well over one per fsync
        assertThat(c.fsyncs.get()).isLessThan(c.records.get() / 2);
    }
}
