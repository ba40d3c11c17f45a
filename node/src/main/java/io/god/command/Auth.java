package io.god.command;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** The shared-secret check ({@code god.auth.token}): {@code Authorization: Bearer <token>}, compared in constant time. */
final class Auth {

    private final byte[] expected;

    /** token null or blank = auth off. */
    Auth(String token) {
        this.expected = token == null || token.isBlank() ? null
                : ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    }

    boolean enabled() {
        return expected != null;
    }

    /** Whether a request with this Authorization header may pass (always, when auth is off). */
    boolean allows(String authorization) {
        if (expected == null) {
            return true;
        }
        byte[] given = authorization == null ? new byte[0] : authorization.trim().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(expected, given);
    }
}
