package io.god.operator.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;

/**
 * The nodes' four credentials (client, peer, admin, metrics), each a Secret of this namespace whose key {@code token}
 * holds the current token on its first line and tokens still accepted during a rotation on the next lines. A Secret not
 * named here is made by the operator with a random token (owned by the GodCluster, never regenerated while it exists).
 */
public class AuthSpec {

    /** A Secret's name (DNS subdomain). */
    static final String SECRET_NAME = "^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$";

    @Pattern(SECRET_NAME)
    @JsonPropertyDescription("Secret (key token) of the clients' credential: data ports 9192, 9191 and 6379."
            + " Default: <cluster>-client-token, made by the operator.")
    private String clientSecret;

    @Pattern(SECRET_NAME)
    @JsonPropertyDescription("Secret (key token) of the members' credential towards each other (ring, replication,"
            + " sync). Default: <cluster>-peer-token, made by the operator.")
    private String peerSecret;

    @Pattern(SECRET_NAME)
    @JsonPropertyDescription("Secret (key token) of the management credential (/admin on port 9000), the one the"
            + " operator sends. Default: <cluster>-admin-token, made by the operator.")
    private String adminSecret;

    @Pattern(SECRET_NAME)
    @JsonPropertyDescription("Secret (key token) of the metrics credential: GET /q/metrics on port 9000 and nothing"
            + " else, what the monitor of spec.monitoring sends. Default: <cluster>-metrics-token, made by the operator.")
    private String metricsSecret;

    public String getClientSecret() { return clientSecret; }
    public void setClientSecret(String clientSecret) { this.clientSecret = clientSecret; }
    public String getPeerSecret() { return peerSecret; }
    public void setPeerSecret(String peerSecret) { this.peerSecret = peerSecret; }
    public String getAdminSecret() { return adminSecret; }
    public void setAdminSecret(String adminSecret) { this.adminSecret = adminSecret; }
    public String getMetricsSecret() { return metricsSecret; }
    public void setMetricsSecret(String metricsSecret) { this.metricsSecret = metricsSecret; }
}
