package io.god.setop;

/**
 * A sorted source of (key, values) entries, read forward with skip-ahead: the "skipper" of the set
 * algebra. Keys are ordered unsigned-lexicographically ({@link java.util.Arrays#compareUnsigned}).
 * Implementations: a local sub tree (over the engine's cursor), a remote paged sub tree (pages of
 * another node's slice), an in-memory list ({@link ListSource}), and every set operator itself.
 *
 * <p>The cursor only moves forward. Once a call returned null the source is exhausted and every
 * later call returns null.
 */
public interface SortedSource {

    /**
     * Moves to and returns the first entry with key {@code >= min} ({@code inclusive}) or {@code > min}
     * (exclusive), never moving backwards: when the current entry already satisfies the bound it is
     * returned again. {@code min == null} means no bound. Returns null when no such entry exists.
     */
    SetEntry skip(byte[] min, boolean inclusive);

    /**
     * Moves past the current entry and returns the next one (the first entry when nothing was read
     * yet), or null when exhausted.
     */
    SetEntry next();
}
