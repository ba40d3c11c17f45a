package io.god.node;

import static io.god.node.SettingValues.duration;
import static io.god.node.SettingValues.invalid;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code god.tls.*}: TLS on the binary protocol, RESP and (through the Quarkus TLS registry) HTTP, with PEM files
 * in cert-manager's layout ({@code tls.crt}, {@code tls.key}, {@code ca.crt}). TLS is on when
 * {@code god.tls.cert-file} is set; the files themselves are read (and their errors reported, naming the setting)
 * by {@link io.god.transport.NodeTls}.
 *
 * @param certFile the node's certificate chain (server and peer-client certificate)
 * @param keyFile its private key (PKCS#8, PKCS#1 or SEC1)
 * @param caFile the CA certificates clients' and peers' certificates chain to
 * @param peerCaFile the CA certificates a peer's certificate must chain to (default: {@code caFile})
 * @param peerSan patterns one of a peer certificate's DNS names must match ({@code *} stands for one DNS label);
 *     empty: no name is required beyond the advertise name peers connect to
 * @param reloadInterval how often the files are checked for a rotation
 */
public record TlsSettings(Path certFile, Path keyFile, Path caFile, Path peerCaFile, List<String> peerSan,
                          Duration reloadInterval) {

    public static final String CERT_FILE = "god.tls.cert-file";
    public static final String KEY_FILE = "god.tls.key-file";
    public static final String CA_FILE = "god.tls.ca-file";
    public static final String PEER_CA_FILE = "god.tls.peer-ca-file";
    public static final String PEER_SAN = "god.tls.peer-san";
    public static final String RELOAD_INTERVAL = "god.tls.reload-interval";

    public TlsSettings {
        peerSan = List.copyOf(peerSan);
    }

    /** The TLS settings, or null when {@code god.tls.cert-file} is not set (and no other god.tls key is). */
    public static TlsSettings from(Function<String, Optional<String>> config) {
        Function<String, Optional<String>> get = key -> config.apply(key).map(String::trim).filter(v -> !v.isEmpty());
        Optional<String> cert = get.apply(CERT_FILE);
        if (cert.isEmpty()) {
            for (String key : List.of(KEY_FILE, CA_FILE, PEER_CA_FILE, PEER_SAN)) {
                if (get.apply(key).isPresent()) {
                    throw invalid(key, "is set but " + CERT_FILE + " is not: TLS is on only with a certificate");
                }
            }
            return null;
        }
        Path ca = path(CA_FILE, get.apply(CA_FILE).orElseThrow(() -> invalid(CA_FILE,
                "must be set with " + CERT_FILE + " (the CA that signs peers' certificates; cert-manager's ca.crt)")));
        Path key = path(KEY_FILE, get.apply(KEY_FILE).orElseThrow(() -> invalid(KEY_FILE,
                "must be set with " + CERT_FILE + " (the certificate's private key; cert-manager's tls.key)")));
        Path peerCa = get.apply(PEER_CA_FILE).map(v -> path(PEER_CA_FILE, v)).orElse(ca);
        List<String> san = get.apply(PEER_SAN).map(v -> List.of(v.split(","))).orElse(List.of()).stream()
                .map(String::trim).filter(s -> !s.isEmpty()).toList();
        for (String s : san) {
            if (!s.matches("[A-Za-z0-9*.-]+")) {
                throw invalid(PEER_SAN, "must be DNS names, '*' standing for one label, was '" + s + "'");
            }
        }
        Duration reload = duration(RELOAD_INTERVAL, get.apply(RELOAD_INTERVAL).orElse("1m"));
        if (reload.compareTo(Duration.ofMillis(10)) < 0) {
            throw invalid(RELOAD_INTERVAL, "must be at least 10ms, was " + Durations.format(reload));
        }
        return new TlsSettings(path(CERT_FILE, cert.get()), key, ca, peerCa, san, reload);
    }

    /** Whether a DNS name matches one of the peer-san patterns (case-insensitive; {@code *} = one label). */
    public boolean peerName(String dnsName) {
        for (String pattern : peerSan) {
            String regex = java.util.Arrays.stream(pattern.toLowerCase(java.util.Locale.ROOT).split("\\.", -1))
                    .map(label -> label.equals("*") ? "[^.]+" : java.util.regex.Pattern.quote(label))
                    .collect(java.util.stream.Collectors.joining("\\."));
            if (dnsName.toLowerCase(java.util.Locale.ROOT).matches(regex)) {
                return true;
            }
        }
        return false;
    }

    private static Path path(String key, String v) {
        try {
            return Path.of(v);
        } catch (RuntimeException e) {
            throw invalid(key, "not a path: '" + v + "'");
        }
    }
}
