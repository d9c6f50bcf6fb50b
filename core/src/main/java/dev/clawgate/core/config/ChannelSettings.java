package dev.clawgate.core.config;

import java.util.Map;

/**
 * {@code [channels.<name>]}: the access rules every channel shares, per account overrides, and
 * the channel's own keys (read by the channel module).
 *
 * @param accounts {@code [channels.<name>.accounts.<id>]}: the access rules of that account
 *                 (keys it does not set are taken from the channel)
 * @param options  the channel's own keys, e.g. {@code bot_token}, as strings
 */
public record ChannelSettings(String name, AccessSettings access, Map<String, AccessSettings> accounts, Map<String, String> options) {
    public ChannelSettings {
        accounts = accounts == null ? Map.of() : Map.copyOf(accounts);
        options = options == null ? Map.of() : Map.copyOf(options);
    }

    public AccessSettings accessFor(String account) {
        return accounts.getOrDefault(account, access);
    }
}
