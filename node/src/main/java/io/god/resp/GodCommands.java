package io.god.resp;

import io.god.command.Wire;
import io.god.request.Request;
import io.god.request.Result;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * god's own commands over RESP: {@code GOD.SETEXPR "<s-expression>" [LIMIT n] [STORE dest]} (the set expression
 * language of reference §5 over sub trees, as {@code DHash.SetExpression}), {@code GOD.RING} (the ring as this node
 * sees it) and {@code GOD.STATUS} (this node's Describe).
 */
final class GodCommands {

    private final RespCommands core;

    GodCommands(RespCommands core) {
        this.core = core;
    }

    void register() {
        core.add("GOD.SETEXPR", -2, this::setExpression);
        core.add("GOD.RING", 1, (s, a, w) -> {
            @SuppressWarnings("unchecked")
            List<Result.Remote> nodes = (List<Result.Remote>) core.call(s, new Request.Nodes(false));
            w.array(nodes.size());
            for (Result.Remote n : nodes) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("addr", n.addr());
                m.put("pos", java.util.HexFormat.of().formatHex(n.pos()));
                m.put("state", n.state() == null ? "ACTIVE" : n.state());
                w.map(m);
            }
        });
        core.add("GOD.STATUS", 1, (s, a, w) -> {
            Result.Description d = (Result.Description) core.call(s, new Request.Describe());
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("addr", d.addr());
            m.put("pos", java.util.HexFormat.of().formatHex(d.pos()));
            m.put("last_sync", d.lastSync());
            m.put("last_migrate", d.lastMigrate());
            m.put("owned_entries", d.ownedEntries());
            m.put("held_entries", d.heldEntries());
            m.put("ring_size", (long) d.nodes().size());
            w.map(m);
        });
    }

    /**
     * Without STORE: an array with one entry per result key, {@code [key, value…]}; with STORE: the results written to
     * the sub tree {@code dest} (its entries replaced by key), {@code +OK}.
     */
    private void setExpression(RespSession s, List<byte[]> a, RespWriter w) {
        long len = 0;
        byte[] dest = null;
        for (int i = 2; i < a.size(); i += 2) {
            if (i + 1 >= a.size()) {
                throw new IllegalArgumentException("syntax error");
            }
            switch (RespCommands.text(a.get(i)).toUpperCase(Locale.ROOT)) {
                case "LIMIT" -> {
                    len = RespCommands.number(a.get(i + 1));
                    if (len < 0) {
                        throw new IllegalArgumentException("LIMIT must be 0 (no limit) or more");
                    }
                }
                case "STORE" -> dest = a.get(i + 1);
                default -> throw new IllegalArgumentException("syntax error");
            }
        }
        Object result = core.call(s, Request.SetExpression.code(RespCommands.text(a.get(1)), len, dest));
        if (dest != null) {
            w.simple("OK");
            return;
        }
        @SuppressWarnings("unchecked")
        List<Result.SetOpResult> rows = (List<Result.SetOpResult>) result;
        w.array(rows.size());
        for (Result.SetOpResult r : rows) {
            List<byte[]> row = new ArrayList<>(1 + r.values().size());
            row.add(r.key());
            row.addAll(r.values());
            w.bulks(row);
        }
    }
}
