package dev.clawgate.server.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.clawgate.core.config.AgentSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DispatchSettings;
import dev.clawgate.core.config.DmScope;
import dev.clawgate.core.config.GroupScope;
import dev.clawgate.core.config.HistorySettings;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.config.RouteSettings;
import dev.clawgate.core.config.SessionSettings;
import dev.clawgate.core.config.ShellSandboxMode;
import dev.clawgate.core.config.ToolSettings;
import dev.clawgate.core.provider.ProviderFactory;
import dev.clawgate.server.logging.LogFormat;
import dev.clawgate.server.telemetry.TelemetrySettings;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads {@code clawgate.toml} into a {@link ClawgateConfig}. Every key is optional and takes the SPEC default; an
 * unknown key, a value of the wrong type or out of range, or a {@code ${VAR}} naming an unset variable is a
 * {@link ConfigException} with a one-line message.
 */
public final class ConfigLoader {
    private static final Logger log = LoggerFactory.getLogger(ConfigLoader.class);
    private static final TomlMapper TOML = new TomlMapper();

    /** The provider kinds the gateway can build: those of the provider factories on the class path. */
    public static final Set<String> DEFAULT_KINDS = discoveredKinds();
    /** Per-request provider timeout when {@code providers.NAME.timeout_secs} is not set. */
    public static final int DEFAULT_PROVIDER_TIMEOUT_SECS = 120;

    private final Set<String> knownKinds;
    private final ChannelKeys channelKeys;
    private final ConfigSchema.Table schema;

    /** The default provider kinds, and the channel keys declared on the class path. */
    public ConfigLoader() {
        this(DEFAULT_KINDS);
    }

    /** @param knownKinds the accepted {@code providers.NAME.kind} values (e.g. from the provider factories found) */
    public ConfigLoader(Set<String> knownKinds) {
        this(knownKinds, ChannelKeys.discovered());
    }

    /**
     * @param knownKinds the accepted {@code providers.NAME.kind} values
     * @param channelKeys the keys each channel adds to its {@code [channels.<name>]} table
     */
    public ConfigLoader(Set<String> knownKinds, ChannelKeys channelKeys) {
        if (knownKinds.isEmpty()) throw new IllegalArgumentException("no provider kinds");
        this.knownKinds = Set.copyOf(knownKinds);
        this.channelKeys = channelKeys;
        this.schema = ConfigSchema.root(channelKeys);
    }

    // kinds come from the ProviderFactory implementations found, so a new provider module needs no edit here
    private static Set<String> discoveredKinds() {
        Set<String> kinds = new TreeSet<>();
        for (ProviderFactory f : ServiceLoader.load(ProviderFactory.class)) kinds.add(f.kind());
        return kinds.isEmpty() ? Set.of("openai") : Set.copyOf(kinds);
    }

    /** Loads a file that must exist (e.g. one named with {@code --config}). */
    public ClawgateConfig load(Path file, Map<String, String> env) {
        if (Files.isDirectory(file))
            throw new ConfigException("config file " + file + " is a directory; name a .toml file");
        if (!Files.exists(file)) {
            throw new ConfigException(
                    "config file " + file + " does not exist; write one with 'clawgate init' or fix the path");
        }
        String text;
        try {
            text = Files.readString(file);
        } catch (CharacterCodingException e) {
            throw new ConfigException("config file " + file + " is not UTF-8 text; save it as UTF-8");
        } catch (IOException e) {
            throw new ConfigException("cannot read config file " + file + " ("
                    + e.getClass().getSimpleName() + "); check its permissions");
        }
        CutOffCheck.check(text, file.toString(), schema);
        return parse(
                text, new ConfigSource(file.toString(), file.toAbsolutePath().getParent(), env));
    }

    /** Loads a file if it exists, else the defaults, with relative paths against the working directory. */
    public ClawgateConfig loadOrDefaults(Path file, Map<String, String> env) {
        if (Files.exists(file)) return load(file, env);
        log.info("no config file at {}; using defaults", file);
        return parse("", new ConfigSource("(defaults)", Path.of("").toAbsolutePath(), env));
    }

