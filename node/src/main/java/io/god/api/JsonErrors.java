package io.god.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

/**
 * A bad JSON body described for the caller: the field it is about and what it should be, in the
 * contract's words ("a base64 string", "true or false"), not Jackson's (Java types, base64 variants,
 * coercion configs, parser positions of -1).
 */
public final class JsonErrors {

    private JsonErrors() {
    }

    public static String describe(JsonProcessingException e) {
        String field = field(e);
        if (e instanceof MismatchedInputException m && m.getTargetType() != null && !field.isEmpty()) {
            return "field " + field + ": expected " + expected(m.getTargetType()) + got(m);
        }
        String msg = firstLine(e.getOriginalMessage());
        if (!field.isEmpty()) {
            return "field " + field + ": " + msg;
        }
        if (e.getLocation() != null && e.getLocation().getLineNr() > 0) {
            msg += " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
        } else if (msg.startsWith("Unexpected end-of-input")) {
            msg += " (the body ends too early)";
        }
        return msg;
    }

    /** The JSON path of the failing value: {@code Op.Sources[0].Key}, or "" for a syntax error. */
    static String field(JsonProcessingException e) {
        if (!(e instanceof JsonMappingException m)) {
            return "";
        }
        StringBuilder field = new StringBuilder();
        for (JsonMappingException.Reference ref : m.getPath()) {
            if (ref.getFieldName() != null) {
                field.append(field.length() == 0 ? "" : ".").append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                field.append('[').append(ref.getIndex()).append(']');
            }
        }
        return field.toString();
    }

    static String expected(Class<?> type) {
        if (type == byte[].class) {
            return "a base64 string (standard alphabet, with = padding)";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == int.class || type == long.class || type == Integer.class || type == Long.class) {
            return "an integer";
        }
        if (type == double.class || type == float.class || type == Double.class || type == Float.class) {
            return "a number";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type.isArray() || java.util.Collection.class.isAssignableFrom(type)) {
            return "an array";
        }
        return "a JSON object";
    }

    private static String got(MismatchedInputException m) {
        if (m instanceof InvalidFormatException f && f.getValue() instanceof String s) {
            // for base64 Jackson reports only the part it had read, which would mislead: no echo
            return m.getTargetType() == byte[].class ? ", got a string that is not valid base64"
                    : ", got \"" + (s.length() > 40 ? s.substring(0, 40) + "…" : s) + "\"";
        }
        String msg = m.getOriginalMessage();
        for (String[] token : new String[][] {{"Integer value", "a number"}, {"Floating-point value", "a number"},
                {"String value", "a string"}, {"Object value", "an object"}, {"Array value", "an array"},
                {"Boolean value", "a boolean"}, {"START_OBJECT", "an object"}, {"START_ARRAY", "an array"},
                {"VALUE_STRING", "a string"}, {"VALUE_NUMBER", "a number"}, {"VALUE_TRUE", "a boolean"},
                {"VALUE_FALSE", "a boolean"}}) {
            if (msg != null && msg.contains(token[0])) {
                return ", got " + token[1];
            }
        }
        return "";
    }

    private static String firstLine(String msg) {
        if (msg == null) {
            return "malformed JSON";
        }
        int nl = msg.indexOf('\n');
        return (nl < 0 ? msg : msg.substring(0, nl)).trim();
    }
}
