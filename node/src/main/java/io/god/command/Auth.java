package io.god.command;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** The shared-secret check ({@code god.auth.token}): {@code Authorization: Bearer <token>}, compared in constant time. */
final class Auth {

    private final java.util.List<byte[]> expected;

    /** Every token a caller may present (the current one and previous ones during a rotation); empty = auth off. */
    Auth(java.util.List<String> tokens) {
        this.expected = tokens.stream().map(t -> ("Bearer " + t).getBytes(StandardCharsets.UTF_8)).toList();
    }

    boolean enabled() {
        return !expected.isEmpty();
    }

    /** Whether a request with this Authorization header may pass (always, when auth is off). */
    boolean allows(String authorization) {
        if (expected.isEmpty()) {
            return true;
        }
        byte[] given = authorization == null ? new byte[0] : authorization.trim().getBytes(StandardCharsets.UTF_8);
        boolean match = false;
        for (byte[] e : expected) {
            match |= MessageDigest.isEqual(e, given); // each compared in constant time, all of them always
        }
        return match;
    }
}
