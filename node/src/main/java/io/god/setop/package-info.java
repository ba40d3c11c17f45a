/**
 * Set expressions (reference §4, with the fixes of §10/§11): {@code (I (U set1 set2) set3)} over
 * sorted sources, streamed in key order.
 *
 * <ul>
 *   <li>AST: {@link io.god.setop.SetOp} / {@link io.god.setop.SetOpSource} (immutable, canonical
 *       {@code toString}), from code ({@link io.god.setop.SetOpParser}) or from the JSON {@code Op}
 *       form ({@link io.god.setop.SetOp#of}); {@link io.god.setop.SetExpression} adds Min/Max,
 *       Len and Dest.
 *   <li>Sources: {@link io.god.setop.SortedSource} (skip to the first key ≥ / > a bound, forward
 *       only), opened by name through a {@link io.god.setop.SourceResolver}. Implementations:
 *       {@link io.god.setop.TreeSource} (a sub tree of the engine), {@link io.god.setop.PagedSource}
 *       (pages fetched from elsewhere, e.g. another node), {@link io.god.setop.ListSource}
 *       (in memory; tests and benchmarks).
 *   <li>Operators U/I/D/X are sources themselves: leapfrog intersection, Difference keeping every
 *       source, Xor = in exactly one source. {@link io.god.setop.SetOps} evaluates, bounds and
 *       stores into a {@link io.god.setop.SetOpSink}.
 *   <li>{@link io.god.setop.Merge}: the 19 merge functions in their JSON order;
 *       {@link io.god.setop.Encodings}: int64/float64/big-int value encodings.
 *   <li>Errors: everything is a {@link io.god.setop.SetOpException} ({@link
 *       io.god.setop.SetOpParseException} with position and reason, {@link
 *       io.god.setop.SetOpArithmeticException} for division by zero); nothing crashes.
 * </ul>
 */
package io.god.setop;
