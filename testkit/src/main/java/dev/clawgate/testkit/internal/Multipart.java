package dev.clawgate.testkit.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A {@code multipart/form-data} body (RFC 7578) read part by part, bytes untouched, so a fake can tell exactly what a
 * client uploaded under which field name.
 */
public final class Multipart {
    /** One part: its field name, the file name when it is a file, its declared type, and its bytes. */
    public record Part(String name, String fileName, String contentType, byte[] bytes) {
        public boolean isFile() {
            return fileName != null;
        }

        public String text() {
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    /** The body could not be read as multipart; the message says why. */
    public static final class Malformed extends Exception {
        public Malformed(String message) {
            super(message, null, false, false);
        }
    }

    private Multipart() {}

    /** Whether {@code contentType} announces a multipart form. */
    public static boolean isMultipart(String contentType) {
        return contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith("multipart/form-data");
    }

    public static List<Part> parse(String contentType, byte[] body) throws Malformed {
        String boundary = boundary(contentType);
        if (boundary == null) throw new Malformed("multipart body without a boundary");
        byte[] delimiter = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        byte[] next = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        byte[] headerEnd = "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
        List<Part> parts = new ArrayList<>();
        int pos = indexOf(body, delimiter, 0);
        if (pos < 0) throw new Malformed("multipart body without its first boundary");
        while (true) {
            pos += delimiter.length;
            if (pos + 1 < body.length && body[pos] == '-' && body[pos + 1] == '-') return parts;
            pos += 2;
            int headersEnd = indexOf(body, headerEnd, pos);
            if (headersEnd < 0) throw new Malformed("multipart part without the blank line after its headers");
            String headers = new String(body, pos, headersEnd - pos, StandardCharsets.UTF_8);
            int start = headersEnd + headerEnd.length;
            int end = indexOf(body, next, start);
            if (end < 0) throw new Malformed("multipart part not closed by a boundary");
            parts.add(part(headers, Arrays.copyOfRange(body, start, end)));
            pos = end + 2;
        }
    }

    private static Part part(String headers, byte[] content) throws Malformed {
        String name = null;
        String fileName = null;
        String type = null;
        for (String line : headers.split("\r\n")) {
            String lower = line.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-disposition:")) {
                name = attribute(line, "name");
                fileName = attribute(line, "filename");
            } else if (lower.startsWith("content-type:")) {
                type = line.substring(line.indexOf(':') + 1).strip();
            }
        }
        if (name == null) throw new Malformed("multipart part without a name");
        return new Part(name, fileName, type, content);
    }

    private static String attribute(String header, String attr) {
        for (String piece : header.split(";")) {
            String p = piece.strip();
            if (p.regionMatches(true, 0, attr + "=", 0, attr.length() + 1)) {
                String v = p.substring(attr.length() + 1);
                return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
            }
        }
        return null;
    }

    private static String boundary(String contentType) {
        if (contentType == null) return null;
        for (String piece : contentType.split(";")) {
            String p = piece.strip();
            if (p.regionMatches(true, 0, "boundary=", 0, 9)) {
                String b = p.substring(9);
                return b.length() >= 2 && b.startsWith("\"") && b.endsWith("\"") ? b.substring(1, b.length() - 1) : b;
            }
        }
        return null;
    }

    private static int indexOf(byte[] hay, byte[] needle, int from) {
        outer:
        for (int i = Math.max(0, from); i <= hay.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
            return i;
        }
        return -1;
    }
}
