package io.god.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Writes a run's {@code report.md} and {@code report.json}: seed, schedule, ops by outcome, availability, invariants. */
final class Report {

    private Report() {
    }

    /** Operations by kind and outcome between two times (ms): "PUT" → {"OK": 12, "UNKNOWN": 1}. */
    static Map<String, Map<String, Integer>> counts(List<Op> ops, long from, long to) {
        Map<String, Map<String, Integer>> out = new TreeMap<>();
        for (Op op : ops) {
            if (op.invoke() >= from && op.invoke() < to) {
                out.computeIfAbsent(op.kind().name(), k -> new TreeMap<>()).merge(op.outcome().name(), 1, Integer::sum);
            }
        }
        return out;
    }

    static Map<String, Integer> byKind(List<Checker.Violation> vs) {
        Map<String, Integer> out = new TreeMap<>();
        vs.forEach(v -> out.merge(v.kind(), 1, Integer::sum));
        return out;
    }

    static Map<String, Object> json(Campaign.Result r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seed", r.config().seed());
        m.put("nodes", r.config().nodes());
        m.put("passed", r.passed());
        m.put("wallMs", r.wallMs());
        m.put("opsByOutcome", counts(r.history(), Long.MIN_VALUE, Long.MAX_VALUE));
        List<Map<String, Object>> phases = new ArrayList<>();
        for (Campaign.Phase p : r.phases()) {
            Map<String, Object> ph = new LinkedHashMap<>();
            ph.put("nemesis", p.nemesis());
            ph.put("action", p.action());
            ph.put("injectedAtMs", p.injectedAt());
            ph.put("healedAtMs", p.healedAt());
            ph.put("smallestRingSeen", p.smallestRing());
            ph.put("convergedAfterMs", p.convergedAfterMs());
            ph.put("notConverged", p.notConverged());
            ph.put("opsDuringFault", counts(r.history(), p.injectedAt(), p.healedAt()));
            phases.add(ph);
        }
        m.put("schedule", phases);
        m.put("finalConvergenceMs", r.finalConvergenceMs());
        m.put("finalNotConverged", r.finalNotConverged());
        m.put("keysChecked", r.finals().size());
        m.put("violationsByKind", byKind(r.violations()));
        m.put("violations", r.violations().stream().limit(20).map(Checker.Violation::describe).toList());
        Replicas.Outcome rep = r.replicas();
        if (rep != null) {
            Map<String, Object> rm = new LinkedHashMap<>();
            rm.put("keys", rep.keys());
            rm.put("copies", rep.copies());
            rm.put("firstPassMs", rep.firstPassMs());
            rm.put("differedAtFirst", rep.differedAtFirst());
            rm.put("agreedAfterMs", rep.agreedAfterMs());
            rm.put("mismatches", rep.mismatches().size());
            m.put("replicaComparison", rm);
        }
        if (r.config().tombstoneWindow() != null) {
            Map<String, Object> w = new LinkedHashMap<>();
            w.put("tombstoneWindowMs", r.config().tombstoneWindow().toMillis());
            w.put("faultMs", r.config().faultTime().toMillis());
            w.put("countsByKind", byKind(r.beyondWindow()));
            w.put("nodes", r.windowNotes());
            w.put("excerpts", r.beyondWindow().stream().limit(10).map(Checker.Violation::describe).toList());
            m.put("beyondTombstoneWindow", w);
        }
        m.put("knownIssues", r.knownIssues());
        m.put("unavailableBeyondSkewBound", r.unavailable());
        return m;
    }

