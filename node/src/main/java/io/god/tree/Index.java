package io.god.tree;

/** An ordinal and whether the asked-for key (or mirror value) is present. */
public record Index(long n, boolean existed) {
}
