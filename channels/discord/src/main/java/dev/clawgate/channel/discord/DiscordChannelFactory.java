package dev.clawgate.channel.discord;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.ChannelSettings;
import java.nio.file.Path;
import java.util.List;

/**
 * Found by {@link java.util.ServiceLoader}: builds the Discord channel from {@code [channels.discord]}. The access keys
 * ({@code dm_policy}, {@code group_policy}, {@code allowed_users}, {@code allowed_groups}, {@code require_mention}) are
 * every channel's and read by the server; these are Discord's own.
 */
public final class DiscordChannelFactory implements ChannelFactory {
    @Override
    public String name() {
        return DiscordChannel.NAME;
    }

    @Override
    public Channel create(ChannelSettings settings) {
        return new DiscordChannel(DiscordSettings.accounts(settings));
    }

    /**
     * As {@link #create(ChannelSettings)}, keeping Gateway sessions and the nonce log under the data dir across
     * restarts (IN-4, OUT-7).
     */
    @Override
    public Channel create(ChannelSettings settings, Path dataDir) {
        return new DiscordChannel(DiscordSettings.accounts(settings), dataDir);
    }

    /**
     * SPEC CH-5: the keys of {@code [channels.discord]} and of each {@code [channels.discord.accounts.<id>]} (one bot
     * each).
     */
    @Override
    public List<ChannelOption> options() {
        return List.of(
                ChannelOption.string("bot_token", "The bot's token (Developer Portal, Bot, Reset Token).")
                        .asSecret(),
                ChannelOption.string("api_base", "The HTTP API root (a proxy, or a test double).")
                        .withDefault(DiscordSettings.DEFAULT_API_BASE),
                ChannelOption.string("gateway_url", "The Gateway WebSocket URL; unset: asked from GET /gateway/bot."),
                ChannelOption.bool(
                                "message_content",
                                "Request the Message Content intent (enable it in the Developer Portal); "
                                        + "false: only DMs and mentions carry content.")
                        .withDefault(true),
                ChannelOption.string(
                                "stream_mode",
                                "off, or preview: a draft edited with Edit Message while the reply is generated.")
                        .withDefault("off"),
                ChannelOption.bool(
                                "ack_reactions",
                                "React to each message: eyes when received, then a check mark or a warning.")
                        .withDefault(false),
                ChannelOption.integer("text_limit", "The longest message sent, in characters (Discord allows 2000).")
                        .withDefault(DiscordAccount.MAX_TEXT));
    }

    /** @throws IllegalArgumentException naming the key, e.g. {@code channels.discord.stream_mode must be ...} */
    @Override
    public void check(ChannelSettings settings) {
        DiscordSettings.check(settings);
    }

    /** {@code /users/@me}, the application's flags and the Gateway per bot (SPEC OP-4, CH-0). */
    @Override
    public ChannelProbe probe(ChannelSettings settings) {
        return DiscordProbe.probe(settings);
    }
}
