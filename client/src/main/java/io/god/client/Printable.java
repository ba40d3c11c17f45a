package io.god.client;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * Bytes shown to a person (the result records' {@code toString}): printable UTF-8 as a quoted string,
 * anything else as {@code 0x} hex; long values are cut after {@value #SHOWN} bytes with their length.
 */
final class Printable {

    static final int SHOWN = 64;

    private Printable() {
    }

    static String of(byte[] bytes) {
        if (bytes == null) {
            return "null";
        }
        int shown = Math.min(bytes.length, SHOWN);
        String tail = bytes.length > SHOWN ? "…(" + bytes.length + " bytes)" : "";
        String text = text(bytes, shown);
        if (text != null) {
            return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"" + tail;
        }
        return "0x" + HexFormat.of().formatHex(bytes, 0, shown) + tail;
    }

    /** The first {@code n} bytes as text when they are valid UTF-8 without control characters, else null. */
    private static String text(byte[] bytes, int n) {
        String s;
        try {
            s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, 0, n)).toString();
        } catch (CharacterCodingException e) {
            return null; // also when the cut at SHOWN splits a character: hex is still readable
        }
        for (int i = 0; i < s.length(); i++) {
            if (Character.isISOControl(s.charAt(i))) {
                return null;
            }
        }
        return s;
    }
}
