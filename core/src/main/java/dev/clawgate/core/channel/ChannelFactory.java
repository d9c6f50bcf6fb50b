package dev.clawgate.core.channel;

import dev.clawgate.core.config.ChannelSettings;

/**
 * Builds a {@link Channel} from its {@code [channels.<name>]} table. Channel modules register one with
 * {@link java.util.ServiceLoader}, so the server starts every channel it finds configured without naming it
 * (ARCHITECTURE: SPIs).
 */
public interface ChannelFactory {
    /** The channel name, as in {@code [channels.<name>]}. */
    String name();

    /**
     * The keys this channel adds to {@code [channels.<name>]} and its accounts' tables, beside the access and reply
     * keys every channel has: the config loader accepts exactly these (an unknown key is an error naming the nearest),
     * {@code init} documents them, {@code doctor} checks them. None by default.
     */
    default java.util.List<ChannelOption> options() {
        return java.util.List.of();
    }

    /**
     * Checks the values the loader read for this channel (a mode that must be one of a few words, a number in range,
     * keys that go together): a bad one throws {@link IllegalArgumentException} whose message starts with the key's
     * full path, e.g. {@code channels.<name>.mode must be ...}. A missing credential is left to {@link #create} and
     * {@link #probe}: a config may be written before the token is known. Nothing to check by default.
     */
    default void check(ChannelSettings settings) {}

    /**
     * A channel for these settings; its own keys are in {@link ChannelSettings#options()}.
     *
     * @throws IllegalArgumentException when a key is missing or invalid, naming the key
     */
    Channel create(ChannelSettings settings);

    /**
     * As {@link #create(ChannelSettings)}, for a channel that keeps files (downloaded media) under the gateway's data
     * dir; the default ignores it.
     */
    default Channel create(ChannelSettings settings, java.nio.file.Path dataDir) {
        return create(settings);
    }

    /**
     * Checks that a channel with these settings could work, for {@code clawgate doctor} (SPEC OP-4, CH-0): the default
     * only checks that the settings are complete; a module that can reach its platform cheaply (a "who am I" call)
     * overrides this. Starts no listener and writes no file.
     */
    default ChannelProbe probe(ChannelSettings settings) {
        try {
            create(settings);
            return ChannelProbe.ok("settings are complete");
        } catch (IllegalArgumentException e) {
            return ChannelProbe.problem(
                    e.getMessage(), "set the key the message names in [channels." + settings.name() + "]");
        }
    }
}
