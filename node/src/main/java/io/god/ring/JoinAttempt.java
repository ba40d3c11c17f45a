package io.god.ring;

import io.god.wire.Ops;
import io.god.wire.WireWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One join attempt of a JOINING node (DESIGN §7): every seed and every member that probed this node is
 * asked for the ring ({@code JOIN}); once each answered or did not, the first that gave a ring, in seed
 * order, wins. Not thread-safe: {@link Membership} guards it.
 */
final class JoinAttempt {

    private final List<String> asked = new ArrayList<>();
    private final List<Outbound> messages = new ArrayList<>();
    private final Map<String, List<Member>> rings = new HashMap<>();
    private int pending;
    /** A refusal for another N, if any member refused this node (the peer's message). */
    private String refusal;

    /**
     * @param candidates the seeds, then the members that probed this node (duplicates and self skipped)
     * @param redundancy this node's N, sent with the request (0: none, as the previous version)
     */
    JoinAttempt(String self, List<String> candidates, int redundancy) {
        for (String s : candidates) {
            if (!s.equals(self) && !asked.contains(s)) {
                asked.add(s);
            }
        }
        WireWriter request = new WireWriter().string(self);
        if (redundancy > 0) {
            request.varint(redundancy); // a member of the previous version reads no payload at all
        }
        byte[] req = request.toBytes();
        for (String a : asked) {
            messages.add(new Outbound(a, Ops.JOIN, req, Outbound.Kind.JOIN));
        }
        pending = asked.size();
    }

    /** The JOIN requests to send (none: nobody to ask, the attempt is decided at once). */
    List<Outbound> messages() {
        return messages;
    }

    boolean sent(Outbound m) {
        return messages.contains(m);
    }

    /** A member's answer: its members list (empty: it is not a member). */
    void answered(String from, List<Member> members) {
        rings.put(from, members);
        pending--;
    }

    /** No answer; {@code refusal}: the peer's message when it refused this node for another N, else null. */
    void unanswered(String refusal) {
        if (refusal != null) {
            this.refusal = refusal;
        }
        pending--;
    }

    /** Whether every asked node answered or did not. */
    boolean done() {
        return pending <= 0;
    }

    /** The ring of the first asked node (in seed order) that gave one, or null. */
    List<Member> ring() {
        for (String s : asked) {
            List<Member> m = rings.get(s);
            if (m != null && !m.isEmpty()) {
                return m;
            }
        }
        return null;
    }

    /** The refusal for another N, or null. */
    String refusal() {
        return refusal;
    }
}
