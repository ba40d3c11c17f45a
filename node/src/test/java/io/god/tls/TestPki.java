package io.god.tls;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificates for the TLS tests, made with BouncyCastle: a CA, and node, peer or client certificates it signs
 * (DNS and IP subject alternative names), written as PEM files in cert-manager's layout ({@code tls.crt},
 * {@code tls.key} in PKCS#1 as cert-manager writes by default, or PKCS#8; {@code ca.crt}).
 */
public final class TestPki {

    private static final AtomicLong SERIALS = new AtomicLong(System.nanoTime() & 0xffffffffL);
    /** Fixed seed: the same keys every run (key generation is the slow part; determinism is a bonus). */
    private static final SecureRandom RANDOM = seeded();

    public final String name;
    public final X509Certificate cert;
    final KeyPair keys;

    private TestPki(String name, X509Certificate cert, KeyPair keys) {
        this.name = name;
        this.cert = cert;
        this.keys = keys;
    }

    /** What a certificate is for: a peer (server and client), a server only, or a client only. */
    public enum Use { PEER, SERVER, CLIENT }

    /** One issued certificate and its key. */
    public record Issued(X509Certificate cert, KeyPair keys, TestPki ca) {

        /** Writes tls.crt (the certificate, then its CA), tls.key (PKCS#1 or PKCS#8) and ca.crt into dir. */
        public Path write(Path dir, boolean pkcs1) throws IOException {
            Files.createDirectories(dir);
            atomically(dir.resolve("tls.crt"), pem("CERTIFICATE", der(cert)) + pem("CERTIFICATE", der(ca.cert)));
            atomically(dir.resolve("tls.key"), pkcs1 ? pkcs1(keys) : pem("PRIVATE KEY", keys.getPrivate().getEncoded()));
            atomically(dir.resolve("ca.crt"), pem("CERTIFICATE", der(ca.cert)));
            return dir;
        }
    }

    public static TestPki ca(String name) {
        KeyPair keys = rsa();
        X500Name subject = new X500Name("CN=" + name);
        try {
            var b = new JcaX509v3CertificateBuilder(subject, serial(), notBefore(), notAfter(), subject, keys.getPublic());
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            return new TestPki(name, sign(b, keys), keys);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A certificate signed by this CA with these DNS names and IP addresses. */
    public Issued issue(String cn, Use use, List<String> dnsNames, List<String> ips) {
        KeyPair k = rsa();
        try {
            var b = new JcaX509v3CertificateBuilder(new X500Name("CN=" + name), serial(), notBefore(), notAfter(),
                    new X500Name("CN=" + cn), k.getPublic());
            List<GeneralName> names = new ArrayList<>();
            dnsNames.forEach(d -> names.add(new GeneralName(GeneralName.dNSName, d)));
            ips.forEach(ip -> names.add(new GeneralName(GeneralName.iPAddress, ip)));
            if (!names.isEmpty()) {
                b.addExtension(Extension.subjectAlternativeName, false,
                        new GeneralNames(names.toArray(new GeneralName[0])));
            }
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            KeyPurposeId[] usages = switch (use) {
                case PEER -> new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth};
                case SERVER -> new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth};
                case CLIENT -> new KeyPurposeId[] {KeyPurposeId.id_kp_clientAuth};
            };
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(usages));
            return new Issued(sign(b, keys), k, this);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The CA certificate as PEM (several CAs concatenated make a bundle). */
    public String pem() {
        return pem("CERTIFICATE", der(cert));
    }

    /** The certificate a server ({@code host:port}) presents to a new TLS connection, checked against ca. */
    public static X509Certificate served(String address, Path ca) throws IOException {
        javax.net.ssl.SSLContext context = Jsse.clientContext(ca, null, null);
        int colon = address.lastIndexOf(':');
        try (javax.net.ssl.SSLSocket s = (javax.net.ssl.SSLSocket) context.getSocketFactory().createSocket(
                address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)))) {
            s.setSoTimeout(5000);
            s.startHandshake();
            return (X509Certificate) s.getSession().getPeerCertificates()[0];
        }
    }

    /** Replaces a file in one step (as a Secret volume update does: readers never see half a file). */
    public static void atomically(Path file, String content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, content, StandardCharsets.US_ASCII);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    static String pkcs1(KeyPair k) {
        try {
            ASN1Encodable rsa = PrivateKeyInfo.getInstance(k.getPrivate().getEncoded()).parsePrivateKey();
            return pem("RSA PRIVATE KEY", rsa.toASN1Primitive().getEncoded());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + label + "-----\n";
    }

    private static byte[] der(X509Certificate c) {
        try {
            return c.getEncoded();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static X509Certificate sign(JcaX509v3CertificateBuilder b, KeyPair issuer) throws Exception {
        return new JcaX509CertificateConverter().getCertificate(
                b.build(new JcaContentSignerBuilder("SHA256withRSA").build(issuer.getPrivate())));
    }

    private static synchronized KeyPair rsa() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048, RANDOM);
            return g.generateKeyPair();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static SecureRandom seeded() {
        try {
            SecureRandom r = SecureRandom.getInstance("SHA1PRNG");
            r.setSeed(33L);
            return r;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static BigInteger serial() {
        return BigInteger.valueOf(SERIALS.incrementAndGet());
    }

    private static Date notBefore() {
        return Date.from(Instant.now().minus(Duration.ofHours(1)));
    }

    private static Date notAfter() {
        return Date.from(Instant.now().plus(Duration.ofDays(2)));
    }
}
