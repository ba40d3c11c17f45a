package io.god.tree;

/**
 * Which Merkle hash anti-entropy compares (docs/operations.md, "Upgrades and the Merkle hash").
 *
 * <p>{@link #CONTENT} (version 1, every node before this one): an entry's key, state, value and sub
 * tree — not its stamp, so replicas holding the same value under different stamps look in sync and
 * anti-entropy never aligns them. {@link #STAMPED} (version 2): the content hash plus the stamps of
 * the entry and of every entry of its sub tree, so such replicas differ and the exchange gives both
 * the newer stamp (last-write-wins). A node keeps both at once (the stamped hash is derived from the
 * content hash and one more sum per branch), so it answers a version-1 peer's walk exactly as that
 * peer would, and uses version 2 only with a peer that says it has it.
 */
public enum HashVersion {
    CONTENT(1),
    STAMPED(2);

    private final int number;

    HashVersion(int number) {
        this.number = number;
    }

    /** The number carried on the wire. */
    public int number() {
        return number;
    }

    /** The newest version this node has. */
    public static HashVersion newest() {
        return STAMPED;
    }

    /** The version two nodes share: the lower of the two numbers; unknown higher numbers count as this node's newest. */
    public static HashVersion common(long peer) {
        return peer >= STAMPED.number ? STAMPED : CONTENT;
    }
}
