package io.god.transport;

import io.god.node.TlsSettings;
import io.god.tls.Jsse;
import io.god.tls.Pem;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.SSLOptions;
import io.vertx.core.net.TrustOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * A node's TLS material ({@code god.tls.*}): the PEM files read and checked at start (every problem an
 * {@link IllegalArgumentException} naming the setting), the SSL options of the binary and RESP servers and of the
 * peer client built from them, and the rotation: the files are checked every {@code god.tls.reload-interval}; when
 * their contents changed and read well, the new material replaces the old and every listener (each server and
 * client calls {@code updateSSLOptions}) is told. New connections get the new certificate; open ones go on. A
 * rotation caught half-way (a new certificate with the old key) is logged and retried at the next check.
 */
public final class NodeTls implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(NodeTls.class.getName());

    /** The files as read: what the servers and clients are built from. */
    private record Material(byte[] digest, X509Certificate leaf, KeyManagerFactory keys,
                            X509ExtendedTrustManager anyCa, PeerCertificates peers) {
    }

    private final TlsSettings settings;
    private volatile Material material;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private ScheduledExecutorService watcher;

    private NodeTls(TlsSettings settings, Material material) {
        this.settings = settings;
        this.material = material;
    }

    /** Reads and checks the files; an error names the setting whose file is missing, unreadable or wrong. */
    public static NodeTls load(TlsSettings settings) {
        return new NodeTls(settings, read(settings));
    }

    public TlsSettings settings() {
        return settings;
    }

    private static Material read(TlsSettings s) {
        byte[] digest = digest(s);
        List<X509Certificate> chain = Pem.certificates(TlsSettings.CERT_FILE, s.certFile());
        KeyManagerFactory keys = Jsse.keyManagers(chain, Pem.privateKey(TlsSettings.KEY_FILE, s.keyFile()),
                TlsSettings.KEY_FILE, TlsSettings.CERT_FILE);
        List<X509Certificate> cas = Pem.certificates(TlsSettings.CA_FILE, s.caFile());
        List<X509Certificate> peerCas = s.peerCaFile().equals(s.caFile()) ? cas
                : Pem.certificates(TlsSettings.PEER_CA_FILE, s.peerCaFile());
        Set<X509Certificate> any = new LinkedHashSet<>(cas);
        any.addAll(peerCas);
        return new Material(digest, chain.get(0), keys, Jsse.trustManager(any),
                new PeerCertificates(s, Jsse.trustManager(peerCas)));
    }

    /** SHA-256 over the contents of every file: a rotation changes it. */
    private static byte[] digest(TlsSettings s) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (var f : List.of(List.of(TlsSettings.CERT_FILE, s.certFile()), List.of(TlsSettings.KEY_FILE, s.keyFile()),
                    List.of(TlsSettings.CA_FILE, s.caFile()), List.of(TlsSettings.PEER_CA_FILE, s.peerCaFile()))) {
                md.update(readable((String) f.get(0), (Path) f.get(1)));
            }
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] readable(String setting, Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalArgumentException(setting + ": " + file + " does not exist", e);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(setting + ": " + file + " cannot be read: " + e, e);
        }
    }

    /** Key and certificate to present, and the CAs (clients' and peers') whose certificates are accepted. */
    public SSLOptions serverOptions() {
        Material m = material;
        return new SSLOptions().setKeyCertOptions(KeyCertOptions.wrap(m.keys())).setTrustOptions(TrustOptions.wrap(m.anyCa()));
    }

    /** Key and certificate to present to peers, and the peer trust: peer CA, advertise name, peer names. */
    public SSLOptions peerClientOptions() {
        Material m = material;
        return new SSLOptions().setKeyCertOptions(KeyCertOptions.wrap(m.keys()))
                .setTrustOptions(TrustOptions.wrap(m.peers().trustManager()));
    }

    /** Null when the certificates a connection presented make it a peer, else why not. */
    public String peerRefusal(List<Certificate> presented) {
        X509Certificate[] chain = presented == null ? null : presented.stream()
                .filter(X509Certificate.class::isInstance).map(X509Certificate.class::cast).toArray(X509Certificate[]::new);
        return material.peers().refusal(chain);
    }

    /** The certificate presented now (what a rotation replaced is visible here). */
    public X509Certificate certificate() {
        return material.leaf();
    }

    /** Called after each rotation, on the watcher thread. */
    public void onReload(Runnable listener) {
        listeners.add(listener);
    }

    /** Starts checking the files every {@code god.tls.reload-interval}. */
    public synchronized void watch() {
        if (watcher != null) {
            return;
        }
        watcher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "god-tls-reload");
            t.setDaemon(true);
            return t;
        });
        long every = settings.reloadInterval().toNanos();
        watcher.scheduleWithFixedDelay(this::check, every, every, TimeUnit.NANOSECONDS);
    }

    /** One check: reload when the files changed. Returns whether the material was replaced. */
    public boolean check() {
        try {
            if (Arrays.equals(digest(settings), material.digest())) {
                return false;
            }
            Material m = read(settings);
            material = m;
            LOG.log(System.Logger.Level.INFO, "TLS files changed: now presenting " + m.leaf().getSubjectX500Principal()
                    .getName() + " (serial " + m.leaf().getSerialNumber().toString(16) + ", valid until "
                    + m.leaf().getNotAfter().toInstant() + ")");
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "TLS files changed but cannot be used yet (the current certificate"
                    + " stays; checked again in " + io.god.node.Durations.format(settings.reloadInterval()) + "): "
                    + e.getMessage());
            return false;
        }
        List<String> failures = new ArrayList<>();
        for (Runnable r : listeners) {
            try {
                r.run();
            } catch (RuntimeException e) {
                failures.add(String.valueOf(e.getMessage()));
            }
        }
        if (!failures.isEmpty()) {
            LOG.log(System.Logger.Level.WARNING, "TLS rotation: " + failures.size() + " listener(s) failed: " + failures);
        }
        return true;
    }

    @Override
    public synchronized void close() {
        if (watcher != null) {
            watcher.shutdownNow();
        }
    }
}
