package io.god.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.god.command.CommandError;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;

/**
 * Time belongs to the ring (issue 23): a client never chooses a write's timestamp; the entry node
 * stamps it. Checked on the entry path of the god JSON contract (hops 0: from a client, not a
 * forwarding peer).
 *
 * <p>Compatibility with the original (reference §1.1/§2.2): its JSON parameter types of the write
 * methods carry no {@code Timestamp} or {@code TTL}, so a field of that name was silently ignored. Here
 * a <em>non-zero</em> {@code Timestamp} (any letter case, as the contract matches field names) on a
 * mutating call is refused with 400 naming the field — a client that thinks it sets the time learns
 * that it does not. {@code "Timestamp": 0} or {@code null} (a Go zero value) is accepted and ignored,
 * as is {@code TTL} (a replica count the server decides, not a time): calls the original accepts from
 * ordinary clients keep working. Reads ignore both.
 */
final class ClientStamps {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] NAME = "timestamp".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private ClientStamps() {
    }

    /**
     * Throws a 400 {@link CommandError} when a client's call carries a non-zero top-level {@code Timestamp} field
     * in the body of a mutating method (a binary stamp is refused by {@code Admission#refuseClientStamp}).
     * Malformed JSON is left to the call's own parsing (which answers 400 with its position).
     */
    static void refuse(String name, byte[] body) {
        if (!mutating(name) || !mentionsTimestamp(body)) {
            return; // the common case costs one byte scan, no second parse
        }
        JsonNode tree;
        try {
            tree = JSON.readTree(body);
        } catch (IOException e) {
            return;
        }
        if (tree == null || !tree.isObject()) {
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = tree.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            JsonNode v = f.getValue();
            if (f.getKey().equalsIgnoreCase("timestamp") && !v.isNull() && !(v.isIntegralNumber() && v.asLong() == 0)) {
                throw new CommandError(400, f.getKey() + ": a client may not choose the timestamp of DHash."
                        + name + " (the entry node stamps every write); omit " + f.getKey() + " or send 0, was "
                        + abbreviated(v.toString()));
            }
        }
    }

    /** Whether the bytes contain "timestamp" in any ASCII letter case. */
    static boolean mentionsTimestamp(byte[] body) {
        outer:
        for (int i = 0; i + NAME.length <= body.length; i++) {
            for (int j = 0; j < NAME.length; j++) {
                if ((body[i + j] | 0x20) != NAME[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static String abbreviated(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "…";
    }

    private static boolean mutating(String name) {
        io.god.request.Command c = io.god.request.Command.named(name);
        return c != null && c.is(io.god.request.Command.Flag.MUTATING);
    }
}
