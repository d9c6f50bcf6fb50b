package dev.clawgate.server;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.internal.inbound.SessionKeys;
import dev.clawgate.core.store.Store;
import dev.clawgate.server.channel.ApiChannel;
import dev.clawgate.server.channel.WebChatChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The channels a gateway runs, in start order: with the HTTP server its owner channels, the API (SPEC CH-10) and the
 * web chat (CH-2); then the embedding program's; then each platform channel found with {@code ServiceLoader} whose
 * table the config has (CH-0). Holds the two owner channels the HTTP server serves (null when it is not started).
 */
record GatewayChannels(ApiChannel api, WebChatChannel webchat) {

    /** Puts every channel into {@code channels}, by name. */
    static GatewayChannels open(
            ClawgateConfig cfg,
            GatewayOptions options,
            Map<String, Channel> channels,
            AtomicReference<ClawgateConfig> config,
            Store store,
            Supplier<Duration> turnBudget) {
        ApiChannel api = null;
        WebChatChannel webchat = null;
        if (options.http()) {
            api = new ApiChannel(
                    turnBudget,
                    () -> modelNames(config),
                    () -> config.get().dispatch().busCapacity());
            channels.put(api.name(), api);
            if (webChatEnabled(cfg)) {
                webchat = new WebChatChannel(
                        m -> store.transcripts()
                                .load(
                                        SessionKeys.of(
                                                m,
                                                config.get().session(),
                                                config.get().gateway()),
                                        config.get().history().maxMessages()),
                        () -> config.get().channel(WebChatChannel.NAME).options());
                channels.put(webchat.name(), webchat);
            }
        }
        for (Channel ch : options.channels()) channels.put(ch.name(), ch);
        for (ChannelFactory factory : ServiceLoader.load(ChannelFactory.class)) {
            ChannelSettings settings = cfg.channels().get(factory.name());
            if (settings != null && !channels.containsKey(factory.name()))
                channels.put(
                        factory.name(), factory.create(settings, cfg.gateway().dataDir()));
        }
        return new GatewayChannels(api, webchat);
    }

    /** {@code channels.webchat.enabled}, true unless set false: the page is served with the HTTP server (SPEC CH-2). */
    static boolean webChatEnabled(ClawgateConfig cfg) {
        return !"false".equals(cfg.channel(WebChatChannel.NAME).options().get("enabled"));
    }

    private static List<String> modelNames(AtomicReference<ClawgateConfig> config) {
        List<String> names = new ArrayList<>(List.of("clawgate"));
        ClawgateConfig c = config.get();
        if (c.agent().model() != null) names.add(c.agent().model());
        return names;
    }
}
