package dev.clawgate.server.config;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GroupPolicy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads {@code [channels.<name>]} and {@code [channels.<name>.accounts.<id>]} (SPEC IN-5): the access keys, where an
 * account takes every key it does not set from its channel, the channel's own keys ({@link ChannelKeys}) as strings,
 * and how its replies are shaped ({@link OutputSection}).
 */
final class ChannelSection {
    private static final Logger log = LoggerFactory.getLogger(ChannelSection.class);

    private ChannelSection() {}

    static Map<String, ChannelSettings> read(TableReader root, ChannelKeys channelKeys) {
        Map<String, ChannelSettings> out = new LinkedHashMap<>();
        TableReader channels = root.table("channels");
        for (var entry : root.namedTables("channels").entrySet()) {
            String name = entry.getKey();
            checkName(channels, name);
            out.put(name, channel(name, entry.getValue(), channelKeys));
        }
        return out;
    }

    /** Channel names appear in session keys and in {@code channel:sender} ids, so they are plain words. */
    static void checkName(TableReader table, String name) {
        if (!ConfigSchema.isPlainName(name)) {
            throw table.error(
                    table.keyPath(name.isEmpty() ? "\"\"" : name),
                    "is not a channel name; use only letters, digits, - and _");
        }
    }

    private static ChannelSettings channel(String name, TableReader t, ChannelKeys channelKeys) {
        AccessSettings access = access(t, AccessSettings.defaults());
        warnIfOpenToTheListOnly(t, access);
        Map<String, AccessSettings> accounts = new LinkedHashMap<>();
        Map<String, Map<String, String>> accountOptions = new LinkedHashMap<>();
        TableReader accountTables = t.table("accounts");
        for (var entry : t.namedTables("accounts").entrySet()) {
            if (entry.getKey().isBlank()) {
                throw accountTables.error(
                        accountTables.path() + ".\"" + entry.getKey() + "\"", "is not an account id; name the account");
            }
            TableReader a = entry.getValue();
            AccessSettings own = access(a, access);
            if (a.has("dm_policy") || a.has("allowed_users")) warnIfOpenToTheListOnly(a, own);
            accounts.put(entry.getKey(), own);
            accountOptions.put(entry.getKey(), options(a, channelKeys.keysOf(name)));
        }
        ChannelSettings settings = new ChannelSettings(
                name, access, accounts, options(t, channelKeys.keysOf(name)), accountOptions, OutputSection.read(t));
        try {
            channelKeys.check(settings);
        } catch (IllegalArgumentException e) {
            throw valueError(e.getMessage(), t.file());
        }
        return settings;
    }

    /**
     * A channel's own check names the key first ({@code channels.telegram.mode must be ...}): shown as the loader's
     * other errors.
     */
    static ConfigException valueError(String message, String file) {
        int space = message.indexOf(' ');
        if (message.startsWith("channels.")
                && space > 0
                && !message.substring(0, space).endsWith(":")) {
            return new ConfigException("'" + message.substring(0, space) + "' in " + file + message.substring(space));
        }
        return new ConfigException(message + " (in " + file + ")");
    }

    /** The channel's own keys one table sets, as strings; a list's items joined by commas. */
    private static Map<String, String> options(TableReader t, Iterable<String> keys) {
        Map<String, String> options = new LinkedHashMap<>();
        for (String key : keys) {
            String value = t.isList(key) ? t.joinedList(key) : t.text(key);
            if (value != null) options.put(key, value);
        }
        return options;
    }

    /** The access keys of one table; a key it does not set takes the {@code inherited} value. */
    private static AccessSettings access(TableReader t, AccessSettings inherited) {
        return new AccessSettings(
                t.choice(
                        "dm_policy",
                        inherited.dmPolicy(),
                        DmPolicy::parse,
                        "a DM policy",
                        "open, allowlist, pairing, disabled"),
                ids(t, "allowed_users", inherited.allowedUsers()),
                t.choice(
                        "group_policy",
                        inherited.groupPolicy(),
                        GroupPolicy::parse,
                        "a group policy",
                        "open, allowlist, disabled"),
                ids(t, "allowed_groups", inherited.allowedGroups()),
                t.bool("require_mention", inherited.requireMention()));
    }

    private static List<String> ids(TableReader t, String key, List<String> inherited) {
        List<String> ids = t.strings(key, inherited);
        for (int i = 0; i < ids.size(); i++) {
            if (ids.get(i).isBlank())
                throw t.error(t.keyPath(key) + "[" + i + "]", "is empty; list ids, or \"*\" for anyone");
        }
        return ids;
    }

    /**
     * SPEC IN-5: open admits anyone only with "*" listed; a list alone is a likely surprise, enforced later, said now.
     */
    private static void warnIfOpenToTheListOnly(TableReader t, AccessSettings access) {
        if (access.dmPolicy() != DmPolicy.OPEN || access.allowedUsers().contains("*")) return;
        log.warn(
                "[{}] in {} has dm_policy = \"open\" without \"*\" in allowed_users, so it admits only the listed "
                        + "users{}; "
                        + "add \"*\" to allowed_users to admit anyone",
                t.path(),
                t.file(),
                access.allowedUsers().isEmpty() ? " (none are listed)" : "");
    }
}
