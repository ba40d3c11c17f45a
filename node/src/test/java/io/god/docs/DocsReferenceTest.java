package io.god.docs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Everything README.md and docs/*.md name must exist: files and scripts in the repository, flags of our tools,
 * configuration keys of the node and the operator, environment variables. The first test checks the real docs;
 * the others show, on small made-up documents, that the checker catches each kind of missing reference.
 */
class DocsReferenceTest {

    @Test
    void everyReferenceInReadmeAndDocsExists() throws IOException {
        Path root = repositoryRoot();
        DocReferences checker = new DocReferences(root, KnownNames.of(root));
        List<Path> docs = new ArrayList<>();
        docs.add(root.resolve("README.md"));
        try (Stream<Path> files = Files.list(root.resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        assertThat(docs).hasSizeGreaterThan(1);
        List<DocReferences.Problem> problems = new ArrayList<>();
        for (Path doc : docs) {
            problems.addAll(checker.check(root.relativize(doc).toString(), Files.readString(doc)));
        }
        if (!problems.isEmpty()) {
            StringBuilder msg = new StringBuilder(problems.size() + " reference(s) in README.md and docs/ name"
                    + " something that does not exist:\n");
            problems.forEach(p -> msg.append("  ").append(p).append('\n'));
            fail(msg.toString());
        }
    }

    @Test
    void theRealDefinitionsAreFound() {
        Path root = repositoryRoot();
        KnownNames known = KnownNames.of(root);
        assertThat(known.configKeys()).contains("god.data-dir", "god.ring.interval", "god.operator.default-image",
                "god.operator.admin-port", "god.sim.seed", "god.crds.update");
        assertThat(known.envVars()).contains("GOD_DATA_DIR", "GOD_OPERATOR_DEFAULT_IMAGE", "GOD_CLI_JAR");
        assertThat(known.toolFlags().get(KnownNames.GOD_CLI)).contains("--endpoint", "--sync", "--enc", "--help");
        assertThat(known.toolFlags().get(KnownNames.LOAD_GEN)).contains("--target", "-c", "--concurrency", "--json");
        assertThat(known.toolFlags().get(KnownNames.BENCH_RUN)).contains("--quick", "-c", "--memory-only");
        assertThat(known.toolFlags().get(KnownNames.BENCH_RUN)).doesNotContain("--target");
    }

    @Test
    void optionDefinitionsAreReadFromPicocliAndShellSources() {
        String java = """
                @Command(name = "x", mixinStandardHelpOptions = true)
                class X {
                    @Option(names = "--endpoint", paramLabel = "HOST:PORT") String endpoint;
                    @Option(names = {"-c", "--concurrency"}, description = "workers") int c;
                }
                """;
        assertThat(KnownNames.picocliFlags(java))
                .containsExactlyInAnyOrder("--endpoint", "-c", "--concurrency", "-h", "--help", "-V", "--version");
        String sh = """
                while [ $# -gt 0 ]; do
                  case "$1" in
                    --quick) QUICK=1 ;;
                    -c|--concurrency) CONC=$2; shift ;;
                    *) echo "unknown option $1" >&2; exit 2 ;;
                  esac
                done
                """;
        assertThat(KnownNames.shellFlags(sh)).containsExactlyInAnyOrder("--quick", "-c", "--concurrency");
    }

    @Test
    void aCorrectDocumentHasNoProblems(@TempDir Path root) throws IOException {
        DocReferences checker = fakeRepository(root);
        String doc = """
                # Title
                ## Second part
                Run `bin/tool` or see [docs](docs/a.md#a-heading) and [here](#second-part); set `god.real.key`
                (`GOD_REAL_KEY`, `god.real.*`), `bin/god-cli --sync put k v`, write flags like `--sync` on their own; a
                code span may run over lines: `a [b](c|d)
                [e](f|g) h`, links in it are not links.
                Generated files such as `node/target/x.jar` and placeholders like `bench/out/<time>/` are skipped;
                so are other tools' flags (`kubectl scale --replicas=2`) and names like `io.god.tree` or `god.io/v1`.
                ```
                bin/god-cli --endpoint 127.0.0.1:9191 put --sync a b   # --comment-flags-are-ignored
                java -cp bench/target/b.jar io.god.bench.load.LoadGen --target wire \\
                     -c 4
                ./mvnw -B -o -Dgod.real.key=1 verify
                ```
                """;
        assertThat(checker.check("README.md", doc)).isEmpty();
    }

    @Test
    void eachMissingReferenceIsReportedWithItsLine(@TempDir Path root) throws IOException {
        DocReferences checker = fakeRepository(root);
        String doc = """
                # Title
                Apply `deploy/nothing.yaml`, read [the guide](docs/missing.md), [a part](docs/a.md#no-such-part), [b](#nowhere),
                set `god.fake.key` or `GOD_FAKE_VAR` or `god.nokeys.*`, run `bin/plain.sh`.
                Use `--no-such-flag` alone.
                ```
                bin/god-cli --bogus get k
                java -cp x.jar io.god.bench.load.LoadGen --target wire \\
                     --nope 1
                bench/run.sh --quick --slow
                java -Dgod.other.key=1 -jar x.jar
                ```
                """;
        List<String> problems = checker.check("README.md", doc).stream().map(Object::toString).toList();
        assertThat(problems).containsExactlyInAnyOrder(
                "README.md:2: no such file or directory: deploy/nothing.yaml",
                "README.md:2: link target #nowhere: no heading with that anchor",
                "README.md:2: link target docs/missing.md does not exist",
                "README.md:2: link target docs/a.md#no-such-part: no heading with anchor #no-such-part in docs/a.md",
                "README.md:3: configuration key god.fake.key is not a setting",
                "README.md:3: environment variable GOD_FAKE_VAR is neither a setting's variable nor read by our code"
                        + " or scripts",
                "README.md:3: script is not executable: bin/plain.sh",
                "README.md:3: no configuration key starts with god.nokeys.",
                "README.md:4: flag --no-such-flag is not an option of any of our tools [LoadGen, bench/run.sh, god-cli]",
                "README.md:6: flag --bogus is not an option of god-cli",
                "README.md:7: flag --nope is not an option of LoadGen",
                "README.md:9: flag --slow is not an option of bench/run.sh",
                "README.md:10: configuration key god.other.key is not a setting");
    }

    @Test
    void anchorsFollowGithubRules() {
        assertThat(DocReferences.anchorsOf("""
                # Persistence (`io.god.persist`)
                ## Leave/drain and the stale-data quarantine
                ```
                # not a heading
                ```
                ## Leave/drain and the stale-data quarantine
                """)).containsExactly("persistence-iogodpersist", "leavedrain-and-the-stale-data-quarantine",
                "leavedrain-and-the-stale-data-quarantine-1");
    }

    /** A repository with one executable script, one plain one, docs/a.md, and a small set of known names. */
    private static DocReferences fakeRepository(Path root) throws IOException {
        Files.createDirectories(root.resolve("bin"));
        Files.createDirectories(root.resolve("docs"));
        Path tool = Files.writeString(root.resolve("bin/tool"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path plain = Files.writeString(root.resolve("bin/plain.sh"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(plain, PosixFilePermissions.fromString("rw-r--r--"));
        Files.createDirectories(root.resolve("bench"));
        for (String script : List.of("bin/god-cli", "bench/run.sh", "mvnw")) {
            Path p = Files.writeString(root.resolve(script), "#!/bin/sh\n");
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Files.writeString(root.resolve("docs/a.md"), "# A heading\n");
        KnownNames known = new KnownNames(Set.of("god.real.key"), Set.of("GOD_REAL_KEY"), Map.of(
                KnownNames.GOD_CLI, Set.of("--endpoint", "--sync"),
                KnownNames.LOAD_GEN, Set.of("--target", "-c"),
                KnownNames.BENCH_RUN, Set.of("--quick")));
        return new DocReferences(root, known);
    }

    /** The repository root: the nearest directory up from the working directory holding README.md and docs/. */
    static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            if (Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("docs"))
                    && Files.isDirectory(dir.resolve("node"))) {
                return dir;
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("no repository root (README.md, docs/, node/) above " + Path.of("").toAbsolutePath());
    }
}
