package dev.clawgate.channel.whatsapp;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.ChannelSettings;
import java.nio.file.Path;
import java.util.List;

/**
 * Found by {@link java.util.ServiceLoader}: builds the WhatsApp channel from {@code [channels.whatsapp]}. The access
 * keys ({@code dm_policy}, {@code group_policy}, {@code allowed_users}, {@code allowed_groups}) are every channel's and
 * read by the server; these are WhatsApp's own.
 */
public final class WhatsAppChannelFactory implements ChannelFactory {
    @Override
    public String name() {
        return WhatsAppChannel.NAME;
    }

    @Override
    public Channel create(ChannelSettings settings) {
        return create(settings, Path.of("data"));
    }

    @Override
    public Channel create(ChannelSettings settings, Path dataDir) {
        return new WhatsAppChannel(WhatsAppSettings.account(settings), dataDir);
    }

    /** SPEC CH-12: the keys of {@code [channels.whatsapp]}. */
    @Override
    public List<ChannelOption> options() {
        return List.of(
                ChannelOption.string(
                                "access_token",
                                "The Graph API token of a System User with " + "whatsapp_business_messaging.")
                        .asSecret(),
                ChannelOption.string(
                        "phone_number_id", "The business phone number's id (WhatsApp Manager, API Setup)."),
                ChannelOption.string(
                                "app_secret", "The Meta app's secret: verifies each webhook's X-Hub-Signature-256.")
                        .asSecret(),
                ChannelOption.string("verify_token", "The token Meta's webhook subscription check must carry.")
                        .asSecret(),
                ChannelOption.string("api_base", "The Graph API root with its version (a proxy, or a test double).")
                        .withDefault(WhatsAppSettings.DEFAULT_API_BASE),
                ChannelOption.string("webhook_path", "The callback URL's path on the gateway's HTTP port.")
                        .withDefault(WhatsAppSettings.DEFAULT_PATH),
                ChannelOption.integer("text_limit", "The longest text message sent, in characters (WhatsApp: 4096).")
                        .withDefault(WhatsAppAccount.MAX_TEXT),
                ChannelOption.bool(
                                "ack_reactions",
                                "React to each message: eyes when received, then a check mark or " + "a warning.")
                        .withDefault(false));
    }

    /** @throws IllegalArgumentException naming the key, e.g. {@code channels.whatsapp.text_limit must be ...} */
    @Override
    public void check(ChannelSettings settings) {
        WhatsAppSettings.check(settings);
    }

    /** The phone number's fields from the Graph API: the token and the route to {@code api_base} (SPEC OP-4, CH-0). */
    @Override
    public ChannelProbe probe(ChannelSettings settings) {
        return WhatsAppProbe.probe(settings);
    }
}
