package io.god.command;

import com.fasterxml.jackson.annotation.JsonValue;
import io.god.request.BinaryResults;
import io.god.tree.Entry;
import io.god.wire.SliceCall;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Stamped slice's answer as the tree's own entries (values and tombstones, in walk order), kept as they are: the
 * binary call encodes or hashes them straight from here ({@link SliceCall#encodeOk}, {@link SliceCall#digestOk}),
 * and only the JSON contract builds its per-entry maps ({@link #json}). A JFR of binary SliceLen 100 showed the maps
 * (a LinkedHashMap, a boxed Boolean and Long per entry) and their conversion to typed entries as most of a call.
 * The entries are immutable (a tree version is), so holding them costs no copy.
 */
public final class StampedRows implements SliceCall.Entries, BinaryResults.Rows {

    private final List<Entry> entries;

    StampedRows(List<Entry> entries) {
        this.entries = entries;
    }

    @Override
    public int size() {
        return entries.size();
    }

    @Override
    public byte[] keyArray(int i) {
        return entries.get(i).stored();
    }

    @Override
    public int keyLength(int i) {
        return entries.get(i).keySize();
    }

    @Override
    public boolean exists(int i) {
        return entries.get(i).hasValue();
    }

    @Override
    public long timestamp(int i) {
        return entries.get(i).timestamp();
    }

    /** An existing entry's value (empty when none), as the JSON form and the typed entries always gave it. */
    @Override
    public byte[] valueArray(int i) {
        Entry e = entries.get(i);
        return e.hasValue() ? e.stored() : null;
    }

    @Override
    public int valueOffset(int i) {
        return entries.get(i).keySize();
    }

    @Override
    public int valueLength(int i) {
        return entries.get(i).valueSize();
    }

    /** The JSON contract's form: {@code [{Key, Value, Exists, Timestamp}, ...]}, as the Stamped slices always were. */
    @Override
    @JsonValue
    public List<Map<String, Object>> json() {
        List<Map<String, Object>> out = new ArrayList<>(entries.size());
        for (Entry e : entries) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("Key", e.key());
            m.put("Value", e.value());
            m.put("Exists", e.hasValue());
            m.put("Timestamp", e.timestamp());
            out.add(m);
        }
        return out;
    }
}
