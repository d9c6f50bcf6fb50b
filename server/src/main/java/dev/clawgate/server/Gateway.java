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
import dev.clawgate.server.config.ConfigException;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DirectDelivery;
import dev.clawgate.core.outbound.Durability;
import dev.clawgate.core.outbound.Outbox;
import dev.clawgate.core.outbound.OutboxWorker;
import dev.clawgate.core.outbound.Pacer;
import dev.clawgate.core.outbound.Payloads;
import dev.clawgate.core.prompt.SystemPromptBuilder;
import dev.clawgate.core.prompt.SystemPromptCache;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.core.agent.ModelRoute;
import dev.clawgate.core.memory.Consolidation;
import dev.clawgate.core.memory.Consolidator;
import dev.clawgate.core.memory.MemoryHygiene;
import dev.clawgate.core.turn.ModelChoice;
import dev.clawgate.core.turn.ModelSelector;
import dev.clawgate.core.tool.ToolRegistry;
import dev.clawgate.core.tool.builtin.BuiltinTools;
import dev.clawgate.core.turn.StopReplies;
import dev.clawgate.core.turn.TurnPipeline;
import dev.clawgate.core.turn.TurnServices;
import dev.clawgate.server.channel.ApiChannel;
import dev.clawgate.server.channel.WebChatChannel;
import dev.clawgate.server.http.HttpServer;
import dev.clawgate.store.Stores;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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

    /**
     * What to start besides the core: the HTTP server (with the API channel), extra channels, and
     * the {@code on_message_sending} (SPEC RP-1) and {@code on_message_received} (IN-7) hooks of an
     * embedding program.
     */
    public record Options(boolean http, List<Channel> channels, SendingHook sendingHook, InboundHook inboundHook) {
        public Options {
            channels = List.copyOf(channels);
            sendingHook = sendingHook == null ? SendingHook.PASS : sendingHook;
            inboundHook = inboundHook == null ? InboundHook.PASS : inboundHook;
        }

        public Options(boolean http, List<Channel> channels, SendingHook sendingHook) {
            this(http, channels, sendingHook, InboundHook.PASS);
        }

        public static Options server() {
            return new Options(true, List.of(), SendingHook.PASS);
        }

        public static Options with(Channel... channels) {
            return new Options(false, List.of(channels), SendingHook.PASS);
        }

        public Options withSendingHook(SendingHook hook) {
            return new Options(http, channels, hook, inboundHook);
        }

        public Options withInboundHook(InboundHook hook) {
            return new Options(http, channels, sendingHook, hook);
        }
    }

    /** How often the outbox looks for retries that fell due (SPEC OUT-7). */
    private static final Duration OUTBOX_RETRY_POLL = Duration.ofSeconds(1);
    private final AtomicReference<ClawgateConfig> config;
    private AtomicReference<ConfiguredProviders> providers;
    private AtomicReference<ToolRegistry> tools;
    private AccessGate access;
    private final Store store;
    private final Map<String, Channel> channels = new LinkedHashMap<>();
    private Dispatcher dispatcher;
    private OutboxWorker outboxWorker;
    private SystemPromptCache prompts;
    private HttpServer http;
    private ScheduledExecutorService memoryHygiene;
    private CronScheduler cron;
    private Consolidation consolidation;
    private GatewayMetrics metrics;

    private Gateway(ClawgateConfig cfg, Options options) throws Exception {
        this.config = new AtomicReference<>(cfg);
        if (options.http()) HttpServer.checkBind(cfg.gateway().bind(), cfg.gateway().authToken());
        Files.createDirectories(cfg.gateway().dataDir());
        Files.createDirectories(cfg.agent().workspace());
        this.store = Stores.open(null, cfg.gateway().dataDir());
        try {
            this.providers = new AtomicReference<>(new ConfiguredProviders(cfg.providers()));
            this.access = new AccessGate(PairingBook.backedBy(store), Clock.systemUTC());
            this.tools = new AtomicReference<>(toolsFor(cfg));
            ApiChannel api = null;
            WebChatChannel webchat = null;
            if (options.http()) {
                api = new ApiChannel(this::turnBudget, this::modelNames);
                channels.put(api.name(), api);
                if (webChatEnabled(cfg)) {
                    webchat = new WebChatChannel(m -> store.loadTranscript(
                            SessionKeys.of(m, config.get().session(), config.get().gateway()), config.get().history().maxMessages()),
                            () -> config.get().channel(WebChatChannel.NAME).options());
                    channels.put(webchat.name(), webchat);
                }
            }
            for (Channel ch : options.channels()) channels.put(ch.name(), ch);
            for (ChannelFactory factory : ServiceLoader.load(ChannelFactory.class)) {
                ChannelSettings settings = cfg.channels().get(factory.name());
                if (settings != null && !channels.containsKey(factory.name())) channels.put(factory.name(), factory.create(settings, cfg.gateway().dataDir()));
            }

            requireReconcileWhereDurabilityIsRequired(cfg);
            // SPEC OUT-13: media markers may name files in the workspace or the data dir
            Payloads payloads = new Payloads(options.sendingHook(),
                    new Payloads.MediaRoots(() -> config.get().agent().workspace(), cfg.gateway().dataDir()));
            this.metrics = new GatewayMetrics(store);
            metrics.watchChannels(channels.values());
            Outbox outbox = new Outbox(store, Clock.systemUTC(), payloads, () -> config.get().outbox(), Math::random,
                    metrics.outboxObserver());
            // SPEC MD-3: "matrix:!room" routes to the matrix channel
            this.prompts = new SystemPromptCache(SystemPromptBuilder.create(Clock.systemDefaultZone(), java.time.ZoneId.systemDefault(),
                    () -> config.get().agent().skillsMode()));
            TurnServices services = new TurnServices(store,
                    name -> Optional.ofNullable(channels.get(ChannelNames.split(name).channel())), providers::get, tools::get,
                    prompts,
                    options.inboundHook(), new DirectDelivery(payloads), outbox, config::get,
                    this::queueDepth, Clock.systemUTC(), store.memory(), null);
            Dispatcher.Policy policy = new Dispatcher.Policy(this::queuePolicy,
                    r -> RuntimeCommand.parse(r.message().text()).filter(c -> c instanceof RuntimeCommand.Stop).isPresent(),
                    r -> Optional.ofNullable(channels.get(r.message().channel())).map(Channel::requestResponse).orElse(false),
                    this::turnBudget, this::notice, QUEUED_NOTICE_AFTER, this::admit,
                    // request/response channels answer each request on its own connection: never batched
                    channel -> Optional.ofNullable(channels.get(channel)).map(Channel::requestResponse).orElse(false)
                            ? 0L : config.get().inbound().debounceMsFor(channel));
            // SPEC ME-6: after each turn, off its reply path; bounded, fire and forget
            this.consolidation = new Consolidation(new Consolidator(store, store.memory(), () -> config.get().memory(),
                    this::consolidationModel), () -> config.get().memory(), cfg.memory().consolidationQueue(), Clock.systemUTC()).start();
            this.dispatcher = new Dispatcher(store, consolidation.after(new TurnPipeline(services)), new StopReplies(services), policy,
                    cfg.dispatch().busCapacity(), cfg.dispatch().effectiveMaxInFlight(channels.size()), Clock.systemUTC()).start();
            // SPEC OUT-7: before any recovered turn runs, so no live send is mistaken for one cut by the crash
            Pacer replayPace = Pacer.perSecond(cfg.outbox().replayPerSecond());
            outbox.recover(this::durableAdapter, replayPace);
            this.outboxWorker = new OutboxWorker(outbox, this::durableAdapter, replayPace, OUTBOX_RETRY_POLL).start();
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
            this.memoryHygiene = startMemoryHygiene();
            this.cron = new CronScheduler(store.cron(), inbox, channels::containsKey, () -> config.get().cron(), Clock.systemUTC()).start();
            this.http = options.http()
                    ? HttpServer.start(cfg.gateway().bind(), cfg.gateway().authToken(), api, webchat, new ArrayList<>(channels.values()), this::readiness,
                            metrics::scrape)
                    : null;
            if (providers.get().names().isEmpty()) log.warn(dev.clawgate.core.turn.ModelSelector.NO_PROVIDER);
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    /** The built-in tools of {@code cfg}, the cron tools included (SPEC AG-5). */
    private ToolRegistry toolsFor(ClawgateConfig cfg) {
        List<dev.clawgate.core.tool.Tool> all = new ArrayList<>(BuiltinTools.create(cfg.tools(), cfg.memory()));
        all.addAll(BuiltinTools.cron(store.cron(), cfg.cron(), () -> config.get().cron(), Clock.systemUTC(), this::cronChanged));
        return new ToolRegistry(all);
    }

    /** The agent's default model, as a turn without routes or a /model choice gets it: what consolidation asks (SPEC ME-6). */
    private Optional<ModelRoute> consolidationModel() {
        ClawgateConfig now = config.get();
        ModelChoice choice = ModelSelector.choose("", Optional.empty(), now.agent(), List.of(), providers.get());
        return choice.available() ? Optional.of(choice.primary()) : Optional.empty();
    }

    /** Memory consolidation's counters (SPEC ME-6): for status and tests. */
    public Consolidation.Stats consolidation() {
        return consolidation.stats();
    }

    private void cronChanged() {
        if (cron != null) cron.wake();
    }

    /** SPEC ME-7, OP-7: conversation memories age out, checked at start and every hour, off every turn's path. */
    private ScheduledExecutorService startMemoryHygiene() {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual().name("memory-hygiene").factory());
        timer.scheduleWithFixedDelay(() -> {
            try {
                int removed = MemoryHygiene.expire(store.memory(), config.get().memory(), Instant.now());
                if (removed > 0) log.info("memory hygiene: removed {} expired conversation memories", removed);
            } catch (StoreException e) {
                log.warn("memory hygiene failed; trying again in {}: {}", MemoryHygiene.INTERVAL, e.getMessage());
            }
        }, 0, MemoryHygiene.INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        return timer;
    }

    /** Starts a gateway; on failure everything it had started is closed again before the error propagates. */
    public static Gateway start(ClawgateConfig config, Options options) throws Exception {
        return new Gateway(config, options);
    }

    /** {@code channels.webchat.enabled}, true unless set false: the page is served with the HTTP server (SPEC CH-2). */
    private static boolean webChatEnabled(ClawgateConfig cfg) {
        return !"false".equals(cfg.channel(WebChatChannel.NAME).options().get("enabled"));
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

    /**
     * Puts a changed config in force without a restart (SPEC RT-3): providers, routes, tools and
     * every setting read per turn or per message. Runs in flight keep what they started with (a
     * turn reads the config once, at its start). What only a restart can change (data dir, bind
     * address, the set of channels, the gateway token of the HTTP server) is kept, with a warning.
     *
     * @throws RuntimeException when the new config cannot be put in force (a provider cannot be
     *                          built); nothing changes then
     */
    public void reload(ClawgateConfig next) {
        ConfiguredProviders nextProviders = new ConfiguredProviders(next.providers());
        ToolRegistry nextTools = toolsFor(next);
        ClawgateConfig current = config.get();
        List<String> restartOnly = next.restartOnlyChanges(current);
        if (!restartOnly.isEmpty()) log.warn("config: {} changed; that needs a restart, the running values stay until then", restartOnly);
        providers.set(nextProviders);
        tools.set(nextTools);
        config.set(next.withRestartOnlyFrom(current));
        prompts.invalidateAll();
        log.info("config reloaded: providers {}, agent provider {}", next.providers().keySet(),
                next.agent().provider() == null ? "(first)" : next.agent().provider());
    }

    /** The config in force. */
    public ClawgateConfig config() {
        return config.get();
    }

    /** The running channel of that name. */
    public Optional<Channel> channel(String name) {
        return Optional.ofNullable(channels.get(name));
    }

    public Dispatcher dispatcher() {
        return dispatcher;
    }

    /** The adapter of {@code name}'s channel when its replies go through the outbox (SPEC OUT-6). */
    private Optional<MessageAdapter> durableAdapter(String name) {
        return Optional.ofNullable(channels.get(ChannelNames.split(name).channel())).map(Channel::messageAdapter)
                .filter(a -> a.durability() != Durability.DISABLED);
    }

    /** SPEC OUT-6: {@code required} needs every durable channel to reconcile unknown sends; say which cannot, at start. */
    private void requireReconcileWhereDurabilityIsRequired(ClawgateConfig cfg) {
        if (cfg.outbox().durability() != Durability.REQUIRED) return;
        for (Channel ch : channels.values()) {
            MessageAdapter a = ch.messageAdapter();
            if (a.durability() != Durability.DISABLED && !a.capabilities().contains(Capability.RECONCILE_UNKNOWN_SEND)) {
                throw new ConfigException("outbox.durability = \"required\" needs channels that can reconcile unknown sends, and "
                        + ch.name() + " cannot; use \"best_effort\" or disable that channel");
            }
        }
    }

    @Override
    public void close() {
        if (http != null) http.close();
        if (memoryHygiene != null) memoryHygiene.shutdownNow();
        if (cron != null) cron.close();
        if (outboxWorker != null) outboxWorker.close();
        for (Channel ch : channels.values()) {
            try {
                ch.stop();
            } catch (RuntimeException e) {
                log.warn("stopping channel {} failed: {}", ch.name(), e.toString());
            }
        }
        if (dispatcher != null) dispatcher.close(Duration.ofSeconds(10));
        if (consolidation != null) consolidation.close();
        store.close();
    }

}
