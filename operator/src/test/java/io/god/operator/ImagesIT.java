package io.god.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.operator.fake.Rbac;
import io.god.operator.resources.Ports;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What can be checked of the images without a container engine (failsafe: after {@code package}, so the packaged
 * apps the Dockerfiles copy exist): each Dockerfile runs as a non-root user, exposes the ports the manifests use,
 * exits on OutOfMemoryError, and copies only files that exist; {@code bin/god-k8s-images} is run with fake docker,
 * podman, kind, k3d and minikube on PATH and must call them as documented, or refuse with a message.
 */
class ImagesIT {

    static Path root() {
        return Rbac.deployDir().toAbsolutePath().normalize().getParent();
    }

    @Test
    void theNodeImage() throws IOException {
        Dockerfile f = Dockerfile.read(root().resolve("Dockerfile.node"));
        f.assertRunsAsNonRoot();
        assertThat(f.exposed()).containsExactlyInAnyOrder(Ports.HTTP, Ports.BINARY, Ports.RESP, Ports.MANAGEMENT);
        assertThat(f.text).contains("JAVA_OPTS_APPEND=\"-XX:+ExitOnOutOfMemoryError -XX:+UseTransparentHugePages");
        // not the launcher's ParallelGC with GCTimeRatio=4 (docs/operations.md: garbage collector and heap)
        assertThat(f.text).contains("GC_CONTAINER_OPTIONS=\"-XX:+UseG1GC\"", "GC_TIME_RATIO=12");
        f.assertCopiedFilesExist(root());
    }

    @Test
    void theOperatorImage() throws IOException {
        Dockerfile f = Dockerfile.read(root().resolve("Dockerfile.operator"));
        f.assertRunsAsNonRoot();
        String deployment = Files.readString(Rbac.deployDir().resolve("06-deployment.yaml"));
        assertThat(f.exposed()).singleElement().satisfies(port -> assertThat(deployment).contains("containerPort: " + port));
        assertThat(deployment).as("the user the image runs as").contains("runAsUser: " + f.user());
        assertThat(f.text).contains("JAVA_OPTS_APPEND=\"-XX:+ExitOnOutOfMemoryError");
        f.assertCopiedFilesExist(root());
    }

    /** The native build copies every module's pom: the reactor reads them all, even for {@code -pl node}. */
    @Test
    void theNativeImageCopiesEveryModulePom() throws IOException {
        Dockerfile f = Dockerfile.read(root().resolve("Dockerfile.native"));
        f.assertRunsAsNonRoot();
        String pom = Files.readString(root().resolve("pom.xml"));
        for (String module : pom.split("<module>")) {
            if (module.contains("</module>")) {
                String name = module.substring(0, module.indexOf("</module>"));
                assertThat(f.text).as("Dockerfile.native copies " + name + "/pom.xml").contains("COPY " + name + "/pom.xml");
            }
        }
        f.assertCopiedFilesExist(root());
    }

    /** The -Pjib profiles build the same images as the Dockerfiles: base, user, ports, OOM flag. */
    @Test
    void theJibProfilesMatchTheDockerfiles() throws IOException {
        for (String module : List.of("node", "operator")) {
            Dockerfile f = Dockerfile.read(root().resolve("Dockerfile." + module));
            String pom = Files.readString(root().resolve(module + "/pom.xml"));
            String profile = pom.substring(pom.indexOf("<id>jib</id>"));
            assertThat(property(profile, "quarkus.jib.base-jvm-image")).as(module).isEqualTo(f.from());
            assertThat(property(profile, "quarkus.jib.user")).as(module).isEqualTo(f.user());
            assertThat(Stream.of(property(profile, "quarkus.jib.ports").split(",")).map(Integer::valueOf).toList())
                    .as(module).containsExactlyElementsOf(f.exposed());
            assertThat(property(profile, "quarkus.jib.jvm-additional-arguments")).as(module)
                    .contains("-XX:+ExitOnOutOfMemoryError");
        }
        assertThat(property(Files.readString(root().resolve("node/pom.xml")), "quarkus.jib.jvm-additional-arguments"))
                .as("the node's heap on transparent huge pages, as Dockerfile.node").contains("-XX:+UseTransparentHugePages");
        assertThat(property(Files.readString(root().resolve("node/pom.xml")),
                "quarkus.jib.environment-variables.GOD_DATA_DIR")).as("the node's data directory").isEqualTo("/var/lib/god");
        assertThat(Files.readString(root().resolve("Dockerfile.node"))).contains("ENV GOD_DATA_DIR=/var/lib/god");
    }

