package io.god.setop;

import io.god.tree.Item;
import io.god.tree.SortedView;
import io.god.tree.TreeState;
import io.god.tree.Tree;
import java.util.function.LongSupplier;

/**
 * A {@link SortedSource} over the live byte values of one tree version (in god: a sub tree), using
 * the engine's forward cursor. A skip whose bound the current entry satisfies returns it without
 * moving; otherwise the cursor first tries the very next entry (O(1), the common case in unions)
 * and only then seeks from the root (O(depth)). Reads one immutable version: writes made while an
 * expression runs, including into its own destination, are not seen.
 */
public final class TreeSource implements SortedSource {
    private final SortedView.ViewCursor cursor;
    private SetEntry current;
    private boolean exhausted;

    public TreeSource(SortedView view) {
        this.cursor = view.cursor();
    }

    /** Resolves source names to the sub trees of {@code state} (a missing sub tree is empty). */
    public static SourceResolver subTrees(TreeState state) {
        return name -> new TreeSource(state.sub(name).values());
    }

    /**
     * Writes stored results into the sub tree {@code dest} of {@code tree}, each with a fresh
     * timestamp from {@code timestamps} (local write only; replication is the caller's business).
     */
    public static SetOpSink subTreeSink(Tree tree, byte[] dest, LongSupplier timestamps) {
        return (key, value) -> tree.subPut(dest, key, value, timestamps.getAsLong());
    }

    @Override
    public SetEntry skip(byte[] min, boolean inclusive) {
        if (exhausted) {
            return null;
        }
        if (current != null && Keys.atLeast(current.key(), min, inclusive)) {
            return current;
        }
        Item item = cursor.next();
        if (item != null && !Keys.atLeast(item.key(), min, inclusive)) {
            item = cursor.skip(min, inclusive);
        }
        return set(item);
    }

    @Override
    public SetEntry next() {
        return exhausted ? null : set(cursor.next());
    }

    private SetEntry set(Item item) {
        if (item == null) {
            exhausted = true;
            current = null;
        } else {
            current = SetEntry.of(item.key(), item.value());
        }
        return current;
    }
}
