package io.god.api.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.god.api.JsonRpc;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The dashboard's description of the JSON contract (the original's {@code ApiMethods}, reference
 * §2.3): {@code {"<Name>": {"name": "<Name>", "parameter": {"<Field>": "<type>"}, "mutating": bool}}}
 * with types {@code []byte}, {@code int}, {@code bool}, {@code string}. Every method of
 * {@link JsonRpc#METHODS} is listed (a test holds them equal).
 */
public final class ApiMethods {

    private ApiMethods() {
    }

    private static final String B = "[]byte";
    private static final String I = "int";
    private static final String Z = "bool";
    private static final String S = "string";

    private static final Map<String, Map<String, String>> PARAMS = new TreeMap<>();

    private static void add(List<String> names, String... fieldTypes) {
        Map<String, String> p = new LinkedHashMap<>();
        for (int i = 0; i < fieldTypes.length; i += 2) {
            p.put(fieldTypes[i], fieldTypes[i + 1]);
        }
        for (String n : names) {
            PARAMS.put(n, p);
        }
    }

    static {
        add(List.of("Put"), "Key", B, "Value", B, "Sync", Z);
        add(List.of("Del"), "Key", B, "Sync", Z);
        add(List.of("SubPut"), "Key", B, "SubKey", B, "Value", B, "Sync", Z);
        add(List.of("SubDel"), "Key", B, "SubKey", B, "Sync", Z);
        add(List.of("SubClear"), "Key", B, "Sync", Z);
        add(List.of("SubUpdate"), "Key", B, "Value", B, "Sync", Z);
        add(List.of("Get", "Next", "Prev", "KeyNext", "First", "Last", "MirrorFirst", "MirrorLast", "SubSize",
                "SubConfiguration"), "Key", B);
        add(List.of("SubGet", "SubNext", "SubPrev", "SubMirrorNext", "SubMirrorPrev", "IndexOf", "ReverseIndexOf",
                "MirrorIndexOf", "MirrorReverseIndexOf"), "Key", B, "SubKey", B);
        add(List.of("NextIndex", "PrevIndex", "MirrorNextIndex", "MirrorPrevIndex"), "Key", B, "Index", I);
        add(List.of("Count", "MirrorCount", "Slice", "ReverseSlice", "MirrorSlice", "MirrorReverseSlice"),
                "Key", B, "Min", B, "Max", B, "MinInc", Z, "MaxInc", Z);
        add(List.of("SliceIndex", "ReverseSliceIndex", "MirrorSliceIndex", "MirrorReverseSliceIndex"),
                "Key", B, "MinIndex", I, "MaxIndex", I);
        add(List.of("SliceLen", "ReverseSliceLen", "MirrorSliceLen", "MirrorReverseSliceLen"),
                "Key", B, "From", B, "FromInc", Z, "Len", I);
        add(List.of("Size", "KeyCount", "Owned", "Configuration", "Describe", "DescribeTree", "Nodes", "Clear"));
        add(List.of("SetExpression"), "Code", S, "Min", B, "Max", B, "MinInc", Z, "MaxInc", Z, "Len", I, "Dest", B);
        add(List.of("AddConfiguration"), "Key", S, "Value", S);
        add(List.of("SubAddConfiguration"), "TreeKey", B, "Key", S, "Value", S);
    }

    /** Method name → field → type. */
    public static Map<String, Map<String, String>> parameters() {
        return java.util.Collections.unmodifiableMap(PARAMS);
    }

    /** The JSON served at {@code GET /api/methods}. */
    public static String json() {
        Map<String, Object> out = new TreeMap<>();
        PARAMS.forEach((name, p) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", name);
            m.put("parameter", p);
            m.put("mutating", io.god.request.Command.named(name).is(io.god.request.Command.Flag.MUTATING));
            out.put(name, m);
        });
        try {
            return new ObjectMapper().writeValueAsString(out);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
