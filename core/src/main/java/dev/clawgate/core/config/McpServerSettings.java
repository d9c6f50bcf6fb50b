package dev.clawgate.core.config;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code [mcp.servers.<name>]} table (SPEC AG-7): an MCP server the operator configured, reached over stdio
 * ({@code command}, {@code args}, {@code env}: the process gets only that environment) or streamable HTTP ({@code url},
 * {@code headers}).
 *
 * @param tools the server's tools the model may use, by their names on the server; empty: all of them
 * @param timeout the longest a call of one of its tools may take
 * @param secrets values that must never reach the model or a log (those taken from the environment, auth headers)
 */
public record McpServerSettings(
        String name,
        String command,
        List<String> args,
        Map<String, String> env,
        String url,
        Map<String, String> headers,
        List<String> tools,
        Duration timeout,
        List<String> secrets) {
    /** {@code mcp.servers.<name>.timeout} when unset. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    public McpServerSettings {
        if ((command == null) == (url == null)) {
            throw new IllegalArgumentException("an MCP server has a command or a url");
        }
        args = args == null ? List.of() : List.copyOf(args);
        env = env == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(env));
        headers = headers == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        tools = tools == null ? List.of() : List.copyOf(tools);
        timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
        secrets = secrets == null ? List.of() : List.copyOf(secrets);
    }

    public boolean stdio() {
        return command != null;
    }

    /** Whether the allowlist lets the model see the server's tool {@code tool}. */
    public boolean allows(String tool) {
        return tools.isEmpty() || tools.contains(tool);
    }

    /** How logs and {@code doctor} name where the server is: its program, or its URL without query. */
    public String where() {
        if (stdio()) return "stdio: " + command;
        int q = url.indexOf('?');
        return "http: " + (q < 0 ? url : url.substring(0, q));
    }

    /** Settings print no env or header values: they may be credentials (SPEC OP-6). */
    @Override
    public String toString() {
        return "McpServerSettings[" + name + ", " + where() + ", env " + env.keySet() + ", headers " + headers.keySet()
                + ", tools " + tools + ", timeout " + timeout + "]";
    }
}