    /** .dockerignore keeps .git and build output out of the context, but never a file a Dockerfile copies. */
    @Test
    void theDockerignoreKeepsEveryCopiedSource() throws IOException {
        List<String> rules = Files.readAllLines(root().resolve(".dockerignore")).stream().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        assertThat(DockerIgnore.excluded(rules, ".git/config")).isTrue();
        assertThat(DockerIgnore.excluded(rules, "client/target/classes/x.class")).isTrue();
        for (String name : List.of("Dockerfile.node", "Dockerfile.operator", "Dockerfile.native")) {
            for (String source : Dockerfile.read(root().resolve(name)).copiedSources()) {
                assertThat(DockerIgnore.excluded(rules, source)).as(name + ": COPY " + source + " is in the context")
                        .isFalse();
            }
        }
    }

    private static String property(String pom, String name) {
        int start = pom.indexOf("<" + name + ">");
        assertThat(start).as(name + " in the jib profile").isNotNegative();
        return pom.substring(start + name.length() + 2, pom.indexOf("</" + name + ">", start)).strip();
    }

    /** Docker's rule: the last pattern matching a path or one of its parents decides; "!" re-includes. */
    static final class DockerIgnore {
        static boolean excluded(List<String> rules, String path) {
            boolean excluded = false;
            for (String rule : rules) {
                boolean include = rule.startsWith("!");
                String glob = include ? rule.substring(1) : rule;
                java.nio.file.PathMatcher m = java.nio.file.FileSystems.getDefault().getPathMatcher("glob:" + glob);
                java.nio.file.PathMatcher any = glob.startsWith("**/")
                        ? java.nio.file.FileSystems.getDefault().getPathMatcher("glob:" + glob.substring(3)) : m;
                for (Path p = Path.of(path); p != null; p = p.getParent()) {
                    if (m.matches(p) || any.matches(p)) {
                        excluded = !include;
                        break;
                    }
                }
            }
            return excluded;
        }
    }

    // ---- bin/god-k8s-images with fake tools ---------------------------------------------------------------------

    @TempDir
    Path tmp;

    @Test
    void loadsBothImagesIntoKindWithDocker() throws Exception {
        Script run = script("docker", "kind").run("--skip-build");
        assertThat(run.exit).as(run.output).isZero();
        assertThat(run.calls).containsExactly(
                "docker build -f Dockerfile.node -t ghcr.io/god-io/god-node:0.1.0 .",
                "docker build -f Dockerfile.operator -t ghcr.io/god-io/god-operator:0.1.0 .",
                "kind load docker-image ghcr.io/god-io/god-node:0.1.0",
                "kind load docker-image ghcr.io/god-io/god-operator:0.1.0");
        assertThat(run.output).contains("loaded ghcr.io/god-io/god-node:0.1.0", "kubectl apply -f crds/ -f deploy/");
    }

    @Test
    void aChosenTargetClusterAndTag() throws Exception {
        Script run = script("docker", "kind", "k3d", "minikube").run("--skip-build", "--target", "minikube",
                "--cluster", "dev", "--tag", "t1");
        assertThat(run.exit).as(run.output).isZero();
        assertThat(run.calls).endsWith("minikube image load ghcr.io/god-io/god-node:t1 -p dev",
                "minikube image load ghcr.io/god-io/god-operator:t1 -p dev");
    }

