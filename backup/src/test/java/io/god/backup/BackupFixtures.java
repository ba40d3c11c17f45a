package io.god.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.client.GodClient;
import io.god.cluster.Rings;
import io.god.node.GodNode;
import io.god.testing.TimeScale;
import io.god.tree.Entry;
import io.god.tree.Hash128;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the backup tests share, whatever the store: rings of GodNodes in this JVM with the peer
 * credential, the acknowledged writes of a source ring, the check that a target ring holds them with
 * their timestamps, and god-backup's command line run in-process.
 */
final class BackupFixtures {

    static final String TOKEN = "backup-peer-token";
    static final HexFormat HEX = HexFormat.of();

    private BackupFixtures() {
    }

    static Rings ring(int n, Map<String, String> extra) throws Exception {
        Rings r = new Rings();
        r.extra.put("god.auth.token", TOKEN);
        r.extra.put("god.rpc.timeout", TimeScale.setting("300ms"));
        r.extra.putAll(extra);
        for (int i = 0; i < n; i++) {
            r.start(i, null, r.address(0));
            await().atMost(TimeScale.seconds(20)).until(r::converged);
        }
        return r;
    }

    /**
     * Acknowledged writes into source (fixed seed): values, tombstones, sub trees with a sub-key
     * tombstone, a sub tree's and the tree's configuration. Key hex → the newest entry the ring holds.
     */
    static Map<String, Entry> ackedWrites(Rings source, GodClient client) {
        Random random = new Random(38);
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 240; i++) {
            byte[] key = GodClient.hashed("acked-" + i);
            keys.add(key);
            client.put(key, bytes("v" + i + "-" + random.nextInt(1000)), true);
            if (random.nextInt(4) == 0) {
                client.del(key, true); // a tombstone
            }
        }
        for (int i = 0; i < 8; i++) { // sub trees, one with a sub-key tombstone
            byte[] key = GodClient.hashed("tree-" + i);
            keys.add(key);
            for (int j = 0; j < 5; j++) {
                client.subPut(key, bytes("s" + j), bytes("x" + j), true);
            }
            client.subDel(key, bytes("s0"), true);
        }
        client.subAddConfiguration(GodClient.hashed("tree-0"), "mirrored", "yes");
        client.addConfiguration("backup-test", "kept");
        // each member stamps a broadcast configuration itself; anti-entropy spreads the newest stamp: wait for one
        // version, or two backups taken a moment apart hold different configuration records (S3BackupTest, CI)
        await().atMost(TimeScale.seconds(60)).until(() -> source.nodes.stream()
                .map(n -> n.store().state().configurationTimestamp()).distinct().count() == 1);
        Map<String, Entry> acked = new HashMap<>();
        for (byte[] key : keys) {
            acked.put(HEX.formatHex(key), newest(source, key));
        }
        return acked;
    }

    /**
     * Every acknowledged key on each of its n replicas in target (the target's god.redundancy) with its timestamp,
     * and on no other member (restore sends a record to its replicas only); the configuration.
     */
    static void assertRestored(Rings target, Map<String, Entry> acked, int n) {
        List<GodClient.Member> ring = members(target);
        for (Map.Entry<String, Entry> a : acked.entrySet()) {
            byte[] key = HEX.parseHex(a.getKey());
            Set<String> replicas = new TreeSet<>();
            GodClient.replicas(ring, key, n).forEach(r -> replicas.add(r.address()));
            for (GodClient.Member member : ring) {
                Entry e = node(target, member.address()).store().state().entry(key);
                if (replicas.contains(member.address())) {
                    assertThat(e).as("key %s on %s", a.getKey(), member.address()).isNotNull();
                    assertSame(a.getKey(), a.getValue(), e);
                } else {
                    assertThat(e).as("key %s on %s, no replica of it (N=%d)", a.getKey(), member.address(), n).isNull();
                }
            }
        }
        // configuration: the sub tree's on its replicas, the tree-level one on every member
        byte[] tree0 = GodClient.hashed("tree-0");
        for (GodClient.Member replica : GodClient.replicas(ring, tree0, n)) {
            assertThat(node(target, replica.address()).store().state().entry(tree0).sub().configuration())
                    .containsEntry("mirrored", "yes");
        }
        for (GodNode member : target.nodes) {
            assertThat(member.store().state().configuration()).containsEntry("backup-test", "kept");
        }
    }

    /**
     * Keys written again during the backup: on each of its n replicas in target, each key is the version
     * acknowledged when the backup started (the same entry) or a newer one (a later write the backup read).
     * Returns how many replicas hold a newer one.
     */
    static long assertNotOlder(Rings target, Map<String, Entry> asOfStart, int n) {
        List<GodClient.Member> ring = members(target);
        long newer = 0;
        for (Map.Entry<String, Entry> a : asOfStart.entrySet()) {
            byte[] key = HEX.parseHex(a.getKey());
            for (GodClient.Member replica : GodClient.replicas(ring, key, n)) {
                Entry e = node(target, replica.address()).store().state().entry(key);
                assertThat(e).as("key %s on %s", a.getKey(), replica.address()).isNotNull();
                assertThat(e.timestamp()).as("timestamp of %s on %s", a.getKey(), replica.address())
                        .isGreaterThanOrEqualTo(a.getValue().timestamp());
                if (e.timestamp() == a.getValue().timestamp()) {
                    assertSame(a.getKey(), a.getValue(), e);
                } else {
                    newer++;
                }
            }
        }
        return newer;
    }

    /** Target's ring as its first node sees it, sorted by position; every node a member. */
    static List<GodClient.Member> members(Rings target) {
        List<GodClient.Member> ring = target.nodes.get(0).membership().ring().members().stream()
                .map(m -> new GodClient.Member(m.position(), m.address())).toList();
        assertThat(ring).hasSize(target.nodes.size());
        return ring;
    }

    /**
     * A key acknowledged with a plain value (no tombstone, no sub tree): what a ring with a short
     * tombstone window keeps after a restore, where an old tombstone is collected at once.
     */
    static String plainValueKey(Map<String, Entry> acked) {
        return acked.entrySet().stream().filter(e -> !e.getValue().isTombstone() && e.getValue().sub() == null)
                .map(Map.Entry::getKey).sorted().findFirst().orElseThrow();
    }

    /** The newest version of key among the ring's nodes. */
    static Entry newest(Rings r, byte[] key) {
        Entry best = null;
        for (GodNode n : r.nodes) {
            Entry e = n.store().state().entry(key);
            if (e != null && (best == null || e.timestamp() > best.timestamp())) {
                best = e;
            }
        }
        assertThat(best).as("acknowledged key %s held nowhere", HEX.formatHex(key)).isNotNull();
        return best;
    }

    static void assertSame(String key, Entry expected, Entry actual) {
        assertThat(actual).as("key %s", key).isNotNull();
        assertThat(actual.timestamp()).as("timestamp of %s", key).isEqualTo(expected.timestamp());
        assertThat(actual.isTombstone()).as("tombstone %s", key).isEqualTo(expected.isTombstone());
        assertThat(actual.value()).as("value of %s", key).isEqualTo(expected.value());
        if (expected.sub() != null) {
            assertThat(actual.sub()).as("sub tree of %s", key).isNotNull();
            assertThat(actual.sub().hash()).as("sub tree of %s", key).isEqualTo(expected.sub().hash());
        }
    }

    static GodNode node(Rings r, String address) {
        return r.nodes.stream().filter(n -> n.address().equals(address)).findFirst().orElseThrow();
    }

    static Map<String, Hash128> hashes(Rings r) {
        Map<String, Hash128> out = new HashMap<>();
        for (GodNode n : r.nodes) {
            out.put(n.address(), n.store().state().hash());
        }
        return out;
    }

    /** Every distinct record of a backup (hex). */
    static Set<String> records(BackupStore store) {
        Manifest m = Manifest.parse(store.get("manifest.json").orElseThrow(), "manifest");
        Set<String> out = new TreeSet<>();
        for (Manifest.Range r : m.ranges) {
            for (Manifest.Chunk c : r.chunks) {
                for (byte[] b : Chunks.decode(store.get(c.file).orElseThrow(), c.file)) {
                    out.add(HEX.formatHex(b));
                }
            }
        }
        return out;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    record Cli(int code, String out, String err) {
    }

    static Cli cli(String... args) {
        return cli(Map.of(), args);
    }

    /** god-backup's command line in this JVM, with env as its environment (AWS_* for S3). */
    static Cli cli(Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = BackupCli.run(args, new PrintStream(out, true), new PrintStream(err, true), env);
        return new Cli(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
