package io.god.tls;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/** JSSE key and trust managers from PEM material ({@link Pem}): what the node's Vert.x servers and the Java client share. */
public final class Jsse {

    private static final char[] NO_PASSWORD = new char[0];

    private Jsse() {
    }

    /**
     * Key managers presenting {@code chain} with {@code key}.
     *
     * @throws IllegalArgumentException naming {@code keySetting} when the key does not belong to the chain's first
     *     certificate (a rotation that replaced one file and not yet the other, or two files mixed up)
     */
    public static KeyManagerFactory keyManagers(List<X509Certificate> chain, PrivateKey key, String keySetting,
                                                String certSetting) {
        matches(chain.get(0), key, keySetting, certSetting);
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("god", key, NO_PASSWORD, chain.toArray(new X509Certificate[0]));
            KeyManagerFactory f = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            f.init(ks, NO_PASSWORD);
            return f;
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalArgumentException(keySetting + ": the key cannot be used with " + certSetting + ": "
                    + e.getMessage(), e);
        }
    }

    /** A PKIX trust manager that trusts exactly these CA certificates. */
    public static X509ExtendedTrustManager trustManager(Collection<X509Certificate> cas) {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            int i = 0;
            for (X509Certificate ca : cas) {
                ks.setCertificateEntry("ca-" + i++, ca);
            }
            TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            f.init(ks);
            for (TrustManager tm : f.getTrustManagers()) {
                if (tm instanceof X509ExtendedTrustManager x) {
                    return x;
                }
            }
            throw new IllegalStateException("no X509 trust manager in " + f.getAlgorithm());
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("cannot build a trust store: " + e.getMessage(), e);
        }
    }

    /**
     * The Java client's TLS context: trusts {@code ca} (null: the JVM's default trust store) and presents the client
     * certificate {@code cert}/{@code key} when given.
     */
    public static SSLContext clientContext(Path ca, Path cert, Path key) {
        try {
            TrustManager[] trust = ca == null ? null
                    : new TrustManager[] {trustManager(Pem.certificates("ca (--ca)", ca))};
            KeyManager[] keys = null;
            if (cert != null || key != null) {
                if (cert == null || key == null) {
                    throw new IllegalArgumentException("a client certificate needs both files: certificate (--cert)"
                            + " and key (--key)");
                }
                keys = keyManagers(Pem.certificates("certificate (--cert)", cert),
                        Pem.privateKey("key (--key)", key), "key (--key)", "certificate (--cert)").getKeyManagers();
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys, trust, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    private static void matches(X509Certificate cert, PrivateKey key, String keySetting, String certSetting) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> key.getAlgorithm(); // Ed25519, Ed448
        };
        byte[] probe = "god key check".getBytes(StandardCharsets.US_ASCII);
        boolean ok;
        try {
            Signature s = Signature.getInstance(algorithm);
            s.initSign(key);
            s.update(probe);
            byte[] signature = s.sign();
            Signature v = Signature.getInstance(algorithm);
            v.initVerify(cert.getPublicKey());
            v.update(probe);
            ok = v.verify(signature);
        } catch (GeneralSecurityException e) {
            ok = false;
        }
        if (!ok) {
            throw new IllegalArgumentException(keySetting + ": the private key does not belong to the certificate of "
                    + certSetting + " (" + cert.getSubjectX500Principal().getName() + ")");
        }
    }
}
