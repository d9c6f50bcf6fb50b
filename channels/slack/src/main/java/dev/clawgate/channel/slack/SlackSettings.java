package dev.clawgate.channel.slack;

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

/**
 * Reads the apps of {@code [channels.slack]}: the table itself is account {@code default} when it sets
 * {@code bot_token}; each {@code [channels.slack.accounts.<id>]} is another app, which sets its own tokens and takes
 * every other key it does not set from the channel table.
 */
final class SlackSettings {
    static final String DEFAULT_API_BASE = "https://slack.com/api";
    static final String DEFAULT_PATH = "/webhooks/slack";

    private SlackSettings() {}

    static List<SlackAccount> accounts(ChannelSettings settings) {
        return read(settings, true);
    }

    /**
     * Checks the values the tables set (SPEC CH-4, OP-4): a bad {@code mode}, {@code text_limit},
     * {@code stream_mode}... is an error naming its key. Missing tokens are not: a config may be written before they
     * are known; {@code run} and {@code doctor} say what is missing.
     *
     * @throws IllegalArgumentException whose message starts with the key path
     */
    static void check(ChannelSettings settings) {
        read(settings, false);
    }

    private static List<SlackAccount> read(ChannelSettings settings, boolean complete) {
        String prefix = "channels." + settings.name();
        List<SlackAccount> out = new ArrayList<>();
        Map<String, String> base = settings.options();
        if (base.containsKey("bot_token")
                || (!complete && settings.accountOptions().isEmpty())) {
            out.add(account(InboundMessage.DEFAULT_ACCOUNT, base, prefix, prefix, base, complete));
        }
        for (var e : settings.accountOptions().entrySet()) {
            String path = prefix + ".accounts." + e.getKey();
            Map<String, String> merged = new LinkedHashMap<>(base);
            // the tokens and the path belong to one app: an account never inherits them
            for (String own : List.of("bot_token", "signing_secret", "app_token", "webhook_path")) merged.remove(own);
            merged.putAll(e.getValue());
            out.add(account(e.getKey(), merged, path, prefix, e.getValue(), complete));
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(prefix + ".bot_token is missing; set the app's bot token (xoxb-...), "
                    + "e.g. bot_token = \"${SLACK_BOT_TOKEN}\"");
        }
        Set<String> tokens = new HashSet<>(), paths = new HashSet<>();
        for (SlackAccount a : out) {
            if (a.botToken() != null && !tokens.add(a.botToken())) {
                throw new IllegalArgumentException(prefix + ": two accounts use the same bot_token");
            }
            if (a.mode() == SlackAccount.Mode.EVENTS && !paths.add(a.webhookPath())) {
                throw new IllegalArgumentException(prefix + ": two accounts use webhook_path " + a.webhookPath());
            }
        }
        return List.copyOf(out);
    }

    private static SlackAccount account(
            String id, Map<String, String> o, String table, String channel, Map<String, String> own, boolean complete) {
        java.util.function.Function<String, String> at = key -> (own.containsKey(key) ? table : channel) + "." + key;
        String token = trimmed(o.get("bot_token"));
        if (complete && token == null) {
            throw new IllegalArgumentException(table + ".bot_token is missing; set the app's bot token (xoxb-...), "
                    + "e.g. bot_token = \"${SLACK_" + envName(id) + "BOT_TOKEN}\"");
        }
        if (token != null && !token.startsWith("xoxb-")) {
            // the value is a secret: never repeated in the error
            throw new IllegalArgumentException(
                    at.apply("bot_token") + " does not look like a bot token (it starts with xoxb-); "
                            + "copy it from the app's OAuth & Permissions page");
        }
        SlackAccount.Mode mode = switch (o.getOrDefault("mode", "events").strip()) {
            case "events" -> SlackAccount.Mode.EVENTS;
            case "socket" -> SlackAccount.Mode.SOCKET;
            default ->
                throw new IllegalArgumentException(
                        at.apply("mode") + " must be \"events\" or \"socket\", got \"" + o.get("mode") + "\"");
        };
        String secret = trimmed(o.get("signing_secret"));
        String appToken = trimmed(o.get("app_token"));
        if (mode == SlackAccount.Mode.EVENTS && complete && secret == null) {
            throw new IllegalArgumentException(
                    table + ".signing_secret is missing; mode = \"events\" verifies every request with the "
                            + "app's signing secret (Basic Information page), e.g. signing_secret = \"${SLACK_"
                            + envName(id) + "SIGNING_SECRET}\"");
        }
        if (mode == SlackAccount.Mode.SOCKET && complete && appToken == null) {
            throw new IllegalArgumentException(
                    table + ".app_token is missing; mode = \"socket\" opens its connections with an "
                            + "app-level token (xapp-...), e.g. app_token = \"${SLACK_" + envName(id) + "APP_TOKEN}\"");
        }
        if (appToken != null && !appToken.startsWith("xapp-")) {
            throw new IllegalArgumentException(
                    at.apply("app_token") + " does not look like an app-level token (it starts with xapp-)");
        }
        URI apiBase = url(o.getOrDefault("api_base", DEFAULT_API_BASE), at.apply("api_base"));
        String webhookPath = o.getOrDefault(
                        "webhook_path",
                        InboundMessage.DEFAULT_ACCOUNT.equals(id) ? DEFAULT_PATH : DEFAULT_PATH + "/" + id)
                .strip();
        if (!webhookPath.startsWith("/") || webhookPath.contains("?") || webhookPath.contains(" ")) {
            throw new IllegalArgumentException(
                    at.apply("webhook_path") + " must be an absolute URL path such as " + DEFAULT_PATH);
        }
        int limit = integer(o, "text_limit", SlackAccount.MAX_TEXT, at.apply("text_limit"));
        if (limit < 16 || limit > SlackAccount.MAX_TEXT) {
            throw new IllegalArgumentException(
                    at.apply("text_limit") + " must be between 16 and " + SlackAccount.MAX_TEXT + ", got " + limit);
        }
        boolean preview = switch (o.getOrDefault("stream_mode", "off").strip()) {
            case "off" -> false;
            case "preview" -> true;
            default ->
                throw new IllegalArgumentException(at.apply("stream_mode") + " must be \"off\" or \"preview\", got \""
                        + o.get("stream_mode") + "\"");
        };
        String reactions = o.getOrDefault("ack_reactions", "false").strip().toLowerCase(Locale.ROOT);
        if (!reactions.equals("true") && !reactions.equals("false")) {
            throw new IllegalArgumentException(
                    at.apply("ack_reactions") + " must be true or false, got \"" + o.get("ack_reactions") + "\"");
        }
        String timeoutKey = at.apply("api_timeout_secs");
        int timeout = integer(o, "api_timeout_secs", (int) SlackAccount.CALL_TIMEOUT.toSeconds(), timeoutKey);
        if (timeout < 1 || timeout > 300) {
            throw new IllegalArgumentException(timeoutKey + " must be between 1 and 300, got " + timeout);
        }
        return new SlackAccount(
                id,
                token,
                secret,
                appToken,
                mode,
                apiBase,
                webhookPath,
                limit,
                reactions.equals("true"),
                java.time.Duration.ofSeconds(timeout),
                preview);
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

    private static URI url(String raw, String keyPath) {
        try {
            URI u = new URI(raw.strip().replaceAll("/+$", ""));
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && u.getHost() != null) return u;
        } catch (URISyntaxException bad) {
            // reported below
        }
        throw new IllegalArgumentException(keyPath + " must be an http(s) URL with a host, got \"" + raw + "\"");
    }
}
