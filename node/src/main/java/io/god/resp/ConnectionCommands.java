package io.god.resp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The connection commands of the RESP table: PING, ECHO, QUIT, RESET, SELECT, AUTH, HELLO, CLIENT, COMMAND, INFO, CONFIG. */
final class ConnectionCommands {

    private final RespCommands core;

    ConnectionCommands(RespCommands core) {
        this.core = core;
    }

    void register() {
        core.add("PING", -1, (s, a, w) -> {
            if (a.size() > 2) {
                throw new IllegalArgumentException("wrong number of arguments for 'ping' command");
            }
            if (a.size() == 2) {
                w.bulk(a.get(1));
            } else {
                w.simple("PONG");
            }
        });
        core.add("ECHO", 2, (s, a, w) -> w.bulk(a.get(1)));
        core.add("QUIT", -1, (s, a, w) -> {
            s.closing = true;
            w.simple("OK");
        });
        core.add("RESET", 1, (s, a, w) -> {
            s.reset();
            w.simple("RESET");
        });
        core.add("SELECT", 2, (s, a, w) -> {
            if (!"0".equals(RespCommands.text(a.get(1)))) {
                throw new IllegalArgumentException("DB index is out of range (god has one key space: SELECT 0)");
            }
            w.simple("OK");
        });
        core.add("AUTH", -2, (s, a, w) -> {
            if (a.size() > 3) {
                throw new IllegalArgumentException("syntax error");
            }
            if (!core.admission.enabled()) {
                throw new IllegalArgumentException("AUTH <password> called without any password configured for the"
                        + " default user (god.auth.token is not set)");
            }
            if (!authenticate(s, a.size() == 3 ? RespCommands.text(a.get(1)) : "default", RespCommands.text(a.get(a.size() - 1)))) {
                w.error("WRONGPASS invalid username-password pair or user is disabled.");
                return;
            }
            w.simple("OK");
        });
        core.add("HELLO", -1, this::hello);
        core.add("CLIENT", -2, this::client);
        core.add("COMMAND", -1, this::command);
        core.add("INFO", -1, (s, a, w) -> w.bulk(info()));
        core.add("CONFIG", -2, (s, a, w) -> {
            String sub = RespCommands.text(a.get(1)).toUpperCase(Locale.ROOT);
            if (!sub.equals("GET")) {
                throw new IllegalArgumentException("CONFIG " + sub + " is not offered: god's settings are its god.*"
                        + " properties (docs/configuration.md)");
            }
            w.array(0); // no Redis parameters to report (redis-benchmark asks for save and appendonly)
        });
    }

    private boolean authenticate(RespSession s, String user, String password) {
        String authorization = "Bearer " + password;
        if (!"default".equals(user) || !core.admission.allows(authorization)) {
            return false;
        }
        s.authorization = authorization;
        return true;
    }

    private void hello(RespSession s, List<byte[]> a, RespWriter w) {
        int protocol = s.protocol;
        int i = 1;
        if (a.size() > 1) {
            String v = RespCommands.text(a.get(1));
            if (!v.equals("2") && !v.equals("3")) {
                w.error("NOPROTO unsupported protocol version");
                return;
            }
            protocol = Integer.parseInt(v);
            i = 2;
        }
        for (; i < a.size(); i++) {
            String option = RespCommands.text(a.get(i)).toUpperCase(Locale.ROOT);
            if (option.equals("AUTH") && i + 2 < a.size()) {
                if (!authenticate(s, RespCommands.text(a.get(i + 1)), RespCommands.text(a.get(i + 2)))) {
                    w.error("WRONGPASS invalid username-password pair or user is disabled.");
                    return;
                }
                i += 2;
            } else if (option.equals("SETNAME") && i + 1 < a.size()) {
                s.name = RespCommands.text(a.get(++i));
            } else {
                throw new IllegalArgumentException("syntax error in HELLO option '" + option + "'");
            }
        }
        s.protocol = protocol;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("server", "redis");
        m.put("version", RespCommands.VERSION);
        m.put("proto", (long) protocol);
        m.put("id", s.id);
        m.put("mode", "standalone");
        m.put("role", "master");
        m.put("modules", List.of());
        w.map(m);
    }

    private void client(RespSession s, List<byte[]> a, RespWriter w) {
        String sub = RespCommands.text(a.get(1)).toUpperCase(Locale.ROOT);
        switch (sub) {
            case "SETNAME" -> {
                RespCommands.need(a, 3, "client|setname");
                s.name = RespCommands.text(a.get(2));
                w.simple("OK");
            }
            case "GETNAME" -> w.bulk(s.name);
            case "ID" -> w.integer(s.id);
            case "SETINFO" -> {
                RespCommands.need(a, 4, "client|setinfo");
                String attr = RespCommands.text(a.get(2)).toUpperCase(Locale.ROOT);
                if (attr.equals("LIB-NAME")) {
                    s.libName = RespCommands.text(a.get(3));
                } else if (attr.equals("LIB-VER")) {
                    s.libVersion = RespCommands.text(a.get(3));
                } else {
                    throw new IllegalArgumentException("Unrecognized option '" + RespCommands.text(a.get(2)) + "'");
                }
                w.simple("OK");
            }
            case "INFO" -> w.bulk(s.describe(System.currentTimeMillis()));
            case "LIST" -> w.bulk(list(a));
            case "KILL" -> kill(s, a, w);
            default -> throw new IllegalArgumentException("unknown subcommand '" + RespCommands.text(a.get(1))
                    + "'. Try CLIENT HELP.");
        }
    }

