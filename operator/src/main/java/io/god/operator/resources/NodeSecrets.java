package io.god.operator.resources;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.god.operator.model.AuthSpec;
import io.god.operator.model.GodCluster;
import io.god.operator.model.TlsSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The Secrets a GodCluster's members read, and how they reach the node: each one a read-only volume, the node told
 * the file's path. A Secret's value is never copied into a ConfigMap, an environment value, the status or an event.
 */
public final class NodeSecrets {

    /** The key of a credential Secret: the current token on its first line, tokens still accepted on the next. */
    public static final String TOKEN_KEY = "token";
    public static final String AUTH_PATH = "/etc/god/auth";
    public static final String TLS_PATH = "/etc/god/tls";
    public static final String TLS_CERT = "tls.crt";
    public static final String TLS_KEY = "tls.key";
    public static final String TLS_CA = "ca.crt";
    public static final List<String> TLS_KEYS = List.of(TLS_CERT, TLS_KEY, TLS_CA);
    static final String TLS_VOLUME = "tls";
    /** r--r-----: the node's group (fsGroup) reads, nobody writes. */
    static final int FILE_MODE = 0440;

    /**
     * The four credentials of a ring and the node setting each one's file goes to: the three of issue 32 and the
     * metrics one, which reads GET /q/metrics only (what the monitor of spec.monitoring sends).
     */
    public enum Credential {
        CLIENT("client", NodeEnv.CLIENT_TOKEN_FILE, AuthSpec::getClientSecret),
        PEER("peer", NodeEnv.PEER_TOKEN_FILE, AuthSpec::getPeerSecret),
        ADMIN("admin", NodeEnv.ADMIN_TOKEN_FILE, AuthSpec::getAdminSecret),
        METRICS("metrics", NodeEnv.METRICS_TOKEN_FILE, AuthSpec::getMetricsSecret);

        private final String role;
        private final String env;
        private final Function<AuthSpec, String> named;

        Credential(String role, String env, Function<AuthSpec, String> named) {
            this.role = role;
            this.env = env;
            this.named = named;
        }

        /** The spec field that names its Secret. */
        public String field() {
            return "spec.auth." + role + "Secret";
        }

        public String volume() {
            return "auth-" + role;
        }

        /** The token file in the container. */
        public String file() {
            return AUTH_PATH + "/" + role + "/" + TOKEN_KEY;
        }

        public String env() {
            return env;
        }
    }

    /** One credential's Secret; {@code generated}: not named in the spec, so the operator makes it when missing. */
    public record Ref(Credential credential, String secretName, boolean generated) {
    }

    private NodeSecrets() {
    }

    /** The credentials' Secrets, in {@link Credential} order. */
    public static List<Ref> credentials(GodCluster cluster) {
        AuthSpec auth = Optional.ofNullable(cluster.getSpec().getAuth()).orElseGet(AuthSpec::new);
        List<Ref> refs = new ArrayList<>();
        for (Credential c : Credential.values()) {
            String named = c.named.apply(auth);
            refs.add(named == null || named.isBlank()
                    ? new Ref(c, generatedName(cluster, c), true) : new Ref(c, named, false));
        }
        return refs;
    }

    /** The Secret of one credential: named in spec.auth, else the generated one. */
    public static Ref credential(GodCluster cluster, Credential credential) {
        return credentials(cluster).get(credential.ordinal());
    }

    /** The name of the Secret the operator makes for a credential the spec does not name: demo-client-token. */
    public static String generatedName(GodCluster cluster, Credential credential) {
        return cluster.getMetadata().getName() + "-" + credential.role + "-token";
    }

    public static Optional<TlsSpec> tls(GodCluster cluster) {
        return Optional.ofNullable(cluster.getSpec().getTls()).filter(t -> t.getSecretName() != null);
    }

    /** One volume per credential (its key token only), and the TLS Secret's when spec.tls is set. */
    static List<Volume> volumes(GodCluster cluster) {
        List<Volume> volumes = new ArrayList<>();
        for (Ref ref : credentials(cluster)) {
            volumes.add(new VolumeBuilder().withName(ref.credential().volume()).withNewSecret()
                    .withSecretName(ref.secretName()).withDefaultMode(FILE_MODE)
                    .addNewItem().withKey(TOKEN_KEY).withPath(TOKEN_KEY).endItem()
                    .endSecret().build());
        }
        tls(cluster).ifPresent(tls -> {
            VolumeBuilder v = new VolumeBuilder().withName(TLS_VOLUME);
            var secret = v.withNewSecret().withSecretName(tls.getSecretName()).withDefaultMode(FILE_MODE);
            TLS_KEYS.forEach(k -> secret.addNewItem().withKey(k).withPath(k).endItem());
            volumes.add(secret.endSecret().build());
        });
        return volumes;
    }

    static List<VolumeMount> mounts(GodCluster cluster) {
        List<VolumeMount> mounts = new ArrayList<>();
        for (Credential c : Credential.values()) {
            mounts.add(new VolumeMountBuilder().withName(c.volume()).withMountPath(AUTH_PATH + "/" + c.role)
                    .withReadOnly(true).build());
        }
        tls(cluster).ifPresent(tls -> mounts.add(new VolumeMountBuilder().withName(TLS_VOLUME).withMountPath(TLS_PATH)
                .withReadOnly(true).build()));
        return mounts;
    }

    /** The node settings naming the files (paths only: the values stay in the Secrets). */
    static List<EnvVar> env(GodCluster cluster) {
        List<EnvVar> env = new ArrayList<>();
        for (Credential c : Credential.values()) {
            env.add(plain(c.env(), c.file()));
        }
        tls(cluster).ifPresent(tls -> {
            env.add(plain(NodeEnv.TLS_CERT_FILE, TLS_PATH + "/" + TLS_CERT));
            env.add(plain(NodeEnv.TLS_KEY_FILE, TLS_PATH + "/" + TLS_KEY));
            env.add(plain(NodeEnv.TLS_CA_FILE, TLS_PATH + "/" + TLS_CA));
            if (tls.getPeerSan() != null && !tls.getPeerSan().isBlank()) {
                env.add(plain(NodeEnv.TLS_PEER_SAN, tls.getPeerSan()));
            }
        });
        return env;
    }

    private static EnvVar plain(String name, String value) {
        return new EnvVarBuilder().withName(name).withValue(value).build();
    }
}
