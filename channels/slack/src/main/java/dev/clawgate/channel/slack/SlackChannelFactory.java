package dev.clawgate.channel.slack;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.ChannelSettings;
import java.util.List;

/**
 * Found by {@link java.util.ServiceLoader}: builds the Slack channel from {@code [channels.slack]}. The access keys
 * ({@code dm_policy}, {@code group_policy}, {@code allowed_users}, {@code allowed_groups}, {@code require_mention}) are
 * every channel's and read by the server; these are Slack's own.
 */
public final class SlackChannelFactory implements ChannelFactory {
    @Override
    public String name() {
        return SlackChannel.NAME;
    }

    /** Without a data dir, downloaded files go under {@code ./data}. */
    @Override
    public Channel create(ChannelSettings settings) {
        return create(settings, java.nio.file.Path.of("data"));
    }

    @Override
    public Channel create(ChannelSettings settings, java.nio.file.Path dataDir) {
        return new SlackChannel(SlackSettings.accounts(settings), dataDir);
    }

    /**
     * SPEC CH-4: the keys of {@code [channels.slack]} and of each {@code [channels.slack.accounts.<id>]} (one app
     * each).
     */
    @Override
    public List<ChannelOption> options() {
        return List.of(
                ChannelOption.string("bot_token", "The app's Bot User OAuth Token (xoxb-...).")
                        .asSecret(),
                ChannelOption.string("signing_secret", "mode = \"events\": verifies each request's X-Slack-Signature.")
                        .asSecret(),
                ChannelOption.string(
                                "app_token",
                                "mode = \"socket\": the app-level token (xapp-...) that opens Socket Mode.")
                        .asSecret(),
                ChannelOption.string(
                                "mode", "How events arrive: events (the Events API over HTTP) or socket (Socket Mode).")
                        .withDefault("events"),
                ChannelOption.string("api_base", "The Web API root (a proxy, or a test double).")
                        .withDefault(SlackSettings.DEFAULT_API_BASE),
                ChannelOption.string(
                                "webhook_path", "mode = \"events\": the Request URL's path on the gateway's HTTP port.")
                        .withDefault(SlackSettings.DEFAULT_PATH),
                ChannelOption.string(
                                "stream_mode",
                                "off, or preview: a draft edited with chat.update while the reply is generated.")
                        .withDefault("off"),
                ChannelOption.bool(
                                "ack_reactions",
                                "React to each message: eyes when received, then a check mark or a warning.")
                        .withDefault(false),
                ChannelOption.integer("text_limit", "The longest message sent, in characters (Slack advises 4000).")
                        .withDefault(SlackAccount.MAX_TEXT),
                ChannelOption.integer(
                                "api_timeout_secs",
                                "How long a Web API call waits for its answer; a post "
                                        + "past it is unknown_after_send, never sent again.")
                        .withDefault((int) SlackAccount.CALL_TIMEOUT.toSeconds()));
    }

    /** @throws IllegalArgumentException naming the key, e.g. {@code channels.slack.mode must be ...} */
    @Override
    public void check(ChannelSettings settings) {
        SlackSettings.check(settings);
    }

    /** {@code auth.test} per app: the token and the route to {@code api_base} (SPEC OP-4, CH-0). */
    @Override
    public ChannelProbe probe(ChannelSettings settings) {
        return SlackProbe.probe(settings);
    }
}
