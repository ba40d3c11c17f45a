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
 * The node's credentials: the current token (sent to peers, accepted) and previous ones (accepted during a rotation),
 * from {@code god.auth.token} and {@code god.auth.previous-tokens} (comma-separated), or from the file
 * {@code god.auth.token-file} (a mounted Secret: the current token on its first line, previous ones on the next).
 *
 * @param current the token this node presents, or null when auth is off
 * @param accepted every token a caller may present (current first)
 */
public record AuthTokens(String current, List<String> accepted) {

    public static final String TOKEN = NodeSettings.AUTH_TOKEN;
    public static final String PREVIOUS = "god.auth.previous-tokens";
    public static final String FILE = "god.auth.token-file";

    static final AuthTokens OFF = new AuthTokens(null, List.of());

    static AuthTokens from(Function<String, Optional<String>> config) {
        Optional<String> token = config.apply(TOKEN).filter(t -> !t.isBlank());
        Optional<String> file = config.apply(FILE).filter(f -> !f.isBlank());
        List<String> tokens = new ArrayList<>();
        if (file.isPresent()) {
            if (token.isPresent()) {
                throw invalid(FILE, "and " + TOKEN + " are both set: give the token one way");
            }
            try {
                Files.readAllLines(Path.of(file.get().trim()), StandardCharsets.UTF_8).stream().map(String::trim)
                        .filter(l -> !l.isEmpty()).forEach(tokens::add);
            } catch (IOException e) {
                throw invalid(FILE, "cannot be read: " + e.getMessage());
            }
            if (tokens.isEmpty()) {
                throw invalid(FILE, "holds no token: " + file.get());
            }
        } else if (token.isPresent()) {
            tokens.add(token.get().trim());
        }
        config.apply(PREVIOUS).ifPresent(list -> {
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
            throw invalid(PREVIOUS, "is set but " + TOKEN + " is not: a previous token needs a current one");
        }
        for (String t : tokens) {
            if (t.length() < 8) {
                throw invalid(file.isPresent() ? FILE : TOKEN, "must be at least 8 characters when set");
            }
        }
        return new AuthTokens(tokens.get(0), List.copyOf(tokens));
    }
}
