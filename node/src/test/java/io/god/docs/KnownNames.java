package io.god.docs;

import io.god.node.NodeSettings;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What really exists in the repository, for {@link DocReferences}: the configuration keys ({@code god.*}),
 * the environment variables ({@code GOD_*}) and the command-line flags of our own tools. Collected from the
 * definitions themselves (NodeSettings by reflection, the sources and properties files by reading them), so a
 * setting or flag that is renamed or removed makes the docs that still name it fail.
 */
record KnownNames(Set<String> configKeys, Set<String> envVars, Map<String, Set<String>> toolFlags) {

    /** Tool names as {@link DocReferences} attributes them; each maps to the option definitions it is read from. */
    static final String GOD_CLI = "god-cli";
    static final String GOD_BACKUP = "god-backup";
    static final String LOAD_GEN = "LoadGen";
    static final String BENCH_RUN = "bench/run.sh";
    static final String K8S_IMAGES = "god-k8s-images";
    static final String BENCH_RESP = "bench/resp.sh";

    /** A whole Java string literal that is a god.* key: "god.sim.seed", @ConfigProperty(name = "god.operator.x"). */
    private static final Pattern KEY_LITERAL = Pattern.compile("\"(god\\.[a-z0-9][a-z0-9.-]*[a-z0-9])\"");
    /** Environment variables read in Java: System.getenv("GOD_X"), picocli ${env:GOD_X}, env var names in literals. */
    private static final Pattern ENV_IN_JAVA = Pattern.compile("[\"{:](GOD_[A-Z0-9_]+)[\"}]");
    private static final Pattern ENV_IN_SCRIPT = Pattern.compile("\\b(GOD_[A-Z0-9_]+)\\b");
    /** A property element in a POM: <god.crds.update>. */
    private static final Pattern POM_PROPERTY = Pattern.compile("<(god\\.[a-z0-9.-]+)>");
    /** picocli option names: names = "--x" or names = {"-c", "--concurrency"}. */
    private static final Pattern PICOCLI_NAMES = Pattern.compile("names\\s*=\\s*(\\{[^}]*}|\"[^\"]*\")");
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]+)\"");
    /** Case labels of a shell option loop: "    -c|--concurrency) ...". */
    private static final Pattern SHELL_CASE = Pattern.compile("^\\s*(-[-a-zA-Z0-9|]*)\\)", Pattern.MULTILINE);

    static KnownNames of(Path root) {
        Set<String> keys = new TreeSet<>(nodeSettingsKeys());
        Set<String> env = new TreeSet<>();
        for (Path f : sourceFiles(root)) {
            String name = f.getFileName().toString();
            if (name.endsWith(".java")) {
                String src = read(f);
                collect(KEY_LITERAL, src, keys);
                collect(ENV_IN_JAVA, src, env);
            } else if (name.endsWith(".properties") && root.relativize(f).toString().contains("src")) {
                propertiesKeys(read(f), keys);
            } else if (name.equals("pom.xml")) {
                collect(POM_PROPERTY, read(f), keys);
            }
        }
        for (String script : new String[] {"bin/god-cli", "bin/god-backup", "bench/run.sh", ".ci/run"}) {
            Path p = root.resolve(script);
            if (Files.isRegularFile(p)) {
                collect(ENV_IN_SCRIPT, read(p), env);
            }
        }
        for (String key : keys) {
            env.add(key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_'));
        }
        Map<String, Set<String>> flags = new TreeMap<>();
        String tlsOptions = read(root.resolve("client/src/main/java/io/god/cli/TlsOptions.java")); // both mix it in
        flags.put(GOD_CLI, picocliFlags(read(root.resolve("client/src/main/java/io/god/cli/GodCli.java")) + tlsOptions));
        flags.put(GOD_BACKUP, picocliFlags(read(root.resolve("backup/src/main/java/io/god/backup/BackupCli.java"))
                + tlsOptions));
        flags.put(LOAD_GEN, picocliFlags(read(root.resolve("bench/src/main/java/io/god/bench/load/LoadGen.java"))));
        flags.put(BENCH_RUN, shellFlags(read(root.resolve("bench/run.sh"))));
        flags.put(K8S_IMAGES, shellFlags(read(root.resolve("bin/god-k8s-images"))));
        flags.put(BENCH_RESP, shellFlags(read(root.resolve("bench/resp.sh"))));
        return new KnownNames(keys, env, flags);
    }

    /** The node's settings, by reflection over NodeSettings' public key constants. */
    static Set<String> nodeSettingsKeys() {
        Set<String> keys = new TreeSet<>();
        for (Field f : NodeSettings.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                try {
                    String value = (String) f.get(null);
                    if (value != null && value.startsWith("god.")) {
                        keys.add(value);
                    }
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return keys;
    }

    /** Every option name a picocli source defines, plus the standard help options it mixes in. */
    static Set<String> picocliFlags(String source) {
        Set<String> flags = new TreeSet<>();
        Matcher m = PICOCLI_NAMES.matcher(source);
        while (m.find()) {
            collect(QUOTED, m.group(1), flags);
        }
        if (source.contains("mixinStandardHelpOptions = true")) {
            flags.addAll(Set.of("-h", "--help", "-V", "--version"));
        }
        return flags;
    }

    /** The options a shell script's case loop accepts. */
    static Set<String> shellFlags(String script) {
        Set<String> flags = new TreeSet<>();
        Matcher m = SHELL_CASE.matcher(script);
        while (m.find()) {
            for (String alt : m.group(1).split("\\|")) {
                if (alt.startsWith("-")) {
                    flags.add(alt);
                }
            }
        }
        return flags;
    }

    private static void propertiesKeys(String text, Set<String> keys) {
        for (String line : text.split("\n")) {
            String l = line.strip();
            int eq = l.indexOf('=');
            if (l.isEmpty() || l.startsWith("#") || eq < 0) {
                continue;
            }
            String key = l.substring(0, eq).strip();
            if (key.startsWith("%")) {
                key = key.substring(key.indexOf('.') + 1);
            }
            if (key.startsWith("god.")) {
                keys.add(key);
            }
        }
    }

    /** Every file of the repository except build output and version control. */
    private static List<Path> sourceFiles(Path root) {
        List<Path> files = new ArrayList<>();
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                    boolean skip = !dir.equals(root) && (name.equals("target") || name.equals(".git")
                            || name.equals("node_modules") || dir.equals(root.resolve("bench/out")));
                    return skip ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (attrs.isRegularFile()) {
                        files.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    private static void collect(Pattern pattern, String text, Set<String> into) {
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            into.add(m.group(1));
        }
    }

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
