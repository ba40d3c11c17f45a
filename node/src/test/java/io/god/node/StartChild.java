package io.god.node;

import java.util.HashMap;
import java.util.Map;

/**
 * Child process of {@link DamagedStartTest}: starts a node on a data directory the way the app does
 * (a failure propagates out of main: the JVM prints it and exits non-zero), prints STARTED and the
 * recovery report, then stops.
 * Arguments: data directory, advertise address, seeds, then key=value settings.
 */
public final class StartChild {

    private StartChild() {
    }

    public static void main(String[] args) {
        Map<String, String> m = new HashMap<>();
        m.put(NodeSettings.DATA_DIR, args[0]);
        m.put(NodeSettings.ADVERTISE, args[1]);
        m.put(NodeSettings.NODE_PORT, args[1].substring(args[1].lastIndexOf(':') + 1));
        m.put(NodeSettings.SEEDS, args[2]);
        for (int i = 3; i < args.length; i++) {
            m.put(args[i].substring(0, args[i].indexOf('=')), args[i].substring(args[i].indexOf('=') + 1));
        }
        GodNode n = GodNode.start(NodeSettings.of(m));
        System.out.println("STARTED " + n.recovery());
        System.out.flush();
        n.close();
        System.exit(0);
    }
}
