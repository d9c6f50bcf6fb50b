package dev.clawgate.core.toolcall;

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

/** Reads the tool calls written inside one tag, fence or TOOL_CALL block (SPEC AG-1, SP-3). */
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
    private static final Pattern REASONING = Pattern.compile(
            "<(think|thinking)(?:\\s[^<>]*)?>.*?</\\1>", Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
    private static final Pattern INVOKE = Pattern.compile(
            "<invoke\\b([^<>]*)>(.*?)</invoke>", Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
    private static final Pattern NAME_ATTR = Pattern.compile("\\bname\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)')");
    private static final Pattern PARAMETER = Pattern.compile(
            "<parameter\\s+name\\s*=\\s*[\"']([^\"']+)[\"']\\s*>(.*?)</parameter>", Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
    private static final Pattern ELEMENT = Pattern.compile("<(" + IDENT + ")(\\s[^<>]*)?>(.*)</\\1>", Pattern.DOTALL);
    private static final Pattern CHILD = Pattern.compile("<(" + IDENT + ")(?:\\s[^<>]*)?>(.*?)</\\1>", Pattern.DOTALL);
    private static final Pattern SHORTHAND = Pattern.compile("(" + IDENT + ")>(.+)", Pattern.DOTALL);
    private static final String VALUE = "(?:\"(?:[^\"\\\\]|\\\\.)*\"|'[^']*'|[^\\s\"'=]+)";
    private static final Pattern INLINE = Pattern.compile(
            "(" + IDENT + ")((?:\\s+[A-Za-z_][\\w-]*\\s*=\\s*" + VALUE + ")+)", Pattern.DOTALL);
    private static final Pattern ATTR = Pattern.compile("([A-Za-z_][\\w-]*)\\s*=\\s*(" + VALUE + ")");
    private static final Pattern BARE_NAME = Pattern.compile(IDENT);
    private static final Pattern NAME_IN_BROKEN_JSON = Pattern.compile("\"(?:name|tool)\"\\s*:\\s*\"([^\"\\\\]{1,100})\"");
    private static final Pattern PERL_TOOL = Pattern.compile("\\btool\\s*=>\\s*(?:\"([^\"]+)\"|'([^']+)')");
    private static final Pattern PERL_ARGS = Pattern.compile("\\bargs\\s*=>\\s*\\{(.*)", Pattern.DOTALL);
    private static final Pattern PERL_OPTION = Pattern.compile(
            "--([A-Za-z_][\\w-]*)\\s+(?:\"((?:[^\"\\\\]|\\\\.)*)\"|'([^']*)'|([^\\s{}]+))");
    private static final Pattern PERL_PAIR = Pattern.compile(
            "([A-Za-z_]\\w*)\\s*=>\\s*(?:\"((?:[^\"\\\\]|\\\\.)*)\"|'([^']*)')");

    private CallBodyReader() {
    }

    /** The calls in a tag or fence body; never empty: a body that holds no readable call is one malformed call. */
    static List<RawCall> read(String body) {
        String b = unwrapFence(REASONING.matcher(body).replaceAll("").strip());
        if (b.isEmpty()) return List.of(RawCall.malformed("unknown", "the tool call is empty"));
        char first = b.charAt(0);
        if (first == '{' || first == '[') return fromJsonText(b);
        if (INVOKE.matcher(b).find()) {
            List<RawCall> calls = fromInvokeElements(b);
            if (!calls.isEmpty()) return calls;
        }
        Matcher m = ELEMENT.matcher(b);
        if (m.matches()) return List.of(fromElement(m.group(1), m.group(3)));
        m = SHORTHAND.matcher(b);
        if (m.matches()) return List.of(withMainArgument(m.group(1), m.group(2).strip()));
        m = INLINE.matcher(b);
        if (m.matches()) return List.of(RawCall.ok(canonicalName(m.group(1)), attributes(m.group(2)), null));
        if (BARE_NAME.matcher(b).matches()) return List.of(RawCall.ok(canonicalName(b), object(), null));
        return List.of(RawCall.malformed(nameIn(b), "the tool call is neither JSON nor a known call form: " + excerpt(b)));
    }

    /** The calls of a tag that may name its tool in an attribute ({@code <invoke name="...">}); else as {@link #read}. */
    static List<RawCall> readInvoke(String attributes, String body) {
        Matcher name = NAME_ATTR.matcher(attributes);
        if (!name.find()) return read(body);
        return List.of(fromParameters(firstNonNull(name.group(1), name.group(2)), body));
    }

    /** A fence that names its tool ({@code ```tool file_read}) and holds only the arguments. */
    static RawCall readNamed(String name, String argumentText) {
        String a = argumentText.strip();
        return a.isEmpty() ? RawCall.ok(canonicalName(name), object(), null) : arguments(canonicalName(name), a, null);
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
        if (node.isObject() && node.path("tool_calls").isArray()) node = node.get("tool_calls");
        if (node.isObject()) return List.of(fromObject(node));
        if (node.isArray() && !node.isEmpty()) {
            List<RawCall> calls = new ArrayList<>();
            for (JsonNode element : node) {
                calls.add(element.isObject() ? fromObject(element)
                        : RawCall.malformed("unknown", "a tool call must be a JSON object, got " + kind(element)));
            }
            return calls;
        }
        return List.of(RawCall.malformed("unknown", "a tool call must be a JSON object, got " + kind(node)));
    }

    private static RawCall fromObject(JsonNode o) {
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
        if (args.isTextual()) return args.asText().isBlank() ? RawCall.ok(name, object(), id) : arguments(name, args.asText(), id);
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

    private static List<RawCall> fromInvokeElements(String body) {
        List<RawCall> calls = new ArrayList<>();
        Matcher m = INVOKE.matcher(body);
        while (m.find()) calls.addAll(readInvoke(m.group(1), m.group(2)));
        return calls;
    }

    private static RawCall fromParameters(String name, String body) {
        String b = unwrapFence(body.strip());
        if (b.startsWith("{")) return arguments(canonicalName(name.strip()), b, null);
        ObjectNode args = object();
        Matcher p = PARAMETER.matcher(body);
        while (p.find()) args.set(p.group(1).strip(), value(unescapeXml(p.group(2).strip())));
        return RawCall.ok(canonicalName(name.strip()), args, null);
    }

    private static RawCall fromElement(String name, String inner) {
        String in = inner.strip();
        String canonical = canonicalName(name);
        if (in.startsWith("{")) return arguments(canonical, in, null);
        ObjectNode args = object();
        Matcher c = CHILD.matcher(in);
        while (c.find()) args.set(c.group(1), value(unescapeXml(c.group(2).strip())));
        if (args.isEmpty() && !in.isEmpty()) return withMainArgument(canonical, unescapeXml(in));
        return RawCall.ok(canonical, args, null);
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

    private static String unwrapFence(String b) {
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
                out.append(switch (n) {
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
        return s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'").replace("&amp;", "&");
    }

    static String excerpt(String s) {
        String one = s.strip().replaceAll("\\s+", " ");
        return one.length() <= 80 ? one : one.substring(0, 80) + "...";
    }
}
