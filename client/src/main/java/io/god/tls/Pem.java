package io.god.tls;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PEM files as cert-manager writes them ({@code tls.crt}, {@code tls.key}, {@code ca.crt}): certificates, and an
 * unencrypted private key in PKCS#8 ({@code PRIVATE KEY}), PKCS#1 ({@code RSA PRIVATE KEY}, cert-manager's default)
 * or SEC1 ({@code EC PRIVATE KEY}). Every failure is an {@link IllegalArgumentException} whose message starts with
 * the name of the setting or option that named the file, so a start-up error says which one to fix.
 */
public final class Pem {

    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*?)-----END \\1-----");

    private Pem() {
    }

    /** One PEM block: its label ("CERTIFICATE", "PRIVATE KEY", ...) and its DER bytes. */
    record Block(String label, byte[] der) {
    }

    /** Every certificate of a PEM file (a chain, or a CA bundle: old and new CA during a rotation). */
    public static List<X509Certificate> certificates(String setting, Path file) {
        List<X509Certificate> certs = new ArrayList<>();
        try {
            CertificateFactory f = CertificateFactory.getInstance("X.509");
            for (Block b : blocks(setting, file)) {
                if (b.label().equals("CERTIFICATE")) {
                    certs.add((X509Certificate) f.generateCertificate(new ByteArrayInputStream(b.der())));
                }
            }
        } catch (CertificateException e) {
            throw new IllegalArgumentException(setting + ": " + file + " holds a certificate that cannot be read: "
                    + e.getMessage(), e);
        }
        if (certs.isEmpty()) {
            throw new IllegalArgumentException(setting + ": " + file + " holds no PEM certificate"
                    + " (-----BEGIN CERTIFICATE-----)");
        }
        return certs;
    }

    /** The private key of a PEM file: PKCS#8, PKCS#1 (RSA) or SEC1 (EC), unencrypted. */
    public static PrivateKey privateKey(String setting, Path file) {
        for (Block b : blocks(setting, file)) {
            switch (b.label()) {
                case "PRIVATE KEY" -> {
                    return pkcs8(setting, file, "PKCS#8", b.der());
                }
                case "RSA PRIVATE KEY" -> {
                    return pkcs8(setting, file, "PKCS#1", Der.rsaPkcs1ToPkcs8(b.der()));
                }
                case "EC PRIVATE KEY" -> {
                    return pkcs8(setting, file, "SEC1", Der.ecSec1ToPkcs8(setting, file, b.der()));
                }
                case "ENCRYPTED PRIVATE KEY" -> throw new IllegalArgumentException(setting + ": " + file
                        + " holds an encrypted PKCS#8 key, which is not supported: store it unencrypted"
                        + " (PKCS#8 \"PRIVATE KEY\" or PKCS#1 \"RSA PRIVATE KEY\")");
                default -> {
                    // certificates or parameters next to the key: skip
                }
            }
        }
        throw new IllegalArgumentException(setting + ": " + file + " holds no private key: expected a PEM block"
                + " \"PRIVATE KEY\" (PKCS#8), \"RSA PRIVATE KEY\" (PKCS#1) or \"EC PRIVATE KEY\" (SEC1)");
    }

    private static PrivateKey pkcs8(String setting, Path file, String encoding, byte[] der) {
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        for (String algorithm : List.of("RSA", "EC", "Ed25519", "Ed448")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException | RuntimeException e) {
                // the next algorithm
            }
        }
        throw new IllegalArgumentException(setting + ": " + file + " holds a " + encoding
                + " private key that cannot be decoded (RSA, EC and Ed25519 keys are supported)");
    }

    static List<Block> blocks(String setting, Path file) {
        if (file == null) {
            throw new IllegalArgumentException(setting + ": no file given");
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalArgumentException(setting + ": " + file + " does not exist", e);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(setting + ": " + file + " cannot be read: " + e, e);
        }
        List<Block> blocks = new ArrayList<>();
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            try {
                blocks.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2))));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(setting + ": " + file + ": the PEM block " + m.group(1)
                        + " is not valid base64", e);
            }
        }
        if (blocks.isEmpty()) {
            throw new IllegalArgumentException(setting + ": " + file + " is not a PEM file (no -----BEGIN ...----- block)");
        }
        return blocks;
    }

    /** The little DER needed to wrap PKCS#1 and SEC1 keys into PKCS#8 (the JDK decodes only the latter). */
    static final class Der {

        private static final byte[] RSA_ALGORITHM = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86,
                (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};
        private static final byte[] EC_PUBLIC_KEY_OID = {0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02,
                0x01};

        private Der() {
        }

        static byte[] rsaPkcs1ToPkcs8(byte[] pkcs1) {
            return sequence(new byte[] {0x02, 0x01, 0x00}, RSA_ALGORITHM, tlv(0x04, pkcs1));
        }

        /** SEC1 ECPrivateKey ::= SEQUENCE { version, privateKey OCTET STRING, [0] curve OID, [1] public key }. */
        static byte[] ecSec1ToPkcs8(String setting, Path file, byte[] sec1) {
            byte[] curve = null;
            int[] seq = header(sec1, 0);
            for (int i = seq[0]; i < seq[0] + seq[1]; ) {
                int[] h = header(sec1, i);
                if ((sec1[i] & 0xff) == 0xa0) {
                    curve = java.util.Arrays.copyOfRange(sec1, h[0], h[0] + h[1]);
                }
                i = h[0] + h[1];
            }
            if (curve == null) {
                throw new IllegalArgumentException(setting + ": " + file + " holds a SEC1 EC key without its curve;"
                        + " convert it to PKCS#8 (openssl pkcs8 -topk8 -nocrypt)");
            }
            return sequence(new byte[] {0x02, 0x01, 0x00}, sequence(EC_PUBLIC_KEY_OID, curve), tlv(0x04, sec1));
        }

        /** {content start, content length} of the element at offset. */
        private static int[] header(byte[] der, int offset) {
            int len = der[offset + 1] & 0xff;
            int start = offset + 2;
            if (len > 0x80) {
                int n = len - 0x80;
                len = 0;
                for (int k = 0; k < n; k++) {
                    len = (len << 8) | (der[start + k] & 0xff);
                }
                start += n;
            }
            return new int[] {start, len};
        }

        private static byte[] sequence(byte[]... parts) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            for (byte[] p : parts) {
                b.writeBytes(p);
            }
            return tlv(0x30, b.toByteArray());
        }

        private static byte[] tlv(int tag, byte[] content) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            b.write(tag);
            int n = content.length;
            if (n < 0x80) {
                b.write(n);
            } else {
                int bytes = n > 0xffffff ? 4 : n > 0xffff ? 3 : n > 0xff ? 2 : 1;
                b.write(0x80 | bytes);
                for (int k = bytes - 1; k >= 0; k--) {
                    b.write(n >>> (8 * k));
                }
            }
            b.writeBytes(content);
            return b.toByteArray();
        }
    }
}
