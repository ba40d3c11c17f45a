package io.god.chaos;

import java.util.List;

/**
 * Violations with a known cause the campaign found and that are not fixed yet: reported (with the seed and
 * the excerpt) but not failing the run. Each rule is narrow, so any other violation still fails.
 */
final class KnownIssues {

    private KnownIssues() {
    }

    /**
     * The reason a violation is a known issue, or null. <b>Delayed write through a paused owner</b>: a put
     * was sent to its owner just as the owner was stopped (SIGSTOP), the client failed over after its
     * attempt timeout and the put was acknowledged, the key was deleted (acknowledged), and when the owner
     * resumed it executed the put it had received before the pause with a fresh timestamp, newer than the
     * delete. Fixed since (a node refuses a client write that waited in its own pause: {@code PauseWatch},
     * {@code PausedWriteTest}); the rule stays, reporting only, until long campaigns show the pattern gone.
     */
    static String reason(Checker.Violation v, List<Campaign.Phase> phases, long attemptTimeoutMs) {
        String stale = staleAfterPartition(v, phases);
        if (stale != null) {
            return stale;
        }
        if (!v.kind().equals("resurrected delete") && !v.kind().equals("stale read")) {
            return null;
        }
        for (Op put : v.excerpt()) {
            if (put.kind() != Op.Kind.PUT || put.complete() - put.invoke() < attemptTimeoutMs) {
                continue;
            }
            for (Campaign.Phase p : phases) {
                if (p.nemesis().equals("pause") && put.invoke() >= p.injectedAt() - attemptTimeoutMs
                        && put.invoke() < p.healedAt()) {
                    return "delayed write through a paused owner: put #" + put.id() + " was pending when "
                            + p.action() + " and executed on SIGCONT with a fresh stamp, after the acknowledged delete";
                }
            }
        }
        return null;
    }

    /** The nemeses that cut nodes apart (a member comes back from each at the heal). */
    static final List<String> PARTITIONS = List.of("isolate-one", "random-halves", "bridge", "one-way");

    /**
     * The reason a stale read is the known <b>stale read from a returning member</b>, or null: a read made
     * after a partition healed and before the ring had converged again found what a member cut off during
     * the partition held (seed 27, 2026-11-25: register r0-2 read #640 0.9 s after a one-way partition of
     * node 2 healed, #664 acknowledged by nodes 0 and 1 before). Suspected cause: a member that returns answers
     * reads from its own copy while clients still count it out or as catching up. Not fixed; reported only.
     */
    static String staleAfterPartition(Checker.Violation v, List<Campaign.Phase> phases) {
        if (!v.kind().equals("stale read")) {
            return null;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("read #(\\d+)").matcher(v.detail());
        long id = m.find() ? Long.parseLong(m.group(1)) : -1;
        Op read = v.excerpt().stream().filter(o -> o.id() == id && o.kind() == Op.Kind.GET).findFirst().orElse(null);
        for (Campaign.Phase p : phases) {
            if (read != null && PARTITIONS.contains(p.nemesis()) && p.convergedAfterMs() != null
                    && read.invoke() >= p.healedAt() && read.invoke() <= p.healedAt() + p.convergedAfterMs()) {
                return "stale read from a returning member: read #" + read.id() + " " + (read.invoke() - p.healedAt())
                        + " ms after the heal of " + p.action() + ", before the ring converged ("
                        + p.convergedAfterMs() + " ms)";
            }
        }
        return null;
    }

    /**
     * Why a violation is not one, or null: <b>a node beyond the skew bound</b> counts as unavailable (issue 27).
     * A node whose clock is off by more than {@code god.time.max-skew} stamps its writes off by the excess,
     * so last-write-wins may order them wrongly; every key written (put or delete invoked) while a
     * {@code skew-beyond} fault was on is excused, with the fault named.
     */
    static String beyondSkewBound(Checker.Violation v, List<Campaign.Phase> phases) {
        for (Campaign.Phase p : phases) {
            if (!p.nemesis().equals(Nemesis.Skew.BEYOND)) {
                continue;
            }
            for (Op op : v.excerpt()) {
                if (op.kind() != Op.Kind.GET && op.invoke() >= p.injectedAt() && op.invoke() < p.healedAt()) {
                    return "written while " + p.action() + ": #" + op.id() + " " + op.kind()
                            + " (a node beyond the skew bound counts as unavailable)";
                }
            }
        }
        return null;
    }
}
