package io.god.ring;

import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Membership changes waiting to be piggybacked on pings and ping replies (SWIM-style dissemination):
 * "this entry is alive" (a join, a restart, a move, a refutation) and "this entry is dead" (a death
 * notice). Each message carries at most {@link #PER_MESSAGE} of them, the least sent first (so a new
 * rumor goes out in the very next messages even when many older ones wait); a rumor is dropped after
 * {@code LAMBDA · ⌈log2(n + 1)⌉} sends, by which time it has reached every member with high
 * probability (an epidemic). A newer rumor about an address replaces the older one. At most
 * {@link #MAX} are kept: beyond that the most sent go first (the member-list exchange on a hash
 * mismatch repairs whatever is lost).
 */
final class Rumors {

    static final int PER_MESSAGE = 8;
    static final int LAMBDA = 3;
    static final int MAX = 512;

    /** One change: {@code dead} is a death notice of exactly this entry (address and incarnation). */
    record Rumor(boolean dead, Member member) {
    }

    private static final class Slot {
        final Rumor rumor;
        int sent;
        boolean superseded;

        Slot(Rumor rumor) {
            this.rumor = rumor;
        }
    }

    /** Slots by times sent (index), oldest first within one count; superseded slots are skipped. */
    private final List<ArrayDeque<Slot>> bySent = new ArrayList<>();
    private final Map<String, Slot> byAddress = new HashMap<>();

    private ArrayDeque<Slot> sent(int times) {
        while (bySent.size() <= times) {
            bySent.add(new ArrayDeque<>());
        }
        return bySent.get(times);
    }

    void add(Rumor r) {
        Slot old = byAddress.remove(r.member().address());
        if (old != null) {
            old.superseded = true;
        }
        Slot s = new Slot(r);
        byAddress.put(r.member().address(), s);
        sent(0).addLast(s);
        for (int i = bySent.size() - 1; byAddress.size() > MAX && i >= 0; i--) {
            ArrayDeque<Slot> q = bySent.get(i);
            while (byAddress.size() > MAX && !q.isEmpty()) {
                Slot drop = q.pollFirst();
                if (!drop.superseded) {
                    byAddress.remove(drop.rumor.member().address());
                }
            }
        }
    }

    int size() {
        return byAddress.size();
    }

    void clear() {
        bySent.clear();
        byAddress.clear();
    }

    /** The rumors for the next message to a ring of {@code members} (counting them as sent). */
    List<Rumor> take(int members) {
        int limit = LAMBDA * (64 - Long.numberOfLeadingZeros(members + 1L));
        List<Rumor> out = new ArrayList<>();
        List<Slot> taken = new ArrayList<>();
        for (int i = 0; i < bySent.size() && out.size() < PER_MESSAGE; i++) {
            ArrayDeque<Slot> q = bySent.get(i);
            while (out.size() < PER_MESSAGE && !q.isEmpty()) {
                Slot s = q.pollFirst();
                if (!s.superseded) {
                    out.add(s.rumor);
                    taken.add(s);
                }
            }
        }
        for (Slot s : taken) {
            if (++s.sent < limit) {
                sent(s.sent).addLast(s);
            } else {
                byAddress.remove(s.rumor.member().address());
            }
        }
        return out;
    }

    static void write(WireWriter w, List<Rumor> rumors) {
        w.varint(rumors.size());
        for (Rumor r : rumors) {
            w.bool(r.dead());
            MemberCodec.writeMember(w, r.member());
        }
    }

    static List<Rumor> read(WireReader r, int max) {
        int n = r.count(max);
        List<Rumor> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            boolean dead = r.bool();
            out.add(new Rumor(dead, MemberCodec.readMember(r)));
        }
        return out;
    }
}
