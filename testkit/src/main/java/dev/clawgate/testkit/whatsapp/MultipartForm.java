package dev.clawgate.testkit.whatsapp;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A {@code multipart/form-data} body (RFC 7578), as the media upload takes it: fields and file parts. */
final class MultipartForm {
    record Part(String fileName, String contentType, byte[] bytes) {}

    final Map<String, String> fields = new LinkedHashMap<>();
    final Map<String, Part> files = new LinkedHashMap<>();

    static MultipartForm parse(String contentType, byte[] body) throws GraphFailure {
        String boundary = null;
        for (String p : contentType == null ? new String[0] : contentType.split(";")) {
            String s = p.strip();
            if (s.toLowerCase(Locale.ROOT).startsWith("boundary="))
                boundary = s.substring(9).replace("\"", "");
        }
        if (contentType == null
                || !contentType.toLowerCase(Locale.ROOT).startsWith("multipart/form-data")
                || boundary == null) {
            throw new GraphFailure(GraphError.invalidParameter("The request must be multipart/form-data"));
        }
        MultipartForm f = new MultipartForm();
        byte[] delimiter = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        int pos = indexOf(body, delimiter, 0);
        if (pos < 0) throw new GraphFailure(GraphError.invalidParameter("Malformed multipart body"));
        while (true) {
            pos += delimiter.length;
            if (pos + 1 < body.length && body[pos] == '-' && body[pos + 1] == '-') return f;
            pos += 2;
            int headersEnd = indexOf(body, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), pos);
            int next = headersEnd < 0
                    ? -1
                    : indexOf(body, ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1), headersEnd + 4);
            if (next < 0) throw new GraphFailure(GraphError.invalidParameter("Malformed multipart part"));
            f.add(
                    new String(body, pos, headersEnd - pos, StandardCharsets.UTF_8),
                    Arrays.copyOfRange(body, headersEnd + 4, next));
            pos = next + 2;
        }
    }

    private void add(String headers, byte[] content) {
        String name = null, fileName = null, type = "application/octet-stream";
        for (String line : headers.split("\r\n")) {
            String lower = line.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-disposition:")) {
                name = attribute(line, "name");
                fileName = attribute(line, "filename");
            } else if (lower.startsWith("content-type:")) {
                type = line.substring(line.indexOf(':') + 1).strip();
            }
        }
        if (name == null) return;
        if (fileName != null) files.put(name, new Part(fileName, type, content));
        else fields.put(name, new String(content, StandardCharsets.UTF_8));
    }

    private static String attribute(String header, String attr) {
        String needle = "; " + attr + "=\"";
        int i = header.indexOf(needle);
        if (i < 0) return null;
        int end = header.indexOf('"', i + needle.length());
        return end < 0 ? null : header.substring(i + needle.length(), end);
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