    /** Loads what {@code location} names: an explicit location must exist, the implicit one may be missing. */
    public ClawgateConfig load(ConfigLocation location, Map<String, String> env) {
        return location.explicit() ? load(location.path(), env) : loadOrDefaults(location.path(), env);
    }

    ClawgateConfig parse(String text, ConfigSource source) {
        JsonNode root = parseToml(text, source.file());
        // SPEC OP-9: a key under an earlier name is read under its new one, with a warning
        for (String warning : new RenamedKeys(RenamedKeys.KNOWN).apply(root, source.file())) log.warn(warning);
        SchemaCheck.check(root, source.file(), schema);
        TableReader r = TableReader.root(root, source);
        Map<String, ProviderSettings> providers = providers(r);
        ClawgateConfig config = new ClawgateConfig(
                GatewaySection.read(r.table("gateway")),
                agent(r.table("agent")),
                providers,
                routes(r),
                history(r.table("history")),
                tools(r.table("tools")),
                dispatch(r.table("dispatch")),
                session(r.table("session")),
                InboundSection.read(r),
                QueueSection.read(r.table("messages").table("queue")),
                ChannelSection.read(r, channelKeys),
                OutboxSection.read(r.table("outbox")),
                MultimodalSection.read(r.table("multimodal")),
                MemorySection.read(r.table("memory")),
                OutputSection.globalPrefix(r),
                CronSection.read(r.table("cron")),
                McpSection.read(r.table("mcp")),
                InspectorSection.read(r.table("inspector")));
        ProviderReferences.check(config, source.file());
        LoggingSection.format(r);
        TelemetrySection.read(r);
        DeploymentSection.read(r);
        return config;
    }

    /**
     * {@code logging.format} of the file {@code location} names (text when unset or when there is no file): a setting
     * of the server's start, outside {@link ClawgateConfig}, so read from the file again after {@link #load} checked
     * it.
     */
    public LogFormat logFormat(ConfigLocation location, Map<String, String> env) {
        TableReader root = startSettings(location, env);
        return root == null ? LogFormat.TEXT : LoggingSection.format(root);
    }

    /** {@code [telemetry]} of the file {@code location} names (SPEC OP-9): a start setting, like {@link #logFormat}. */
    public TelemetrySettings telemetry(ConfigLocation location, Map<String, String> env) {
        TableReader root = startSettings(location, env);
        return root == null ? TelemetrySettings.OFF : TelemetrySection.read(root);
    }

    /**
     * {@code [store]} and {@code [cluster]} of the file {@code location} names (SQLite, no cluster, when there is no
     * file): settings of the server's start, read like {@link #logFormat} (SPEC OP-1, OP-2).
     */
    public Deployment deployment(ConfigLocation location, Map<String, String> env) {
        TableReader root = startSettings(location, env);
        return root == null ? Deployment.local() : DeploymentSection.read(root);
    }

