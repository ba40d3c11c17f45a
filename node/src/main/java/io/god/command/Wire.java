package io.god.command;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.util.List;
import java.util.Map;

/**
 * The god JSON contract's request and response shapes (reference §2.2), with the Go field names.
 * {@code byte[]} travels as standard base64 with padding, null as {@code null}; missing request
 * fields are zero values and unknown ones are ignored.
 */
public final class Wire {

    private Wire() {
    }

    /** The JSON mapper of the contract: Go's encoding/json conventions, strict about types. */
    public static ObjectMapper mapper() {
        JsonMapper m = JsonMapper.builder()
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
                .configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false)
                .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, false)
                .configure(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, true)
                .configure(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES, true)
                .configure(MapperFeature.ALLOW_COERCION_OF_SCALARS, false)
                .configure(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION, false)
                .build();
        m.coercionConfigFor(LogicalType.Integer).setCoercion(CoercionInputShape.String, CoercionAction.Fail);
        m.coercionConfigFor(LogicalType.Boolean).setCoercion(CoercionInputShape.String, CoercionAction.Fail);
        m.coercionConfigFor(LogicalType.Boolean).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
        return m;
    }

    /** {@link #mapper()} under the node's JSON limits (nesting, string and number lengths). */
    public static ObjectMapper constrained(io.god.limits.Limits limits) {
        return limits.constrain(mapper());
    }

    /**
     * Every byte/int/bool parameter of the data methods in one shape (each method reads the fields it
     * knows: KeyOp, ValueOp, SubKeyOp, SubValueOp, KeyReq, SubKeyReq, SubIndex, KeyRange, IndexRange,
     * PageRange).
     */
    public static final class Req {
        @JsonProperty("Key") public byte[] key;
        @JsonProperty("SubKey") public byte[] subKey;
        @JsonProperty("Value") public byte[] value;
        @JsonProperty("Sync") public boolean sync;
        @JsonProperty("Index") public long index;
        @JsonProperty("Min") public byte[] min;
        @JsonProperty("Max") public byte[] max;
        @JsonProperty("MinInc") public boolean minInc;
        @JsonProperty("MaxInc") public boolean maxInc;
        @JsonProperty("MinIndex") public Long minIndex;
        @JsonProperty("MaxIndex") public Long maxIndex;
        @JsonProperty("From") public byte[] from;
        @JsonProperty("FromInc") public boolean fromInc;
        @JsonProperty("Len") public long len;
        /** god extension (ignored by Go): Get/SubGet answer with the entry's Timestamp, tombstones included. */
        @JsonProperty("Stamped") public boolean stamped;
        /**
         * god extension (ignored by Go): Nodes also lists the expected members absent from the answering node's view
         * ({@code State: "ABSENT"}), so a client can read a key from its whole replica set (DESIGN §5).
         */
        @JsonProperty("Expected") public boolean expected;
    }

    /** AddConfiguration {@code {Key, Value}} and SubAddConfiguration {@code {TreeKey, Key, Value}}. */
    public static final class ConfReq {
        @JsonProperty("TreeKey") public byte[] treeKey;
        @JsonProperty("Key") public String key;
        @JsonProperty("Value") public String value;
    }

    /** setop.SetExpression: {@code {Code}} or {@code {Op}} plus Min, Max, MinInc, MaxInc, Len, Dest. */
    public static final class SetExpressionReq {
        @JsonProperty("Op") public SetOpJson op;
        @JsonProperty("Code") public String code;
        @JsonProperty("Min") public byte[] min;
        @JsonProperty("Max") public byte[] max;
        @JsonProperty("MinInc") public boolean minInc;
        @JsonProperty("MaxInc") public boolean maxInc;
        @JsonProperty("Len") public long len;
        @JsonProperty("Dest") public byte[] dest;
        /**
         * Not in the original's contract (absent = its behaviour): a numeric merge refuses a value that
         * is not 8 bytes (400 naming the key). /v1 always sets it; sent only when true.
         */
        @JsonProperty("ExactNumbers")
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_DEFAULT)
        public boolean exactNumbers;
    }

    /** setop.SetOp: {@code {"Sources":[...],"Type":0,"Merge":0}}. */
    public static final class SetOpJson {
        @JsonProperty("Sources") public List<SetOpSourceJson> sources;
        @JsonProperty("Type") public int type;
        @JsonProperty("Merge") public int merge;
    }

    /** setop.SetOpSource: {@code {"Key":b64,"SetOp":{..}|null,"Weight":number|null}}. */
    public static final class SetOpSourceJson {
        @JsonProperty("Key") public byte[] key;
        @JsonProperty("SetOp") public SetOpJson setOp;
        @JsonProperty("Weight") public Double weight;
    }
}
