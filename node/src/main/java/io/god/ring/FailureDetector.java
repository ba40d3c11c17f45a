package io.god.ring;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Failure detection's bookkeeping (DESIGN §7): pings awaiting their outcome, failed pings in a row per
 * member, and the tick of the last direct contact (a ping or an answer) with each. Counted in ticks, never
 * in wall-clock time. Not thread-safe: {@link Membership} guards it.
 */
final class FailureDetector {

    /** {@code god.ring.failures}: failed pings in a row that remove a member; also how recent "recent" is. */
    private final int failuresToRemove;
    private final Set<String> inFlight = new HashSet<>();
    private final Map<String, Integer> failures = new HashMap<>();
    private final Map<String, Long> heard = new HashMap<>();

    FailureDetector(int failuresToRemove) {
        this.failuresToRemove = failuresToRemove;
    }

    /** Whether {@code address} may be pinged now (and marks the ping in flight): one ping at a time per member. */
    boolean mayPing(String address) {
        return inFlight.add(address);
    }

    /** The ping of {@code address} had its outcome (an answer or none). */
    void settled(String address) {
        inFlight.remove(address);
    }

    /** One more failed ping in a row; true once there were {@code god.ring.failures}: remove the member. */
    boolean failed(String address) {
        return failures.merge(address, 1, Integer::sum) >= failuresToRemove;
    }

    /** Failed pings of {@code address} in a row. */
    int failures(String address) {
        return failures.getOrDefault(address, 0);
    }

    /** A direct answer or request from {@code address} at {@code tick}: it is alive. */
    void heardFrom(String address, long tick) {
        failures.remove(address);
        heard.put(address, tick);
    }

    /** Whether this node had direct contact with {@code address} within the last {@code god.ring.failures} ticks. */
    boolean heardRecently(String address, long tick) {
        Long last = heard.get(address);
        return last != null && tick - last <= failuresToRemove;
    }

    /** The member is gone from the view. */
    void forget(String address) {
        failures.remove(address);
        heard.remove(address);
    }

    /** Members that missed at least one ping and are not removed yet. */
    int suspected() {
        return failures.size();
    }

    int inFlight() {
        return inFlight.size();
    }

    /** This node left: it suspects nobody (answers still in flight are settled as they come). */
    void clear() {
        failures.clear();
        heard.clear();
    }
}
