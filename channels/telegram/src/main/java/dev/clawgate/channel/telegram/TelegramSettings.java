package dev.clawgate.channel.telegram;

import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.model.InboundMessage;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the bots of {@code [channels.telegram]}: the table itself is account {@code default} when it sets
 * {@code bot_token}; each {@code [channels.telegram.accounts.<id>]} is another bot, which must set its own
 * {@code bot_token} and takes every other key it does not set from the channel table.
 */
final class TelegramSettings {
    static final String DEFAULT_API_BASE = "https://api.telegram.org";
    static final String DEFAULT_PATH = "/webhooks/telegram";
    static final Duration DEFAULT_PREVIEW_INTERVAL = Duration.ofSeconds(1);
    private static final long MB = 1024L * 1024;
    private static final Pattern TOKEN = Pattern.compile("\\d+:[A-Za-z0-9_-]+");
    private static final Pattern SECRET = Pattern.compile("[A-Za-z0-9_-]{1,256}");

    private TelegramSettings() {}

    static List<TelegramAccount> accounts(ChannelSettings settings) {
        return read(settings, true);
    }

    /**
     * Checks the values the tables set, as the config loader does (SPEC CH-3): a bad {@code mode},
     * {@code webhook_secret}, {@code text_limit}, ... is an error naming its key. A missing {@code bot_token} is not: a
     * config may hold the access keys before the token is known, and {@code clawgate run} and {@code doctor} say what
     * is missing.
     *
     * @throws IllegalArgumentException whose message starts with the key path
     */
    static void check(ChannelSettings settings) {
        read(settings, false);
    }

    private static List<TelegramAccount> read(ChannelSettings settings, boolean complete) {
        String prefix = "channels." + settings.name();
        List<TelegramAccount> out = new ArrayList<>();
        Map<String, String> base = settings.options();
        if (base.containsKey("bot_token")
                || (!complete && settings.accountOptions().isEmpty())) {
            out.add(account(InboundMessage.DEFAULT_ACCOUNT, base, new KeyPath(prefix, prefix, base)));
        }
        for (var e : settings.accountOptions().entrySet()) {
            String path = prefix + ".accounts." + e.getKey();
            if (complete && !e.getValue().containsKey("bot_token")) {
                throw new IllegalArgumentException(
                        path + ".bot_token is missing; each account is its own bot, " + "e.g. bot_token = \"${TELEGRAM_"
                                + e.getKey().toUpperCase(Locale.ROOT).replace('-', '_') + "_TOKEN}\"");
            }
            Map<String, String> merged = new LinkedHashMap<>(base);
            merged.remove("webhook_path");
            if (!e.getValue().containsKey("bot_token")) merged.remove("bot_token");
            merged.putAll(e.getValue());
            out.add(account(e.getKey(), merged, new KeyPath(path, prefix, e.getValue())));
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(prefix + ".bot_token is missing; set the token @BotFather gave, "
                    + "e.g. bot_token = \"${TELEGRAM_BOT_TOKEN}\"");
        }
        Set<String> tokens = new HashSet<>(), paths = new HashSet<>();
        for (TelegramAccount a : out) {
            if (a.botToken() != null && !tokens.add(a.botToken())) {
                throw new IllegalArgumentException(
                        prefix + ": two accounts use the same bot_token; each bot can be polled once");
            }
            if (a.mode() == TelegramAccount.Mode.WEBHOOK && !paths.add(a.webhookPath())) {
                throw new IllegalArgumentException(prefix + ": two accounts use webhook_path " + a.webhookPath());
            }
        }
        return List.copyOf(out);
    }

