package dev.clawgate.channel.lark;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.ChannelSettings;
import java.nio.file.Path;
import java.util.List;

/**
 * Found by {@link java.util.ServiceLoader}: builds the Lark/Feishu channel from {@code [channels.lark]}. The access
 * keys ({@code dm_policy}, {@code group_policy}, {@code allowed_users}, {@code allowed_groups},
 * {@code require_mention}) are every channel's and read by the server; these are Lark's own.
 */
public final class LarkChannelFactory implements ChannelFactory {
    @Override
    public String name() {
        return LarkChannel.NAME;
    }

    @Override
    public Channel create(ChannelSettings settings) {
        return create(settings, Path.of("data"));
    }

    @Override
    public Channel create(ChannelSettings settings, Path dataDir) {
        return new LarkChannel(LarkSettings.account(settings), dataDir);
    }

    /** SPEC CH-11: the keys of {@code [channels.lark]}. */
    @Override
    public List<ChannelOption> options() {
        return List.of(
                ChannelOption.string("app_id", "The app's App ID (cli_...)."),
                ChannelOption.string("app_secret", "The app's App Secret: fetches the tenant_access_token.")
                        .asSecret(),
                ChannelOption.string(
                                "mode",
                                "How events arrive: websocket (the long connection, no public URL) or "
                                        + "webhook (HTTP event subscription at webhook_path).")
                        .withDefault(LarkSettings.DEFAULT_MODE),
                ChannelOption.string(
                                "api_base",
                                "https://open.feishu.cn (Feishu) or https://open.larksuite.com " + "(Lark).")
                        .withDefault(LarkSettings.DEFAULT_API_BASE),
                ChannelOption.string("webhook_path", "The event request URL's path on the gateway's HTTP port.")
                        .withDefault(LarkSettings.DEFAULT_PATH),
                ChannelOption.string(
                                "verification_token",
                                "The Verification Token every pushed event must carry (webhook mode).")
                        .asSecret(),
                ChannelOption.string(
                                "encrypt_key",
                                "The Encrypt Key: events are then encrypted and signed " + "(X-Lark-Signature).")
                        .asSecret(),
                ChannelOption.string(
                                "stream_mode",
                                "off, or preview: a draft edited (at most 20 times) while the " + "reply is generated.")
                        .withDefault("off"),
                ChannelOption.bool(
                                "ack_reactions",
                                "React to each message: OnIt when received, then DONE or a " + "warning.")
                        .withDefault(false),
                ChannelOption.integer("text_limit", "The longest text message sent, in characters.")
                        .withDefault(LarkAccount.DEFAULT_TEXT));
    }

    /** @throws IllegalArgumentException naming the key, e.g. {@code channels.lark.mode must be ...} */
    @Override
    public void check(ChannelSettings settings) {
        LarkSettings.check(settings);
    }

    /** The token endpoint and the bot's info (SPEC OP-4, CH-0). */
    @Override
    public ChannelProbe probe(ChannelSettings settings) {
        return LarkProbe.probe(settings);
    }
}
