package dev.clawgate.server.config;

import java.util.Map;

/**
 * Declares the keys one channel adds to its {@code [channels.<name>]} table, beside the access
 * keys every channel has (SPEC IN-5). Implementations are found with {@link java.util.ServiceLoader}
 * (a {@code META-INF/services/dev.clawgate.server.config.ChannelConfigKeys} line) by
 * {@link ChannelKeys#discovered()}; the loader then accepts exactly these keys in that table and
 * hands their values to the channel as strings in {@code ChannelSettings.options()}.
 */
public interface ChannelConfigKeys {
    /** The channel's name, as in {@code [channels.<name>]}, e.g. {@code telegram}. */
    String channel();

    /**
     * Each key (lower case, digits and _) to its type: {@code "string"} ({@code ${VAR}} references
     * are expanded), {@code "integer"} or {@code "boolean"}.
     */
    Map<String, String> keys();
}
