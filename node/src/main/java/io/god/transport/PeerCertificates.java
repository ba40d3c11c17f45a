package io.god.transport;

import io.god.node.TlsSettings;
import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * What makes a certificate a peer's (DESIGN: a client certificate can never act as a peer): it chains to
 * {@code god.tls.peer-ca-file}, names a DNS name matching {@code god.tls.peer-san} when that is set, and allows
 * server authentication (a peer is a server too; a certificate issued for clients only does not). A node asks it of
 * the certificate every incoming connection presented before that connection may call a peer operation, and of
 * every peer it connects to ({@link #trustManager}, after the advertise name was checked).
 */
final class PeerCertificates {

    private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";

    private final TlsSettings settings;
    private final X509ExtendedTrustManager peerCa;

    PeerCertificates(TlsSettings settings, X509ExtendedTrustManager peerCa) {
        this.settings = settings;
        this.peerCa = peerCa;
    }

    /** Null when the chain is a peer's, else why not (for the refusal and the log). */
    String refusal(X509Certificate[] chain) {
        if (chain == null || chain.length == 0) {
            return "the connection presented no certificate";
        }
        try {
            peerCa.checkClientTrusted(chain, chain[0].getPublicKey().getAlgorithm());
        } catch (CertificateException e) {
            return "its certificate (" + subject(chain) + ") does not chain to " + TlsSettings.PEER_CA_FILE + ": "
                    + e.getMessage();
        }
        return names(chain);
    }

    /** The checks beyond the chain: the peer-san names and the server-authentication usage. */
    private String names(X509Certificate[] chain) {
        X509Certificate leaf = chain[0];
        if (!settings.peerSan().isEmpty() && dnsNames(leaf).stream().noneMatch(settings::peerName)) {
            return "its certificate (" + subject(chain) + ", DNS names " + dnsNames(leaf) + ") matches none of "
                    + TlsSettings.PEER_SAN + " " + settings.peerSan();
        }
        try {
            List<String> usages = leaf.getExtendedKeyUsage();
            if (usages != null && !usages.contains(SERVER_AUTH)) {
                return "its certificate (" + subject(chain) + ") is for clients only (no serverAuth extended key usage)";
            }
        } catch (CertificateParsingException e) {
            return "its certificate's extended key usage cannot be read: " + e.getMessage();
        }
        return null;
    }

    /**
     * The peer client's trust: the peer CA with the advertise name checked (the engine's HTTPS endpoint
     * identification), then the peer names.
     */
    X509ExtendedTrustManager trustManager() {
        return new X509ExtendedTrustManager() {
            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                    throws CertificateException {
                peerCa.checkServerTrusted(chain, authType, engine);
                refuseUnlessPeer(chain);
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                    throws CertificateException {
                peerCa.checkServerTrusted(chain, authType, socket);
                refuseUnlessPeer(chain);
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                peerCa.checkServerTrusted(chain, authType);
                refuseUnlessPeer(chain);
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                    throws CertificateException {
                throw new CertificateException("a peer connection does not accept clients");
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                    throws CertificateException {
                throw new CertificateException("a peer connection does not accept clients");
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                throw new CertificateException("a peer connection does not accept clients");
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return peerCa.getAcceptedIssuers();
            }
        };
    }

    private void refuseUnlessPeer(X509Certificate[] chain) throws CertificateException {
        String why = names(chain);
        if (why != null) {
            throw new CertificateException("not a peer: " + why);
        }
    }

    static List<String> dnsNames(X509Certificate cert) {
        List<String> names = new ArrayList<>();
        try {
            if (cert.getSubjectAlternativeNames() != null) {
                for (List<?> san : cert.getSubjectAlternativeNames()) {
                    if (Integer.valueOf(2).equals(san.get(0))) {
                        names.add(String.valueOf(san.get(1)));
                    }
                }
            }
        } catch (CertificateParsingException e) {
            // no names
        }
        return names;
    }

    private static String subject(X509Certificate[] chain) {
        return chain[0].getSubjectX500Principal().getName();
    }
}
