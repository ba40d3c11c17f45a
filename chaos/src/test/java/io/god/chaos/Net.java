package io.god.chaos;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The campaign's network: one bridge in the root namespace (the clients' side, {@code <subnet>.1}) and
 * one network namespace per node, joined to the bridge by a veth pair ({@code <subnet>.(10+i)}).
 * Every name starts with {@code gch<pid>} (the JVM that made it), so a later run finds and removes
 * what a crashed run left behind. Partitions are iptables DROP rules inside the nodes' namespaces; the
 * root namespace (the clients) reaches every node throughout.
 */
final class Net implements AutoCloseable {

    static final String PREFIX = "gch";
    private static final Pattern OURS = Pattern.compile(PREFIX + "(\\d+)");

    private final String id;
    private final String subnet;
    private final int size;
    private boolean closed;

    private Net(String id, String subnet, int size) {
        this.id = id;
        this.subnet = subnet;
        this.size = size;
    }

    /** Why this machine cannot run the campaign (not root, no ip netns, no iptables), or null when it can. */
    static String unavailableReason() {
        Sh.Result uid = Sh.tryRun("id", "-u");
        if (!uid.ok() || !uid.output().strip().equals("0")) {
            return "the chaos campaign needs root (ip netns, iptables); id -u says " + uid.output().strip();
        }
        Sh.Result netns = Sh.tryRun("ip", "netns", "list");
        if (!netns.ok()) {
            return "ip netns is unavailable: " + netns.output().strip();
        }
        Sh.Result ipt = Sh.tryRun("iptables", "-w", "-S", "INPUT");
        if (!ipt.ok()) {
            return "iptables is unavailable: " + ipt.output().strip();
        }
        return null;
    }

    /** Removes the namespaces, links and FORWARD rules of runs whose JVM is gone. */
    static List<String> removeStale() {
        List<String> removed = new ArrayList<>();
        for (String line : Sh.tryRun("ip", "netns", "list").output().split("\n")) {
            String ns = line.strip().split("\\s+")[0];
            if (isStale(ns)) {
                for (String pid : Sh.tryRun("ip", "netns", "pids", ns).output().split("\\s+")) {
                    if (!pid.isBlank()) {
                        Sh.tryRun("kill", "-9", pid.strip());
                    }
                }
                Sh.tryRun("ip", "netns", "delete", ns);
                removed.add("netns " + ns);
            }
        }
        for (String line : Sh.tryRun("ip", "-o", "link", "show").output().split("\n")) {
            String[] parts = line.split(":\\s+");
            if (parts.length > 1) {
                String link = parts[1].split("@")[0];
                if (isStale(link)) {
                    Sh.tryRun("ip", "link", "delete", link);
                    removed.add("link " + link);
                }
            }
        }
        for (String rule : Sh.tryRun("iptables", "-w", "-S", "FORWARD").output().split("\n")) {
            Matcher m = OURS.matcher(rule);
            if (rule.startsWith("-A FORWARD") && m.find() && isStale(m.group())) {
                List<String> cmd = new ArrayList<>(List.of("iptables", "-w", "-D"));
                cmd.addAll(List.of(rule.substring(3).split("\\s+")));
                Sh.tryRun(cmd.toArray(String[]::new));
                removed.add("rule " + rule);
            }
        }
        return removed;
    }

    private static boolean isStale(String name) {
        Matcher m = OURS.matcher(name);
        if (!m.lookingAt()) {
            return false;
        }
        long pid = Long.parseLong(m.group(1));
        return pid != ProcessHandle.current().pid() && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
    }

    /** Creates the bridge and {@code size} namespaces on a /24 of 10.77.0.0/16 that no route uses yet. */
    static Net create(int size) {
        long pid = ProcessHandle.current().pid();
        String routes = Sh.run("ip", "-4", "route", "show");
        String subnet = null;
        for (int k = 0; k < 254 && subnet == null; k++) {
            String candidate = "10.77." + (int) ((pid + k) % 254 + 1);
            if (!routes.contains(candidate + ".")) {
                subnet = candidate;
            }
        }
        if (subnet == null) {
            throw new IllegalStateException("no free /24 in 10.77.0.0/16");
        }
        Net net = new Net(PREFIX + pid, subnet, size);
        try {
            net.build();
        } catch (RuntimeException e) {
            net.close();
            throw e;
        }
        return net;
    }

