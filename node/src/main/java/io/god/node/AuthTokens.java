package io.god.node;

import static io.god.node.SettingValues.invalid;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One credential of the node (client, peer or admin): the current token (sent to peers, accepted) and previous ones
 * (accepted during a rotation), from {@code <token>} and {@code <previous>} (comma-separated), or from the file
 * {@code <file>} (a mounted Secret: the current token on its first line, previous ones on the next). The client
 * credential is {@code god.auth.token}, {@code god.auth.previous-tokens}, {@code god.auth.token-file}; the peer and
 * admin ones follow the same pattern ({@link #PEER}, {@link #ADMIN}), and so does the metrics one ({@link #METRICS}:
 * {@code GET /q/metrics} on the management port, for Prometheus, and nothing else).
 *
 * @param current the token this node presents, or null when the credential is not set
 * @param accepted every token a caller may present (current first)
 */
public record AuthTokens(String current, List<String> accepted) {

    public static final String TOKEN = NodeSettings.AUTH_TOKEN;
    public static final String PREVIOUS = "god.auth.previous-tokens";
    public static final String FILE = "god.auth.token-file";

    /** The setting names of one credential. */
    public record Names(String token, String previous, String file) {
    }

    public static final Names CLIENT = new Names(TOKEN, PREVIOUS, FILE);
    public static final Names PEER = new Names("god.auth.peer-token", "god.auth.peer-previous-tokens",
            "god.auth.peer-token-file");
    public static final Names ADMIN = new Names("god.auth.admin-token", "god.auth.admin-previous-tokens",
            "god.auth.admin-token-file");
    public static final Names METRICS = new Names("god.auth.metrics-token", "god.auth.metrics-previous-tokens",
            "god.auth.metrics-token-file");

    static final AuthTokens OFF = new AuthTokens(null, List.of());

    /** Whether the credential is set (callers must present one of its tokens). */
    public boolean set() {
        return current != null;
    }

    static AuthTokens from(Function<String, Optional<String>> config) {
        return from(config, CLIENT);
    }

    static AuthTokens from(Function<String, Optional<String>> config, Names names) {
        Optional<String> token = config.apply(names.token()).filter(t -> !t.isBlank());
        Optional<String> file = config.apply(names.file()).filter(f -> !f.isBlank());
        List<String> tokens = new ArrayList<>();
        if (file.isPresent()) {
            if (token.isPresent()) {
                throw invalid(names.file(), "and " + names.token() + " are both set: give the token one way");
            }
            try {
                Files.readAllLines(Path.of(file.get().trim()), StandardCharsets.UTF_8).stream().map(String::trim)
                        .filter(l -> !l.isEmpty()).forEach(tokens::add);
            } catch (IOException e) {
                throw invalid(names.file(), "cannot be read: " + e.getMessage());
            }
            if (tokens.isEmpty()) {
                throw invalid(names.file(), "holds no token: " + file.get());
            }
        } else if (token.isPresent()) {
            tokens.add(token.get().trim());
        }
        config.apply(names.previous()).ifPresent(list -> {
            for (String t : list.split(",")) {
                if (!t.isBlank()) {
                    tokens.add(t.trim());
                }
            }
        });
        if (tokens.isEmpty()) {
            return OFF;
        }
        if (token.isEmpty() && file.isEmpty()) {
            throw invalid(names.previous(), "is set but " + names.token() + " is not: a previous token needs a current"
                    + " one");
        }
        for (String t : tokens) {
            if (t.length() < 8) {
                throw invalid(file.isPresent() ? names.file() : names.token(), "must be at least 8 characters when set");
            }
        }
        return new AuthTokens(tokens.get(0), List.copyOf(tokens));
    }
}
