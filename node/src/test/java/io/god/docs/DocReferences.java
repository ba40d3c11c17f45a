package io.god.docs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds what a Markdown document names that does not exist: repository files and directories (backticked
 * paths, code blocks, links with their {@code #anchor}), scripts that are not executable, command-line flags our
 * own tools do not define, {@code god.*} configuration keys and {@code GOD_*} environment variables no setting
 * defines. Paths in backticks and code blocks are relative to the repository root; links to the document.
 */
final class DocReferences {

    /** One missing reference, reported as {@code file:line: message}. */
    record Problem(String file, int line, String message) {
        @Override
        public String toString() {
            return file + ":" + line + ": " + message;
        }
    }

    /** A piece of text that may name things: a code span of a prose line, or a (joined) line of a code block. */
    private record Unit(int line, String text, String proseLine) {
    }

    /** First path segments that are repository directories; a backticked token starting with one is a path. */
    private static final Set<String> ROOT_DIRS =
            Set.of("bin", "bench", "backup", "client", "node", "operator", "deploy", "crds", "docs", ".ci", ".mvn");
    private static final Set<String> ROOT_FILES = Set.of("pom.xml", "mvnw", "mvnw.cmd", "Dockerfile.native", "Dockerfile.node",
            "Dockerfile.operator", "README.md");
    /** Commands of other tools; flags in a unit starting with one are theirs, not ours. */
    private static final Set<String> EXTERNAL_COMMANDS = Set.of("kubectl", "curl", "mvnw", "./mvnw", "mvn", "docker",
            "jfr", "apt-get", "java", "redis-benchmark", "redis-server", "kill", "nice", "printf", "for", "done", "git",
            "helm", "chromium", "sudo", "cd", "export", "yes", "ss", "wget", "unzip", "kind", "k3d", "minikube", "redis-cli");
    /** Markers that attribute a unit's flags to one of our tools (flags after the marker belong to it). */
    private static final Map<String, String> TOOL_MARKERS = Map.of(
            "god-cli", KnownNames.GOD_CLI, "god-backup", KnownNames.GOD_BACKUP, "LoadGen", KnownNames.LOAD_GEN, "run.sh", KnownNames.BENCH_RUN,
            "god-k8s-images", KnownNames.K8S_IMAGES, "resp.sh", KnownNames.BENCH_RESP);

    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*]\\(([^)\\s]+)\\)");
    private static final Pattern LONG_FLAG = Pattern.compile("(?<![\\w-])(--[a-zA-Z][a-zA-Z0-9-]*)");
    private static final Pattern SHORT_FLAG = Pattern.compile("(?<![\\w-])(-[a-zA-Z])(?![\\w-])");
    /** god.x.y, also right after -D; not inside a longer dotted name (io.god.tree, godclusters.god.io). */
    private static final Pattern CONFIG_KEY =
            Pattern.compile("(?:(?<=-D)|(?<![\\w./-]))(god\\.[a-z0-9][a-z0-9-]*(?:\\.[a-z0-9][a-z0-9-]*)*)(?![\\w(-])");
    private static final Pattern ENV_VAR = Pattern.compile("(?<![A-Za-z0-9_])(GOD_[A-Z0-9_]*[A-Z0-9])(?![A-Za-z0-9_])");
    private static final Pattern TOKEN_SPLIT = Pattern.compile("[\\s'\"(),;=|\\[\\]]+");
    /** Names that look like keys but are not settings: the Kubernetes API group (god.io/v1alpha1, god.io/paused). */
    private static final Set<String> NOT_KEYS = Set.of("god.io");

    private final Path root;
    private final KnownNames known;
    private final Map<Path, Set<String>> anchors = new HashMap<>();

    DocReferences(Path root, KnownNames known) {
        this.root = root;
        this.known = known;
    }

    /** The problems of one document; {@code relPath} is its path from the repository root. */
    List<Problem> check(String relPath, String text) {
        List<Problem> problems = new ArrayList<>();
        Path docDir = root.resolve(relPath).getParent();
        String[] lines = text.split("\n", -1);
        List<Unit> units = new ArrayList<>();
        boolean fence = false;
        boolean inSpan = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int lineNo = i + 1;
            if (line.strip().startsWith("```")) {
                fence = !fence;
                inSpan = false;
                continue;
            }
            if (fence) {
                StringBuilder logical = new StringBuilder(stripComment(line));
                while (logical.toString().stripTrailing().endsWith("\\") && i + 1 < lines.length
                        && !lines[i + 1].strip().startsWith("```")) {
                    String l = logical.toString().stripTrailing();
                    logical.setLength(0);
                    logical.append(l, 0, l.length() - 1).append(' ').append(stripComment(lines[++i]));
                }
                units.add(new Unit(lineNo, logical.toString(), null));
                checkNames(relPath, lineNo, logical.toString(), problems);
                continue;
            }
            // Code spans may run over several lines of a paragraph; a blank line ends any.
            if (line.isBlank()) {
                inSpan = false;
            }
            StringBuilder prose = new StringBuilder();
            String[] parts = line.split("`", -1);
            for (int p = 0; p < parts.length; p++) {
                if (p > 0) {
                    inSpan = !inSpan;
                }
                if (inSpan) {
                    units.add(new Unit(lineNo, parts[p], line));
                    prose.append(' ');
                } else {
                    prose.append(parts[p]);
                }
            }
            checkNames(relPath, lineNo, line, problems);
            checkLinks(relPath, lineNo, docDir, prose.toString(), text, problems);
        }
        for (Unit u : units) {
            checkPaths(relPath, u, problems);
            checkFlags(relPath, u, problems);
        }
        problems.sort(Comparator.comparingInt(Problem::line).thenComparing(Problem::message));
        return problems;
    }

    /** The anchors GitHub gives the headings of a Markdown file. */
    static Set<String> anchorsOf(String markdown) {
        Set<String> result = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fence = false;
        for (String line : markdown.split("\n", -1)) {
            if (line.strip().startsWith("```")) {
                fence = !fence;
            } else if (!fence && line.startsWith("#")) {
                String title = line.replaceFirst("^#+\\s*", "").strip();
                String slug = title.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
                int n = seen.merge(slug, 1, Integer::sum);
                result.add(n == 1 ? slug : slug + "-" + (n - 1));
            }
        }
        return result;
    }

    private void checkNames(String file, int line, String text, List<Problem> problems) {
        Matcher key = CONFIG_KEY.matcher(text);
        while (key.find()) {
            String k = key.group(1);
            if (text.startsWith(".*", key.end())) {
                // a family of keys, `god.operator.*`: some key must start with it
                if (known.configKeys().stream().noneMatch(c -> c.startsWith(k + "."))) {
                    problems.add(new Problem(file, line, "no configuration key starts with " + k + "."));
                }
            } else if (!NOT_KEYS.contains(k) && !known.configKeys().contains(k)) {
                problems.add(new Problem(file, line, "configuration key " + k + " is not a setting"));
            }
        }
        Matcher env = ENV_VAR.matcher(text);
        while (env.find()) {
            if (!known.envVars().contains(env.group(1))) {
                problems.add(new Problem(file, line, "environment variable " + env.group(1)
                        + " is neither a setting's variable nor read by our code or scripts"));
            }
        }
    }

    private void checkLinks(String file, int line, Path docDir, String text, String wholeDoc,
                            List<Problem> problems) {
        Matcher m = LINK.matcher(text);
        while (m.find()) {
            String target = m.group(1);
            if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
                continue; // https:, mailto:
            }
            int hash = target.indexOf('#');
            String pathPart = hash < 0 ? target : target.substring(0, hash);
            String anchor = hash < 0 ? null : target.substring(hash + 1);
            if (pathPart.isEmpty()) {
                if (!anchorsOf(wholeDoc).contains(anchor)) {
                    problems.add(new Problem(file, line, "link target " + target + ": no heading with that anchor"));
                }
                continue;
            }
            Path resolved = docDir.resolve(pathPart).normalize();
            if (!resolved.startsWith(root) || !Files.exists(resolved)) {
                problems.add(new Problem(file, line, "link target " + target + " does not exist"));
            } else if (anchor != null && resolved.toString().endsWith(".md")
                    && !anchorsFor(resolved).contains(anchor)) {
                problems.add(new Problem(file, line, "link target " + target + ": no heading with anchor #" + anchor
                        + " in " + root.relativize(resolved)));
            }
        }
    }

    private void checkPaths(String file, Unit unit, List<Problem> problems) {
        for (String raw : TOKEN_SPLIT.split(unit.text())) {
            String token = raw.startsWith("./") ? raw.substring(2) : raw;
            token = token.replaceAll("[.,:;]+$", "");
            if (!isRepoPath(token)) {
                continue;
            }
            Path p = root.resolve(token);
            if (!Files.exists(p)) {
                problems.add(new Problem(file, unit.line(), "no such file or directory: " + token));
            } else if (Files.isRegularFile(p) && isScript(token) && !Files.isExecutable(p)) {
                problems.add(new Problem(file, unit.line(), "script is not executable: " + token));
            }
        }
    }

    private void checkFlags(String file, Unit unit, List<Problem> problems) {
        String text = unit.text();
        String tool = null;
        int from = 0;
        int best = Integer.MAX_VALUE;
        for (Map.Entry<String, String> marker : TOOL_MARKERS.entrySet()) {
            int at = text.indexOf(marker.getKey());
            if (at >= 0 && at < best) {
                best = at;
                tool = marker.getValue();
                from = at + marker.getKey().length();
            }
        }
        if (tool != null) {
            Set<String> defined = known.toolFlags().get(tool);
            for (String flag : flags(text.substring(from), true)) {
                if (!defined.contains(flag)) {
                    problems.add(new Problem(file, unit.line(), "flag " + flag + " is not an option of " + tool));
                }
            }
            return;
        }
        if (EXTERNAL_COMMANDS.contains(firstWord(text))) {
            return;
        }
        // A flag on its own (`--sync`, `--target wire`): some tool of ours must define it.
        for (String flag : flags(text, false)) {
            if (known.toolFlags().values().stream().noneMatch(s -> s.contains(flag))) {
                problems.add(new Problem(file, unit.line(), "flag " + flag + " is not an option of any of our tools "
                        + new TreeSet<>(known.toolFlags().keySet())));
            }
        }
    }

    private static Set<String> flags(String text, boolean withShort) {
        Set<String> found = new TreeSet<>();
        Matcher m = LONG_FLAG.matcher(text);
        while (m.find()) {
            found.add(m.group(1));
        }
        if (withShort) {
            Matcher s = SHORT_FLAG.matcher(text);
            while (s.find()) {
                found.add(s.group(1));
            }
        }
        return found;
    }

    private static String firstWord(String text) {
        String[] words = text.strip().split("\\s+");
        int i = 0;
        while (i < words.length && words[i].matches("[A-Z_][A-Z0-9_]*=.*")) {
            i++; // VAR=value before the command
        }
        return i < words.length ? words[i] : "";
    }

    private static boolean isRepoPath(String token) {
        if (token.isEmpty() || token.matches(".*[<>{}*…$%~].*") || token.contains("://")
                || token.contains("/target/") || token.startsWith("bench/out/")) {
            return false;
        }
        if (ROOT_FILES.contains(token)) {
            return true;
        }
        int slash = token.indexOf('/');
        return slash > 0 && ROOT_DIRS.contains(token.substring(0, slash));
    }

    private static boolean isScript(String path) {
        return path.startsWith("bin/") || path.startsWith(".ci/") || path.endsWith(".sh") || path.equals("mvnw");
    }

    private static String stripComment(String codeLine) {
        if (codeLine.strip().startsWith("#")) {
            return "";
        }
        int at = codeLine.indexOf(" #");
        return at < 0 ? codeLine : codeLine.substring(0, at);
    }

    private Set<String> anchorsFor(Path markdown) {
        return anchors.computeIfAbsent(markdown, p -> anchorsOf(KnownNames.read(p)));
    }
}
