package dev.clawgate.channel.qq;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.ChannelSettings;
import java.nio.file.Path;
import java.util.List;

/**
 * Found by {@link java.util.ServiceLoader}: builds the QQ channel from {@code [channels.qq]} (SPEC CH-13). The access
 * keys ({@code dm_policy}, {@code group_policy}, {@code allowed_users}, {@code allowed_groups}) are every channel's and
 * read by the server; these are QQ's own.
 */
public final class QqChannelFactory implements ChannelFactory {
    @Override
    public String name() {
        return QqChannel.NAME;
    }

    @Override
    public Channel create(ChannelSettings settings) {
        return new QqChannel(QqSettings.account(settings), null);
    }

    /** As {@link #create(ChannelSettings)}, keeping the gateway session and the reply ledger under the data dir. */
    @Override
    public Channel create(ChannelSettings settings, Path dataDir) {
        return new QqChannel(QqSettings.account(settings), dataDir);
    }

    @Override
    public List<ChannelOption> options() {
        return List.of(
                ChannelOption.string("app_id", "The bot's AppID (q.qq.com, development settings)."),
                ChannelOption.string("client_secret", "The bot's AppSecret.").asSecret(),
                ChannelOption.string("mode", "websocket (the gateway), or webhook (callbacks to webhook_path).")
                        .withDefault("websocket"),
                ChannelOption.string("api_base", "The OpenAPI root (a proxy, or a test double).")
                        .withDefault(QqSettings.DEFAULT_API_BASE),
                ChannelOption.string("token_url", "Where the app access token is asked.")
                        .withDefault(QqSettings.DEFAULT_TOKEN_URL),
                ChannelOption.string("gateway_url", "The gateway WebSocket URL; unset: asked from GET /gateway."),
                ChannelOption.string("webhook_path", "The callback path in webhook mode.")
                        .withDefault(QqSettings.DEFAULT_PATH),
                ChannelOption.bool("sandbox", "Use the sandbox OpenAPI root when api_base is not set.")
                        .withDefault(false),
                ChannelOption.string("stream_mode", "off (QQ messages cannot be edited).")
                        .withDefault("off"),
                ChannelOption.bool("ack_reactions", "false (the bot API has no reactions on these messages).")
                        .withDefault(false),
                ChannelOption.integer("text_limit", "The longest message sent, in characters.")
                        .withDefault(QqAccount.DEFAULT_TEXT));
    }

    /** An access token, then {@code GET /gateway} with it (SPEC OP-4, CH-0). */
    @Override
    public ChannelProbe probe(ChannelSettings settings) {
        return QqProbe.probe(settings);
    }

    /** @throws IllegalArgumentException naming the key, e.g. {@code channels.qq.mode must be ...} */
    @Override
    public void check(ChannelSettings settings) {
        QqSettings.check(settings);
    }
}
