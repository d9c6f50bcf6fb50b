package dev.clawgate.channel.telegram;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.config.ChannelSettings;
import java.nio.file.Path;
import java.util.List;

/** Found by {@link java.util.ServiceLoader}: builds the Telegram channel from {@code [channels.telegram]}. */
public final class TelegramChannelFactory implements ChannelFactory {
    @Override
    public String name() {
        return TelegramChannel.NAME;
    }

    /** Without a data dir, downloaded media go under {@code ./data}. */
    @Override
    public Channel create(ChannelSettings settings) {
        return create(settings, Path.of("data"));
    }

    @Override
    public Channel create(ChannelSettings settings, Path dataDir) {
        return new TelegramChannel(TelegramSettings.accounts(settings), dataDir);
    }

    /**
     * SPEC CH-3: the keys of {@code [channels.telegram]} and of each {@code [channels.telegram.accounts.<id>]} (one bot
     * each).
     */
    @Override
    public List<ChannelOption> options() {
        return List.of(
                ChannelOption.string("bot_token", "The token @BotFather gave the bot.")
                        .asSecret(),
                ChannelOption.string("api_base", "The Bot API server (a local one, or a test double).")
                        .withDefault(TelegramSettings.DEFAULT_API_BASE),
                ChannelOption.string("mode", "How updates arrive: polling (getUpdates) or webhook.")
                        .withDefault("polling"),
                ChannelOption.string("webhook_url", "mode = \"webhook\": the public HTTPS URL Telegram posts to."),
                ChannelOption.string(
                                "webhook_secret", "mode = \"webhook\": checked against Telegram's secret-token header.")
                        .asSecret(),
                ChannelOption.string("webhook_path", "mode = \"webhook\": the path mounted on the gateway's HTTP port.")
                        .withDefault(TelegramSettings.DEFAULT_PATH),
                ChannelOption.integer("text_limit", "The longest message sent, in UTF-16 units as Telegram counts.")
                        .withDefault(TelegramAccount.MAX_TEXT),
                ChannelOption.string("stream_mode", "off, or preview: a draft edited while the reply is generated.")
                        .withDefault("off"),
                ChannelOption.integer("preview_interval_ms", "The least time between two edits of a preview.")
                        .withDefault(TelegramSettings.DEFAULT_PREVIEW_INTERVAL.toMillis()),
                ChannelOption.bool("ack_reactions", "React to each message: received, then done or failed.")
                        .withDefault(false),
                ChannelOption.string(
                                "ack_policy",
                                "When Telegram is told an update was taken: after_receive_record or "
                                        + "after_durable_send (polling only).")
                        .withDefault("after_receive_record"),
                ChannelOption.integer("media_max_age_hours", "Downloaded media older than this are deleted.")
                        .withDefault(TelegramAccount.DEFAULT_MEDIA_MAX_AGE.toHours()),
                ChannelOption.integer("media_max_total_mb", "The most disk downloaded media may take.")
                        .withDefault(TelegramAccount.DEFAULT_MEDIA_MAX_BYTES / (1024 * 1024)));
    }

    /**
     * Checks the values {@code [channels.telegram]} and its accounts set (SPEC CH-3), for the config loader: a bad
     * value is an error whose message starts with its key path. A missing {@code bot_token} is left to {@link #create}
     * and {@code doctor}.
     *
     * @throws IllegalArgumentException naming the key
     */
    @Override
    public void check(ChannelSettings settings) {
        TelegramSettings.check(settings);
    }

    /** {@code getMe} per bot: the token and the route to {@code api_base} (SPEC OP-4, CH-0). */
    @Override
    public dev.clawgate.core.channel.ChannelProbe probe(ChannelSettings settings) {
        return TelegramProbe.probe(settings);
    }
}
