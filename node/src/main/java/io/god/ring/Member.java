package io.god.ring;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A ring member: its 16-byte position, the address peers reach it at, and its incarnation (the
 * clock reading when that node process started: of two entries for one address the newer
 * incarnation wins, so a restarted node's view of itself replaces stale gossip).
 */
public record Member(byte[] position, String address, long incarnation) implements Comparable<Member> {

    public Member {
        if (position == null || position.length != Positions.SIZE) {
            throw new IllegalArgumentException("a position has " + Positions.SIZE + " bytes");
        }
        position = position.clone();
    }

    /** Ring order: position (unsigned), then address. */
    @Override
    public int compareTo(Member o) {
        int c = Arrays.compareUnsigned(position, o.position);
        return c != 0 ? c : address.compareTo(o.address);
    }

    @Override
    public byte[] position() {
        return position.clone();
    }

    /** The position without copying (callers must not modify it). */
    byte[] raw() {
        return position;
    }

    public String hex() {
        return HexFormat.of().formatHex(position);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Member m && Arrays.equals(position, m.position) && address.equals(m.address);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(position) * 31 + address.hashCode();
    }

    @Override
    public String toString() {
        return hex() + "@" + address;
    }
}
