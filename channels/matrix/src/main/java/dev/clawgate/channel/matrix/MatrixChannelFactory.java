package dev.clawgate.channel.matrix;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.ChannelSettings;
import java.nio.file.Path;
import java.util.List;

/**
 * Found by {@link java.util.ServiceLoader}: builds the Matrix channel from {@code [channels.matrix]} (SPEC CH-6). The
 * access keys ({@code dm_policy}, {@code group_policy}, {@code allowed_users}, {@code allowed_groups},
 * {@code require_mention}) are every channel's and read by the server; these are Matrix's own.
 */
public final class MatrixChannelFactory implements ChannelFactory {
    @Override
    public String name() {
        return MatrixChannel.NAME;
    }

    @Override
    public Channel create(ChannelSettings settings) {
        return create(settings, Path.of(System.getProperty("java.io.tmpdir"), "clawgate-matrix"));
    }

    /** The sync token and downloaded media live under {@code dataDir/matrix}. */
    @Override
    public Channel create(ChannelSettings settings, Path dataDir) {
        return new MatrixChannel(MatrixSettings.account(settings), dataDir);
    }

    /** SPEC CH-6: the keys of {@code [channels.matrix]}. */
    @Override
    public List<ChannelOption> options() {
        return List.of(
                ChannelOption.string(
                        "homeserver", "The homeserver's client-server API base URL, e.g. https://matrix.example.org."),
                ChannelOption.string("access_token", "The bot account's access token.")
                        .asSecret(),
                ChannelOption.string(
                        "user_id", "The bot's user id (@bot:example.org); checked against whoami at start."),
                ChannelOption.string(
                                "auto_join",
                                "Which invites the bot accepts: always, allowlist (allowed_users/allowed_groups) or "
                                        + "off.")
                        .withDefault("always"),
                ChannelOption.string(
                                "stream_mode",
                                "off, or preview: a draft edited (m.replace) while the reply is generated.")
                        .withDefault("off"),
                ChannelOption.bool(
                                "ack_reactions",
                                "React to each message: eyes when received, then a check mark or a warning.")
                        .withDefault(false),
                ChannelOption.integer("text_limit", "The longest message body sent, in characters.")
                        .withDefault(MatrixAccount.DEFAULT_TEXT));
    }

    /** @throws IllegalArgumentException naming the key, e.g. {@code channels.matrix.stream_mode must be ...} */
    @Override
    public void check(ChannelSettings settings) {
        MatrixSettings.check(settings);
    }

    /** {@code whoami} and the joined rooms' encryption (SPEC OP-4, CH-0, CH-6). */
    @Override
    public ChannelProbe probe(ChannelSettings settings) {
        return MatrixProbe.probe(settings);
    }
}
