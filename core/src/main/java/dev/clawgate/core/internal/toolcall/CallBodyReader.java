package dev.clawgate.core.internal.toolcall;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the tool calls written inside one closed tag, fence, bracket or token block (SPEC AG-1, SP-3). */
final class CallBodyReader {
    static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** Names models habitually use for the built-in tools (SPEC AG-5). */
    private static final Map<String, String> ALIASES = Map.of(
            "send_message", "message_send",
            "read_file", "file_read",
            "write_file", "file_write",
            "list_files", "file_list");

    /** The argument a shorthand body ({@code shell>pwd}) fills, per built-in tool; others get {@code input}. */
    private static final Map<String, String> MAIN_ARGUMENT = Map.of(
            "shell", "command",
            "file_read", "path",
            "file_list", "path",
            "web_fetch", "url",
            "http_request", "url",
            "memory_recall", "query",
            "memory_forget", "key");

    private static final String IDENT = "[A-Za-z_][\\w.-]*";
    private static final Pattern NAME_ATTR =
            Pattern.compile("\\bname\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)'|([^\\s\"'>]+))");
    private static final Pattern SHORTHAND = Pattern.compile("(" + IDENT + ")>(.+)", Pattern.DOTALL);
    private static final String VALUE = "(?:\"(?:[^\"\\\\]|\\\\.)*\"|'[^']*'|[^\\s\"'=]+)";
    private static final Pattern INLINE =
            Pattern.compile("(" + IDENT + ")((?:\\s+[A-Za-z_][\\w-]*\\s*=\\s*" + VALUE + ")+)", Pattern.DOTALL);
    private static final Pattern ATTR = Pattern.compile("([A-Za-z_][\\w-]*)\\s*=\\s*(" + VALUE + ")");
    private static final Pattern BARE_NAME = Pattern.compile(IDENT);
    private static final Pattern NAME_IN_BROKEN_JSON =
            Pattern.compile("\"(?:name|tool)\"\\s*:\\s*\"([^\"\\\\]{1,100})\"");
    private static final Pattern PERL_TOOL = Pattern.compile("\\btool\\s*=>\\s*(?:\"([^\"]+)\"|'([^']+)')");
    private static final Pattern PERL_ARGS = Pattern.compile("\\bargs\\s*=>\\s*\\{(.*)", Pattern.DOTALL);
    private static final Pattern PERL_OPTION =
            Pattern.compile("--([A-Za-z_][\\w-]*)\\s+(?:\"((?:[^\"\\\\]|\\\\.)*)\"|'([^']*)'|([^\\s{}]+))");
    private static final Pattern PERL_PAIR =
            Pattern.compile("([A-Za-z_]\\w*)\\s*=>\\s*(?:\"((?:[^\"\\\\]|\\\\.)*)\"|'([^']*)')");

    private CallBodyReader() {}

    /**
     * The calls in a closed body; never empty: a body that holds no readable call is one malformed call. Reasoning
     * inside the body is dropped; nested call markup is read by the scanner.
     */
    static List<RawCall> read(String body, ReasoningTags reasoning) {
        String b = body;
        if (b.indexOf('<') >= 0 && ScanWork.enterNested()) {
            List<RawCall> nested = new ArrayList<>();
            StringBuilder rest = new StringBuilder();
            List<Segment> inner;
            try {
                inner = OutputScanner.scanAll(b, reasoning, null);
            } finally {
                ScanWork.leaveNested();
            }
            for (Segment seg : inner) {
                if (seg.form() == Segment.Form.TAG
                        && (seg.kind() == Segment.Kind.CALL || !seg.calls().isEmpty())) nested.addAll(seg.calls());
                else if (seg.kind() != Segment.Kind.REASONING) rest.append(seg.source());
            }
            if (!nested.isEmpty() && rest.toString().isBlank()) return nested;
            if (nested.isEmpty()) b = rest.toString();
        }
        b = unwrapFence(b.strip());
        if (b.isEmpty()) return List.of(RawCall.malformed("unknown", "the tool call is empty"));
        char first = b.charAt(0);
        if (first == '{' || first == '[') {
            if (PERL_TOOL.matcher(b).find()) return List.of(readPerl(b));
            List<RawCall> json = fromJsonText(b);
            return json.size() == 1 && json.get(0).malformed() && b.contains("=>") ? List.of(readPerl(b)) : json;
        }
        if (first == '<') {
            XmlParts.Element e = XmlParts.whole(b);
            if (e != null) return List.of(fromElement(e.name(), e.inner()));
        }
        int lt = b.indexOf('<');
        if (lt > 0 && b.contains("<arg_key>"))
            return List.of(fromArgPairs(b.substring(0, lt).strip(), b.substring(lt)));
        Matcher m = SHORTHAND.matcher(b);
        if (m.matches()) return List.of(readShort(m.group(1), m.group(2)));
        if (b.indexOf('\n') < 0) {
            m = INLINE.matcher(b);
            if (m.matches()) return List.of(RawCall.ok(canonicalName(m.group(1)), attributes(m.group(2)), null));
        }
        if (BARE_NAME.matcher(b).matches()) return List.of(RawCall.ok(canonicalName(b), object(), null));
        return List.of(
                RawCall.malformed(nameIn(b), "the tool call is neither JSON nor a known call form: " + excerpt(b)));
    }

