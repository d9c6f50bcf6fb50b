package dev.clawgate.server.config;

import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.server.config.ConfigSchema.Scalar;
import dev.clawgate.server.config.ConfigSchema.Shape;
import dev.clawgate.server.config.ConfigSchema.Table;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The keys channels add to their {@code [channels.<name>]} tables, as each channel module declares them
 * ({@link ChannelFactory#options()}), so {@link ConfigSchema} need not list them and the server names no channel
 * module. A channel with no declared keys still has the shared access keys; any other key in its table is an
 * unknown-key error naming the nearest. Immutable: a loader is built with one.
 */
public final class ChannelKeys {
    private static final Map<String, Scalar> TYPES = Map.of(
            "string", Scalar.STRING, "integer", Scalar.INTEGER, "boolean", Scalar.BOOLEAN, "list", Scalar.STRING_LIST);
    private static final Pattern KEY = Pattern.compile("[a-z][a-z0-9_]*");
    private static final ChannelKeys NONE = new ChannelKeys(Map.of(), Map.of(), Map.of());

    private final Map<String, Table> tables;
    /** The checks of their channel's values ({@link ChannelFactory#check}), by channel. */
    private final Map<String, Consumer<ChannelSettings>> checks;
    /** Each channel's declared options, for {@code init} and {@code doctor}. */
    private final Map<String, List<ChannelOption>> options;

    private ChannelKeys(
            Map<String, Table> tables,
            Map<String, Consumer<ChannelSettings>> checks,
            Map<String, List<ChannelOption>> options) {
        this.tables = Map.copyOf(tables);
        this.checks = Map.copyOf(checks);
        this.options = Map.copyOf(options);
    }

    /** No channel declares keys of its own. */
    public static ChannelKeys none() {
        return NONE;
    }

    /**
     * @param keysByChannel channel name to its keys, each key to {@code "string"}, {@code "integer"}, {@code "boolean"}
     *     or {@code "list"}
     * @throws IllegalArgumentException for a bad channel name, key or type name, or a key every channel already has
     */
    public static ChannelKeys of(Map<String, Map<String, String>> keysByChannel) {
        Map<String, Map<String, Shape>> merged = new TreeMap<>();
        keysByChannel.forEach((channel, keys) -> add(merged, channel, keys));
        return build(merged, Map.of(), Map.of());
    }

    /** The keys declared by the channel modules on the class path, and by the server's own channels. */
    public static ChannelKeys discovered() {
        return discovered(ChannelKeys.class.getClassLoader());
    }

    /**
     * The keys declared by the {@link ChannelFactory} services {@code loader} finds, and by the server's own channels.
     */
    public static ChannelKeys discovered(ClassLoader loader) {
        Map<String, List<ChannelOption>> declared = new LinkedHashMap<>(BuiltInChannelKeys.options());
        Map<String, Consumer<ChannelSettings>> checks = new LinkedHashMap<>();
        for (ChannelFactory factory : ServiceLoader.load(ChannelFactory.class, loader)) {
            if (declared.containsKey(factory.name())) {
                throw new IllegalStateException("two channel modules are named '" + factory.name() + "'");
            }
            declared.put(factory.name(), List.copyOf(factory.options()));
            checks.put(factory.name(), factory::check);
        }
        Map<String, Map<String, Shape>> merged = new TreeMap<>();
        declared.forEach((channel, options) -> add(merged, channel, typesOf(options)));
        return build(merged, checks, declared);
    }

    private static Map<String, String> typesOf(List<ChannelOption> options) {
        Map<String, String> types = new LinkedHashMap<>();
        for (ChannelOption o : options) {
            if (types.put(o.key(), o.type().name().toLowerCase(java.util.Locale.ROOT)) != null) {
                throw new IllegalArgumentException("option '" + o.key() + "' is declared twice");
            }
        }
        return types;
    }

    /** What {@code channel} declares of its keys (defaults, secrets, descriptions); empty when it declares none. */
    public List<ChannelOption> optionsOf(String channel) {
        return options.getOrDefault(channel, List.of());
    }

    /** The channels the server runs itself (no module), e.g. the web chat: {@code doctor} finds no factory for them. */
    public static Set<String> serverChannels() {
        return BuiltInChannelKeys.options().keySet();
    }

    /** Every channel the server knows here: its own and those whose module is on the class path. */
    public Set<String> knownChannels() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(options.keySet()));
    }

    /** The channels that declare keys, sorted. */
    public Set<String> channels() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(tables.keySet()));
    }

    /** The keys {@code channel} declares, in declaration order; empty for a channel that declares none. */
    public Set<String> keysOf(String channel) {
        Table own = tables.get(channel);
        return own == null ? Set.of() : own.keys().keySet();
    }

    Map<String, Table> tables() {
        return tables;
    }

    private static void add(Map<String, Map<String, Shape>> merged, String channel, Map<String, String> keys) {
        if (channel == null || !ConfigSchema.isPlainName(channel)) {
            throw new IllegalArgumentException("channel name '" + channel + "' must use only letters, digits, - and _");
        }
        Map<String, Shape> into = merged.computeIfAbsent(channel, c -> new LinkedHashMap<>());
        keys.forEach((key, type) -> {
            if (key == null || !KEY.matcher(key).matches()) {
                throw new IllegalArgumentException(
                        "key '" + key + "' of channel '" + channel + "' must use lower-case letters, digits and _");
            }
            if (ConfigSchema.CHANNEL.keys().containsKey(key)) {
                throw new IllegalArgumentException(
                        "key '" + key + "' of channel '" + channel + "' is a key every channel has");
            }
            Scalar scalar = TYPES.get(type);
            if (scalar == null) {
                throw new IllegalArgumentException("key '" + key + "' of channel '" + channel + "' has type '" + type
                        + "'; use string, integer or boolean");
            }
            if (into.put(key, scalar) != null) {
                throw new IllegalArgumentException("key '" + key + "' of channel '" + channel + "' is declared twice");
            }
        });
    }

    /**
     * Has the channel's declaration check the values read for it (SPEC CH-3: e.g. Telegram's mode and webhook secret);
     * a bad one throws {@link IllegalArgumentException} naming the key.
     */
    void check(ChannelSettings settings) {
        Consumer<ChannelSettings> declared = checks.get(settings.name());
        if (declared != null) declared.accept(settings);
    }

    private static ChannelKeys build(
            Map<String, Map<String, Shape>> merged,
            Map<String, Consumer<ChannelSettings>> checks,
            Map<String, List<ChannelOption>> options) {
        Map<String, Table> tables = new LinkedHashMap<>();
        merged.forEach((channel, keys) -> {
            if (!keys.isEmpty()) tables.put(channel, new Table(keys));
        });
        return tables.isEmpty() && checks.isEmpty() && options.isEmpty()
                ? NONE
                : new ChannelKeys(tables, checks, options);
    }

    @Override
    public String toString() {
        Map<String, Set<String>> view = new TreeMap<>();
        tables.forEach((channel, table) -> view.put(channel, table.keys().keySet()));
        return "ChannelKeys" + view;
    }
}
