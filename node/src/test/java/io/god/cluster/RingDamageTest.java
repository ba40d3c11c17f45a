package io.god.cluster;

import static io.god.cluster.Rings.b64;
import static io.god.cluster.Rings.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.node.GodNode;
import io.god.persist.Damages;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.time.NanoClock;
import io.god.tree.Entry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member of a 3-node ring restarted on a damaged data directory with
 * {@code god.persistence.on-corruption=repair}: it starts with what is valid, and anti-entropy brings
 * back every acknowledged value and tombstone with its timestamp. When the lost part held deletions
 * the ring has since collected, the member is quarantined instead and nothing deleted comes back.
 */
@ScaledTimeout(180)
class RingDamageTest {

    static final Duration WAIT = TimeScale.seconds(30);

    @TempDir
    Path tmp;

    private final AtomicLong offset = new AtomicLong();
    /** Every acknowledged write: key → value, or null for a deletion. */
    private final Map<String, String> model = new LinkedHashMap<>();
    private int next;

    private Rings rings() throws Exception {
        Rings rings = new Rings();
        NanoClock system = NanoClock.system();
        rings.clock = () -> system.nanos() + offset.get();
        rings.extra.put("god.persistence.on-corruption", "repair");
        rings.extra.put("god.persistence.snapshot-threshold", "16K");
        rings.extra.put("god.sync.interval", "50ms");
        rings.extra.put("god.tombstone-window", "1h");
        return rings;
    }

    private static String seeds(Rings rings) {
        return rings.address(0) + "," + rings.address(1);
    }

    private void put(Rings rings, String key) {
        String v = "v" + next++ + "-" + key;
        call(rings.rpcs.get(0), "Put", "{\"Key\":\"" + b64(key) + "\",\"Value\":\"" + b64(v) + "\",\"Sync\":true}");
        model.put(key, v);
    }

    private void del(Rings rings, String key) {
        call(rings.rpcs.get(0), "Del", "{\"Key\":\"" + b64(key) + "\",\"Sync\":true}");
        model.put(key, null);
    }

    /**
     * New keys, overwrites and deletions of earlier live keys (never a second deletion: anti-entropy
     * compares content, not timestamps, so a newer tombstone of a deleted key is not a difference).
     */
    private void batch(Rings rings, String prefix, int puts, int overwrites, int deletes) {
        String[] earlier = model.entrySet().stream().filter(e -> e.getValue() != null).map(Map.Entry::getKey)
                .toArray(String[]::new);
        for (int i = 0; i < puts; i++) {
            put(rings, prefix + "-" + i);
        }
        for (int i = 0; i < Math.min(overwrites, earlier.length); i++) {
            put(rings, earlier[(i * 7) % earlier.length]);
        }
        for (int i = 0; i < Math.min(deletes, earlier.length); i++) {
            String k = earlier[(i * 13 + 3) % earlier.length];
            if (model.get(k) != null) {
                del(rings, k);
            }
        }
    }

    private static Entry entry(GodNode n, String key) {
        return n.store().state().entry(key.getBytes(StandardCharsets.UTF_8));
    }

    /** n holds every acknowledged write as node 0 holds it: same value or tombstone, same timestamp. */
    private boolean holdsEverything(GodNode reference, GodNode n) {
        for (String k : model.keySet()) {
            Entry want = entry(reference, k);
            Entry got = entry(n, k);
            if (got == null || got.timestamp() != want.timestamp() || got.isTombstone() != want.isTombstone()
                    || got.hasValue() && !Arrays.equals(got.value(), want.value())) {
                return false;
            }
        }
        return true;
    }

    private String differences(GodNode reference, GodNode n) {
        StringBuilder b = new StringBuilder();
        int count = 0;
        for (String k : model.keySet()) {
            Entry want = entry(reference, k);
            Entry got = entry(n, k);
            if (got == null || got.timestamp() != want.timestamp() || got.isTombstone() != want.isTombstone()) {
                if (count++ < 5) {
                    b.append(k).append(" want ").append(want).append(" got ").append(got).append("; ");
                }
            }
        }
        return count + ": " + b;
    }

    /** Node 0 holds exactly what was acknowledged; returns {values, tombstones}. */
    private int[] checkReference(GodNode reference) {
        int values = 0;
        int tombstones = 0;
        for (Map.Entry<String, String> m : model.entrySet()) {
            Entry e = entry(reference, m.getKey());
            assertThat(e).as(m.getKey()).isNotNull();
            if (m.getValue() == null) {
                assertThat(e.isTombstone()).as(m.getKey()).isTrue();
                tombstones++;
            } else {
                assertThat(new String(e.value(), StandardCharsets.UTF_8)).isEqualTo(m.getValue());
                values++;
            }
        }
        return new int[] {values, tombstones};
    }