    /** The file's root table, read again for a setting of the server's start; null when there is no file. */
    private static TableReader startSettings(ConfigLocation location, Map<String, String> env) {
        Path file = location.path();
        if (!Files.isRegularFile(file)) return null;
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new ConfigException(
                    "cannot read config file " + file + " (" + e.getClass().getSimpleName() + ")");
        }
        ConfigSource source =
                new ConfigSource(file.toString(), file.toAbsolutePath().getParent(), env);
        JsonNode root = parseToml(text, source.file());
        new RenamedKeys(RenamedKeys.KNOWN).apply(root, source.file());
        return TableReader.root(root, source);
    }

    private static JsonNode parseToml(String text, String file) {
        try {
            JsonNode root = TOML.readTree(text);
            return root == null || root.isMissingNode() ? TOML.createObjectNode() : root;
        } catch (JacksonException e) {
            JsonLocation at = e.getLocation();
            int lineNr = at == null ? 0 : TomlSyntax.errorLine(text, at.getLineNr());
            String line = at == null ? null : TomlSyntax.line(text, lineNr);
            String where = at == null
                    ? ""
                    : " at line " + lineNr + (lineNr == at.getLineNr() ? ", column " + at.getColumnNr() : "")
                            + (line == null || line.isBlank() ? "" : " (" + TomlSyntax.quote(line) + ")");
            throw new ConfigException(
                    "malformed TOML in " + file + where + ": " + TomlSyntax.explain(e.getOriginalMessage(), line));
        }
    }

    /** SPEC HI-1. */
    private static SessionSettings session(TableReader t) {
        SessionSettings d = SessionSettings.defaults();
        return new SessionSettings(
                t.choice("dm_scope", d.dmScope(), DmScope::parse, "a DM scope", "per-channel-peer, per-peer, main"),
                t.choice("group_scope", d.groupScope(), GroupScope::parse, "a group scope", "shared, per-sender"));
    }

    private static AgentSettings agent(TableReader t) {
        AgentSettings d = AgentSettings.defaults();
        return new AgentSettings(
                nonBlank(t, "provider"),
                nonBlank(t, "model"),
                t.integer("max_tool_iterations", d.maxToolIterations(), 1, Integer.MAX_VALUE),
                t.integer("message_timeout_secs", d.messageTimeoutSecs(), 1, Integer.MAX_VALUE),
                t.integer("timeout_scale_cap", d.timeoutScaleCap(), 1, Integer.MAX_VALUE),
                t.directory("workspace", d.workspace()),
                t.bool("show_tool_calls", d.showToolCalls()),
                t.strings("fallback", d.fallback()),
                t.choice("skills_mode", d.skillsMode(), ConfigLoader::skillsMode, "a skills mode", "full, compact"),
                reasoningTags(t, d.reasoningTags()));
    }

    /**
     * {@code agent.reasoning_tags}: tag names, each letters, digits, {@code _ . : -}; an empty list turns the removal
     * off.
     */
    private static dev.clawgate.core.internal.toolcall.ReasoningTags reasoningTags(
            TableReader t, dev.clawgate.core.internal.toolcall.ReasoningTags d) {
        List<String> names = t.strings("reasoning_tags", List.copyOf(d.names()));
        for (String n : names) {
            if (!dev.clawgate.core.internal.toolcall.ReasoningTags.isValidName(n)) {
                throw t.error(
                        "agent.reasoning_tags",
                        "lists '" + n + "', which is not a tag name (a letter, then letters, digits, _ . : -)");
            }
        }
        return new dev.clawgate.core.internal.toolcall.ReasoningTags(new java.util.LinkedHashSet<>(names));
    }

    private static java.util.Optional<dev.clawgate.core.internal.prompt.SkillsMode> skillsMode(String raw) {
        return switch (raw) {
            case "full" -> java.util.Optional.of(dev.clawgate.core.internal.prompt.SkillsMode.FULL);
            case "compact" -> java.util.Optional.of(dev.clawgate.core.internal.prompt.SkillsMode.COMPACT);
            default -> java.util.Optional.empty();
        };
    }

    private Map<String, ProviderSettings> providers(TableReader root) {
        Map<String, ProviderSettings> out = new LinkedHashMap<>();
        for (var e : root.namedTables("providers").entrySet()) {
            out.put(e.getKey(), provider(e.getKey(), e.getValue()));
        }
        return out;
    }

    private ProviderSettings provider(String name, TableReader t) {
        if (!name.matches("[A-Za-z0-9][A-Za-z0-9_-]*")) {
            throw new ConfigException("provider name in [providers." + name + "] in " + t.file()
                    + " must use only letters, digits, - and _");
        }
        String kind = t.string("kind");
        if (kind == null) kind = "openai";
        if (!knownKinds.contains(kind)) {
            throw t.error(
                    t.keyPath("kind"),
                    "is '" + kind + "', which is not a provider kind; known kinds: "
                            + String.join(", ", new TreeSet<>(knownKinds)));
        }
        String baseUrl = nonBlank(t, "base_url");
        String urlKey = "base_url";
        if (t.has("api_base")) {
            if (baseUrl != null)
                throw t.error(t.keyPath("api_base"), "names the same thing as base_url; set only one of them");
            baseUrl = nonBlank(t, "api_base");
            urlKey = "api_base";
        }
        if (baseUrl != null) BaseUrl.check(baseUrl, t.keyPath(urlKey), t.file());
        Integer maxTokens = t.has("max_tokens") ? t.integer("max_tokens", 0, 1, Integer.MAX_VALUE) : null;
        EnvReferences.Expansion key = t.expansion("api_key");
        String unconfigured = unconfigured(name, t, key);
        String apiKey =
                unconfigured != null || key.value() == null || key.value().isBlank() ? null : key.value();
        return new ProviderSettings(
                name,
                kind,
                baseUrl,
                apiKey,
                t.optionalBool("native_tools"),
                nonBlank(t, "model"),
                t.integer("timeout_secs", DEFAULT_PROVIDER_TIMEOUT_SECS, 1, Integer.MAX_VALUE),
                maxTokens,
                t.optionalBool("vision"),
                unconfigured,
                CliProviderSection.read(kind, t));
    }

    /**
     * SPEC OP-6, README: an {@code api_key} naming an unset (or empty) variable leaves the provider unconfigured,
     * whatever server it points at, instead of failing the whole config; the reason, or null. A literal empty key is a
     * provider without a key (a local server needs none).
     */
    private static String unconfigured(String provider, TableReader t, EnvReferences.Expansion key) {
        String why = null;
        if (!key.complete()) {
            why = t.keyPath("api_key") + " refers to ${" + key.missingVariable() + "}, which is not set";
        } else if (key.value() != null
                && key.value().isBlank()
                && t.raw("api_key").contains("${")) {
            why = t.keyPath("api_key") + " refers to a variable that is empty";
        }
        if (why != null) {
            log.info("provider '{}' is not configured: {} in {}", provider, why, t.file());
        } else if (key.value() != null && key.value().isBlank()) {
            log.info("provider '{}' has no API key: {} in {} is empty", provider, t.keyPath("api_key"), t.file());
        }
        return why;
    }

    private static List<RouteSettings> routes(TableReader root) {
        List<RouteSettings> out = new ArrayList<>();
        for (TableReader t : root.tableArray("routes")) {
            String hint = nonBlank(t, "hint");
            if (hint == null) throw t.error(t.keyPath("hint"), "is missing; every [[routes]] entry needs a hint");
            List<String> keywords = t.strings("keywords", List.of());
            if (keywords.isEmpty())
                throw t.error(t.keyPath("keywords"), "is missing or empty; list the words that select this route");
            for (int i = 0; i < keywords.size(); i++) {
                if (keywords.get(i).isBlank()) throw t.error(t.keyPath("keywords") + "[" + i + "]", "is empty");
            }
            out.add(new RouteSettings(hint, keywords, nonBlank(t, "provider"), nonBlank(t, "model")));
        }
        return out;
    }

    private static HistorySettings history(TableReader t) {
        HistorySettings d = HistorySettings.defaults();
        return new HistorySettings(
                t.integer("max_messages", d.maxMessages(), 0, Integer.MAX_VALUE),
                t.longInteger("max_chars", d.maxChars(), 1, Long.MAX_VALUE));
    }

    private static ToolSettings tools(TableReader t) {
        ToolSettings d = ToolSettings.defaults();
        return new ToolSettings(
                t.integer("max_result_chars", d.maxResultChars(), 1, Integer.MAX_VALUE),
                t.strings("shell_allowlist", d.shellAllowlist()),
                t.integer("shell_timeout_secs", d.shellTimeoutSecs(), 1, Integer.MAX_VALUE),
                t.integer("shell_output_cap", d.shellOutputCap(), 1, Integer.MAX_VALUE),
                t.choice("shell_sandbox", d.shellSandbox(), ShellSandboxMode::parse, "a shell sandbox", "bwrap, none"));
    }

    private static DispatchSettings dispatch(TableReader t) {
        DispatchSettings d = DispatchSettings.defaults();
        return new DispatchSettings(
                t.integer("bus_capacity", d.busCapacity(), 1, Integer.MAX_VALUE),
                t.integer("max_in_flight", d.maxInFlight(), 0, Integer.MAX_VALUE));
    }

    private static String nonBlank(TableReader t, String key) {
        String v = t.string(key);
        if (v != null && v.isBlank()) throw t.error(t.keyPath(key), "is empty; set a value or remove the key");
        return v;
    }
}