    static String markdown(Campaign.Result r) {
        StringBuilder b = new StringBuilder("# Chaos campaign\n\n");
        b.append("- seed: `").append(r.config().seed()).append("` (replay: `-Dgod.chaos.seed=").append(r.config().seed())
                .append("`)\n- nodes: ").append(r.config().nodes()).append(", N=3, Sync=true writes\n- result: **")
                .append(r.passed() ? "passed" : "FAILED").append("** in ").append(r.wallMs() / 1000.0).append(" s\n")
                .append("- operations: ").append(counts(r.history(), Long.MIN_VALUE, Long.MAX_VALUE)).append('\n')
                .append("- final convergence: ").append(r.finalConvergenceMs() == null ? "NONE: " + r.finalNotConverged()
                        : r.finalConvergenceMs() + " ms").append("; keys checked: ").append(r.finals().size()).append('\n');
        Replicas.Outcome rep = r.replicas();
        b.append("- replicas compared (direct reads of each key's copies): ").append(rep == null ? "not compared (no convergence)"
                : rep.keys() + " keys, " + rep.copies() + " copies in " + rep.firstPassMs() + " ms, " + rep.differedAtFirst()
                + " keys differed, " + (rep.agreedAfterMs() == null ? "**" + rep.mismatches().size() + " still differ**"
                : "the same data on every replica " + rep.agreedAfterMs() + " ms later")).append("\n\n");
        b.append("| nemesis | action | fault (ms) | smallest ring seen | converged after heal (ms) | ops during the fault (availability) |\n")
                .append("|---|---|---|---|---|---|\n");
        for (Campaign.Phase p : r.phases()) {
            b.append("| ").append(p.nemesis()).append(" | ").append(p.action()).append(" | ").append(p.injectedAt())
                    .append("–").append(p.healedAt()).append(" | ").append(p.smallestRing()).append(" | ")
                    .append(p.convergedAfterMs() == null ? "NOT: " + p.notConverged() : p.convergedAfterMs())
                    .append(" | ").append(counts(r.history(), p.injectedAt(), p.healedAt())).append(" |\n");
        }
        b.append("\n## Invariants\n\n");
        if (r.violations().isEmpty()) {
            b.append("No lost acknowledged write, no resurrected delete, no stale read, every key readable after the heal, ")
                    .append(r.replicas() == null ? "replicas not compared.\n" : "the same data on each key's replicas.\n");
        } else {
            b.append(r.violations().size()).append(" violations (seed ").append(r.config().seed()).append("):\n\n```\n");
            r.violations().stream().limit(20).forEach(v -> b.append(v.describe()).append('\n'));
            b.append("```\n");
        }
        if (r.config().tombstoneWindow() != null) {
            b.append("\n## Partition longer than the tombstone window (reported, never failing)\n\n")
                    .append("Tombstone window ").append(r.config().tombstoneWindow().toMillis()).append(" ms, faults of ")
                    .append(r.config().faultTime().toMillis()).append(" ms. What the checker found: ")
                    .append(byKind(r.beyondWindow())).append(" (resurrected deletes, lost writes: ")
                    .append(r.beyondWindow().stream().filter(v -> v.kind().equals("resurrected delete")).count())
                    .append(", ").append(r.beyondWindow().stream().filter(v -> v.kind().equals("lost write")).count())
                    .append(").\n\n```\n");
            r.windowNotes().forEach(n -> b.append(n).append('\n'));
            r.beyondWindow().stream().limit(5).forEach(v -> b.append(v.describe()).append('\n'));
            b.append("```\n");
        }
        if (!r.knownIssues().isEmpty()) {
            b.append("\n## Known issues seen (reported, not failing; KnownIssues)\n\n```\n");
            r.knownIssues().forEach(k -> b.append(k).append('\n'));
            b.append("```\n");
        }
        if (!r.unavailable().isEmpty()) {
            b.append("\n## Beyond the skew bound (counted as unavailable, not violations)\n\n```\n");
            r.unavailable().forEach(k -> b.append(k).append('\n'));
            b.append("```\n");
        }
        return b.toString();
    }

    static void write(Campaign.Result r, Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("report.md"), markdown(r));
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(dir.resolve("report.json").toFile(), json(r));
    }
}