    @Test
    void repairBringsBackEveryAcknowledgedValueAndTombstoneAfterEachKindOfDamage() throws Exception {
        try (Rings rings = rings()) {
            for (int i = 0; i < 3; i++) {
                rings.start(i, tmp.resolve("n" + i), seeds(rings));
            }
            await().atMost(WAIT).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 3);
            Path dir = tmp.resolve("n2");
            for (Damages kind : Damages.values()) {
                batch(rings, kind.name(), 300, 40, 40); // > 16K of log: a snapshot on every node
                for (int r = 0; r < 2; r++) { // two restarts of the member: two more logs after the snapshot
                    restart(rings, dir);
                    batch(rings, kind.name() + "-r" + r, 5, 2, 3);
                }
                GodNode victim = rings.nodes.get(2);
                await().atMost(WAIT).until(() -> holdsEverything(rings.nodes.get(0), victim));
                victim.close();
                kind.inflict(dir, 3);
                GodNode back = rings.start(2, dir, seeds(rings));
                assertThat(back.recovery().lostRecords()).as(kind + ": " + back.recovery()).isTrue();
                assertThat(back.recovery().damage()).as(kind.name()).isNotEmpty();
                try {
                    await().atMost(WAIT).until(() -> rings.converged() && holdsEverything(rings.nodes.get(0), back));
                } catch (org.awaitility.core.ConditionTimeoutException e) {
                    throw new AssertionError(kind + ": converged " + rings.converged() + ", state " + back.state()
                            + ", first differences " + differences(rings.nodes.get(0), back) + "; " + back.recovery(), e);
                }
                int[] counts = checkReference(rings.nodes.get(0));
                System.out.printf("%s: %d values and %d tombstones back with their timestamps%n", kind, counts[0],
                        counts[1]);
                assertThat(counts[0]).isPositive();
                assertThat(counts[1]).isPositive();
                assertThat(back.quarantine().quarantines()).isZero();
            }
        }
    }

    private void restart(Rings rings, Path dir) {
        rings.nodes.get(2).close();
        rings.start(2, dir, seeds(rings));
        await().atMost(WAIT).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 3);
    }

    /**
     * The lost part of the log held deletions the ring collected while the member was down: its
     * lastAliveAt is lowered to what it still has, so the stale-data check quarantines it, and not one
     * deleted key comes back.
     */
    @Test
    void aLostPartOlderThanTheTombstoneWindowQuarantinesTheMemberAndResurrectsNothing() throws Exception {
        try (Rings rings = rings()) {
            rings.extra.put("god.persistence.snapshot-threshold", "0");
            for (int i = 0; i < 3; i++) {
                rings.start(i, tmp.resolve("n" + i), seeds(rings));
            }
            await().atMost(WAIT).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 3);
            for (int k = 0; k < 100; k++) {
                put(rings, "k" + k);
            }
            Path dir = tmp.resolve("n2");
            await().atMost(WAIT).until(() -> holdsEverything(rings.nodes.get(0), rings.nodes.get(2)));
            restart(rings, dir); // the deletions go to a log of their own
            for (int k = 0; k < 50; k++) {
                del(rings, "k" + k);
            }
            long deleted = rings.clock.nanos();
            GodNode victim = rings.nodes.get(2);
            await().atMost(WAIT).until(() -> holdsEverything(rings.nodes.get(0), victim)
                    && victim.quarantine().lastAliveAt() > deleted);
            victim.close();
            Damages.GARBAGE_NEWEST_LOG.inflict(dir, 5); // the deletions are lost on this member
            await().atMost(WAIT).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 2);
            // the ring collects only at its expected size (DESIGN §5): the member is removed, as an operator
            // does for a member gone for good; it comes back later and rejoins like any node
            rings.nodes.get(0).membership().remove(rings.address(2));
            await().atMost(WAIT).until(() -> rings.running().stream()
                    .allMatch(n -> n.membership().expected().size() == 2));
            offset.addAndGet(Duration.ofHours(2).toNanos()); // the window passes; the ring forgets the deletions
            for (GodNode n : rings.running()) {
                await().atMost(WAIT).until(() -> {
                    n.collectGarbage();
                    return n.store().state().realSize() == n.store().state().size();
                });
            }
            assertThat(rings.nodes.get(0).store().collectedUpTo()).isGreaterThan(0);

            GodNode back = rings.start(2, dir, seeds(rings));
            assertThat(back.recovery().lostRecords()).isTrue();
            // its lastAliveAt was later than the deletions before the damage: only the lowered value (to what
            // the damaged data still holds, before any exchange) makes the stale-data check quarantine it. The
            // check may already have run inside start(), which then moves lastAliveAt to the quarantine time.
            await().atMost(WAIT).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 3);
            assertThat(back.quarantine().quarantines()).isEqualTo(1);
            await().atMost(WAIT).until(() -> back.store().state().size() == 50);
            int resurrected = 0;
            for (GodNode n : rings.running()) {
                for (int k = 0; k < 50; k++) {
                    if (entry(n, "k" + k) != null && entry(n, "k" + k).hasValue()) {
                        resurrected++;
                    }
                }
            }
            assertThat(resurrected).isZero();
            for (int k = 50; k < 100; k++) {
                assertThat(entry(back, "k" + k).hasValue()).isTrue();
            }
        }
    }
}
