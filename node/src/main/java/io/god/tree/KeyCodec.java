package io.god.tree;

/**
 * How a {@link SortedView} maps the keys a caller speaks of to the keys stored in its trie, and
 * stored entries back to results. Plain trees store keys as they are; mirrors store
 * {@link MirrorKeys}. Every bound becomes an exact bound on stored keys, so the view needs no
 * re-filtering.
 */
interface KeyCodec {

    /** A bound on stored keys. */
    record Bound(byte[] key, boolean inclusive) {
    }

    Bound lower(byte[] visibleKey, boolean inclusive);

    Bound upper(byte[] visibleKey, boolean inclusive);

    byte[] visibleKey(Entry e);

    Item item(Entry e, long index);

    KeyCodec PLAIN = new KeyCodec() {
        @Override
        public Bound lower(byte[] k, boolean inclusive) {
            return new Bound(k, inclusive);
        }

        @Override
        public Bound upper(byte[] k, boolean inclusive) {
            return new Bound(k, inclusive);
        }

        @Override
        public byte[] visibleKey(Entry e) {
            return e.key();
        }

        @Override
        public Item item(Entry e, long index) {
            return new Item(e.key(), e.value(), e.timestamp(), true, index);
        }
    };

    KeyCodec MIRROR = new KeyCodec() {
        @Override
        public Bound lower(byte[] value, boolean inclusive) {
            return new Bound(inclusive ? MirrorKeys.lowestWith(value) : MirrorKeys.aboveAllWith(value), true);
        }

        @Override
        public Bound upper(byte[] value, boolean inclusive) {
            return new Bound(inclusive ? MirrorKeys.aboveAllWith(value) : MirrorKeys.lowestWith(value), false);
        }

        @Override
        public byte[] visibleKey(Entry e) {
            return MirrorKeys.value(e.key());
        }

        @Override
        public Item item(Entry e, long index) {
            return new Item(MirrorKeys.value(e.key()), e.value(), e.timestamp(), true, index);
        }
    };
}