    /**
     * The calls of a call tag that may name its tool in an attribute ({@code <invoke name="...">},
     * {@code <function=...>}).
     */
    static List<RawCall> readTag(Tag tag, String body, ReasoningTags reasoning) {
        String name = attributeName(tag.attrs());
        if (name == null || name.isBlank()) return read(body, reasoning);
        return List.of(fromParameters(name, body));
    }

    /** A wrapper ({@code <tool_calls>}, {@code <function_calls>}): the calls inside it, as JSON or as call tags. */
    static List<RawCall> readWrapper(String body, ReasoningTags reasoning) {
        String t = body.strip();
        if (t.startsWith("{") || t.startsWith("[")) return fromJsonText(t);
        List<RawCall> calls = new ArrayList<>();
        if (!ScanWork.enterNested())
            return List.of(RawCall.malformed("unknown", "tool-call wrappers are nested too deep"));
        try {
            for (Segment seg : OutputScanner.scanAll(body, reasoning, null)) calls.addAll(seg.calls());
        } finally {
            ScanWork.leaveNested();
        }
        return calls.isEmpty() ? List.of(RawCall.malformed("unknown", "the tool-call wrapper holds no call")) : calls;
    }

    /** {@code name>args}: JSON arguments, or the tool's main argument as text ({@code shell>pwd}). */
    static RawCall readShort(String name, String args) {
        String a = args.strip();
        if (a.startsWith("{")) return arguments(canonicalName(name), a, null);
        return withMainArgument(name, unescapeXml(a));
    }

    /** A block that names its tool ({@code ```tool file_read}, a token header) and holds only the arguments. */
    static RawCall readNamed(String name, String argumentText) {
        String a = argumentText.strip();
        if (name.isBlank()) return RawCall.malformed("unknown", "the tool call names no tool");
        return a.isEmpty() ? RawCall.ok(canonicalName(name), object(), null) : arguments(canonicalName(name), a, null);
    }

    /** {@code name="x"}, {@code name=x} or Qwen's {@code =x}. */
    private static String attributeName(String attrs) {
        String a = attrs.strip();
        if (a.startsWith("=")) return a.substring(1).strip().replaceAll("^[\"']|[\"']$", "");
        Matcher m = NAME_ATTR.matcher(a);
        return m.find() ? firstNonNull(m.group(1), m.group(2), m.group(3)).strip() : null;
    }

    private static RawCall fromParameters(String name, String body) {
        String b = unwrapFence(body.strip());
        String canonical = canonicalName(name.strip());
        if (b.startsWith("{")) return arguments(canonical, b, null);
        ObjectNode args = object();
        for (XmlParts.Element p : XmlParts.children(body)) {
            String key = p.name().equals("parameter") ? attributeName(p.attrs()) : null;
            if (key != null && !key.isEmpty())
                args.set(key, value(unescapeXml(p.inner().strip())));
        }
        if (args.isEmpty() && b.contains("<arg_key>")) return fromArgPairs(canonical, b);
        return RawCall.ok(canonical, args, null);
    }

