package io.god.setop;

import java.util.Arrays;
import java.util.List;

/**
 * A set operator as a {@link SortedSource} over its child sources. Caches its current result: a
 * skip whose bound the current result still satisfies returns it without touching the children.
 * Subclasses compute the first result at or after a bound that is past the current result.
 */
abstract class OperatorSource implements SortedSource {
    protected final SortedSource[] children;
    protected final double[] weights;
    protected final Merge merge;
    /** Each child's entry of the current round (used by the operators that need them). */
    protected final SetEntry[] heads;
    /** Checked once per skip step of every operator loop (a loop may pass millions of keys per result). */
    protected final Deadline deadline;
    private SetEntry current;
    private boolean exhausted;

    OperatorSource(List<SortedSource> children, double[] weights, Merge merge, Deadline deadline) {
        this.deadline = deadline;
        this.children = children.toArray(new SortedSource[0]);
        this.weights = weights;
        this.merge = merge;
        this.heads = new SetEntry[this.children.length];
    }

    static OperatorSource create(SetOpType type, List<SortedSource> children, double[] weights, Merge merge) {
        return create(type, children, weights, merge, Deadline.NONE);
    }

    static OperatorSource create(SetOpType type, List<SortedSource> children, double[] weights, Merge merge,
            Deadline deadline) {
        return switch (type) {
            case UNION -> new Union(children, weights, merge, deadline);
            case INTERSECTION -> new Intersection(children, weights, merge, deadline);
            case DIFFERENCE -> new Difference(children, weights, merge, deadline);
            case XOR -> new Xor(children, weights, merge, deadline);
        };
    }

    @Override
    public final SetEntry skip(byte[] min, boolean inclusive) {
        if (exhausted) {
            return null;
        }
        if (current != null && Keys.atLeast(current.key(), min, inclusive)) {
            return current;
        }
        current = compute(min, inclusive);
        if (current == null) {
            exhausted = true;
        }
        return current;
    }

    @Override
    public final SetEntry next() {
        if (exhausted) {
            return null;
        }
        return current == null ? skip(null, true) : skip(current.key(), false);
    }

    /** The first result with key at/after the bound, or null; the bound is past the current result. */
    protected abstract SetEntry compute(byte[] min, boolean inclusive);

    /** Keys present in any source; values folded in source order. */
    static final class Union extends OperatorSource {
        Union(List<SortedSource> children, double[] weights, Merge merge, Deadline deadline) {
            super(children, weights, merge, deadline);
        }

        @Override
        protected SetEntry compute(byte[] min, boolean inclusive) {
            byte[] smallest = null;
            for (int i = 0; i < children.length; i++) {
                if (children[i] == null) {
                    continue;
                }
                deadline.check();
                SetEntry e = children[i].skip(min, inclusive);
                heads[i] = e;
                if (e == null) {
                    children[i] = null; // exhausted for good
                } else if (smallest == null || Keys.compare(e.key(), smallest) < 0) {
                    smallest = e.key();
                }
            }
            if (smallest == null) {
                return null;
            }
            List<byte[]> acc = null;
            for (int i = 0; i < children.length; i++) {
                if (heads[i] != null && children[i] != null && Keys.compare(heads[i].key(), smallest) == 0) {
                    acc = merge.apply(acc, heads[i].values(), weights[i]);
                }
            }
            return new SetEntry(smallest, acc);
        }
    }

    /** Keys present in every source: leapfrog, each source skips to the largest key seen. */
    static final class Intersection extends OperatorSource {
        Intersection(List<SortedSource> children, double[] weights, Merge merge, Deadline deadline) {
            super(children, weights, merge, deadline);
        }

        @Override
        protected SetEntry compute(byte[] min, boolean inclusive) {
            while (true) {
                byte[] max = null;
                boolean equal = true;
                for (int i = 0; i < children.length; i++) {
                    deadline.check();
                    SetEntry e = children[i].skip(min, inclusive);
                    if (e == null) {
                        return null;
                    }
                    heads[i] = e;
                    if (max == null) {
                        max = e.key();
                    } else {
                        int c = Keys.compare(e.key(), max);
                        if (c != 0) {
                            equal = false;
                            if (c > 0) {
                                max = e.key();
                            }
                        }
                    }
                    // Later sources leap straight to the largest key seen so far.
                    min = max;
                    inclusive = true;
                }
                if (equal) {
                    List<byte[]> acc = null;
                    for (int i = 0; i < children.length; i++) {
                        acc = merge.apply(acc, heads[i].values(), weights[i]);
                    }
                    return new SetEntry(max, acc);
                }
            }
        }
    }

    /**
     * Test-only switch (the simulation's bug-injection tests): re-introduces reference §4.2/§10.4 —
     * after a rejection the sources after the matching one are dropped for good.
     */
    static volatile boolean dropSourcesAfterRejection;

    /** Keys of the first source present in no other source (all sources are kept, unlike the original). */
    static final class Difference extends OperatorSource {
        Difference(List<SortedSource> children, double[] weights, Merge merge, Deadline deadline) {
            super(children, weights, merge, deadline);
        }

        @Override
        protected SetEntry compute(byte[] min, boolean inclusive) {
            while (true) {
                deadline.check();
                SetEntry candidate = children[0].skip(min, inclusive);
                if (candidate == null) {
                    return null;
                }
                boolean rejected = false;
                for (int i = 1; i < children.length && !rejected; i++) {
                    if (children[i] == null) {
                        continue;
                    }
                    deadline.check();
                    SetEntry e = children[i].skip(candidate.key(), true);
                    rejected = e != null && Keys.compare(e.key(), candidate.key()) == 0;
                    if (rejected && dropSourcesAfterRejection) {
                        Arrays.fill(children, i + 1, children.length, null);
                    }
                }
                if (!rejected) {
                    return new SetEntry(candidate.key(), merge.apply(null, candidate.values(), weights[0]));
                }
                min = candidate.key();
                inclusive = false;
            }
        }
    }

    /** Keys present in exactly one source. */
    static final class Xor extends OperatorSource {
        Xor(List<SortedSource> children, double[] weights, Merge merge, Deadline deadline) {
            super(children, weights, merge, deadline);
        }

        @Override
        protected SetEntry compute(byte[] min, boolean inclusive) {
            while (true) {
                SetEntry smallest = null;
                int owner = -1;
                int count = 0;
                for (int i = 0; i < children.length; i++) {
                    if (children[i] == null) {
                        continue;
                    }
                    deadline.check();
                    SetEntry e = children[i].skip(min, inclusive);
                    if (e == null) {
                        children[i] = null;
                        continue;
                    }
                    int c = smallest == null ? -1 : Keys.compare(e.key(), smallest.key());
                    if (c < 0) {
                        smallest = e;
                        owner = i;
                        count = 1;
                    } else if (c == 0) {
                        count++;
                    }
                }
                if (smallest == null) {
                    return null;
                }
                if (count == 1) {
                    return new SetEntry(smallest.key(), merge.apply(null, smallest.values(), weights[owner]));
                }
                min = smallest.key();
                inclusive = false;
            }
        }
    }
}
