package dev.clawgate.core.channel;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One key a channel adds to its {@code [channels.<name>]} table (and to each account's table), as its
 * {@link ChannelFactory#options()} declares it: the server's config loader accepts exactly these keys, {@code init}
 * documents them and {@code doctor} checks them, so the channel module alone owns its config (ARCHITECTURE: a new
 * channel is one module).
 *
 * @param key lower-case letters, digits and _, e.g. {@code bot_token}
 * @param type how the loader reads the value ({@code ${ENV}} references are expanded in strings)
 * @param defaultValue what the channel uses when the key is unset, as it would be written; null when there is none
 * @param secret the value is a credential: written as an {@code ${ENV}} reference in examples, never shown
 * @param description one line for {@code init}'s starter config
 */
public record ChannelOption(String key, Type type, String defaultValue, boolean secret, String description) {
    private static final Pattern KEY = Pattern.compile("[a-z][a-z0-9_]*");

    /**
     * How a value is written in the config file. A {@code LIST} is an array of strings in the file ({@code rooms =
     * ["a", "b"]}); the channel's settings hold its items joined by commas, so an item holding a comma is refused by
     * the loader.
     */
    public enum Type {
        STRING,
        INTEGER,
        BOOLEAN,
        LIST
    }

    public ChannelOption {
        Objects.requireNonNull(key, "key");
        if (!KEY.matcher(key).matches())
            throw new IllegalArgumentException("option key '" + key + "' must use lower-case letters, digits and _");
        Objects.requireNonNull(type, "type");
        description = description == null ? "" : description;
        if (secret && type != Type.STRING)
            throw new IllegalArgumentException("option " + key + ": only a string can be a secret");
    }

    public static ChannelOption string(String key, String description) {
        return new ChannelOption(key, Type.STRING, null, false, description);
    }

    public static ChannelOption integer(String key, String description) {
        return new ChannelOption(key, Type.INTEGER, null, false, description);
    }

    public static ChannelOption bool(String key, String description) {
        return new ChannelOption(key, Type.BOOLEAN, null, false, description);
    }

    /** An array of strings, handed to the channel joined by commas. */
    public static ChannelOption list(String key, String description) {
        return new ChannelOption(key, Type.LIST, null, false, description);
    }

    /** This option with a default value, as it would be written in the file (a number, true, or a string's text). */
    public ChannelOption withDefault(Object value) {
        return new ChannelOption(key, type, value == null ? null : value.toString(), secret, description);
    }

    /** This option, marked a credential (SPEC OP-6). */
    public ChannelOption asSecret() {
        return new ChannelOption(key, type, defaultValue, true, description);
    }
}
