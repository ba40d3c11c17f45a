package io.god.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.persist.CorruptionPolicy;
import io.god.persist.Damages;
import io.god.persist.DurableTree;
import io.god.persist.FsyncPolicy;
import io.god.persist.PersistenceOptions;
import io.god.tree.Tree;
import java.time.Duration;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A single node started as a real process on a damaged data directory: with the default
 * {@code god.persistence.on-corruption=refuse} it exits non-zero, the message names the file, where
 * the damage is and the three choices, and every byte stays on disk. A torn tail does not stop it.
 */
@ScaledTimeout(120)
class DamagedStartTest {

    @TempDir
    Path tmp;

    private record Exit(int code, String out, String err) {
    }

    private Exit start(Path dir, String... settings) throws Exception {
        return startSeeded(dir, null, settings);
    }

    /** seeds: null = the node itself. */
    private Exit startSeeded(Path dir, String seeds, String... settings) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        String address = "127.0.0.1:" + port;
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), StartChild.class.getName(), dir.toString(), address, seeds == null ? address : seeds));
        cmd.addAll(List.of(settings));
        Path out = tmp.resolve("child-" + port + ".out");
        Path err = tmp.resolve("child-" + port + ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            assertThat(p.waitFor(TimeScale.seconds(60).toMillis(), TimeUnit.MILLISECONDS)).as("child finished in time").isTrue();
        } finally {
            p.destroyForcibly();
            p.waitFor(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
        }
        return new Exit(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    @ParameterizedTest
    @EnumSource(Damages.class)
    void aDamagedDirectoryStopsTheNodeAndKeepsEveryByte(Damages kind) throws Exception {
        Path dir = tmp.resolve("data");
        Damages.populate(dir);
        List<String> touched = kind.inflict(dir, 11);
        TreeMap<String, String> before = Damages.fingerprint(dir);
        Exit e = start(dir);
        assertThat(e.code()).as(e.err()).isNotZero();
        assertThat(e.out()).doesNotContain("STARTED");
        assertThat(e.err()).contains("is damaged").contains(dir.toString())
                .contains("god.persistence.on-corruption").contains("refuse").contains("repair").contains("truncate");
        if (kind == Damages.FLIP_MID_LOG || kind == Damages.GARBAGE_NEWEST_LOG) {
            assertThat(e.err()).contains(touched.get(0) + " at offset ");
        } else {
            assertThat(e.err()).containsPattern("log\\(s\\) \\d{20}\\.log.* missing");
        }
        assertThat(Damages.fingerprint(dir)).isEqualTo(before);
    }

    @Test
    void aTornTailIsCutAndTheNodeStarts() throws Exception {
        Path dir = tmp.resolve("data");
        Damages.populate(dir);
        Path newest = Damages.files(dir, "log").lastEntry().getValue();
        long size = Files.size(newest);
        byte[] partial = new byte[4096];
        partial[3] = 40; // a frame header announcing 40 bytes, then zeros: a write the power loss cut off
        Files.write(newest, partial, StandardOpenOption.APPEND);
        Exit e = start(dir);
        assertThat(e.code()).as(e.err()).isZero();
        assertThat(e.out()).contains("STARTED").contains("cut 4096 corrupt/torn bytes").doesNotContain("LOST");
        assertThat(Files.size(newest)).isEqualTo(size);
    }

    /** Without peers that hold copies (no other seed, or god.redundancy=1) repair has nothing to restore from. */
    @ParameterizedTest
    @ValueSource(strings = {"only itself", "no seeds", "redundancy 1"})
    void repairWithoutRingPeersRefusesToo(String peers) throws Exception {
        Path dir = tmp.resolve("data");
        Damages.populate(dir);
        Damages.FLIP_MID_LOG.inflict(dir, 11);
        TreeMap<String, String> before = Damages.fingerprint(dir);
        Exit e = switch (peers) {
            case "only itself" -> start(dir, "god.persistence.on-corruption=repair");
            case "no seeds" -> startSeeded(dir, "", "god.persistence.on-corruption=repair");
            default -> startSeeded(dir, "127.0.0.1:1", "god.persistence.on-corruption=repair", "god.redundancy=1");
        };
        assertThat(e.code()).as(e.err()).isNotZero();
        assertThat(e.out()).doesNotContain("STARTED");
        assertThat(e.err()).contains("is damaged").contains(dir.toString()).contains("needs ring peers")
                .contains("god.seeds").contains("god.redundancy").contains("refuse").contains("truncate");
        assertThat(Damages.fingerprint(dir)).isEqualTo(before);
    }

    /**
     * Repair started the data (with peers), and the node stopped before it caught up: the next start
     * finds a clean directory (repair snapshots at once) but still the marker that records were lost.
     * Without peers it refuses, naming the marker file and the choices; with peers it starts (and waits
     * for them: it founds no ring alone).
     */
    @Test
    void aRepairThatNeverCaughtUpStillNeedsPeersAtTheNextStart() throws Exception {
        Path dir = tmp.resolve("data");
        Damages.populate(dir);
        Damages.GARBAGE_NEWEST_LOG.inflict(dir, 11);
        try (DurableTree d = DurableTree.open(dir, new Tree(() -> 1_000_000L, Duration.ofDays(365)),
                new PersistenceOptions(FsyncPolicy.NO, 0, 2).withOnCorruption(CorruptionPolicy.REPAIR, true))) {
            assertThat(d.recovery().lostRecords()).isTrue();
        }
        Path marker = dir.resolve(DurableTree.REPAIR_PENDING + ".meta");
        assertThat(marker).exists();
        TreeMap<String, String> before = Damages.fingerprint(dir);
        Exit e = start(dir, "god.persistence.on-corruption=repair");
        assertThat(e.code()).as(e.err()).isNotZero();
        assertThat(e.out()).doesNotContain("STARTED");
        assertThat(e.err()).contains(dir.toString()).contains("has not caught up").contains(marker.toString())
                .contains("god.seeds");
        assertThat(Damages.fingerprint(dir)).isEqualTo(before);
        assertThat(marker).exists();

        Exit withPeers = startSeeded(dir, "127.0.0.1:1", "god.persistence.on-corruption=repair");
        assertThat(withPeers.code()).as(withPeers.err()).isZero();
        assertThat(withPeers.out()).contains("STARTED");
        assertThat(marker).as("not caught up yet").exists();
    }

}
