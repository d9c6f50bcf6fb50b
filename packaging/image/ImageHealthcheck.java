// Puts a Docker Healthcheck into the image config of a docker-format image tar (issue 26). Jib cannot set one
// (GoogleContainerTools/jib#676), so the image profile runs this after Jib's last buildTar:
//
//   java packaging/image/ImageHealthcheck.java IMAGE_TAR INTERVAL TIMEOUT START_PERIOD RETRIES COMMAND...
//
// e.g. `... clawgate-image.tar 30s 10s 60s 3 /opt/java/bin/java -cp /app/x.jar Probe`. The command is written in
// exec form (["CMD", ...]): the image has no shell. Durations take s or ms; the config holds nanoseconds, as
// `docker inspect` shows them. The config file manifest.json names is rewritten in place (same name, so the manifest
// stays as it is); `docker load` computes the image id from the config's bytes. Every other entry of the tar is
// copied byte for byte. JDK only: a single-file program, a JSON reader/writer and a ustar rewriter of its own.
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public class ImageHealthcheck {
    public static void main(String[] args) throws IOException {
        if (args.length < 6) {
            System.err.println("usage: ImageHealthcheck IMAGE_TAR INTERVAL TIMEOUT START_PERIOD RETRIES COMMAND...");
            System.exit(2);
        }
        Path tar = Path.of(args[0]);
        Map<String, Object> check = new LinkedHashMap<>();
        List<Object> test = new ArrayList<>(List.of("CMD"));
        test.addAll(Arrays.asList(args).subList(5, args.length));
        check.put("Test", test);
        check.put("Interval", nanos(args[1]));
        check.put("Timeout", nanos(args[2]));
        check.put("StartPeriod", nanos(args[3]));
        check.put("Retries", Long.parseLong(args[4]));

        Map<String, byte[]> small = new LinkedHashMap<>();
        readEntries(tar, name -> name.endsWith(".json"), small);
        Object manifest = new Json(text(small.get("manifest.json"))).value();
        String configName = (String) ((Map<?, ?>) ((List<?>) manifest).get(0)).get("Config");
        @SuppressWarnings("unchecked")
        Map<String, Object> config = (Map<String, Object>) new Json(text(small.get(configName))).value();
        @SuppressWarnings("unchecked")
        Map<String, Object> container = (Map<String, Object>) config.get("config");
        container.put("Healthcheck", check);
        byte[] rewritten = Json.write(config).getBytes(StandardCharsets.UTF_8);

        Path out = tar.resolveSibling(tar.getFileName() + ".healthcheck");
        rewrite(tar, out, configName, rewritten);
        Files.move(out, tar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        System.out.println("ImageHealthcheck: " + tar + " (" + configName + "): Healthcheck " + Json.write(check));
    }

    static long nanos(String d) {
        if (d.endsWith("ms")) return Long.parseLong(d.substring(0, d.length() - 2)) * 1_000_000L;
        if (d.endsWith("s")) return Long.parseLong(d.substring(0, d.length() - 1)) * 1_000_000_000L;
        throw new IllegalArgumentException("a duration like 30s or 500ms, not " + d);
    }

    private static String text(byte[] b) {
        if (b == null) throw new IllegalStateException("not a docker-format image tar: an entry is missing");
        return new String(b, StandardCharsets.UTF_8);
    }

    // ---- ustar: 512-byte headers, octal sizes, data padded to 512 bytes, two zero blocks at the end

    interface NameFilter {
        boolean test(String name);
    }

    private static String name(byte[] h) {
        int end = 0;
        while (end < 100 && h[end] != 0) end++;
        String name = new String(h, 0, end, StandardCharsets.UTF_8);
        if (h[257] == 'u' && h[258] == 's' && h[259] == 't' && h[345] != 0) {
            int pe = 345;
            while (pe < 500 && h[pe] != 0) pe++;
            name = new String(h, 345, pe - 345, StandardCharsets.UTF_8) + "/" + name;
        }
        return name.startsWith("./") ? name.substring(2) : name;
    }

    private static long size(byte[] h) {
        String s = new String(h, 124, 12, StandardCharsets.US_ASCII).replace("\0", "").trim();
        return s.isEmpty() ? 0 : Long.parseLong(s, 8);
    }

    private static boolean zero(byte[] h) {
        for (byte b : h) if (b != 0) return false;
        return true;
    }

    private static void readEntries(Path tar, NameFilter keep, Map<String, byte[]> into) throws IOException {
        try (InputStream in = Files.newInputStream(tar)) {
            byte[] h = new byte[512];
            while (in.readNBytes(h, 0, 512) == 512 && !zero(h)) {
                long size = size(h);
                long padded = (size + 511) / 512 * 512;
                String name = name(h);
                if (keep.test(name) && size < 64 * 1024 * 1024) {
                    into.put(name, in.readNBytes((int) size));
                    in.skipNBytes(padded - size);
                } else {
                    in.skipNBytes(padded);
                }
            }
        }
    }

    private static void rewrite(Path tar, Path out, String target, byte[] content) throws IOException {
        boolean replaced = false;
        try (InputStream in = Files.newInputStream(tar);
                OutputStream o = Files.newOutputStream(out)) {
            byte[] h = new byte[512];
            while (in.readNBytes(h, 0, 512) == 512 && !zero(h)) {
                long size = size(h);
                long padded = (size + 511) / 512 * 512;
                if (name(h).equals(target) && (h[156] == '0' || h[156] == 0)) {
                    in.skipNBytes(padded);
                    byte[] sizeField = String.format("%011o\0", content.length).getBytes(StandardCharsets.US_ASCII);
                    System.arraycopy(sizeField, 0, h, 124, 12);
                    Arrays.fill(h, 148, 156, (byte) ' ');
                    long sum = 0;
                    for (byte b : h) sum += b & 0xff;
                    byte[] sumField = String.format("%06o\0 ", sum).getBytes(StandardCharsets.US_ASCII);
                    System.arraycopy(sumField, 0, h, 148, 8);
                    o.write(h);
                    o.write(content);
                    o.write(new byte[(int) ((content.length + 511L) / 512 * 512 - content.length)]);
                    replaced = true;
                } else {
                    o.write(h);
                    copy(in, o, padded);
                }
            }
            o.write(new byte[1024]);
        }
        if (!replaced) throw new IllegalStateException(target + " is not a plain file in " + tar);
    }

    private static void copy(InputStream in, OutputStream o, long n) throws IOException {
        byte[] buf = new byte[1 << 16];
        while (n > 0) {
            int r = in.read(buf, 0, (int) Math.min(buf.length, n));
            if (r < 0) throw new IOException("the tar ends inside an entry");
            o.write(buf, 0, r);
            n -= r;
        }
    }

    // ---- JSON: objects keep their key order; numbers are kept as written

    record JsonNumber(String text) {}

    static final class Json {
        private final String s;
        private int i;

        Json(String s) {
            this.s = s;
        }

        Object value() {
            Object v = read();
            space();
            if (i != s.length()) throw error("trailing text");
            return v;
        }

        private Object read() {
            space();
            char c = s.charAt(i);
            if (c == '{') {
                Map<String, Object> m = new LinkedHashMap<>();
                i++;
                space();
                if (s.charAt(i) == '}') {
                    i++;
                    return m;
                }
                while (true) {
                    space();
                    String k = string();
                    space();
                    expect(':');
                    m.put(k, read());
                    space();
                    if (s.charAt(i) == ',') i++;
                    else {
                        expect('}');
                        return m;
                    }
                }
            }
            if (c == '[') {
                List<Object> l = new ArrayList<>();
                i++;
                space();
                if (s.charAt(i) == ']') {
                    i++;
                    return l;
                }
                while (true) {
                    l.add(read());
                    space();
                    if (s.charAt(i) == ',') i++;
                    else {
                        expect(']');
                        return l;
                    }
                }
            }
            if (c == '"') return string();
            for (String word : List.of("true", "false", "null")) {
                if (s.startsWith(word, i)) {
                    i += word.length();
                    return word.equals("null") ? null : Boolean.valueOf(word);
                }
            }
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
            if (start == i) throw error("unexpected '" + c + "'");
            return new JsonNumber(s.substring(start, i));
        }

        private String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') return b.toString();
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                char e = s.charAt(i++);
                switch (e) {
                    case 'n' -> b.append('\n');
                    case 't' -> b.append('\t');
                    case 'r' -> b.append('\r');
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'u' -> {
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> b.append(e);
                }
            }
        }

        private void space() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
        }

        private void expect(char c) {
            if (i >= s.length() || s.charAt(i) != c) throw error("expected '" + c + "'");
            i++;
        }

        private IllegalStateException error(String why) {
            return new IllegalStateException("image config JSON at " + i + ": " + why);
        }

        static String write(Object v) {
            StringBuilder b = new StringBuilder();
            write(v, b);
            return b.toString();
        }

        private static void write(Object v, StringBuilder b) {
            switch (v) {
                case null -> b.append("null");
                case Map<?, ?> m -> {
                    b.append('{');
                    String sep = "";
                    for (Map.Entry<?, ?> e : m.entrySet()) {
                        b.append(sep);
                        quote((String) e.getKey(), b);
                        b.append(':');
                        write(e.getValue(), b);
                        sep = ",";
                    }
                    b.append('}');
                }
                case List<?> l -> {
                    b.append('[');
                    String sep = "";
                    for (Object o : l) {
                        b.append(sep);
                        write(o, b);
                        sep = ",";
                    }
                    b.append(']');
                }
                case String str -> quote(str, b);
                case JsonNumber n -> b.append(n.text());
                default -> b.append(v);
            }
        }

        private static void quote(String str, StringBuilder b) {
            b.append('"');
            for (char c : str.toCharArray()) {
                switch (c) {
                    case '"' -> b.append("\\\"");
                    case '\\' -> b.append("\\\\");
                    case '\n' -> b.append("\\n");
                    case '\r' -> b.append("\\r");
                    case '\t' -> b.append("\\t");
                    default -> {
                        if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                        else b.append(c);
                    }
                }
            }
            b.append('"');
        }
    }
}