    private void build() {
        String bridge = bridge();
        Sh.run("ip", "link", "add", bridge, "type", "bridge");
        Sh.run("ip", "addr", "add", subnet + ".1/24", "dev", bridge);
        Sh.run("ip", "link", "set", bridge, "up");
        // where br_netfilter hands bridged frames to the root FORWARD chain, let ours through whatever its policy
        Sh.run("iptables", "-w", "-I", "FORWARD", "-i", bridge, "-o", bridge, "-j", "ACCEPT");
        for (int i = 0; i < size; i++) {
            String ns = namespace(i);
            String host = id + "h" + i;
            String inside = id + "n" + i;
            Sh.run("ip", "netns", "add", ns);
            Sh.run("ip", "link", "add", host, "type", "veth", "peer", "name", inside);
            Sh.run("ip", "link", "set", inside, "netns", ns);
            Sh.run("ip", "link", "set", host, "master", bridge, "up");
            inNs(i, "ip", "link", "set", "lo", "up");
            inNs(i, "ip", "addr", "add", ip(i) + "/24", "dev", inside);
            inNs(i, "ip", "link", "set", inside, "up");
        }
    }

    String bridge() {
        return id + "b";
    }

    String namespace(int i) {
        return id + "-" + i;
    }

    /** The address of node i, inside its namespace. */
    String ip(int i) {
        return subnet + "." + (10 + i);
    }

    /** The clients' address (the bridge, root namespace). */
    String hostIp() {
        return subnet + ".1";
    }

    int size() {
        return size;
    }

    String inNs(int i, String... cmd) {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", namespace(i)));
        full.addAll(List.of(cmd));
        return Sh.run(full.toArray(String[]::new));
    }

    /** Node i no longer exchanges packets with the given nodes (both directions, dropped inside i's namespace). */
    void cut(int i, Collection<Integer> from) {
        for (int j : from) {
            if (j != i) {
                inNs(i, "iptables", "-w", "-A", "INPUT", "-s", ip(j), "-j", "DROP");
                inNs(i, "iptables", "-w", "-A", "OUTPUT", "-d", ip(j), "-j", "DROP");
            }
        }
    }

    /**
     * Node i's packets to the given nodes are dropped (inside i's namespace), theirs to i still arrive: over
     * TCP no connection forms either way, but a packet in flight or a datagram from them still reaches i.
     */
    void cutOneWay(int i, Collection<Integer> to) {
        for (int j : to) {
            if (j != i) {
                inNs(i, "iptables", "-w", "-A", "OUTPUT", "-d", ip(j), "-j", "DROP");
            }
        }
    }

    /** Node i drops this share of the packets it receives and sends (peers and clients alike), at random. */
    void lossy(int i, double share) {
        String p = String.format(java.util.Locale.ROOT, "%.2f", share);
        inNs(i, "iptables", "-w", "-A", "INPUT", "-m", "statistic", "--mode", "random", "--probability", p, "-j", "DROP");
        inNs(i, "iptables", "-w", "-A", "OUTPUT", "-m", "statistic", "--mode", "random", "--probability", p, "-j", "DROP");
    }

    /** Removes every DROP rule of every namespace. */
    void heal() {
        for (int i = 0; i < size; i++) {
            inNs(i, "iptables", "-w", "-F", "INPUT");
            inNs(i, "iptables", "-w", "-F", "OUTPUT");
        }
    }

    /** Deletes the namespaces (their veth ends go with them), the bridge and the FORWARD rule; idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = 0; i < size; i++) {
            Sh.tryRun("ip", "netns", "delete", namespace(i));
            Sh.tryRun("ip", "link", "delete", id + "h" + i);
        }
        Sh.tryRun("iptables", "-w", "-D", "FORWARD", "-i", bridge(), "-o", bridge(), "-j", "ACCEPT");
        Sh.tryRun("ip", "link", "delete", bridge());
    }
}
