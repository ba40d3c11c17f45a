package io.god.ring;

import io.god.wire.WireException;
import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** The wire form of membership messages' parts: one member entry, a list of them, a LEAVE request. */
final class MemberCodec {

    static final int MAX_MEMBERS = 100_000;

    private MemberCodec() {
    }

    /** A LEAVE request: the leaving entry (and an empty hash, the layout of a ping's start). */
    static byte[] encodeLeave(Member self) {
        WireWriter w = new WireWriter();
        writeMember(w, self);
        return w.string("").toBytes();
    }

    static void writeMember(WireWriter w, Member m) {
        w.raw(m.position()).string(m.address()).signed(m.incarnation());
    }

    static Member readMember(WireReader r) {
        byte[] p = r.raw(Positions.SIZE);
        String a = r.string();
        long inc = r.signed();
        if (a == null) {
            throw new WireException("member without an address");
        }
        return new Member(p, a, inc);
    }

    static void writeMembers(WireWriter w, Collection<Member> ms) {
        w.varint(ms.size());
        for (Member m : ms) {
            writeMember(w, m);
        }
    }

    static List<Member> readMembers(WireReader r) {
        int n = r.count(MAX_MEMBERS);
        List<Member> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(readMember(r));
        }
        return out;
    }

    static byte[] encodeMembers(Collection<Member> ms) {
        WireWriter w = new WireWriter();
        writeMembers(w, ms);
        return w.toBytes();
    }

    /** A JOIN reply: the members list. */
    static List<Member> decodeMembers(byte[] payload) {
        WireReader r = new WireReader(payload);
        List<Member> out = readMembers(r);
        r.end();
        return out;
    }
}
