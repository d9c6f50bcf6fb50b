package dev.clawgate.testkit.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One Bot API call's parameters, read the three ways the Bot API accepts them: a JSON body,
 * {@code application/x-www-form-urlencoded}, or {@code multipart/form-data} (uploads). Values are kept as strings;
 * objects and arrays as their JSON text, as a form field would carry them.
 */
final class BotRequest {
    static final ObjectMapper JSON = new ObjectMapper();

    /** An uploaded file part. */
    record Upload(String fileName, String contentType, byte[] bytes) {}

    final Map<String, String> params = new LinkedHashMap<>();
    final Map<String, Upload> files = new LinkedHashMap<>();

    static BotRequest parse(String contentType, byte[] body) throws BadRequest {
        BotRequest r = new BotRequest();
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        if (body.length == 0) return r;
        if (type.startsWith("application/json")) {
            JsonNode root;
            try {
                root = JSON.readTree(body);
            } catch (IOException e) {
                throw new BadRequest("Bad Request: can't parse JSON object");
            }
            if (root == null || !root.isObject()) throw new BadRequest("Bad Request: can't parse JSON object");
            root.properties()
                    .forEach(e -> r.params.put(
                            e.getKey(),
                            e.getValue().isValueNode()
                                    ? e.getValue().asText()
                                    : e.getValue().toString()));
        } else if (type.startsWith("multipart/form-data")) {
            String boundary = boundary(contentType);
            if (boundary == null) throw new BadRequest("Bad Request: multipart body without a boundary");
            r.readMultipart(body, boundary);
        } else {
            for (String pair : new String(body, StandardCharsets.US_ASCII).split("&")) {
                if (pair.isEmpty()) continue;
                int eq = pair.indexOf('=');
                String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                r.params.put(k, v);
            }
        }
        return r;
    }

    /** The parameters as one JSON object, uploads summarised: what the call log records. */
    String logBody() {
        ObjectNode n = JSON.createObjectNode();
        params.forEach((k, v) -> {
            JsonNode parsed = null;
            if (!v.isEmpty() && (v.charAt(0) == '{' || v.charAt(0) == '[')) {
                try {
                    parsed = JSON.readTree(v);
                } catch (IOException notJson) {
                    parsed = null;
                }
            }
            if (parsed != null) n.set(k, parsed);
            else n.put(k, v);
        });
        files.forEach((k, f) -> n.putObject(k).put("file_name", f.fileName()).put("size", f.bytes().length));
        return n.toString();
    }

    String get(String key) {
        return params.get(key);
    }

    boolean flag(String key) {
        return "true".equalsIgnoreCase(params.getOrDefault(key, "false"));
    }

    long requiredLong(String key) throws BadRequest {
        String v = params.get(key);
        if (v == null || v.isBlank()) throw new BadRequest("Bad Request: " + key + " is empty");
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw new BadRequest("Bad Request: invalid " + key + " specified");
        }
    }

    Long optionalLong(String key) throws BadRequest {
        String v = params.get(key);
        return v == null || v.isBlank() ? null : requiredLong(key);
    }

    JsonNode json(String key) throws BadRequest {
        String v = params.get(key);
        if (v == null) return null;
        try {
            return JSON.readTree(v);
        } catch (IOException e) {
            throw new BadRequest("Bad Request: can't parse " + key + " JSON object");
        }
    }

    private static String boundary(String contentType) {
        for (String part : contentType.split(";")) {
            String p = part.strip();
            if (p.toLowerCase(Locale.ROOT).startsWith("boundary=")) {
                String b = p.substring("boundary=".length());
                return b.startsWith("\"") && b.endsWith("\"") ? b.substring(1, b.length() - 1) : b;
            }
        }
        return null;
    }

    private void readMultipart(byte[] body, String boundary) throws BadRequest {
        byte[] delimiter = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        int pos = indexOf(body, delimiter, 0);
        if (pos < 0) throw new BadRequest("Bad Request: malformed multipart body");
        while (true) {
            pos += delimiter.length;
            if (pos + 1 < body.length && body[pos] == '-' && body[pos + 1] == '-') return;
            pos += 2; // CRLF after the delimiter
            int headersEnd = indexOf(body, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), pos);
            if (headersEnd < 0) throw new BadRequest("Bad Request: malformed multipart part");
            String headers = new String(body, pos, headersEnd - pos, StandardCharsets.UTF_8);
            int contentStart = headersEnd + 4;
            int next = indexOf(body, ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1), contentStart);
            if (next < 0) throw new BadRequest("Bad Request: unterminated multipart part");
            byte[] content = Arrays.copyOfRange(body, contentStart, next);
            addPart(headers, content);
            pos = next + 2;
        }
    }

    private void addPart(String headers, byte[] content) throws BadRequest {
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
        if (name == null) throw new BadRequest("Bad Request: multipart part without a name");
        if (fileName != null) files.put(name, new Upload(fileName, type, content));
        else params.put(name, new String(content, StandardCharsets.UTF_8));
    }

    private static String attribute(String header, String attr) {
        String needle = "; " + attr + "=\"";
        int i = header.indexOf(needle);
        if (i < 0) return null;
        int start = i + needle.length();
        int end = header.indexOf('"', start);
        return end < 0 ? null : header.substring(start, end);
    }

    private static int indexOf(byte[] hay, byte[] needle, int from) {
        outer:
        for (int i = Math.max(0, from); i <= hay.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
            return i;
        }
        return -1;
    }

    /** A Bot API error answer: {@code {"ok":false,"error_code":...,"description":...}}. */
    static final class BadRequest extends Exception {
        final int code;
        final Integer retryAfter;

        BadRequest(String description) {
            this(400, description, null);
        }

        BadRequest(int code, String description, Integer retryAfter) {
            super(description, null, false, false);
            this.code = code;
            this.retryAfter = retryAfter;
        }
    }
}
