package io.god.ring;

/**
 * A message {@link Membership} wants sent to a peer. Membership does no I/O (DESIGN §4): it hands these
 * out, and whoever wires it to the network (io.god.cluster.MembershipLink) sends each with a deadline and
 * reports exactly one outcome back — {@link Membership#answered} with the reply, or
 * {@link Membership#unanswered} — passing this very object, which is the correlation: a ping's answer is
 * matched to its callee, a JOIN's to the join attempt in flight.
 *
 * @param to the peer's address
 * @param op the request ({@link io.god.wire.Ops})
 * @param kind what the message is for (LEAVE and REMOVE share one op)
 */
public record Outbound(String to, int op, byte[] payload, Kind kind) {

    public enum Kind {
        /** Asks a seed (or a member that probed this node) for the ring. */
        JOIN,
        /** Failure detection and gossip; a probe of a down member is one too. */
        PING,
        /** This node's members list, pushed after a ping whose reply showed another ring hash. */
        GOSSIP,
        /** Tells a member that this node has left. */
        LEAVE,
        /** Tells a member that an absent member was removed on request. */
        REMOVE
    }

    /**
     * Why a message got no answer.
     *
     * @param refused the peer answered with an error (then {@code message} is the peer's); otherwise it was
     *     unreachable or the deadline passed
     */
    public record NoAnswer(boolean refused, String message) {
    }
}
