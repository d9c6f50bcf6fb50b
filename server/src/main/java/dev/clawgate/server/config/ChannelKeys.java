package dev.clawgate.server.config;

import dev.clawgate.server.config.ConfigSchema.Scalar;
import dev.clawgate.server.config.ConfigSchema.Shape;
import dev.clawgate.server.config.ConfigSchema.Table;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The keys channels add to their {@code [channels.<name>]} tables (e.g. Telegram's
 * {@code bot_token}), so {@link ConfigSchema} need not list them. A channel with no declared
 * keys still has the shared access keys; any other key in its table is an unknown-key error
 * naming the nearest. Immutable: a loader is built with one.
 */
public final class ChannelKeys {
    private static final Map<String, Scalar> TYPES = Map.of(
            "string", Scalar.STRING, "integer", Scalar.INTEGER, "boolean", Scalar.BOOLEAN);
    private static final Pattern KEY = Pattern.compile("[a-z][a-z0-9_]*");
    private static final ChannelKeys NONE = new ChannelKeys(Map.of(), Map.of());

    private final Map<String, Table> tables;
    /** The declarations that check their channel's values ({@link ChannelConfigKeys#check}), by channel. */
    private final Map<String, ChannelConfigKeys> checks;

    private ChannelKeys(Map<String, Table> tables, Map<String, ChannelConfigKeys> checks) {
        this.tables = Map.copyOf(tables);
        this.checks = Map.copyOf(checks);
    }

    /** No channel declares keys of its own. */
    public static ChannelKeys none() {
        return NONE;
    }

    /**
     * @param keysByChannel channel name to its keys, each key to {@code "string"}, {@code "integer"} or {@code "boolean"}
     * @throws IllegalArgumentException for a bad channel name, key or type name, or a key every channel already has
     */
    public static ChannelKeys of(Map<String, Map<String, String>> keysByChannel) {
        Map<String, Map<String, Shape>> merged = new TreeMap<>();
        keysByChannel.forEach((channel, keys) -> add(merged, channel, keys));
        return build(merged, Map.of());
    }

    /** The keys declared by the {@link ChannelConfigKeys} services on the class path. */
    public static ChannelKeys discovered() {
        return discovered(ChannelKeys.class.getClassLoader());
    }

    /** The keys declared by the {@link ChannelConfigKeys} services {@code loader} finds. */
    public static ChannelKeys discovered(ClassLoader loader) {
        Map<String, Map<String, Shape>> merged = new TreeMap<>();
        Map<String, ChannelConfigKeys> checks = new LinkedHashMap<>();
        for (ChannelConfigKeys declared : ServiceLoader.load(ChannelConfigKeys.class, loader)) {
            add(merged, declared.channel(), declared.keys());
            checks.put(declared.channel(), declared);
        }
        return build(merged, checks);
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
                throw new IllegalArgumentException("key '" + key + "' of channel '" + channel + "' must use lower-case letters, digits and _");
            }
            if (ConfigSchema.CHANNEL.keys().containsKey(key)) {
                throw new IllegalArgumentException("key '" + key + "' of channel '" + channel + "' is a key every channel has");
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
     * Has the channel's declaration check the values read for it (SPEC CH-3: e.g. Telegram's mode and
     * webhook secret); a bad one throws {@link IllegalArgumentException} naming the key.
     */
    void check(dev.clawgate.core.config.ChannelSettings settings) {
        ChannelConfigKeys declared = checks.get(settings.name());
        if (declared != null) declared.check(settings);
    }

    private static ChannelKeys build(Map<String, Map<String, Shape>> merged, Map<String, ChannelConfigKeys> checks) {
        Map<String, Table> tables = new LinkedHashMap<>();
        merged.forEach((channel, keys) -> {
            if (!keys.isEmpty()) tables.put(channel, new Table(keys));
        });
        return tables.isEmpty() && checks.isEmpty() ? NONE : new ChannelKeys(tables, checks);
    }

    @Override
    public String toString() {
        Map<String, Set<String>> view = new TreeMap<>();
        tables.forEach((channel, table) -> view.put(channel, table.keys().keySet()));
        return "ChannelKeys" + view;
    }
}
