package dev.clawgate.server.config;

import dev.clawgate.core.config.McpServerSettings;
import dev.clawgate.core.config.McpSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads {@code [mcp.servers.<name>]} (SPEC AG-7): {@code command}, {@code args}, {@code env} for a server run as a
 * process over stdio, or {@code url} and {@code headers} for one reached over streamable HTTP; {@code tools}, the
 * allowlist of its tools (all when unset); {@code timeout}, the longest one call may take.
 */
final class McpSection {
    private static final Duration LEAST_TIMEOUT = Duration.ofSeconds(1);

    private McpSection() {}

    static McpSettings read(TableReader mcp) {
        Map<String, McpServerSettings> servers = new LinkedHashMap<>();
        for (var e : mcp.namedTables("servers").entrySet()) servers.put(e.getKey(), server(e.getKey(), e.getValue()));
        return new McpSettings(servers);
    }

    private static McpServerSettings server(String name, TableReader t) {
        // the name prefixes each tool's name (<server>__<tool>), which model APIs limit to letters, digits, _ and -
        if (!name.matches("[A-Za-z0-9][A-Za-z0-9_-]{0,31}") || name.contains("__")) {
            throw new ConfigException("MCP server name in [" + t.path() + "] in " + t.file()
                    + " must be at most 32 letters, digits, - and _ (no double _)");
        }
        String command = t.string("command");
        String url = t.string("url");
        if ((command == null) == (url == null)) {
            throw t.error(
                    t.path(), "needs either command (a program run over stdio) or url (streamable HTTP), not both");
        }
        if (command != null && command.isBlank()) throw t.error(t.keyPath("command"), "is empty");
        List<String> secrets = new ArrayList<>();
        if (url != null) {
            BaseUrl.check(url, t.keyPath("url"), t.file());
            for (String key : List.of("args", "env")) {
                if (t.has(key)) throw t.error(t.keyPath(key), "is only for a server run with command");
            }
        } else if (t.has("headers")) {
            throw t.error(t.keyPath("headers"), "is only for a server reached with url");
        }
        Map<String, String> env = values(t, "env", "[A-Za-z_][A-Za-z0-9_]*", "a valid variable name", secrets);
        Map<String, String> headers =
                values(t, "headers", "[A-Za-z0-9!#$%&'*+.^_`|~-]+", "a valid header name", secrets);
        headers.forEach((h, v) -> {
            String lower = h.toLowerCase(Locale.ROOT);
            if (lower.equals("authorization") || lower.contains("token") || lower.contains("key")) secrets.add(v);
        });
        List<String> tools = t.strings("tools", List.of());
        for (int i = 0; i < tools.size(); i++) {
            if (tools.get(i).isBlank()) throw t.error(t.keyPath("tools") + "[" + i + "]", "is empty");
        }
        Duration timeout = t.duration("timeout", McpServerSettings.DEFAULT_TIMEOUT, LEAST_TIMEOUT);
        return new McpServerSettings(
                name,
                command == null ? null : command.strip(),
                t.strings("args", List.of()),
                env,
                url,
                headers,
                tools,
                timeout,
                secrets.stream().filter(s -> s.length() >= 4).distinct().toList());
    }

    /** A table of names to strings; a value taken from the environment is a secret. */
    private static Map<String, String> values(
            TableReader t, String key, String namePattern, String what, List<String> secrets) {
        Map<String, String> out = new LinkedHashMap<>();
        TableReader table = t.table(key);
        for (String name : table.keys()) {
            if (!name.matches(namePattern)) throw t.error(table.keyPath(name), "is not " + what);
            String value = table.string(name);
            out.put(name, value);
            if (table.raw(name).contains("${")) secrets.add(value);
        }
        return out;
    }
}