    /** GLM: {@code name <arg_key>k</arg_key><arg_value>v</arg_value> ...}. */
    private static RawCall fromArgPairs(String name, String rest) {
        if (name.isEmpty()) return RawCall.malformed("unknown", "the tool call names no tool");
        ObjectNode args = object();
        String key = null;
        for (XmlParts.Element p : XmlParts.children(rest)) {
            if (p.name().equals("arg_key")) {
                key = p.inner().strip();
            } else if (p.name().equals("arg_value") && key != null) {
                args.set(key, value(unescapeXml(p.inner().strip())));
                key = null;
            }
        }
        return RawCall.ok(canonicalName(name), args, null);
    }

    private static RawCall fromElement(String name, String inner) {
        String in = inner.strip();
        String canonical = canonicalName(name);
        if (in.startsWith("{")) return arguments(canonical, in, null);
        ObjectNode args = object();
        for (XmlParts.Element c : XmlParts.children(in))
            args.set(c.name(), value(unescapeXml(c.inner().strip())));
        if (args.isEmpty() && !in.isEmpty()) return withMainArgument(canonical, unescapeXml(in));
        return RawCall.ok(canonical, args, null);
    }

    /** A perl-style block: {@code {tool => "shell", args => { --command "uname -a" }}}. */
    static RawCall readPerl(String body) {
        Matcher tool = PERL_TOOL.matcher(body);
        if (!tool.find()) return RawCall.malformed("unknown", "the TOOL_CALL block names no tool: " + excerpt(body));
        ObjectNode args = object();
        Matcher argsPart = PERL_ARGS.matcher(body);
        if (argsPart.find()) {
            String part = argsPart.group(1);
            Matcher o = PERL_OPTION.matcher(part);
            while (o.find()) args.put(o.group(1), firstNonNull(unescape(o.group(2)), o.group(3), o.group(4)));
            Matcher p = PERL_PAIR.matcher(part);
            while (p.find()) args.put(p.group(1), firstNonNull(unescape(p.group(2)), p.group(3)));
        }
        return RawCall.ok(canonicalName(firstNonNull(tool.group(1), tool.group(2))), args, null);
    }

    /** JSON text holding one call, an array of calls, or an OpenAI {@code {"tool_calls": [...]}} object. */
    static List<RawCall> fromJsonText(String json) {
        JsonNode node;
        try {
            node = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            return List.of(RawCall.malformed(nameIn(json), "the tool call is not valid JSON: " + problem(e)));
        }
        return fromJson(node);
    }

    static List<RawCall> fromJson(JsonNode node) {
        JsonNode envelope = Envelopes.envelopeCalls(node);
        if (envelope != null) node = envelope;
        if (node.isObject()) return List.of(fromObject(node));
        if (node.isArray() && !node.isEmpty()) {
            List<RawCall> calls = new ArrayList<>();
            for (JsonNode element : node) {
                calls.add(
                        element.isObject()
                                ? fromObject(element)
                                : RawCall.malformed(
                                        "unknown", "a tool call must be a JSON object, got " + kind(element)));
            }
            return calls;
        }
        return List.of(RawCall.malformed("unknown", "a tool call must be a JSON object, got " + kind(node)));
    }

    private static RawCall fromObject(JsonNode o) {
        JsonNode envelope = Envelopes.envelopeCalls(o);
        if (envelope != null && envelope.isObject()) o = envelope;
        JsonNode fn = o.get("function");
        String name;
        JsonNode args;
        if (fn != null && fn.isObject()) {
            name = text(fn.get("name"));
            args = firstPresent(fn, "arguments", "parameters");
        } else {
            name = firstNonNull(text(o.get("name")), text(o.get("tool")), text(o.get("tool_name")));
            args = firstPresent(o, "arguments", "parameters", "args", "input", "params");
        }
        String id = text(o.get("id"));
        if (name == null || name.isBlank()) return RawCall.malformed("unknown", "the tool call has no name");
        name = canonicalName(name.strip());
        if (args == null || args.isNull()) return RawCall.ok(name, object(), id);
        if (args.isTextual())
            return args.asText().isBlank() ? RawCall.ok(name, object(), id) : arguments(name, args.asText(), id);
        if (args.isObject()) return RawCall.ok(name, args, id);
        return RawCall.malformed(name, "the arguments of '" + name + "' must be a JSON object, got " + kind(args));
    }