    /**
     * One bot's settings; {@code at} names where a key is set (the account's table, or the channel's it inherits from),
     * so an error points at the line to fix.
     */
    private static TelegramAccount account(String id, Map<String, String> o, KeyPath at) {
        String token = o.get("bot_token") == null ? null : o.get("bot_token").strip();
        if (token != null && !TOKEN.matcher(token).matches()) {
            throw new IllegalArgumentException(at.of("bot_token")
                    + " does not look like a bot token (digits, a colon, then letters); " + "copy it from @BotFather");
        }
        URI apiBase = url(o.getOrDefault("api_base", DEFAULT_API_BASE), at.of("api_base"));
        TelegramAccount.Mode mode = switch (o.getOrDefault("mode", "polling").strip()) {
            case "polling" -> TelegramAccount.Mode.POLLING;
            case "webhook" -> TelegramAccount.Mode.WEBHOOK;
            default ->
                throw new IllegalArgumentException(
                        at.of("mode") + " must be \"polling\" or \"webhook\", got \"" + o.get("mode") + "\"");
        };
        String url = o.get("webhook_url");
        String secret = o.get("webhook_secret");
        String webhookPath = o.getOrDefault(
                        "webhook_path",
                        InboundMessage.DEFAULT_ACCOUNT.equals(id) ? DEFAULT_PATH : DEFAULT_PATH + "/" + id)
                .strip();
        if (mode == TelegramAccount.Mode.WEBHOOK) {
            if (url == null || url.isBlank())
                throw new IllegalArgumentException(at.missing("webhook_url") + " is missing; mode = \"webhook\" needs "
                        + "the public HTTPS URL Telegram posts to, e.g. \"https://bot.example.com" + webhookPath
                        + "\"");
            url(url, at.of("webhook_url"));
            if (secret == null || !SECRET.matcher(secret).matches()) {
                // the value is a secret: never repeated in the error
                throw new IllegalArgumentException(
                        (secret == null ? at.missing("webhook_secret") : at.of("webhook_secret")) + " is "
                                + (secret == null ? "missing" : "invalid")
                                + "; mode = \"webhook\" requires 1-256 characters of A-Z, a-z, 0-9, _ and -, e.g. "
                                + "\"${TELEGRAM_WEBHOOK_SECRET}\"");
            }
            if (!webhookPath.startsWith("/") || webhookPath.contains("?") || webhookPath.contains(" ")) {
                throw new IllegalArgumentException(
                        at.of("webhook_path") + " must be an absolute URL path such as " + DEFAULT_PATH);
            }
        }
        int limit = integer(o, "text_limit", TelegramAccount.MAX_TEXT, at);
        if (limit < 16 || limit > TelegramAccount.MAX_TEXT) {
            throw new IllegalArgumentException(
                    at.of("text_limit") + " must be between 16 and " + TelegramAccount.MAX_TEXT + ", got " + limit);
        }
        boolean preview = switch (o.getOrDefault("stream_mode", "off").strip()) {
            case "off" -> false;
            case "preview" -> true;
            default ->
                throw new IllegalArgumentException(
                        at.of("stream_mode") + " must be \"off\" or \"preview\", got \"" + o.get("stream_mode") + "\"");
        };
        boolean reactions =
                Boolean.parseBoolean(o.getOrDefault("ack_reactions", "false").strip());
        int intervalMs = integer(o, "preview_interval_ms", (int) DEFAULT_PREVIEW_INTERVAL.toMillis(), at);
        if (intervalMs < 0) throw new IllegalArgumentException(at.of("preview_interval_ms") + " must be zero or more");
        AckPolicy ack =
                switch (o.getOrDefault("ack_policy", "after_receive_record").strip()) {
                    case "after_receive_record" -> AckPolicy.AFTER_RECEIVE_RECORD;
                    case "after_durable_send" -> AckPolicy.AFTER_DURABLE_SEND;
                    default ->
                        throw new IllegalArgumentException(
                                at.of("ack_policy") + " must be \"after_receive_record\" or \"after_durable_send\", "
                                        + "got \"" + o.get("ack_policy") + "\"");
                };
        if (ack == AckPolicy.AFTER_DURABLE_SEND && mode == TelegramAccount.Mode.WEBHOOK) {
            // SPEC IN-3: a webhook's answer cannot wait for the turn; Telegram would time out and resend
            throw new IllegalArgumentException(
                    at.of("ack_policy") + " = \"after_durable_send\" needs mode = \"polling\"; a webhook is "
                            + "answered once the update is recorded (after_receive_record)");
        }
        int maxAgeHours = integer(o, "media_max_age_hours", (int) TelegramAccount.DEFAULT_MEDIA_MAX_AGE.toHours(), at);
        if (maxAgeHours < 1)
            throw new IllegalArgumentException(at.of("media_max_age_hours") + " must be 1 or more, got " + maxAgeHours);
        int maxMb = integer(o, "media_max_total_mb", (int) (TelegramAccount.DEFAULT_MEDIA_MAX_BYTES / MB), at);
        if (maxMb < 1)
            throw new IllegalArgumentException(at.of("media_max_total_mb") + " must be 1 or more, got " + maxMb);
        return new TelegramAccount(
                id,
                token,
                apiBase,
                mode,
                url,
                secret,
                webhookPath,
                limit,
                preview,
                reactions,
                Duration.ofMillis(intervalMs),
                ack,
                Duration.ofHours(maxAgeHours),
                maxMb * MB);
    }

    /**
     * Where an account's keys are: {@code table} is its own ({@code channels.telegram} or
     * {@code channels.telegram.accounts.<id>}); a key it does not set comes from {@code channels.telegram}.
     */
    private record KeyPath(String table, String channel, Map<String, String> own) {
        /** The full path of a key that is set, as the config file has it. */
        String of(String key) {
            return (own.containsKey(key) ? table : channel) + "." + key;
        }

        /** Where a missing key belongs: the account's own table. */
        String missing(String key) {
            return table + "." + key;
        }
    }

    private static int integer(Map<String, String> o, String key, int fallback, KeyPath at) {
        String v = o.get(key);
        if (v == null) return fallback;
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(at.of(key) + " must be a whole number, got \"" + v + "\"");
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
