package dev.clawgate.server;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.command.RuntimeCommand;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DropPolicy;
import dev.clawgate.core.config.QueueMode;
import dev.clawgate.core.config.QueueSettings;
import dev.clawgate.core.dispatch.QueuePolicy;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.turn.QueueDirective;
import dev.clawgate.core.access.AccessGate;
import dev.clawgate.core.access.Decision;
import dev.clawgate.core.access.PairingBook;
import dev.clawgate.core.dispatch.Admission;
import dev.clawgate.core.dispatch.Dispatcher;
import dev.clawgate.core.inbound.ChannelNames;
import dev.clawgate.core.inbound.SessionKeys;
import dev.clawgate.core.dispatch.Inbox;
import dev.clawgate.core.hook.InboundHook;
import dev.clawgate.core.hook.SendingHook;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.Delivery;
import dev.clawgate.core.outbound.Outbox;
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
    private static final Duration QUEUED_NOTICE_AFTER = Duration.ofSeconds(2);

    /** What to start besides the core: the HTTP server (with the API channel) and extra channels. */
    public record Options(boolean http, List<Channel> channels) {
        public static Options server() {
            return new Options(true, List.of());
        }

        public static Options with(Channel... channels) {
            return new Options(false, List.of(channels));
        }
    }

    /** SPEC OUT-7 {@code outbox.max_age} default: older pending replies are expired, not replayed. */
    static final Duration OUTBOX_MAX_AGE = Duration.ofHours(1);
    private final AtomicReference<ClawgateConfig> config;
    private AtomicReference<ConfiguredProviders> providers;
    private AtomicReference<ToolRegistry> tools;
    private AccessGate access;
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
            this.access = new AccessGate(PairingBook.backedBy(store), Clock.systemUTC());
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

            Outbox outbox = new Outbox(store, Clock.systemUTC());
            // SPEC MD-3: "matrix:!room" routes to the matrix channel
            TurnServices services = new TurnServices(store,
                    name -> Optional.ofNullable(channels.get(ChannelNames.split(name).channel())), providers::get, tools::get,
                    new SystemPromptCache(SystemPromptBuilder.create(Clock.systemDefaultZone(), java.time.ZoneId.systemDefault())),
                    InboundHook.PASS, SendingHook.PASS, Delivery.direct(), outbox, config::get,
                    this::queueDepth, Clock.systemUTC());
            Dispatcher.Policy policy = new Dispatcher.Policy(this::queuePolicy,
                    r -> RuntimeCommand.parse(r.message().text()).filter(c -> c instanceof RuntimeCommand.Stop).isPresent(),
                    r -> Optional.ofNullable(channels.get(r.message().channel())).map(Channel::requestResponse).orElse(false),
                    this::turnBudget, this::notice, QUEUED_NOTICE_AFTER, this::admit,
                    // request/response channels answer each request on its own connection: never batched
                    channel -> Optional.ofNullable(channels.get(channel)).map(Channel::requestResponse).orElse(false)
                            ? 0L : config.get().inbound().debounceMsFor(channel));
            this.dispatcher = new Dispatcher(store, new TurnPipeline(services), new StopReplies(services), policy,
                    cfg.dispatch().busCapacity(), cfg.dispatch().effectiveMaxInFlight(channels.size()), Clock.systemUTC()).start();
            // SPEC OUT-7: before any recovered turn runs, so no live send is mistaken for one cut by the crash
            outbox.recover(name -> Optional.ofNullable(channels.get(ChannelNames.split(name).channel()))
                    .map(Channel::messageAdapter).filter(MessageAdapter::durableReplies), OUTBOX_MAX_AGE);
            dispatcher.recover(cfg.inbound().inboxMaxAge(), r -> channels.containsKey(r.message().channel()));
            Inbox inbox = new Inbox(store, dispatcher,
                    m -> SessionKeys.of(m, config.get().session(), config.get().gateway()), cfg.inbound().dedupeTtl());
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

    /** SPEC DI-3 precedence: the session's /queue directive, then the channel's mode, then the global one. */
    private QueuePolicy queuePolicy(InboxRecord r) {
        QueueSettings q = config.get().queue();
        SessionKey s = r.session();
        QueueMode mode = store.sessionSetting(s, QueueDirective.MODE).flatMap(QueueMode::parse).orElse(q.modeFor(r.message().channel()));
        long quietMs = store.sessionSetting(s, QueueDirective.DEBOUNCE_MS).map(Long::parseLong).orElse(q.debounceMs());
        int cap = store.sessionSetting(s, QueueDirective.CAP).map(Integer::parseInt).orElse(q.cap());
        DropPolicy drop = store.sessionSetting(s, QueueDirective.DROP).flatMap(DropPolicy::parse).orElse(q.drop());
        return new QueuePolicy(mode, Duration.ofMillis(quietMs), cap, drop);
    }

    /** SPEC IN-5 access control, IN-6 group triggers; owner channels are exempt. */
    private Admission.Verdict admit(InboxRecord r) {
        boolean owner = Optional.ofNullable(channels.get(r.message().channel())).map(Channel::ownerChannel).orElse(false);
        return switch (access.decide(r.message(), owner, config.get())) {
            case Decision.Admit a -> Admission.ADMIT;
            case Decision.Deny d -> new Admission.Deny(d.reason(), null);
            case Decision.Buffer b -> new Admission.Buffer(b.reason());
            case Decision.Pair p -> new Admission.Deny("pairing code sent", p.replyText());
        };
    }

    /** Best-effort notices ("queued"): never replayed, never fatal (SPEC OUT-12). */
    private void notice(InboxRecord r, String text) {
        Channel ch = channels.get(r.message().channel());
        if (ch == null) return;
        try {
            ch.messageAdapter().send(new OutboundMessage(OutboundTarget.replyTo(r.message()), text, OutboundMessage.Kind.NOTICE, r.id()),
                    CancelToken.none());
        } catch (DeliveryException e) {
            log.info("notice to {} on {} not delivered: {}", r.message().sender(), ch.name(), e.getMessage());
        }
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