    /** With several cluster tools installed, the cluster kubectl's current context names decides. */
    @Test
    void theKubectlContextChoosesTheClusterTool() throws Exception {
        Script kind = script("docker", "kind", "minikube", "kubectl=kind-dev").run("--skip-build");
        assertThat(kind.exit).as(kind.output).isZero();
        assertThat(kind.calls).endsWith("kind load docker-image ghcr.io/god-io/god-node:0.1.0 --name dev",
                "kind load docker-image ghcr.io/god-io/god-operator:0.1.0 --name dev");
        Script mini = script("docker", "kind", "minikube", "kubectl=minikube").run("--skip-build");
        assertThat(mini.calls).endsWith("minikube image load ghcr.io/god-io/god-operator:0.1.0");
        Script k3d = script("docker", "kind", "kubectl=k3d-ci").run("--skip-build");
        assertThat(k3d.exit).isEqualTo(2);
        assertThat(k3d.output).contains("kubectl's current context is a k3d cluster but k3d is not on PATH");
        Script other = script("docker", "k3d", "kubectl=gke_prod").run("--skip-build");
        assertThat(other.calls).as("an unrelated context: the first tool on PATH")
                .endsWith("k3d image import ghcr.io/god-io/god-operator:0.1.0");
    }

    @Test
    void withPodmanTheImagesGoThroughAnArchive() throws Exception {
        Script run = script("podman", "k3d").run("--skip-build", "--cluster", "c1");
        assertThat(run.exit).as(run.output).isZero();
        assertThat(run.calls.get(0)).isEqualTo("podman build -f Dockerfile.node -t ghcr.io/god-io/god-node:0.1.0 .");
        assertThat(run.calls.get(2)).startsWith("podman save -o ").endsWith(".tar ghcr.io/god-io/god-node:0.1.0");
        String archive = run.calls.get(2).split(" ")[3];
        assertThat(run.calls.get(3)).isEqualTo("k3d image import " + archive + " -c c1");
        assertThat(Path.of(archive)).as("the archive is removed").doesNotExist();
    }

    @Test
    void refusesWithoutAClusterToolOrAnEngineOrWithABadTarget() throws Exception {
        Script none = script("docker").run("--skip-build");
        assertThat(none.exit).isEqualTo(2);
        assertThat(none.output).contains("none of kind, k3d or minikube is on PATH");
        Script noEngine = script("kind").run("--skip-build");
        assertThat(noEngine.exit).isEqualTo(2);
        assertThat(noEngine.output).contains("neither docker nor podman is on PATH");
        Script bad = script("docker", "kind").run("--target", "docker-desktop");
        assertThat(bad.exit).isEqualTo(2);
        assertThat(bad.output).contains("--target must be kind, k3d or minikube, got 'docker-desktop'");
        assertThat(none.calls).isEmpty();
        assertThat(bad.calls).isEmpty();
    }

    @Test
    void theScriptPassesBashAndShellcheck() throws Exception {
        Path file = root().resolve("bin/god-k8s-images");
        assertThat(exec(List.of("bash", "-n", file.toString())).exit).isZero();
        if (onPath("shellcheck") == null) {
            assertThat(System.getenv("CI")).as("CI installs shellcheck (.ci/run)").isNotEqualTo("true");
            Assumptions.abort("shellcheck is not installed");
        }
        Script check = exec(List.of("shellcheck", file.toString()));
        assertThat(check.exit).as(check.output).isZero();
    }

