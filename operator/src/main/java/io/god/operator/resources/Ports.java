package io.god.operator.resources;

/** The node's ports (DESIGN §6). */
public final class Ports {
    public static final int HTTP = 9192;
    public static final int BINARY = 9191;
    public static final int MANAGEMENT = 9000;
    /** The Redis protocol (god.resp.port's default). */
    public static final int RESP = 6379;

    private Ports() {
    }
}
