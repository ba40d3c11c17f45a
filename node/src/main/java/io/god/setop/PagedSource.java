package io.god.setop;

import java.util.List;

/**
 * A {@link SortedSource} read a page at a time from somewhere else, e.g. a sub tree owned by another
 * node ({@code SliceLen{Key, Min, MinInc, Len}} in the reference, which buffers 128 entries). Entries
 * are served from the buffered page while it lasts; a skip past the buffer fetches a new page
 * starting at the skip's bound, so skip-ahead also saves network round trips. A page shorter than
 * asked for marks the end of the source.
 */
public final class PagedSource implements SortedSource {
    /** The reference's {@code setOpBufferSize}. */
    public static final int DEFAULT_PAGE = 128;

    /** Fetches up to {@code limit} entries with key >= min (> min when not inclusive), ascending. */
    @FunctionalInterface
    public interface PageFetcher {
        List<SetEntry> fetch(byte[] min, boolean inclusive, int limit);
    }

    private final PageFetcher fetcher;
    private final int pageSize;
    private List<SetEntry> page = List.of();
    private int pos = -1; // current entry's index in page; -1 before the first read
    private boolean lastPage;
    private boolean exhausted;
    private long fetches;

    public PagedSource(PageFetcher fetcher, int pageSize) {
        if (pageSize < 1) {
            throw new IllegalArgumentException("page size must be positive, was " + pageSize);
        }
        this.fetcher = fetcher;
        this.pageSize = pageSize;
    }

    public PagedSource(PageFetcher fetcher) {
        this(fetcher, DEFAULT_PAGE);
    }

    @Override
    public SetEntry skip(byte[] min, boolean inclusive) {
        if (exhausted) {
            return null;
        }
        int i = Math.max(pos, 0);
        while (i < page.size() && !Keys.atLeast(page.get(i).key(), min, inclusive)) {
            i++;
        }
        if (i < page.size()) {
            pos = i;
            return page.get(i);
        }
        if (lastPage) {
            return end();
        }
        // Past the buffer: fetch from the bound (or just after the last buffered key, if that is later).
        byte[] from = min;
        boolean inc = inclusive;
        if (!page.isEmpty()) {
            byte[] lastKey = page.get(page.size() - 1).key();
            if (from == null || Keys.compare(lastKey, from) >= 0) {
                from = lastKey;
                inc = false;
            }
        }
        return load(from, inc);
    }

    @Override
    public SetEntry next() {
        if (exhausted) {
            return null;
        }
        if (pos + 1 < page.size()) {
            return page.get(++pos);
        }
        if (lastPage) {
            return end();
        }
        return page.isEmpty() ? load(null, true) : load(page.get(page.size() - 1).key(), false);
    }

    private SetEntry load(byte[] from, boolean inclusive) {
        fetches++;
        List<SetEntry> fetched = fetcher.fetch(from, inclusive, pageSize);
        page = fetched == null ? List.of() : fetched;
        lastPage = page.size() < pageSize;
        if (page.isEmpty()) {
            return end();
        }
        pos = 0;
        return page.get(0);
    }

    private SetEntry end() {
        exhausted = true;
        page = List.of();
        pos = -1;
        return null;
    }

    /** Pages fetched so far. */
    public long fetches() {
        return fetches;
    }
}