    /** CLIENT LIST [TYPE normal|pubsub|...] [ID id ...]: every connection open now, one line each. */
    private String list(List<byte[]> a) {
        java.util.Set<Long> ids = new java.util.HashSet<>();
        boolean none = false;
        for (int i = 2; i < a.size(); i++) {
            String option = RespCommands.text(a.get(i)).toUpperCase(Locale.ROOT);
            if (option.equals("TYPE") && i + 1 < a.size()) {
                String type = RespCommands.text(a.get(++i)).toLowerCase(Locale.ROOT);
                if (!List.of("normal", "master", "replica", "pubsub").contains(type)) {
                    throw new IllegalArgumentException("Unknown client type '" + type + "'");
                }
                none |= !type.equals("normal"); // god's RESP clients are all normal ones
            } else if (option.equals("ID") && i + 1 < a.size()) {
                while (i + 1 < a.size()) {
                    ids.add(RespCommands.number(a.get(++i)));
                }
            } else {
                throw new IllegalArgumentException("syntax error");
            }
        }
        long now = System.currentTimeMillis();
        StringBuilder b = new StringBuilder();
        for (RespSession c : core.clients.get()) {
            if (!none && (ids.isEmpty() || ids.contains(c.id))) {
                b.append(c.describe(now));
            }
        }
        return b.toString();
    }

    /**
     * CLIENT KILL ip:port (old form: +OK or an error) or CLIENT KILL [ID id] [ADDR ip:port] [SKIPME yes|no] (the number
     * of connections closed). Closing others' connections needs the credential when the node asks for one.
     */
    private void kill(RespSession s, List<byte[]> a, RespWriter w) {
        if (core.admission.enabled() && !core.admission.allows(s.authorization)) {
            throw new io.god.command.CommandError(401, "CLIENT KILL needs AUTH with the node's token");
        }
        if (a.size() < 3 || a.size() > 3 && a.size() % 2 == 1) {
            throw new IllegalArgumentException("wrong number of arguments for 'client|kill' command");
        }
        if (a.size() == 3) {
            String addr = RespCommands.text(a.get(2));
            RespSession victim = core.clients.get().stream().filter(c -> c.address.equals(addr)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("No such client"));
            victim.kill.run();
            w.simple("OK");
            return;
        }
        Long id = null;
        String addr = null;
        boolean skipMe = true;
        for (int i = 2; i < a.size(); i++) {
            String option = RespCommands.text(a.get(i)).toUpperCase(Locale.ROOT);
            if (i + 1 >= a.size()) {
                throw new IllegalArgumentException("syntax error");
            }
            String value = RespCommands.text(a.get(++i));
            switch (option) {
                case "ID" -> id = RespCommands.number(a.get(i));
                case "ADDR" -> addr = value;
                case "SKIPME" -> {
                    if (!value.equalsIgnoreCase("yes") && !value.equalsIgnoreCase("no")) {
                        throw new IllegalArgumentException("syntax error");
                    }
                    skipMe = value.equalsIgnoreCase("yes");
                }
                default -> throw new IllegalArgumentException("syntax error");
            }
        }
        long killed = 0;
        for (RespSession c : core.clients.get()) {
            if ((id == null || c.id == id) && (addr == null || c.address.equals(addr)) && !(skipMe && c == s)) {
                c.kill.run();
                killed++;
            }
        }
        w.integer(killed);
    }

    private void command(RespSession s, List<byte[]> a, RespWriter w) {
        String sub = a.size() > 1 ? RespCommands.text(a.get(1)).toUpperCase(Locale.ROOT) : "";
        switch (sub) {
            case "COUNT" -> w.integer(core.table.size());
            case "DOCS" -> w.map(Map.of()); // no documentation to hint with
            case "", "INFO" -> {
                List<RespCommands.Spec> specs = new ArrayList<>();
                if (sub.isEmpty()) {
                    specs.addAll(core.table.values());
                } else {
                    a.stream().skip(2).map(x -> core.table.get(RespCommands.text(x).toUpperCase(Locale.ROOT))).forEach(specs::add);
                }
                w.array(specs.size());
                for (RespCommands.Spec spec : specs) {
                    if (spec == null) {
                        w.nil();
                        continue;
                    }
                    w.array(6).bulk(spec.name().toLowerCase(Locale.ROOT)).integer(spec.arity()).array(0).integer(0)
                            .integer(0).integer(0);
                }
            }
            default -> throw new IllegalArgumentException("unknown subcommand '" + RespCommands.text(a.get(1))
                    + "'. Try COMMAND HELP.");
        }
    }

    private String info() {
        Runtime rt = Runtime.getRuntime();
        int members = core.node.cluster() == null ? 1 : core.node.cluster().ring().size();
        long keys = core.size(null);
        return "# Server\r\nredis_version:" + RespCommands.VERSION + "\r\ngod_version:0.1.0\r\nredis_mode:standalone\r\ntcp_port:"
                + core.port + "\r\n\r\n# Clients\r\nconnected_clients:" + core.clients.get().size() + "\r\n\r\n# Memory\r\nused_memory:"
                + (rt.totalMemory() - rt.freeMemory()) + "\r\nmaxmemory:" + rt.maxMemory() + "\r\n\r\n# Replication\r\n"
                + "role:master\r\nconnected_slaves:0\r\ngod_ring_members:" + members + "\r\ngod_redundancy:"
                + core.node.settings().redundancy() + "\r\n\r\n# Keyspace\r\ndb0:keys=" + keys + ",expires=0,avg_ttl=0\r\n";
    }
}
