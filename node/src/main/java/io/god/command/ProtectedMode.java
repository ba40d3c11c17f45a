package io.god.command;

import java.net.InetAddress;

/**
 * Protected mode, as Redis has it: a node started with no credential and no bind address ({@code god.node.host})
 * keeps listening but serves only clients on its own machine (loopback); every other connection is refused with
 * {@link #MESSAGE} (HTTP 403, a binary error frame, RESP {@code -DENIED}), so a node left open by default cannot be
 * read or written from the network.
 */
public final class ProtectedMode {

    private ProtectedMode() {
    }

    public static final String MESSAGE = "god is running in protected mode: no credential (god.auth.token,"
            + " god.auth.peer-token, god.auth.admin-token) and no bind address (god.node.host) are set, so only"
            + " connections from this machine (loopback) are served. Set god.auth.token (and give it to clients and"
            + " peers), or set god.node.host to the address to listen on, and restart the node";

    /** Whether a connection from this IP address (Vert.x {@code hostAddress()}) is refused in protected mode. */
    public static boolean refuses(String hostAddress) {
        if (hostAddress == null || hostAddress.isEmpty()) {
            return false; // a Unix domain socket: on this machine
        }
        try {
            return !InetAddress.getByName(hostAddress).isLoopbackAddress(); // an IP literal: no name lookup
        } catch (java.net.UnknownHostException e) {
            return true;
        }
    }
}
