package io.god.resp;

/** What a RESP connection carries between commands: its protocol, credential, name and id. */
final class RespSession {

    final long id;
    final String address;
    int protocol = 2;
    /** The Authorization the connection's commands carry ({@code Bearer <token>}), null before AUTH. */
    String authorization;
    String name;
    String libName;
    String libVersion;
    boolean closing;

    RespSession(long id, String address) {
        this.id = id;
        this.address = address;
    }

    void reset() {
        protocol = 2;
        authorization = null;
        name = null;
    }
}
