package io.god.backup;

import static io.god.backup.BackupFixtures.HEX;
import static io.god.backup.BackupFixtures.TOKEN;
import static io.god.backup.BackupFixtures.ackedWrites;
import static io.god.backup.BackupFixtures.assertRestored;
import static io.god.backup.BackupFixtures.assertSame;
import static io.god.backup.BackupFixtures.bytes;
import static io.god.backup.BackupFixtures.hashes;
import static io.god.backup.BackupFixtures.plainValueKey;
import static io.god.backup.BackupFixtures.records;
import static io.god.backup.BackupFixtures.ring;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.god.backup.BackupFixtures.Cli;
import io.god.client.GodClient;
import io.god.cluster.Rings;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.tree.Entry;
import io.god.tree.Hash128;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * god-backup against a real S3 API server in this JVM: s3proxy on a free loopback port over jclouds'
 * in-memory ("transient") blob store, with AWS v4 signatures. Backup of a 3-node ring to
 * {@code s3://bucket/prefix}, verify, restore into a 5-node ring; a corrupted chunk object; a backup
 * whose JVM was killed and resumed; the resurrection guard; a missing bucket, wrong credentials, an
 * unreachable endpoint and an HTTP error on a PUT as one-line errors naming the object.
 */
@ScaledTimeout(240)
class S3BackupTest {

    private static final String BUCKET = "god-backups";
    private static final String ACCESS_KEY = "backup-access";
    private static final String SECRET_KEY = "backup-secret-key";
    /** god-backup's environment: credentials and region as AWS tools read them. */
    private static final Map<String, String> ENV = Map.of("AWS_ACCESS_KEY_ID", ACCESS_KEY,
            "AWS_SECRET_ACCESS_KEY", SECRET_KEY, "AWS_REGION", "us-east-1");
    private static BlobStoreContext blobs;
    private static S3Proxy s3;
    private static String s3Endpoint;
    private static Rings source;
    private static GodClient client;
    private static Map<String, Entry> acked;

    @TempDir
    Path tmp;

    @BeforeAll
    static void s3AndSourceRing() throws Exception {
        blobs = ContextBuilder.newBuilder("transient").credentials("unused", "unused").build(BlobStoreContext.class);
        blobs.getBlobStore().createContainerInLocation(null, BUCKET);
        s3 = S3Proxy.builder().blobStore(blobs.getBlobStore()).endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY).build();
        s3.start();
        await().atMost(TimeScale.seconds(20)).until(() -> "STARTED".equals(s3.getState()));
        s3Endpoint = "http://127.0.0.1:" + s3.getPort();
        source = ring(3, Map.of());
        client = GodClient.builder().endpoints(source.address(0)).token(TOKEN).build();
        acked = ackedWrites(source, client);
    }

    @AfterAll
    static void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (source != null) {
            source.close();
        }
        if (s3 != null) {
            s3.stop();
        }
        if (blobs != null) {
            blobs.close();
        }
    }

    @Test
    void backupToS3VerifyAndRestoreIntoFiveNodes() throws Exception {
        String where = "s3://" + BUCKET + "/ring-a/2026-11-25";
        Cli backup = cli("--endpoint", source.address(1), "backup", "--to", where, "--chunk-size", "4096");
        assertThat(backup.code()).as(backup.err()).isZero();
        assertThat(backup.out()).contains("backup complete").contains(where);
        BlobStore bs = blobs.getBlobStore();
        assertThat(bs.blobExists(BUCKET, "ring-a/2026-11-25/manifest.json")).isTrue();
        Manifest m = Manifest.parse(blob("ring-a/2026-11-25/manifest.json"), "manifest");
        assertThat(m.ring).hasSize(3);
        assertThat(m.tombstones).isPositive();
        for (Manifest.Range r : m.ranges) {
            for (Manifest.Chunk c : r.chunks) {
                assertThat(bs.blobExists(BUCKET, "ring-a/2026-11-25/" + c.file)).as(c.file).isTrue();
            }
        }

        Cli verify = cli("backup", "verify", where);
        assertThat(verify.code()).as(verify.err()).isZero();
        assertThat(verify.out()).contains("verified:");

        try (Rings target = ring(5, Map.of("god.redundancy", "5"))) { // another N than the source's 3
            Cli restore = cli("--endpoint", target.address(2), "restore", "--from", where);
            assertThat(restore.code()).as(restore.err()).isZero();
            assertThat(restore.out()).contains("restore complete").contains("(N=5)");
            assertRestored(target, acked, 5);
            Map<String, Hash128> before = hashes(target);
            Cli again = cli("--endpoint", target.address(0), "restore", "--from", where);
            assertThat(again.code()).as(again.err()).isZero();
            assertThat(hashes(target)).isEqualTo(before);
        }
    }

    @Test
    void aCorruptedChunkObjectIsDetected() throws Exception {
        String where = "s3://" + BUCKET + "/corrupt";
        assertThat(cli("--endpoint", source.address(0), "backup", "--to", where, "--chunk-size", "4096").code())
                .isZero();
        Manifest m = Manifest.parse(blob("corrupt/manifest.json"), "manifest");
        String file = m.ranges.get(1).chunks.get(0).file;
        byte[] b = blob("corrupt/" + file);
        b[b.length / 2] ^= 0x20;
        BlobStore bs = blobs.getBlobStore();
        bs.putBlob(BUCKET, bs.blobBuilder("corrupt/" + file).payload(b).build()); // behind god-backup's back

        Cli verify = cli("backup", "verify", where);
        assertThat(verify.code()).isEqualTo(1);
        assertThat(verify.err()).contains("damaged").contains(file).contains("sha256");
        try (Rings target = ring(1, Map.of())) {
            Cli restore = cli("--endpoint", target.address(0), "restore", "--from", where);
            assertThat(restore.code()).isEqualTo(1);
            assertThat(restore.err()).contains("damaged");
            assertThat(target.nodes.get(0).store().state().size()).isZero();
        }
    }

    @Test
    void aBackupKilledMidwayAndResumedEqualsAnUninterruptedOne() throws Exception {
        assertThat(cli("--endpoint", source.address(0), "backup", "--to", "s3://" + BUCKET + "/whole",
                "--chunk-size", "1024").code()).isZero();
        assertThat(Manifest.parse(blob("whole/manifest.json"), "manifest").ranges.stream()
                .mapToInt(r -> r.chunks.size()).sum()).isGreaterThan(8);
        String where = "s3://" + BUCKET + "/resumed";
        Path log = tmp.resolve("child.log");
        Process child = BackupChild.start(log, ENV, source.address(0), TOKEN, where, "1024", "5", s3Endpoint);
        try {
            await().atMost(TimeScale.seconds(60)).until(() -> BackupChild.said(log, "STALLED") || !child.isAlive());
            assertThat(BackupChild.said(log, "STALLED")).as(Files.exists(log) ? Files.readString(log) : "no log").isTrue();
        } finally {
            child.destroyForcibly();
            child.waitFor();
        }
        BlobStore bs = blobs.getBlobStore();
        assertThat(bs.blobExists(BUCKET, "resumed/manifest.json")).isFalse();
        Manifest partial = Manifest.parse(blob("resumed/progress.json"), "progress");
        assertThat(partial.ranges.stream().mapToInt(r -> r.chunks.size()).sum()).isEqualTo(5);

        Cli resume = cli("--endpoint", source.address(2), "backup", "--to", where, "--resume", "--chunk-size", "1024");
        assertThat(resume.code()).as(resume.err()).isZero();
        try (BackupStore whole = store("s3://" + BUCKET + "/whole"); BackupStore resumed = store(where)) {
            assertThat(records(resumed)).isEqualTo(records(whole)).isNotEmpty();
            PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true);
            Manifest b = Verify.check(resumed, quiet);
            assertThat(b.newestTimestamp).isEqualTo(Verify.check(whole, quiet).newestTimestamp);
            for (int i = 0; i < partial.ranges.size(); i++) { // the chunks written before the kill are kept
                for (int j = 0; j < partial.ranges.get(i).chunks.size(); j++) {
                    assertThat(b.ranges.get(i).chunks.get(j).sha256).isEqualTo(partial.ranges.get(i).chunks.get(j).sha256);
                }
            }
        }
    }

    @Test
    void theResurrectionGuardRefusesAnOlderBackupUnlessAllowed() throws Exception {
        String where = "s3://" + BUCKET + "/guard";
        assertThat(cli("--endpoint", source.address(0), "backup", "--to", where).code()).isZero();
        try (Rings target = ring(1, Map.of("god.tombstone-window", "1s", "god.gc.interval", "100ms"))) {
            try (GodClient c = GodClient.builder().endpoints(target.address(0)).token(TOKEN).build()) {
                c.put(bytes("gone"), bytes("1"), true);
                c.del(bytes("gone"), true);
                NodeCalls calls = new NodeCalls(c, TimeScale.seconds(5));
                await().atMost(TimeScale.seconds(30)).until(() -> calls.info(target.address(0)).collectedUpTo() > 0);
            }
            Cli refused = cli("--endpoint", target.address(0), "restore", "--from", where);
            assertThat(refused.code()).isEqualTo(1);
            assertThat(refused.err()).contains("collectedUpTo").contains("--allow-resurrection");
            Cli allowed = cli("--endpoint", target.address(0), "restore", "--from", where, "--allow-resurrection");
            assertThat(allowed.code()).as(allowed.err()).isZero();
            String someKey = plainValueKey(acked); // a restored old tombstone is collected at once here
            assertSame(someKey, acked.get(someKey), target.nodes.get(0).store().state().entry(HEX.parseHex(someKey)));
        }
    }

    @Test
    void s3FailuresAreOneLineErrorsNamingBucketAndObject() {
        Cli noBucket = cli("--endpoint", source.address(0), "backup", "--to", "s3://no-such-bucket/x");
        assertThat(noBucket.code()).isEqualTo(1);
        assertThat(noBucket.err()).contains("S3 bucket no-such-bucket does not exist");
        assertOneLine(noBucket);

        Map<String, String> wrongSecret = new HashMap<>(ENV);
        wrongSecret.put("AWS_SECRET_ACCESS_KEY", "not-the-secret");
        Cli denied = BackupFixtures.cli(wrongSecret, "--s3-endpoint", s3Endpoint, "backup", "verify",
                "s3://" + BUCKET + "/denied");
        assertThat(denied.code()).isEqualTo(1);
        assertThat(denied.err()).contains("HTTP 403").contains("s3://" + BUCKET);
        assertOneLine(denied);

        Cli unreachable = BackupFixtures.cli(ENV, "--s3-endpoint", "http://127.0.0.1:1", "restore", "--from",
                "s3://" + BUCKET + "/x");
        assertThat(unreachable.code()).isEqualTo(1);
        assertThat(unreachable.err()).contains("s3://" + BUCKET).contains("127.0.0.1:1");
        assertOneLine(unreachable);

        BlobStore bs = blobs.getBlobStore();
        bs.createContainerInLocation(null, "doomed");
        try (BackupStore doomed = store("s3://doomed/p")) {
            bs.deleteContainer("doomed"); // gone after the bucket check: S3 answers the PUT with 404
            assertThatThrownBy(() -> doomed.put("chunks/r00000-c000000.gbk", new byte[] {1}))
                    .isInstanceOf(BackupException.class)
                    .hasMessageContaining("S3 PUT s3://doomed/p/chunks/r00000-c000000.gbk failed")
                    .hasMessageContaining("HTTP 404 NoSuchBucket");
        }

        Cli badLocation = cli("backup", "verify", "s3:///prefix");
        assertThat(badLocation.code()).isEqualTo(2);
        assertThat(badLocation.err()).contains("s3://BUCKET[/PREFIX]");
    }

    // ------------------------------------------------------------------ helpers

    private static void assertOneLine(Cli c) {
        assertThat(c.err().strip().lines().toList()).as(c.err()).hasSize(1);
        assertThat(c.err()).startsWith("god-backup: ").doesNotContain("Exception");
    }

    /** god-backup with the peer credential, the s3proxy endpoint and the AWS environment. */
    private static Cli cli(String... args) {
        List<String> all = new java.util.ArrayList<>(List.of("--token", TOKEN, "--s3-endpoint", s3Endpoint));
        all.addAll(List.of(args));
        return BackupFixtures.cli(ENV, all.toArray(String[]::new));
    }

    private static BackupStore store(String location) {
        return BackupStore.of(location, new S3Store.Options(URI.create(s3Endpoint), ENV));
    }

    private static byte[] blob(String key) throws Exception {
        try (var in = blobs.getBlobStore().getBlob(BUCKET, key).getPayload().openStream()) {
            return in.readAllBytes();
        }
    }
}
