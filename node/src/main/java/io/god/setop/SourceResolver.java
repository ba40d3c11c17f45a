package io.god.setop;

/** Opens the raw sources named in a set expression (in god: sub trees, local or remote). */
@FunctionalInterface
public interface SourceResolver {

    /**
     * A fresh cursor over the source named {@code name}, positioned before its first entry. Called
     * once per occurrence of a name in the expression, so {@code (U t t)} reads {@code t} twice.
     * A missing source is an empty one.
     */
    SortedSource open(byte[] name);
}
