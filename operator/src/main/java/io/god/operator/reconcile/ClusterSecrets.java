package io.god.operator.reconcile;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.god.operator.model.GodCluster;
import io.god.operator.model.TlsSpec;
import io.god.operator.resources.DesiredObjects;
import io.god.operator.resources.Labels;
import io.god.operator.resources.NodeSecrets;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Secrets a GodCluster's members read, before anything that mounts them is made: a credential Secret the spec does
 * not name is created with a random token when missing (owned by the GodCluster, never rewritten, so it is stable
 * across passes); every Secret is read with a {@code get} by name (no list, no watch: a changed Secret is seen at the
 * next pass, at most the resync interval later). What comes out is a hash of their contents for the pod template, the
 * admin token for the operator's own /admin calls, and the problems that stop the pass (a Secret named in the spec
 * that does not exist, a key missing). No token appears in a problem, an event or a log line.
 */
public final class ClusterSecrets {

    /** The node's shortest accepted token. */
    static final int MIN_TOKEN = 8;
    private static final int GENERATED_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * @param hash 16 hex digits over every referenced Secret's used keys (null when a problem stopped the read)
     * @param adminToken the admin Secret's current token (its first line)
     * @param created the Secrets made in this pass, by name
     */
    public record Loaded(String hash, String adminToken, List<String> problems, List<String> created) {
    }

    private final KubernetesClient client;

    public ClusterSecrets(KubernetesClient client) {
        this.client = client;
    }

    public Loaded load(GodCluster cluster) {
        String ns = cluster.getMetadata().getNamespace();
        List<String> problems = new ArrayList<>();
        List<String> created = new ArrayList<>();
        StringBuilder contents = new StringBuilder();
        String adminToken = null;
        for (NodeSecrets.Ref ref : NodeSecrets.credentials(cluster)) {
            Secret secret = get(ns, ref.secretName());
            if (secret == null && ref.generated()) {
                secret = client.resource(generated(cluster, ref.secretName())).create();
                created.add(ref.secretName());
            }
            if (secret == null) {
                problems.add("Secret " + ref.secretName() + " (" + ref.credential().field() + ") does not exist in"
                        + " namespace " + ns + ": create it with the key " + NodeSecrets.TOKEN_KEY);
                continue;
            }
            String token = firstLine(value(secret, NodeSecrets.TOKEN_KEY));
            if (token == null || token.length() < MIN_TOKEN) {
                problems.add("Secret " + ref.secretName() + " (" + ref.credential().field() + ") needs a key "
                        + NodeSecrets.TOKEN_KEY + " whose first line is a token of at least " + MIN_TOKEN
                        + " characters");
                continue;
            }
            if (ref.credential() == NodeSecrets.Credential.ADMIN) {
                adminToken = token;
            }
            append(contents, ref.credential().name(), secret, List.of(NodeSecrets.TOKEN_KEY));
        }
        Optional<TlsSpec> tls = NodeSecrets.tls(cluster);
        if (tls.isPresent()) {
            Secret secret = get(ns, tls.get().getSecretName());
            if (secret == null) {
                problems.add("Secret " + tls.get().getSecretName() + " (spec.tls.secretName) does not exist in namespace "
                        + ns + " (yet: a cert-manager Certificate makes it once issued)");
            } else {
                List<String> missing = NodeSecrets.TLS_KEYS.stream().filter(k -> value(secret, k) == null).toList();
                if (!missing.isEmpty()) {
                    problems.add("Secret " + tls.get().getSecretName() + " (spec.tls.secretName) lacks "
                            + String.join(", ", missing));
                }
                append(contents, "TLS", secret, NodeSecrets.TLS_KEYS);
            }
        }
        return problems.isEmpty() ? new Loaded(DesiredObjects.hash(contents.toString()), adminToken, List.of(), created)
                : new Loaded(null, null, problems, created);
    }

    private Secret get(String ns, String name) {
        return client.secrets().inNamespace(ns).withName(name).get();
    }

    /**
     * A Secret of one random token: 32 bytes from SecureRandom, base64url (43 characters), no line break, so the value
     * also serves as is where one bearer token is expected (spec.monitoring.bearerTokenSecret).
     */
    static Secret generated(GodCluster cluster, String name) {
        byte[] bytes = new byte[GENERATED_BYTES];
        RANDOM.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        return new SecretBuilder().withNewMetadata().withName(name).withNamespace(cluster.getMetadata().getNamespace())
                .withLabels(Labels.common(cluster)).withOwnerReferences(DesiredObjects.ownerReference(cluster))
                .endMetadata()
                .withType("Opaque")
                .withData(Map.of(NodeSecrets.TOKEN_KEY,
                        Base64.getEncoder().encodeToString(token.getBytes(StandardCharsets.UTF_8))))
                .build();
    }

    /** The decoded value of a key (data, or stringData of a Secret not yet normalised by the API server), or null. */
    static String value(Secret secret, String key) {
        String encoded = secret.getData() == null ? null : secret.getData().get(key);
        if (encoded != null) {
            return new String(Base64.getMimeDecoder().decode(encoded), StandardCharsets.UTF_8);
        }
        return secret.getStringData() == null ? null : secret.getStringData().get(key);
    }

    /** The current token: the first non-blank line, trimmed (the node reads the file the same way). */
    static String firstLine(String value) {
        return value == null ? null : value.lines().map(String::trim).filter(l -> !l.isEmpty()).findFirst().orElse(null);
    }

    private static void append(StringBuilder contents, String what, Secret secret, List<String> keys) {
        contents.append(what).append(':').append(secret.getMetadata().getName()).append('\n');
        for (String key : keys) {
            contents.append(key).append('=').append(value(secret, key)).append('\n');
        }
    }
}
