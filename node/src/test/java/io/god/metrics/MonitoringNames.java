package io.god.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names deploy/monitoring/ uses: every PromQL expression of the Grafana dashboard (panel
 * targets, template queries) and of the PrometheusRule, and the names in them that a scrape lacks.
 */
public final class MonitoringNames {

    /** Our metric families and the JVM/process ones a dashboard might use. */
    static final Pattern NAME = Pattern.compile("\\b((?:god|jvm|process|http_server)_[a-z0-9_]+)\\b");

    private MonitoringNames() {
    }

    public static Path dir() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("deploy/monitoring"))) {
                return p.resolve("deploy/monitoring");
            }
        }
        throw new AssertionError("deploy/monitoring not found above " + Path.of("").toAbsolutePath());
    }

    /** The expressions of the dashboard's panels and template variables. */
    public static List<String> dashboardExpressions(Path dashboard) throws IOException {
        JsonNode d = new ObjectMapper().readTree(dashboard.toFile());
        List<String> out = new ArrayList<>();
        for (JsonNode panel : d.path("panels")) {
            for (JsonNode t : panel.path("targets")) {
                out.add(t.path("expr").asText());
            }
        }
        for (JsonNode v : d.path("templating").path("list")) {
            if ("query".equals(v.path("type").asText())) {
                out.add(v.path("query").asText());
            }
        }
        return out;
    }

    /** The expressions of every rule of a PrometheusRule. */
    public static List<String> ruleExpressions(Path rules) throws IOException {
        JsonNode r = new ObjectMapper(new YAMLFactory()).readTree(rules.toFile());
        if (!"PrometheusRule".equals(r.path("kind").asText())) {
            throw new AssertionError(rules + " is not a PrometheusRule");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode g : r.path("spec").path("groups")) {
            for (JsonNode rule : g.path("rules")) {
                out.add(rule.path("expr").asText());
            }
        }
        return out;
    }

    /** The metric names in some expressions. */
    public static Set<String> names(List<String> expressions) {
        Set<String> names = new TreeSet<>();
        for (String e : expressions) {
            Matcher m = NAME.matcher(e);
            while (m.find()) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    /** The names no sample of a Prometheus scrape carries. */
    public static Set<String> missing(Set<String> names, String scrape) {
        Set<String> present = new TreeSet<>();
        scrape.lines().filter(l -> !l.isBlank() && !l.startsWith("#"))
                .forEach(l -> present.add(l.replaceAll("[{ ].*", "")));
        Set<String> out = new TreeSet<>(names);
        out.removeAll(present);
        return out;
    }
}
