package io.god.bench.load;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * The god JSON contract over plain HTTP ({@code POST /rpc/DHash.<Name>}, base64 keys and values), one
 * keep-alive connection per worker; workers are spread round robin over the given nodes, which route
 * each call to its owner.
 */
final class HttpTarget implements Target {

    private static final Base64.Encoder B64 = Base64.getEncoder();

    private final HttpConnection connection;

    private HttpTarget(HttpConnection connection) {
        this.connection = connection;
    }

    static Factory factory(List<String> endpoints, String token) {
        return new Factory() {
            @Override
            public Target open(int worker) {
                return new HttpTarget(new HttpConnection(endpoints.get(worker % endpoints.size()), token));
            }

            @Override
            public String describe() {
                return "HTTP JSON (/rpc/DHash.*, one keep-alive connection per worker) to " + endpoints;
            }

            @Override
            public void close() {
                // connections are closed by their targets
            }
        };
    }

    private String call(String method, String json) {
        HttpConnection.Response r = connection.post("/rpc/DHash." + method, json.getBytes(StandardCharsets.UTF_8));
        if (r.status() != 200) {
            throw new IllegalStateException(method + " answered " + r.status() + ": " + r.text());
        }
        return r.text();
    }

    private static String b64(byte[] b) {
        return B64.encodeToString(b);
    }

    @Override
    public void put(byte[] key, byte[] value) {
        call("Put", "{\"Key\":\"" + b64(key) + "\",\"Value\":\"" + b64(value) + "\"}");
    }

    @Override
    public boolean get(byte[] key) {
        return call("Get", "{\"Key\":\"" + b64(key) + "\"}").contains("\"Exists\":true");
    }

    @Override
    public void subPut(byte[] tree, byte[] subKey, byte[] value) {
        call("SubPut", "{\"Key\":\"" + b64(tree) + "\",\"SubKey\":\"" + b64(subKey) + "\",\"Value\":\"" + b64(value) + "\"}");
    }

    @Override
    public int slice(byte[] tree, int len) {
        return count(call("SliceLen", "{\"Key\":\"" + b64(tree) + "\",\"Len\":" + len + "}"), "\"Key\"");
    }

    @Override
    public int setExpression(String code, int len) {
        String quoted = code.replace("\\", "\\\\").replace("\"", "\\\"");
        return count(call("SetExpression", "{\"Code\":\"" + quoted + "\",\"Len\":" + len + "}"), "\"Key\"");
    }

    /** Rows of a list answer: each row holds exactly one {@code "Key"} field. */
    static int count(String json, String field) {
        int n = 0;
        for (int i = json.indexOf(field); i >= 0; i = json.indexOf(field, i + field.length())) {
            n++;
        }
        return n;
    }

    @Override
    public void close() {
        connection.close();
    }
}
