package io.god.backup;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A backup in an S3 bucket ({@code s3://bucket/prefix}): each blob an object under the prefix, written
 * whole by one PUT (S3 never shows a partial object). Region and credentials come from the AWS
 * environment (AWS_REGION, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN), else the SDK's
 * default chains (profile, web identity, instance role); {@code --s3-endpoint} names another S3 API
 * server (MinIO, s3proxy), addressed path-style. Every S3 failure is a {@link BackupException} naming
 * the object.
 */
final class S3Store implements BackupStore {

    static final String SCHEME = "s3://";

    /** How to reach S3: an endpoint override (null: AWS) and the environment to read AWS_* from. */
    record Options(URI endpoint, Map<String, String> env) {
    }

    private final S3Client s3;
    private final String bucket;
    private final String prefix;
    private final String where;

    private S3Store(S3Client s3, String bucket, String prefix, URI endpoint) {
        this.s3 = s3;
        this.bucket = bucket;
        this.prefix = prefix;
        this.where = SCHEME + bucket + (prefix.isEmpty() ? "" : "/" + prefix)
                + (endpoint == null ? "" : " at " + endpoint);
    }

    /** Opens {@code s3://bucket[/prefix]}; the bucket must exist. */
    static S3Store open(String location, Options options) {
        String rest = location.substring(SCHEME.length());
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        String prefix = slash < 0 ? "" : rest.substring(slash + 1).replaceAll("/+$", "");
        if (bucket.isEmpty()) {
            throw new IllegalArgumentException("an S3 location is s3://BUCKET[/PREFIX], not " + location);
        }
        S3Store store = new S3Store(client(options), bucket, prefix, options.endpoint());
        store.checkBucket();
        return store;
    }

    private static S3Client client(Options o) {
        S3ClientBuilder b = S3Client.builder()
                .httpClientBuilder(Apache5HttpClient.builder())
                .region(region(o))
                .credentialsProvider(credentials(o.env()));
        if (o.endpoint() != null) {
            // other S3 API servers: path-style, and checksums only where S3 requires them (chunks carry sha256)
            b.endpointOverride(o.endpoint()).forcePathStyle(true)
                    .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                    .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        }
        return b.build();
    }

    private static Region region(Options o) {
        String name = o.env().getOrDefault("AWS_REGION", o.env().get("AWS_DEFAULT_REGION"));
        if (name != null && !name.isBlank()) {
            return Region.of(name);
        }
        try {
            return DefaultAwsRegionProviderChain.builder().build().getRegion();
        } catch (SdkException e) {
            if (o.endpoint() != null) {
                return Region.US_EAST_1; // most S3 API servers ignore the region
            }
            throw new BackupException("no AWS region for S3: set AWS_REGION (or a profile's region)");
        }
    }

    private static AwsCredentialsProvider credentials(Map<String, String> env) {
        String id = env.get("AWS_ACCESS_KEY_ID");
        String secret = env.get("AWS_SECRET_ACCESS_KEY");
        if (id == null || secret == null) {
            return DefaultCredentialsProvider.builder().build();
        }
        String session = env.get("AWS_SESSION_TOKEN");
        return StaticCredentialsProvider.create(session == null ? AwsBasicCredentials.create(id, secret)
                : AwsSessionCredentials.create(id, secret, session));
    }

    private void checkBucket() {
        try {
            s3.headBucket(r -> r.bucket(bucket));
        } catch (NoSuchBucketException e) {
            close();
            throw new BackupException("S3 bucket " + bucket + " does not exist (" + where + ")");
        } catch (S3Exception e) {
            close();
            if (e.statusCode() == 404) {
                throw new BackupException("S3 bucket " + bucket + " does not exist (" + where + ")");
            }
            throw failure("HEAD bucket", bucket, e);
        } catch (SdkException e) {
            close();
            throw failure("HEAD bucket", bucket, e);
        }
    }

    private String key(String name) {
        return prefix.isEmpty() ? name : prefix + "/" + name;
    }

    @Override
    public void put(String name, byte[] bytes) {
        String key = key(name);
        try {
            s3.putObject(r -> r.bucket(bucket).key(key).contentLength((long) bytes.length), RequestBody.fromBytes(bytes));
        } catch (SdkException e) {
            throw failure("PUT", bucket + "/" + key, e);
        }
    }

    @Override
    public Optional<byte[]> get(String name) {
        String key = key(name);
        try {
            return Optional.of(s3.getObjectAsBytes(r -> r.bucket(bucket).key(key)).asByteArray());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (SdkException e) {
            throw failure("GET", bucket + "/" + key, e);
        }
    }

    /** "S3 PUT s3://bucket/key failed: HTTP 403 AccessDenied: …", or the client-side reason (unreachable, …). */
    private BackupException failure(String op, String object, SdkException e) {
        String why = e.getMessage();
        if (e instanceof S3Exception s) {
            var d = s.awsErrorDetails();
            why = "HTTP " + s.statusCode() + (d == null || d.errorCode() == null ? "" : " " + d.errorCode())
                    + (d == null || d.errorMessage() == null ? "" : ": " + d.errorMessage());
        }
        return new BackupException("S3 " + op + " " + SCHEME + object + " failed (" + where + "): " + why, e);
    }

    @Override
    public String describe() {
        return where;
    }

    @Override
    public void close() {
        s3.close();
    }
}
