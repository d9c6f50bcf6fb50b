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

    /**
     * Checks the values {@code [channels.telegram]} and its accounts set (SPEC CH-3), for the config
     * loader: a bad value is an error whose message starts with its key path. A missing
     * {@code bot_token} is left to {@link #create} and {@code doctor}.
     *
     * @throws IllegalArgumentException naming the key
     */
    public static void check(ChannelSettings settings) {
        TelegramSettings.check(settings);
    }

    /** {@code getMe} per bot: the token and the route to {@code api_base} (SPEC OP-4, CH-0). */
    @Override
    public dev.clawgate.core.channel.ChannelProbe probe(ChannelSettings settings) {
        return TelegramProbe.probe(settings);
    }
}
