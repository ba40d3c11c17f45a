package io.god.api;

import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpServerRequest;

/**
 * The one place an HTTP request becomes its credential (issue 32): the Authorization header, else
 * {@code Bearer <god_token cookie>}. A browser cannot set Authorization on a WebSocket, so the dashboard logs in
 * once ({@code POST /api/login}, {@link LoginRoutes}) and its cookie stands in for the header on {@code /rpc},
 * {@code /v1}, {@code /ws} and {@code /ws/peer}. Whether the credential is accepted is for
 * {@link io.god.command.Admission} alone.
 *
 * <p>CSRF: the cookie is {@code SameSite=Strict}, so a browser never sends it on a request another site starts
 * (a form post, a fetch, a WebSocket opened by a foreign page); that attribute is the guard, there is no token form.
 */
public final class RequestCredential {

    /** The cookie the dashboard's login sets. */
    public static final String COOKIE = "god_token";

    private RequestCredential() {
    }

    /** The request's Authorization header, else the login cookie as {@code Bearer <token>}, else null. */
    public static String of(HttpServerRequest request) {
        String header = request.getHeader("Authorization");
        if (header != null) {
            return header;
        }
        Cookie c = request.getCookie(COOKIE);
        return c == null || c.getValue().isEmpty() ? null : "Bearer " + c.getValue();
    }
}
