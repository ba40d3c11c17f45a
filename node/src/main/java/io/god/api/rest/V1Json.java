package io.god.api.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.god.client.ValueEncoding;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The JSON shapes of /v1. Every byte field {@code x} comes as {@code x} (UTF-8 text, null when the
 * bytes are not valid UTF-8) and {@code xBase64} (standard base64, always set).
 */
public final class V1Json {

    private V1Json() {
    }

    @Schema(description = "A client error (400, 401, 404): nothing was changed")
    public record Error(@Schema(description = "what was wrong") String error) {
    }

    @Schema(description = "A top-level value")
    public record Value(String key, String keyBase64, String value, String valueBase64) {
        static Value of(byte[] key, byte[] value, ValueEncoding enc) {
            return new Value(KeyText.text(key), KeyText.b64(key), enc.decode(value), KeyText.b64(value));
        }
    }

    @Schema(description = "A value in a sub tree")
    public record SubValue(String key, String keyBase64, String subKey, String subKeyBase64, String value,
                           String valueBase64) {
        static SubValue of(byte[] key, byte[] subKey, byte[] value, ValueEncoding enc) {
            return new SubValue(KeyText.text(key), KeyText.b64(key), KeyText.text(subKey), KeyText.b64(subKey),
                    enc.decode(value), KeyText.b64(value));
        }
    }

    @Schema(description = "One entry of a sub tree (for by=value too: subKey is the entry's key)")
    public record Entry(String subKey, String subKeyBase64, String value, String valueBase64) {
        static Entry of(byte[] subKey, byte[] value, ValueEncoding enc) {
            return new Entry(KeyText.text(subKey), KeyText.b64(subKey), enc.decode(value), KeyText.b64(value));
        }
    }

    @Schema(description = "A page of a sub tree")
    public record Page(String key, String keyBase64,
                       @Schema(description = "key or value: the order of the entries") String by,
                       @Schema(description = "true when the range has more entries after this page") boolean more,
                       List<Entry> entries) {
    }

    @Schema(description = "A sub tree's configuration (mirrored=yes keeps a mirror sorted by value)")
    public record Config(String key, String keyBase64, Map<String, String> data,
                         @Schema(description = "nanoseconds since the epoch of the last change") long timestamp) {
    }

    @Schema(description = "A value as text and base64")
    public record Bytes(String value, String valueBase64) {
        static Bytes of(byte[] v, ValueEncoding enc) {
            return new Bytes(enc.decode(v), KeyText.b64(v));
        }
    }

    @Schema(description = "One key of a set expression's result and its merged values")
    public record SetOpResult(String key, String keyBase64, List<Bytes> values) {
    }

    @Schema(description = "The results of a set expression")
    public record SetOpResults(List<SetOpResult> results) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(description = "A value in a JSON body: exactly one of value (UTF-8 text) and valueBase64; "
            + "sync waits for every replica")
    public record ValueBody(String value, String valueBase64, Boolean sync) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(description = "A set expression (reference §4 s-expression, e.g. (U a b), (I:IntegerSum a b)) with an "
            + "optional key range of the results (min inclusive and max exclusive unless minInc/maxInc say "
            + "otherwise), a limit on the number of results, and a dest sub tree to store them into instead "
            + "of returning them. Byte fields take text (min) or base64 (minBase64).")
    public record SetOpsBody(@Schema(required = true) String expr, String min, String minBase64,
                             Boolean minInc, String max, String maxBase64, Boolean maxInc, Integer limit, String dest,
                             String destBase64) {
    }
}
