package io.god.command;

/**
 * Who sent a request, by the credential it presented ({@link Credentials}): the rights of a client (data), of a
 * peer (ring traffic: join, gossip, leave, replication, anti-entropy, migration, backup; write stamps) and of an
 * admin ({@code /admin/*}, Clear by {@code god.auth.clear}). A credential that is not set is everyone's right.
 */
public record Caller(boolean client, boolean peer, boolean admin) {

    /** Every right: a node without credentials, or the in-memory network (peers only). */
    public static final Caller ANYONE = new Caller(true, true, true);

    /** Whether the caller presented any credential this node accepts (or needs none of some kind). */
    boolean known() {
        return client || peer || admin;
    }
}