    /** A PATH of fake tools that log their calls, plus only the utilities the script needs. */
    private Runner script(String... tools) throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("bin-" + String.join("-", tools)));
        Path log = tmp.resolve("calls-" + String.join("-", tools) + ".log");
        for (String util : List.of("bash", "dirname", "sed", "mktemp", "rm", "cat")) {
            Path real = onPath(util);
            assertThat(real).as(util).isNotNull();
            Files.createSymbolicLink(bin.resolve(util), real);
        }
        for (String spec : tools) {
            // kubectl=CONTEXT answers "config current-context" with CONTEXT
            String tool = spec.split("=")[0];
            Path fake = bin.resolve(tool);
            String body = "#!/bin/bash\necho \"" + tool + " $*\" >> '" + log + "'\n"
                    + (tool.equals("podman") ? "if [ \"$1\" = save ]; then : > \"$3\"; fi\n" : "")
                    + (spec.contains("=") ? "echo '" + spec.substring(tool.length() + 1) + "'\n" : "");
            Files.writeString(fake, body);
            fake.toFile().setExecutable(true);
        }
        return args -> {
            List<String> command = new ArrayList<>(List.of(onPath("bash").toString(),
                    root().resolve("bin/god-k8s-images").toString()));
            command.addAll(Arrays.asList(args));
            Script s = exec(command, bin.toString());
            s.calls.addAll(Files.exists(log) ? Files.readAllLines(log) : List.of());
            Files.deleteIfExists(log);
            return s;
        };
    }

    @FunctionalInterface
    interface Runner {
        Script run(String... args) throws Exception;
    }

    record Script(int exit, String output, List<String> calls) {
    }

    private static Script exec(List<String> command) throws Exception {
        return exec(command, System.getenv("PATH"));
    }

    private static Script exec(List<String> command, String path) throws Exception {
        ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true);
        b.environment().put("PATH", path);
        Process p = b.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("bounded").isTrue();
        return new Script(p.exitValue(), out, new ArrayList<>());
    }

    private static Path onPath(String tool) {
        return Stream.of(System.getenv("PATH").split(java.io.File.pathSeparator)).map(d -> Path.of(d, tool))
                .filter(Files::isExecutable).findFirst().orElse(null);
    }

    /** The instructions of a Dockerfile that matter here. */
    record Dockerfile(Path file, String text, List<String> lines) {
        static Dockerfile read(Path file) throws IOException {
            String text = Files.readString(file);
            return new Dockerfile(file, text, text.lines().map(String::strip).filter(l -> !l.startsWith("#")).toList());
        }

        String user() {
            return lines.stream().filter(l -> l.startsWith("USER ")).reduce((a, b) -> b).orElse("root")
                    .substring(5).split(":")[0].trim();
        }

        void assertRunsAsNonRoot() {
            assertThat(user()).as(file + ": the last USER").isNotIn("root", "0");
        }

        List<Integer> exposed() {
            return lines.stream().filter(l -> l.startsWith("EXPOSE ")).flatMap(l -> Stream.of(l.substring(7).split("\\s+")))
                    .map(Integer::valueOf).toList();
        }

        /** Every COPY source (not from another stage) is a file or directory of the build context. */
        void assertCopiedFilesExist(Path context) {
            for (String source : copiedSources()) {
                assertThat(context.resolve(source)).as(file.getFileName() + ": COPY " + source).exists();
            }
        }

        /** The COPY sources taken from the build context (not from another stage). */
        List<String> copiedSources() {
            List<String> sources = new ArrayList<>();
            for (String line : lines) {
                if (!line.startsWith("COPY ") || line.contains("--from=")) {
                    continue;
                }
                List<String> parts = Stream.of(line.substring(5).trim().split("\\s+")).filter(p -> !p.startsWith("--"))
                        .toList();
                parts.subList(0, parts.size() - 1).forEach(s -> sources.add(s.replaceAll("/$", "")));
            }
            return sources;
        }

        String from() {
            return lines.stream().filter(l -> l.startsWith("FROM ")).reduce((a, b) -> b).orElseThrow().substring(5)
                    .split("\\s+")[0];
        }
    }
}
