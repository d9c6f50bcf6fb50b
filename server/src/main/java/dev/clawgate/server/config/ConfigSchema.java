package dev.clawgate.server.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Every key {@code clawgate.toml} may hold, declared once. The loader checks the parsed tree against it before reading
 * values, so an unknown or misspelt key is caught precisely. Adding a key: declare it here, read it in
 * {@link ConfigLoader}, document it in the starter. A channel's own keys under {@code [channels.<name>]} are not listed
 * here: they come from {@link ChannelKeys} and are merged in by {@link #root(ChannelKeys)}.
 */
final class ConfigSchema {
    private ConfigSchema() {}

    /** What a key holds. */
    sealed interface Shape permits Scalar, Table, NamedTables, NamedValues, TableArray {
        /** How an error message names this shape, e.g. "an integer". */
        String description();
    }

    enum Scalar implements Shape {
        STRING("a string"),
        INTEGER("an integer"),
        BOOLEAN("true or false"),
        STRING_LIST("a list of strings"),
        /** An integer or a decimal, e.g. {@code 0.4}. */
        NUMBER("a number"),
        /** Seconds as an integer, or a string such as {@code "2h30m"} ({@link DurationValue}). */
        DURATION(DurationValue.FORMS);

        private final String description;

        Scalar(String description) {
            this.description = description;
        }

        @Override
        public String description() {
            return description;
        }
    }

    /** A table with a fixed set of keys, in declaration order. */
    record Table(Map<String, Shape> keys) implements Shape {
        Table {
            keys = Collections.unmodifiableMap(new LinkedHashMap<>(keys));
        }

        @Override
        public String description() {
            return "a table";
        }
    }

    /**
     * A table whose keys are names the user picks, each holding the same table ({@code [providers.NAME]}).
     *
     * @param extra keys that only the table of one name accepts, by name ({@code [channels.telegram]}'s bot_token)
     */
    record NamedTables(Table each, Map<String, Table> extra) implements Shape {
        NamedTables {
            extra = Map.copyOf(extra);
        }

        NamedTables(Table each) {
            this(each, Map.of());
        }

        /** The keys the table of {@code name} accepts: the shared ones, then that name's own. */
        Table tableFor(String name) {
            Table own = extra.get(name);
            if (own == null) return each;
            Map<String, Shape> keys = new LinkedHashMap<>(each.keys());
            keys.putAll(own.keys());
            return new Table(keys);
        }

        @Override
        public String description() {
            return "a table of named tables";
        }
    }

    /** A table whose keys are names the user picks, each holding one value ({@code by_channel.telegram = 1500}). */
    record NamedValues(Scalar each) implements Shape {
        @Override
        public String description() {
            return "a table of named values";
        }
    }

    /** An array of tables ({@code [[routes]]}). */
    record TableArray(Table each) implements Shape {
        @Override
        public String description() {
            return "an array of tables";
        }
    }

    static final Table PROVIDER = table(
            "kind", Scalar.STRING,
            "base_url", Scalar.STRING,
            // the same as base_url, under the name the issue and the Gemini provider's docs use
            "api_base", Scalar.STRING,
            "api_key", Scalar.STRING,
            "native_tools", Scalar.BOOLEAN,
            "model", Scalar.STRING,
            "timeout_secs", Scalar.INTEGER,
            "max_tokens", Scalar.INTEGER,
            "vision", Scalar.BOOLEAN,
            // kind = "cli" only (SPEC SP-4): a local agent program run as a process
            "command", Scalar.STRING,
            "args", Scalar.STRING_LIST,
            "env", new NamedValues(Scalar.STRING),
            "workdir", Scalar.STRING,
            "timeout", Scalar.DURATION,
            "prompt_via", Scalar.STRING,
            "prompt_mode", Scalar.STRING,
            "overflow_patterns", Scalar.STRING_LIST,
            "max_processes", Scalar.INTEGER);

    /** {@code [mcp.servers.<name>]} (SPEC AG-7): stdio (command, args, env) or streamable HTTP (url, headers). */
    static final Table MCP_SERVER = table(
            "command", Scalar.STRING,
            "args", Scalar.STRING_LIST,
            "env", new NamedValues(Scalar.STRING),
            "url", Scalar.STRING,
            "headers", new NamedValues(Scalar.STRING),
            "tools", Scalar.STRING_LIST,
            "timeout", Scalar.DURATION);

    static final Table ROUTE = table(
            "hint", Scalar.STRING,
            "keywords", Scalar.STRING_LIST,
            "provider", Scalar.STRING,
            "model", Scalar.STRING);

    /** The access keys of a channel and of each of its accounts (SPEC IN-5). */
    static final Table ACCESS = table(
            "dm_policy", Scalar.STRING,
            "allowed_users", Scalar.STRING_LIST,
            "group_policy", Scalar.STRING,
            "allowed_groups", Scalar.STRING_LIST,
            "require_mention", Scalar.BOOLEAN);

    /**
     * The keys of each {@code [channels.<name>.accounts.<id>]}: the access keys and its own response prefix (SPEC
     * OUT-3).
     */
    static final Table ACCOUNT = withKeys(ACCESS, "response_prefix", Scalar.STRING);

    /** {@code [channels.<name>.block_streaming]} (SPEC OUT-2). */
    static final Table BLOCK_STREAMING = table(
            "enabled", Scalar.BOOLEAN,
            "break", Scalar.STRING,
            "min_chars", Scalar.INTEGER,
            "max_chars", Scalar.INTEGER,
            "break_preference", Scalar.STRING,
            "coalesce_idle_ms", Scalar.INTEGER,
            "human_delay", Scalar.STRING);

    /** The keys every {@code [channels.<name>]} accepts; a channel module may add its own ({@link ChannelKeys}). */
    static final Table CHANNEL = withKeys(
            ACCESS,
            "history_limit",
            Scalar.INTEGER,
            "reply_to_mode",
            Scalar.STRING,
            "response_prefix",
            Scalar.STRING,
            "block_streaming",
            BLOCK_STREAMING,
            "accounts",
            new NamedTables(ACCOUNT));

    static final Table ROOT = table(
            "gateway",
                    table(
                            "data_dir", Scalar.STRING,
                            "bind", Scalar.STRING,
                            "auth_token", Scalar.STRING,
                            "owner", Scalar.STRING_LIST,
                            "max_body_bytes", Scalar.INTEGER,
                            "max_connections", Scalar.INTEGER,
                            "read_timeout", Scalar.DURATION,
                            "write_timeout", Scalar.DURATION),
            "agent",
                    table(
                            "provider", Scalar.STRING,
                            "model", Scalar.STRING,
                            "max_tool_iterations", Scalar.INTEGER,
                            "message_timeout_secs", Scalar.INTEGER,
                            "timeout_scale_cap", Scalar.INTEGER,
                            "workspace", Scalar.STRING,
                            "show_tool_calls", Scalar.BOOLEAN,
                            "fallback", Scalar.STRING_LIST,
                            "skills_mode", Scalar.STRING,
                            "reasoning_tags", Scalar.STRING_LIST),
            "providers", new NamedTables(PROVIDER),
            "routes", new TableArray(ROUTE),
            "session",
                    table(
                            "dm_scope", Scalar.STRING,
                            "group_scope", Scalar.STRING),
            "history",
                    table(
                            "max_messages", Scalar.INTEGER,
                            "max_chars", Scalar.INTEGER),
            "memory",
                    table(
                            "enabled", Scalar.BOOLEAN,
                            "auto_save", Scalar.BOOLEAN,
                            "auto_save_min_chars", Scalar.INTEGER,
                            "recall_limit", Scalar.INTEGER,
                            "min_relevance", Scalar.NUMBER,
                            "context_max_entries", Scalar.INTEGER,
                            "context_entry_chars", Scalar.INTEGER,
                            "context_max_chars", Scalar.INTEGER,
                            "max_entry_chars", Scalar.INTEGER,
                            "max_entries_per_scope", Scalar.INTEGER,
                            "conversation_max_age", Scalar.DURATION,
                            "consolidation", Scalar.STRING,
                            "consolidation_queue", Scalar.INTEGER,
                            "embedder", Scalar.STRING,
                            "embedding_model", Scalar.STRING,
                            "vector_weight", Scalar.NUMBER,
                            "candidates", Scalar.INTEGER,
                            "ann_threshold", Scalar.INTEGER),
            "tools",
                    table(
                            "max_result_chars", Scalar.INTEGER,
                            "shell_allowlist", Scalar.STRING_LIST,
                            "shell_timeout_secs", Scalar.INTEGER,
                            "shell_output_cap", Scalar.INTEGER,
                            "shell_sandbox", Scalar.STRING),
            "messages",
                    table(
                            "response_prefix", Scalar.STRING,
                            "max_chars", Scalar.INTEGER,
                            "inbound",
                                    table("debounce_ms", Scalar.INTEGER, "by_channel", new NamedValues(Scalar.INTEGER)),
                            "queue",
                                    table(
                                            "mode", Scalar.STRING,
                                            "by_channel", new NamedValues(Scalar.STRING),
                                            "debounce_ms", Scalar.INTEGER,
                                            "cap", Scalar.INTEGER,
                                            "drop", Scalar.STRING),
                            "dedupe", table("ttl_secs", Scalar.INTEGER),
                            "group", table("history_limit", Scalar.INTEGER)),
            "inbox", table("max_age", Scalar.DURATION),
            "multimodal",
                    table(
                            "allow_remote_fetch", Scalar.BOOLEAN,
                            "max_images", Scalar.INTEGER,
                            "max_image_bytes", Scalar.INTEGER),
            "outbox",
                    table(
                            "durability", Scalar.STRING,
                            "max_age", Scalar.DURATION,
                            "resend_unknown", Scalar.BOOLEAN,
                            "replay_per_second", Scalar.INTEGER),
            "cron",
                    table(
                            "enabled", Scalar.BOOLEAN,
                            "max_jobs_per_session", Scalar.INTEGER,
                            "min_interval", Scalar.DURATION,
                            "max_age", Scalar.DURATION),
            "dispatch",
                    table(
                            "max_in_flight", Scalar.INTEGER,
                            "bus_capacity", Scalar.INTEGER),
            "logging", table("format", Scalar.STRING),
            "inspector",
                    table(
                            "enabled", Scalar.BOOLEAN,
                            "retention", Scalar.DURATION,
                            "keep_prompts", Scalar.BOOLEAN),
            "telemetry", table("otlp_endpoint", Scalar.STRING, "service_name", Scalar.STRING),
            "store",
                    table(
                            "url", Scalar.STRING,
                            "pool_size", Scalar.INTEGER,
                            "connect_timeout", Scalar.DURATION),
            "cluster",
                    table(
                            "node_id", Scalar.STRING,
                            "heartbeat_interval", Scalar.DURATION,
                            "lease_ttl", Scalar.DURATION),
            "channels", new NamedTables(CHANNEL),
            "mcp", table("servers", new NamedTables(MCP_SERVER)));

    /** Placeholder for a user-chosen table name in {@link #knownPaths()}. */
    static final String NAME_PLACEHOLDER = "<name>";

    private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]*");

    private static final List<String> KNOWN_PATHS = flatten(ROOT);

    /** Whether a user-chosen name (a provider, a channel) is a plain word: letters, digits, - and _. */
    static boolean isPlainName(String name) {
        return PLAIN_NAME.matcher(name).matches();
    }

    /** The schema with each channel's own keys added to its {@code [channels.<name>]} table. */
    static Table root(ChannelKeys channelKeys) {
        if (channelKeys.tables().isEmpty()) return ROOT;
        Map<String, Table> extra = new LinkedHashMap<>();
        channelKeys.tables().forEach((name, own) -> {
            // an account is a second bot of the same channel: it may set the channel's own keys too
            Map<String, Shape> account = new LinkedHashMap<>(ACCOUNT.keys());
            account.putAll(own.keys());
            Map<String, Shape> channel = new LinkedHashMap<>(own.keys());
            channel.put("accounts", new NamedTables(new Table(account)));
            extra.put(name, new Table(channel));
        });
        Map<String, Shape> keys = new LinkedHashMap<>(ROOT.keys());
        keys.put("channels", new NamedTables(CHANNEL, extra));
        return new Table(keys);
    }

    /** {@link #knownPaths(Table)} of the schema without channel keys. */
    static List<String> knownPaths() {
        return knownPaths(ROOT);
    }

    /**
     * Every key and table path, e.g. {@code gateway}, {@code gateway.bind}, {@code providers.<name>.kind},
     * {@code routes.hint}; a channel's own keys under its name, e.g. {@code channels.telegram.bot_token}.
     */
    static List<String> knownPaths(Table root) {
        return root == ROOT ? KNOWN_PATHS : flatten(root);
    }

    private static List<String> flatten(Table root) {
        List<String> out = new ArrayList<>();
        flattenInto("", root, out);
        return List.copyOf(out);
    }

    private static void flattenInto(String prefix, Table table, List<String> out) {
        for (var e : table.keys().entrySet()) {
            String path = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
            out.add(path);
            switch (e.getValue()) {
                case Table t -> flattenInto(path, t, out);
                case NamedTables n -> {
                    flattenInto(path + "." + NAME_PLACEHOLDER, n.each(), out);
                    n.extra().forEach((name, own) -> flattenInto(path + "." + name, own, out));
                }
                case NamedValues v -> out.add(path + "." + NAME_PLACEHOLDER);
                case TableArray a -> flattenInto(path, a.each(), out);
                case Scalar s -> {}
            }
        }
    }

    private static Table table(Object... keysAndShapes) {
        return withKeys(new Table(Map.of()), keysAndShapes);
    }

    private static Table withKeys(Table base, Object... keysAndShapes) {
        Map<String, Shape> keys = new LinkedHashMap<>(base.keys());
        for (int i = 0; i < keysAndShapes.length; i += 2) {
            keys.put((String) keysAndShapes[i], (Shape) keysAndShapes[i + 1]);
        }
        return new Table(keys);
    }
}
