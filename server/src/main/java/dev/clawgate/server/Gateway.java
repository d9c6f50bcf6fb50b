package dev.clawgate.server;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.command.RuntimeCommand;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.QueueMode;
import dev.clawgate.core.dispatch.Dispatcher;
import dev.clawgate.core.dispatch.Inbox;
import dev.clawgate.core.hook.InboundHook;
import dev.clawgate.core.hook.SendingHook;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.Delivery;
import dev.clawgate.core.prompt.SystemPromptBuilder;
import dev.clawgate.core.prompt.SystemPromptCache;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.tool.ToolRegistry;
import dev.clawgate.core.tool.builtin.BuiltinTools;
import dev.clawgate.core.turn.StopReplies;
import dev.clawgate.core.turn.TurnPipeline;
import dev.clawgate.core.turn.TurnServices;
import dev.clawgate.server.channel.ApiChannel;
import dev.clawgate.server.http.HttpServer;
import dev.clawgate.store.Stores;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires one running gateway from a config: store, providers, tools, the turn pipeline, the
 * dispatcher and inbox, the channels, and (for {@code run}) the HTTP server. Closing it stops
 * them in reverse order.
 */
public final class Gateway implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Gateway.class);
    private static final Duration DEDUPE_TTL = Duration.ofMinutes(20);
    private static final Duration INBOX_MAX_AGE = Duration.ofHours(1);

    /** What to start besides the core: the HTTP server (with the API channel) and extra channels. */
    public record Options(boolean http, List<Channel> channels) {
        public static Options server() {
            return new Options(true, List.of());
        }

        public static Options with(Channel... channels) {
            return new Options(false, List.of(channels));
        }
    }

    private final AtomicReference<ClawgateConfig> config;
    private AtomicReference<ConfiguredProviders> providers;
    private AtomicReference<ToolRegistry> tools;
    private final Store store;
    private final Map<String, Channel> channels = new LinkedHashMap<>();
    private Dispatcher dispatcher;
    private HttpServer http;

    private Gateway(ClawgateConfig cfg, Options options) throws Exception {
        this.config = new AtomicReference<>(cfg);
        if (options.http()) HttpServer.checkBind(cfg.gateway().bind(), cfg.gateway().authToken());
        Files.createDirectories(cfg.gateway().dataDir());
        Files.createDirectories(cfg.agent().workspace());
        this.store = Stores.open(null, cfg.gateway().dataDir());
        try {
            this.providers = new AtomicReference<>(new ConfiguredProviders(cfg.providers()));
            this.tools = new AtomicReference<>(new ToolRegistry(BuiltinTools.create(cfg.tools())));
            ApiChannel api = null;
            if (options.http()) {
                api = new ApiChannel(this::turnBudget, this::modelNames);
                channels.put(api.name(), api);
            }
            for (Channel ch : options.channels()) channels.put(ch.name(), ch);
            for (ChannelFactory factory : ServiceLoader.load(ChannelFactory.class)) {
                ChannelSettings settings = cfg.channels().get(factory.name());
                if (settings != null && !channels.containsKey(factory.name())) channels.put(factory.name(), factory.create(settings));
            }

            TurnServices services = new TurnServices(store, name -> Optional.ofNullable(channels.get(name)), providers::get, tools::get,
                    new SystemPromptCache(SystemPromptBuilder.create(Clock.systemDefaultZone(), java.time.ZoneId.systemDefault())),
                    InboundHook.PASS, SendingHook.PASS, Delivery.direct(), config::get,
                    this::queueDepth, Clock.systemUTC());
            Dispatcher.Policy policy = new Dispatcher.Policy(this::queueMode,
                    r -> RuntimeCommand.parse(r.message().text()).filter(c -> c instanceof RuntimeCommand.Stop).isPresent(),
                    r -> Optional.ofNullable(channels.get(r.message().channel())).map(Channel::requestResponse).orElse(false),
                    this::turnBudget, cfg.queue().cap());
            this.dispatcher = new Dispatcher(store, new TurnPipeline(services), new StopReplies(services), policy,
                    cfg.dispatch().busCapacity(), cfg.dispatch().effectiveMaxInFlight(channels.size()), Clock.systemUTC()).start();
            dispatcher.recover(INBOX_MAX_AGE, r -> channels.containsKey(r.message().channel()));
            Inbox inbox = new Inbox(store, dispatcher, SessionKey::of, DEDUPE_TTL);
            for (Channel ch : channels.values()) {
                try {
                    ch.start(inbox);
                } catch (Exception e) {
                    throw new IllegalStateException("channel " + ch.name() + " could not start: " + e.getMessage(), e);
                }
            }
            this.http = options.http()
                    ? HttpServer.start(cfg.gateway().bind(), cfg.gateway().authToken(), api, new ArrayList<>(channels.values()), this::readiness)
                    : null;
            if (providers.get().names().isEmpty()) log.warn(dev.clawgate.core.turn.ModelSelector.NO_PROVIDER);
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    /** Starts a gateway; on failure everything it had started is closed again before the error propagates. */
    public static Gateway start(ClawgateConfig config, Options options) throws Exception {
        return new Gateway(config, options);
    }

    private QueueMode queueMode(InboxRecord r) {
        return store.sessionSetting(r.session(), "queue").flatMap(QueueMode::parse).orElse(config.get().queue().modeFor(r.message().channel()));
    }

    private Duration turnBudget() {
        return Duration.ofSeconds(config.get().agent().turnBudgetSecs());
    }

    private int queueDepth(SessionKey key) {
        return dispatcher.status(key).queued();
    }

    private List<String> modelNames() {
        List<String> names = new ArrayList<>(List.of("clawgate"));
        ClawgateConfig c = config.get();
        if (c.agent().model() != null) names.add(c.agent().model());
        return names;
    }

    public HttpServer.Readiness readiness() {
        Map<String, String> parts = new LinkedHashMap<>();
        boolean ready = true;
        boolean storeOk = store.healthy();
        parts.put("store", storeOk ? "ok" : "unavailable");
        ready &= storeOk;
        for (Channel ch : channels.values()) {
            ChannelHealth h = ch.health();
            parts.put("channel." + ch.name(), h.healthy() ? "ok" : h.detail());
            ready &= h.healthy();
        }
        parts.put("providers", providers.get().names().isEmpty() ? "none configured" : String.join(",", providers.get().names()));
        return new HttpServer.Readiness(ready, parts);
    }

    public int httpPort() {
        if (http == null) throw new IllegalStateException("this gateway runs no HTTP server");
        return http.port();
    }

    public Store store() {
        return store;
    }

    public Dispatcher dispatcher() {
        return dispatcher;
    }

    @Override
    public void close() {
        if (http != null) http.close();
        for (Channel ch : channels.values()) {
            try {
                ch.stop();
            } catch (RuntimeException e) {
                log.warn("stopping channel {} failed: {}", ch.name(), e.toString());
            }
        }
        if (dispatcher != null) dispatcher.close(Duration.ofSeconds(10));
        store.close();
    }

}