    private static RawCall arguments(String name, String json, String id) {
        try {
            JsonNode args = JSON.readTree(json);
            if (args.isObject()) return RawCall.ok(name, args, id);
            return RawCall.malformed(name, "the arguments of '" + name + "' must be a JSON object, got " + kind(args));
        } catch (JsonProcessingException e) {
            return RawCall.malformed(name, "the arguments of '" + name + "' are not valid JSON: " + problem(e));
        }
    }

    private static RawCall withMainArgument(String name, String value) {
        String canonical = canonicalName(name);
        ObjectNode args = object();
        args.put(MAIN_ARGUMENT.getOrDefault(canonical, "input"), value);
        return RawCall.ok(canonical, args, null);
    }

    private static ObjectNode attributes(String text) {
        ObjectNode args = object();
        Matcher a = ATTR.matcher(text);
        while (a.find()) {
            String v = a.group(2);
            if (v.startsWith("\"")) v = unescape(v.substring(1, v.length() - 1));
            else if (v.startsWith("'")) v = v.substring(1, v.length() - 1);
            args.put(a.group(1), v);
        }
        return args;
    }

    /** A parameter value: JSON objects and arrays stay structured, everything else is a string. */
    private static JsonNode value(String raw) {
        if (raw.startsWith("{") || raw.startsWith("[")) {
            try {
                return JSON.readTree(raw);
            } catch (JsonProcessingException e) {
                return JsonNodeFactory.instance.textNode(raw);
            }
        }
        return JsonNodeFactory.instance.textNode(raw);
    }

    /** Jackson's complaint without its location noise: the model gets one short sentence. */
    static String problem(JsonProcessingException e) {
        String msg = String.valueOf(e.getOriginalMessage());
        int cut = msg.indexOf(" (start marker");
        if (cut >= 0) msg = msg.substring(0, cut);
        int nl = msg.indexOf('\n');
        if (nl >= 0) msg = msg.substring(0, nl);
        return msg.length() <= 120 ? msg : msg.substring(0, 120) + "...";
    }

    static String canonicalName(String name) {
        return ALIASES.getOrDefault(name.toLowerCase(Locale.ROOT), name);
    }

    /** The tool name a broken call still shows, so the error sent back to the model can name it. */
    static String nameIn(String text) {
        Matcher m = NAME_IN_BROKEN_JSON.matcher(text);
        return m.find() ? canonicalName(m.group(1)) : "unknown";
    }

    static String unwrapFence(String b) {
        if (!b.startsWith("```")) return b;
        int nl = b.indexOf('\n');
        if (nl < 0) return "";
        String inner = b.substring(nl + 1).strip();
        if (inner.endsWith("```")) inner = inner.substring(0, inner.length() - 3);
        return inner.strip();
    }

    private static JsonNode firstPresent(JsonNode o, String... fields) {
        for (String f : fields) {
            JsonNode v = o.get(f);
            if (v != null && !v.isNull()) return v;
        }
        return null;
    }

    private static String text(JsonNode n) {
        return n != null && n.isTextual() ? n.asText() : null;
    }

    @SafeVarargs
    private static <T> T firstNonNull(T... values) {
        for (T v : values) if (v != null) return v;
        return null;
    }

    private static String kind(JsonNode n) {
        return n.getNodeType().name().toLowerCase(Locale.ROOT);
    }

    private static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    private static String unescape(String s) {
        if (s == null) return null;
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                out.append(
                        switch (n) {
                            case 'n' -> '\n';
                            case 't' -> '\t';
                            default -> n;
                        });
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static String unescapeXml(String s) {
        return s.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&apos;", "'")
                .replace("&amp;", "&");
    }

    static String excerpt(String s) {
        String one = s.strip().replaceAll("\\s+", " ");
        return one.length() <= 80 ? one : one.substring(0, 80) + "...";
    }
}
