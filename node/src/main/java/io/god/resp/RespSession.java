package io.god.resp;

/** What a RESP connection carries between commands: its protocol, credential, name and id; what CLIENT LIST shows. */
final class RespSession {

    final long id;
    final String address;
    final long connectedAtMillis = System.currentTimeMillis();
    /** Closes the connection (CLIENT KILL); set by the server. */
    final Runnable kill;
    int protocol = 2;
    /** The Authorization the connection's commands carry ({@code Bearer <token>}), null before AUTH. */
    String authorization;
    String name;
    String libName;
    String libVersion;
    boolean closing;
    /** The last command's name and when it began (CLIENT LIST: cmd, idle). */
    volatile String lastCommand = "NULL";
    volatile long lastCommandAtMillis = connectedAtMillis;

    RespSession(long id, String address, Runnable kill) {
        this.id = id;
        this.address = address;
        this.kill = kill;
    }

    RespSession(long id, String address) {
        this(id, address, () -> { });
    }

    void reset() {
        protocol = 2;
        authorization = null;
        name = null;
    }

    /** One line of CLIENT LIST / CLIENT INFO, as Redis formats it (the fields god has). */
    String describe(long nowMillis) {
        return "id=" + id + " addr=" + address + " name=" + (name == null ? "" : name) + " age="
                + (nowMillis - connectedAtMillis) / 1000 + " idle=" + (nowMillis - lastCommandAtMillis) / 1000
                + " db=0 cmd=" + lastCommand.toLowerCase(java.util.Locale.ROOT) + " resp=" + protocol + " lib-name="
                + (libName == null ? "" : libName) + " lib-ver=" + (libVersion == null ? "" : libVersion) + "\n";
    }
}
