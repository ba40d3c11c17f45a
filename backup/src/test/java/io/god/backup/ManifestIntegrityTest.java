package io.god.backup;

import static io.god.backup.BackupFixtures.bytes;
import static io.god.backup.BackupFixtures.cli;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.god.backup.BackupFixtures.Cli;
import io.god.persist.Record;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backup's manifest is checked before anything is read from it: its own sha256 (an edited newestTimestamp would
 * mislead the resurrection guard), its format and version, every chunk present with the record count, tombstones
 * and newest timestamp the manifest says, and totals that add up. Verify and restore refuse each with a message
 * naming the problem (a backup of two chunks written here, no ring needed: restore refuses before it connects).
 */
class ManifestIntegrityTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    private BackupStore store;

    @BeforeEach
    void aBackupOfTwoChunks() {
        store = new BackupStore.Dir(dir);
        Manifest m = new Manifest();
        m.startedAt = "2026-11-25T12:00:00Z";
        m.redundancy = 3;
        m.ring.add(new Manifest.Member("80", "127.0.0.2:9191"));
        m.ranges = Backup.ranges(m.ring);
        Manifest.Range r = m.ranges.get(0);
        r.chunks.add(Backup.chunk(store, r, List.of(Record.put(bytes("a"), bytes("1"), 100).encode(),
                Record.delete(bytes("b"), 150).encode()), "127.0.0.2:9191"));
        r.chunks.add(Backup.chunk(store, r, List.of(Record.put(bytes("c"), bytes("3"), 120).encode(),
                Record.put(bytes("d"), bytes("4"), 130).encode(), Record.delete(bytes("e"), 140).encode()),
                "127.0.0.2:9191"));
        r.complete = true;
        m.complete = true;
        m.finishedAt = "2026-11-25T12:00:01Z";
        m.total();
        store.put(Manifest.FILE, m.toJson());
    }

    @Test
    void anIntactBackupVerifies() {
        Manifest m = Verify.check(store, quiet());
        assertThat(m.records).isEqualTo(5);
        assertThat(m.tombstones).isEqualTo(2);
        assertThat(m.newestTimestamp).isEqualTo(150);
        assertThat(m.sha256).hasSize(64);
        Cli verify = cli("backup", "verify", dir.toString());
        assertThat(verify.code()).as(verify.err()).isZero();
    }

    @Test
    void anEditedNewestTimestampIsRefused() throws Exception {
        editText(json -> json.put("newestTimestamp", Long.MAX_VALUE / 2)); // newer than any collectedUpTo
        assertRefused("manifest.json was edited or is damaged: its content has sha256 ", "its sha256 field says ");
    }

    @Test
    void aManifestWithoutItsChecksumIsRefused() throws Exception {
        editText(json -> json.remove("sha256"));
        assertRefused("manifest.json has no sha256 of its content");
    }

    @Test
    void anotherFormatOrVersionIsRefusedByName() throws Exception {
        editText(json -> json.put("version", 1));
        assertRefused("manifest.json: format version 1 is not supported (this tool reads 2)");
        editText(json -> json.put("version", 2).put("format", "other-tool"));
        assertRefused("manifest.json: format 'other-tool', expected 'god-backup'");
    }

    @Test
    void aMissingChunkIsRefused() throws Exception {
        Files.delete(dir.resolve("chunks/r00000-c000001.gbk"));
        assertRefused("damaged (1 problems)", "chunks/r00000-c000001.gbk is missing");
    }

    @Test
    void aWrongRecordCountIsRefused() {
        reseal(m -> m.ranges.get(0).chunks.get(1).records = 4);
        assertRefused("chunks/r00000-c000001.gbk holds 3 records, the manifest says 4");
    }

    @Test
    void aChunksNewestTimestampOrTombstonesOtherThanItsRecordsAreRefused() {
        reseal(m -> m.ranges.get(0).chunks.get(0).newestTimestamp = 99);
        assertRefused("chunks/r00000-c000000.gbk holds 1 tombstones and newest timestamp 150, the manifest says 1 and 99");
    }

    @Test
    void totalsThatDoNotAddUpAreRefused() {
        reseal(m -> m.newestTimestamp = 1_000);
        assertRefused("manifest.json says 5 records, 2 tombstones, ", "newest timestamp 1000; its chunks add up to 5, 2, ");
    }

    /** Edits manifest.json as a person would: its checksum stays as it was. */
    private void editText(Consumer<ObjectNode> edit) throws Exception {
        ObjectNode json = (ObjectNode) JSON.readTree(store.get(Manifest.FILE).orElseThrow());
        edit.accept(json);
        store.put(Manifest.FILE, JSON.writeValueAsBytes(json));
    }

    /** Changes the manifest and writes it with a new checksum, as a faulty tool would. */
    private void reseal(Consumer<Manifest> change) {
        Manifest m = Manifest.parse(store.get(Manifest.FILE).orElseThrow(), Manifest.FILE);
        change.accept(m);
        store.put(Manifest.FILE, m.toJson());
    }

    /** backup verify and restore both exit 1 naming the problem; restore before it asks any node anything. */
    private void assertRefused(String... expected) {
        Cli verify = cli("backup", "verify", dir.toString());
        assertThat(verify.code()).as(verify.out()).isEqualTo(1);
        assertThat(verify.err()).contains(expected);
        Cli restore = cli("--endpoint", "127.0.0.1:9", "--timeout", "1s", "restore", "--from", dir.toString());
        assertThat(restore.code()).as(restore.out()).isEqualTo(1);
        assertThat(restore.err()).contains(expected).doesNotContain("unavailable");
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true);
    }
}
