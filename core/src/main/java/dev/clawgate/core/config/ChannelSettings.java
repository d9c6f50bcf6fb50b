package dev.clawgate.core.config;

import java.util.Map;

/**
 * {@code [channels.<name>]}: the access rules every channel shares, per account overrides, and the channel's own keys
 * (read by the channel module).
 *
 * @param accounts {@code [channels.<name>.accounts.<id>]}: the access rules of that account (keys it does not set are
 *     taken from the channel)
 * @param options the channel's own keys, e.g. {@code bot_token}, as strings
 * @param accountOptions the channel's own keys each account sets itself (a second bot's {@code bot_token}); what an
 *     account does not set, the channel module may take from {@code options}
 * @param output how the channel's replies are shaped: threading, prefix, block streaming
 */
public record ChannelSettings(
        String name,
        AccessSettings access,
        Map<String, AccessSettings> accounts,
        Map<String, String> options,
        Map<String, Map<String, String>> accountOptions,
        ChannelOutput output) {
    public ChannelSettings {
        output = output == null ? ChannelOutput.defaults() : output;
        accounts = accounts == null ? Map.of() : Map.copyOf(accounts);
        options = options == null ? Map.of() : Map.copyOf(options);
        Map<String, Map<String, String>> copy = new java.util.LinkedHashMap<>();
        if (accountOptions != null) accountOptions.forEach((k, v) -> copy.put(k, Map.copyOf(v)));
        accountOptions = java.util.Collections.unmodifiableMap(copy);
    }

    public ChannelSettings(
            String name,
            AccessSettings access,
            Map<String, AccessSettings> accounts,
            Map<String, String> options,
            Map<String, Map<String, String>> accountOptions) {
        this(name, access, accounts, options, accountOptions, ChannelOutput.defaults());
    }

    public ChannelSettings(
            String name, AccessSettings access, Map<String, AccessSettings> accounts, Map<String, String> options) {
        this(name, access, accounts, options, Map.of());
    }

    public AccessSettings accessFor(String account) {
        return accounts.getOrDefault(account, access);
    }

    /** Option values can be secrets (a bot token, a signing secret), so only their keys are shown (SPEC OP-6). */
    @Override
    public String toString() {
        Map<String, java.util.Set<String>> accountKeys = new java.util.LinkedHashMap<>();
        accountOptions.forEach((id, o) -> accountKeys.put(id, o.keySet()));
        return "ChannelSettings[name=" + name + ", access=" + access + ", accounts=" + accounts.keySet() + ", options="
                + options.keySet() + ", accountOptions=" + accountKeys + ", output=" + output + "]";
    }
}
