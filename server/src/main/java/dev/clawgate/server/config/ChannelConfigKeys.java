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

    /**
     * Checks the values of the channel's keys once the loader has read them (e.g. a mode that must be
     * one of a few words): a bad value throws {@link IllegalArgumentException} whose message starts
     * with the key's full path, e.g. {@code channels.telegram.mode must be ...}, which the loader
     * reports with the file. Nothing to check by default.
     */
    default void check(dev.clawgate.core.config.ChannelSettings settings) {
    }
}
