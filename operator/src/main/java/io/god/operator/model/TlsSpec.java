package io.god.operator.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/**
 * TLS of the members: a Secret in cert-manager's layout (tls.crt, tls.key in PKCS#8, ca.crt), mounted at /etc/god/tls.
 * Clients and peers reach the nodes over TLS; peers present the same certificate to each other (mTLS).
 */
public class TlsSpec {

    @Required
    @Pattern(AuthSpec.SECRET_NAME)
    @JsonPropertyDescription("Secret with tls.crt, tls.key (PKCS#8 PEM) and ca.crt, e.g. a cert-manager Certificate's"
            + " secretName. Its names must cover the client Service and *.<cluster>-peers.<namespace>.svc.")
    private String secretName;

    @JsonPropertyDescription("The name a peer's certificate must carry (god.tls.peer-san); the node's default when"
            + " empty.")
    private String peerSan;

    public String getSecretName() { return secretName; }
    public void setSecretName(String secretName) { this.secretName = secretName; }
    public String getPeerSan() { return peerSan; }
    public void setPeerSan(String peerSan) { this.peerSan = peerSan; }
}
