package io.god.cluster;

import static io.god.cluster.Rings.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.events.Event;
import io.god.node.GodNode;
import io.god.persist.Record;
import io.god.ring.Member;
import io.god.ring.Ring;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reference §9.7 on a 5-node N=3 ring, the sync loop driven by the test: testSync, testClean, testMigrate. */
@ScaledTimeout(120)
class MigrationTest {

    static final Duration CONVERGE = TimeScale.seconds(20);

    @TempDir
    Path tmp;

    /** One iteration of every node's sync loop (sync round, cleaning pass, migration check). */
    private static void loop(Rings rings) {
        for (GodNode n : rings.running()) {
            n.syncRound();
        }
        for (GodNode n : rings.running()) {
            n.cleanPass();
        }
        for (GodNode n : rings.running()) {
            n.migratePass();
        }
        await().atMost(CONVERGE).until(rings::converged);
    }

    static final String EPOCH = "1970-01-01T00:00:00Z";

    private static com.fasterxml.jackson.databind.JsonNode describe(Rings rings, int i) throws Exception {
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(call(rings.rpcs.get(i), "Describe", "{}"));
    }

    private static long holders(Rings rings, byte[] key) {
        return rings.running().stream().filter(n -> n.store().state().get(key).exists()).count();
    }

    @Test
    void syncCleanAndMigrateBalanceOneUnhashedPrefix() throws Exception {
        try (Rings rings = new Rings()) {
            rings.extra.put("god.sync.interval", "1h");
            int size = 5;
            for (int i = 0; i < size; i++) {
                rings.start(i, tmp.resolve("m" + i), rings.address(0));
            }
            await().atMost(CONVERGE).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == size);
            await().atMost(CONVERGE).until(() -> rings.running().stream().allMatch(n -> n.membership().stableTicks() >= 3));
            EventLog log = new EventLog(rings.running());
            // Describe before any sync round or move: the epoch (never)
            assertThat(describe(rings, 0).get("LastSync").asText()).isEqualTo(EPOCH);
            assertThat(describe(rings, 0).get("LastMigrate").asText()).isEqualTo(EPOCH);
            // testSync: a write straight into node 0's tree ends on exactly N nodes
            byte[] three = {3};
            rings.nodes.get(0).store().apply(Record.put(three, new byte[] {0}, rings.nodes.get(0).timestamps().next()));
            // a write straight into its owner's tree reaches the successors by the owner's sync (a Sync event)
            byte[] five = {5};
            GodNode owner = node(rings, rings.nodes.get(0).membership().ring().replicas(five, 3).get(0));
            owner.store().apply(Record.put(five, five, owner.timestamps().next()));
            // testClean: every node writes [1] locally; it ends on exactly N nodes
            byte[] one = {1};
            for (GodNode n : rings.running()) {
                n.store().apply(Record.put(one, one, n.timestamps().next()));
            }
            for (int i = 0; i < 4 && (holders(rings, three) != 3 || holders(rings, one) != 3 || holders(rings, five) != 3); i++) {
                loop(rings);
            }
            assertThat(holders(rings, three)).isEqualTo(3);
            assertThat(holders(rings, one)).isEqualTo(3);
            assertThat(holders(rings, five)).isEqualTo(3);
            // the owner's sync rounds pushed [5] to its successors; cleaning handed [1] over and dropped it
            assertThat(log.of(Event.Sync.class)).anySatisfy(e -> {
                assertThat(e.source().address()).isEqualTo(owner.address());
                assertThat(e.destination().address()).isNotEqualTo(owner.address());
                assertThat(e.pushed()).isPositive();
            });
            assertThat(log.of(Event.Clean.class)).isNotEmpty()
                    .allSatisfy(e -> assertThat(e.cleaned()).isPositive());
            // Describe reports the last sync round's time (not the epoch); no node moved yet
            for (int i = 0; i < size; i++) {
                var d = describe(rings, i);
                assertThat(java.time.Instant.parse(d.get("LastSync").asText()))
                        .isAfter(java.time.Instant.parse(d.get("LastReroute").asText()).minusSeconds(1))
                        .isNotEqualTo(java.time.Instant.EPOCH);
                assertThat(d.get("LastMigrate").asText()).isEqualTo(EPOCH);
            }

            // testMigrate: Clear, then "0".."999" unhashed through node 0
            call(rings.rpcs.get(0), "Clear", "{}");
            // each member stamps the broadcast Clear itself: one that ran it only after some of the puts below had
            // reached it (its answer late under load) would clear them, and sync spreads that newer Clear
            await().atMost(CONVERGE).until(() -> rings.running().stream().allMatch(n -> n.store().state().size() == 0));
            for (int k = 0; k < 1000; k++) {
                String b64 = Base64.getEncoder().encodeToString(String.valueOf(k).getBytes(StandardCharsets.UTF_8));
                call(rings.rpcs.get(0), "Put", "{\"Key\":\"" + b64 + "\",\"Value\":\"" + b64 + "\",\"Sync\":true}");
            }
            int passes = 0;
            while (!balanced(rings) && passes < 150) {
                loop(rings);
                passes++;
            }
            System.out.println("migration balanced after " + passes + " loop iterations, migrations "
                    + rings.running().stream().mapToLong(n -> n.migrator().migrations()).sum() + ", owned "
                    + owned(rings));
            assertThat(balanced(rings)).as("owned %s; keys not held by their owner: %s", owned(rings), misplaced(rings))
                    .isTrue();
            // every migration was announced, from the old position to the new one, last one = current position
            List<Event.Migrate> migrates = log.of(Event.Migrate.class);
            assertThat((long) migrates.size()).isEqualTo(rings.running().stream().mapToLong(n -> n.migrator().migrations()).sum());
            assertThat(migrates).isNotEmpty().allSatisfy(e -> assertThat(e.to()).isNotEqualTo(e.from()));
            for (GodNode n : rings.running()) {
                migrates.stream().filter(e -> e.node().address().equals(n.address())).reduce((x, y) -> y)
                        .ifPresent(last -> assertThat(last.to()).isEqualTo(n.membership().self().position()));
            }
            log.close();
            // Describe: LastMigrate is the time of the last move on the nodes that moved, the epoch elsewhere
            for (int i = 0; i < size; i++) {
                GodNode n = rings.nodes.get(i);
                boolean moved = migrates.stream().anyMatch(e -> e.node().address().equals(n.address()));
                String last = describe(rings, i).get("LastMigrate").asText();
                if (moved) {
                    assertThat(java.time.Instant.parse(last)).isNotEqualTo(java.time.Instant.EPOCH);
                } else {
                    assertThat(last).isEqualTo(EPOCH);
                }
            }
            // the new positions are persisted
            for (GodNode n : rings.running()) {
                assertThat(n.store().metadata().orElseThrow().get(GodNode.POSITION).orElseThrow())
                        .isEqualTo(n.membership().self().position());
            }
        }
    }

    private static List<Long> owned(Rings rings) {
        Ring ring = rings.nodes.get(0).membership().ring();
        return ring.members().stream().map(m -> Migrator.owned(node(rings, m).store().state(), ring, m.address())).toList();
    }

    private static GodNode node(Rings rings, Member m) {
        return rings.running().stream().filter(n -> n.address().equals(m.address())).findFirst().orElseThrow();
    }

    /** The keys "0".."999" that their owner (in node 0's view) does not hold, with the members that do (at most 20). */
    private static List<String> misplaced(Rings rings) {
        Ring ring = rings.nodes.get(0).membership().ring();
        List<String> out = new java.util.ArrayList<>();
        for (int k = 0; k < 1000 && out.size() < 20; k++) {
            byte[] key = String.valueOf(k).getBytes(StandardCharsets.UTF_8);
            GodNode owner = node(rings, ring.successor(key));
            if (!owner.store().state().get(key).exists()) {
                out.add(k + " (owner " + owner.address() + ", held by " + rings.running().stream()
                        .filter(n -> n.store().state().get(key).exists()).map(GodNode::address).toList() + ")");
            }
        }
        return out;
    }

    /** §9.7: every node owns > 0, the sum is 1000, and owned(pred)/owned(succ) ≤ 1.5 around the ring. */
    private static boolean balanced(Rings rings) {
        List<Long> o = owned(rings);
        long sum = o.stream().mapToLong(Long::longValue).sum();
        if (sum != 1000 || o.stream().anyMatch(x -> x == 0)) {
            return false;
        }
        for (int i = 0; i < o.size(); i++) {
            if (o.get(i) > 1.5 * o.get((i + 1) % o.size())) {
                return false;
            }
        }
        return true;
    }
}
