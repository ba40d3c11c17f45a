package io.god.tree;

import static io.god.tree.TreeFixtures.b;
import static org.assertj.core.api.Assertions.assertThat;

import io.god.testing.TimeScale;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Readers running while a writer moves amounts between keys (two writes per version) must see only
 * whole versions: the sum is constant, and every version's counts and hash agree with its content.
 */
class ConcurrentReadersTest {

    private static byte[] amount(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    private static long amount(byte[] b) {
        return ByteBuffer.wrap(b).getLong();
    }

    /** A tree of {@code accounts} keys acct0, acct1, … sharing {@code total} equally. */
    private static Tree accounts(int accounts, long total) {
        Tree tree = TreeFixtures.newTree();
        for (int i = 0; i < accounts; i++) {
            tree.put(b("acct" + i), amount(total / accounts), 1);
        }
        return tree;
    }

    @Test
    void readersSeeOnlyWholeVersions() throws Exception {
        int accounts = 64;
        long total = 64_000;
        Tree tree = accounts(accounts, total);
        AtomicBoolean done = new AtomicBoolean();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        List<Thread> readers = new ArrayList<>();
        long[] versionsRead = new long[3];
        for (int r = 0; r < 3; r++) {
            int id = r;
            Thread t = new Thread(() -> {
                while (!done.get()) {
                    TreeState s = tree.state();
                    long sum = 0;
                    long count = 0;
                    for (Iterator<Entry> it = s.entries(null); it.hasNext(); ) {
                        Entry e = it.next();
                        sum += amount(e.value());
                        count++;
                    }
                    if (sum != total || count != accounts || s.values().size() != accounts) {
                        failures.add("torn version: sum " + sum + " count " + count);
                    }
                    versionsRead[id]++;
                }
            });
            readers.add(t);
            t.start();
        }
        java.util.Random rnd = new java.util.Random(1);
        long ts = 2;
        for (int i = 0; i < 20_000; i++) {
            byte[] from = b("acct" + rnd.nextInt(accounts));
            byte[] to = b("acct" + rnd.nextInt(accounts));
            long stamp = ts++;
            tree.update(s -> {
                long move = Math.min(10, amount(s.get(from).value()));
                TreeState after = s.put(from, amount(amount(s.get(from).value()) - move), stamp);
                return after.put(to, amount(amount(after.get(to).value()) + move), stamp + 1);
            });
            ts++;
        }
        done.set(true);
        for (Thread t : readers) {
            t.join(10_000);
        }
        assertThat(failures).isEmpty();
        assertThat(versionsRead[0] + versionsRead[1] + versionsRead[2]).isGreaterThan(0);
        // the final version's hash equals a tree rebuilt from its content
        Tree rebuilt = TreeFixtures.newTree();
        for (Iterator<Entry> it = tree.state().entries(null); it.hasNext(); ) {
            Entry e = it.next();
            rebuilt.put(e.key(), e.value(), 1);
        }
        assertThat(rebuilt.state().hash()).isEqualTo(tree.state().hash());
    }

    /**
     * Writers on several threads (the RESP event loops and workers) read and write inside {@link Tree#update}: the
     * lock that orders them spins before it parks ({@code Tree#lockWrites}), and no update may be lost to it — a
     * lost one shows as a total that moved or a counter short of the updates made.
     */
    @Test
    void writersOnSeveralThreadsNeverLoseAnUpdate() throws Exception {
        int accounts = 16;
        long total = 16_000;
        Tree tree = accounts(accounts, total);
        tree.put(b("updates"), amount(0), 1);
        java.util.concurrent.atomic.AtomicLong stamps = new java.util.concurrent.atomic.AtomicLong(2);
        int writers = 4;
        int each = 5_000;
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            java.util.Random rnd = new java.util.Random(w);
            Thread t = new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    byte[] from = b("acct" + rnd.nextInt(accounts));
                    byte[] to = b("acct" + rnd.nextInt(accounts));
                    tree.update(s -> {
                        long stamp = stamps.getAndAdd(3); // under the lock: stamps grow in the order of the updates
                        long move = Math.min(7, amount(s.get(from).value()));
                        TreeState after = s.put(from, amount(amount(s.get(from).value()) - move), stamp);
                        after = after.put(to, amount(amount(after.get(to).value()) + move), stamp + 1);
                        return after.put(b("updates"), amount(amount(after.get(b("updates")).value()) + 1), stamp + 2);
                    });
                }
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join(TimeScale.seconds(60).toMillis());
        }
        assertThat(threads).noneMatch(Thread::isAlive);
        long sum = 0;
        for (int i = 0; i < accounts; i++) {
            sum += amount(tree.state().get(b("acct" + i)).value());
        }
        assertThat(sum).as("amounts moved between accounts: the total stays").isEqualTo(total);
        assertThat(amount(tree.state().get(b("updates")).value())).as("every update counted once")
                .isEqualTo((long) writers * each);
    }
}
