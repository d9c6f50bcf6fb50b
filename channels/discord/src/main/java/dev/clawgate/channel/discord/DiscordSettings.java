package dev.clawgate.channel.discord;

import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.model.InboundMessage;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads the bots of {@code [channels.discord]}: the table itself is account {@code default} when it sets
 * {@code bot_token}; each {@code [channels.discord.accounts.<id>]} is another bot, which sets its own token and takes
 * every other key it does not set from the channel table.
 */
final class DiscordSettings {
    static final String DEFAULT_API_BASE = "https://discord.com/api/v10";

    private DiscordSettings() {}

    static List<DiscordAccount> accounts(ChannelSettings settings) {
        return read(settings, true);
    }

    /**
     * Checks the values the tables set (SPEC CH-5, OP-4); a missing token is not an error here: a config may be written
     * before it is known, and {@code run} and {@code doctor} say what is missing.
     *
     * @throws IllegalArgumentException whose message starts with the key path
     */
    static void check(ChannelSettings settings) {
        read(settings, false);
    }

    private static List<DiscordAccount> read(ChannelSettings settings, boolean complete) {
        String prefix = "channels." + settings.name();
        List<DiscordAccount> out = new ArrayList<>();
        Map<String, String> base = settings.options();
        if (base.containsKey("bot_token")
                || (!complete && settings.accountOptions().isEmpty())) {
            out.add(account(InboundMessage.DEFAULT_ACCOUNT, base, prefix, prefix, base, complete));
        }
        for (var e : settings.accountOptions().entrySet()) {
            Map<String, String> merged = new LinkedHashMap<>(base);
            merged.remove("bot_token"); // a token belongs to one bot: an account never inherits it
            merged.putAll(e.getValue());
            out.add(account(e.getKey(), merged, prefix + ".accounts." + e.getKey(), prefix, e.getValue(), complete));
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(prefix
                    + ".bot_token is missing; set the bot's token (Developer Portal, Bot, "
                    + "Reset Token), e.g. bot_token = \"${DISCORD_BOT_TOKEN}\"");
        }
        Set<String> tokens = new HashSet<>();
        for (DiscordAccount a : out) {
            if (a.botToken() != null && !tokens.add(a.botToken())) {
                throw new IllegalArgumentException(prefix + ": two accounts use the same bot_token");
            }
        }
        return List.copyOf(out);
    }

    private static DiscordAccount account(
            String id, Map<String, String> o, String table, String channel, Map<String, String> own, boolean complete) {
        Function<String, String> at = key -> (own.containsKey(key) ? table : channel) + "." + key;
        String token = trimmed(o.get("bot_token"));
        if (complete && token == null) {
            throw new IllegalArgumentException(table
                    + ".bot_token is missing; set the bot's token (Developer Portal, Bot, Reset Token), "
                    + "e.g. bot_token = \"${DISCORD_" + envName(id) + "BOT_TOKEN}\"");
        }
        if (token != null && (token.regionMatches(true, 0, "Bot ", 0, 4) || token.contains(" "))) {
            // the value is a secret: never repeated in the error
            throw new IllegalArgumentException(
                    at.apply("bot_token") + " must be the token alone, without \"Bot \" or spaces");
        }
        URI apiBase = url(o.getOrDefault("api_base", DEFAULT_API_BASE), at.apply("api_base"), "http", "https");
        String gw = trimmed(o.get("gateway_url"));
        URI gatewayUrl = gw == null ? null : url(gw, at.apply("gateway_url"), "ws", "wss");
        boolean content = bool(o, "message_content", true, at);
        int limit = integer(o, "text_limit", DiscordAccount.MAX_TEXT, at.apply("text_limit"));
        if (limit < 16 || limit > DiscordAccount.MAX_TEXT) {
            throw new IllegalArgumentException(
                    at.apply("text_limit") + " must be between 16 and " + DiscordAccount.MAX_TEXT + ", got " + limit);
        }
        boolean preview = switch (o.getOrDefault("stream_mode", "off").strip()) {
            case "off" -> false;
            case "preview" -> true;
            default ->
                throw new IllegalArgumentException(at.apply("stream_mode")
                        + " must be \"off\" or \"preview\", got \""
                        + o.get("stream_mode") + "\"");
        };
        boolean reactions = bool(o, "ack_reactions", false, at);
        return new DiscordAccount(id, token, apiBase, gatewayUrl, content, limit, reactions, preview);
    }

    private static boolean bool(Map<String, String> o, String key, boolean fallback, Function<String, String> at) {
        String v = o.get(key);
        if (v == null) return fallback;
        return switch (v.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(at.apply(key) + " must be true or false, got \"" + v + "\"");
        };
    }

    private static String envName(String id) {
        return InboundMessage.DEFAULT_ACCOUNT.equals(id)
                ? ""
                : id.toUpperCase(Locale.ROOT).replace('-', '_') + "_";
    }

    private static String trimmed(String v) {
        return v == null || v.isBlank() ? null : v.strip();
    }

    private static int integer(Map<String, String> o, String key, int fallback, String path) {
        String v = o.get(key);
        if (v == null) return fallback;
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(path + " must be a whole number, got \"" + v + "\"");
        }
    }

    private static URI url(String raw, String keyPath, String plain, String secure) {
        try {
            URI u = new URI(raw.strip().replaceAll("/+$", ""));
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals(plain) || scheme.equals(secure)) && u.getHost() != null) return u;
        } catch (URISyntaxException bad) {
            // reported below
        }
        throw new IllegalArgumentException(
                keyPath + " must be a " + plain + "(s) URL with a host, got \"" + raw + "\"");
    }
}
