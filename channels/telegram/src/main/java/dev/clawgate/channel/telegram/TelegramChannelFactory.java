package dev.clawgate.channel.telegram;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.config.ChannelSettings;
import java.nio.file.Path;

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

    /** {@code getMe} per bot: the token and the route to {@code api_base} (SPEC OP-4, CH-0). */
    @Override
    public dev.clawgate.core.channel.ChannelProbe probe(ChannelSettings settings) {
        return TelegramProbe.probe(settings);
    }
}
