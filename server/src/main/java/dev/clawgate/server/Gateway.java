package dev.clawgate.server;

import dev.clawgate.core.access.AccessGate;
import dev.clawgate.core.access.Decision;
import dev.clawgate.core.access.PairingBook;
import dev.clawgate.core.agent.ModelRoute;
import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.ChannelSupervisor;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DropPolicy;
import dev.clawgate.core.config.QueueMode;
import dev.clawgate.core.config.QueueSettings;
import dev.clawgate.core.dispatch.Admission;
import dev.clawgate.core.dispatch.Dispatcher;
import dev.clawgate.core.dispatch.Inbox;
import dev.clawgate.core.dispatch.QueuePolicy;
import dev.clawgate.core.dispatch.TurnRunner;
import dev.clawgate.core.hook.InboundHook;
import dev.clawgate.core.hook.SendingHook;
import dev.clawgate.core.inbound.ChannelNames;
import dev.clawgate.core.inbound.SessionKeys;
import dev.clawgate.core.memory.Consolidation;
import dev.clawgate.core.memory.Consolidator;
import dev.clawgate.core.memory.MemoryHygiene;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.multimodal.PublicWeb;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.DirectDelivery;
import dev.clawgate.core.outbound.Durability;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.Outbox;
import dev.clawgate.core.outbound.OutboxWorker;
import dev.clawgate.core.outbound.Pacer;
import dev.clawgate.core.outbound.Payloads;
import dev.clawgate.core.prompt.ChannelGuidance;
import dev.clawgate.core.prompt.SystemPromptBuilder;
import dev.clawgate.core.prompt.SystemPromptCache;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.core.tool.ToolRegistry;
import dev.clawgate.core.tool.builtin.BuiltinTools;
import dev.clawgate.core.tool.builtin.sandbox.SandboxFinding;
import dev.clawgate.core.tool.builtin.sandbox.ShellSandboxStatus;
import dev.clawgate.core.tool.builtin.sandbox.ShellSandboxes;
import dev.clawgate.core.turn.ModelChoice;
import dev.clawgate.core.turn.ModelSelector;
import dev.clawgate.core.turn.QueueDirective;
import dev.clawgate.core.turn.StopReplies;
import dev.clawgate.core.turn.TurnPipeline;
import dev.clawgate.core.turn.TurnServices;
import dev.clawgate.mcp.McpServerStatus;
import dev.clawgate.mcp.McpServers;
import dev.clawgate.server.channel.ApiChannel;
import dev.clawgate.server.channel.WebChatChannel;
import dev.clawgate.server.cluster.ClusterNode;
import dev.clawgate.server.cluster.StoreOpening;
import dev.clawgate.server.config.ConfigException;
import dev.clawgate.server.config.Deployment;
import dev.clawgate.server.http.HttpServer;
import dev.clawgate.server.logging.TurnLogContext;
import dev.clawgate.server.web.JettyPinnedHttp;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Wires one running gateway from a config: store, providers, tools, the turn pipeline, the dispatcher and inbox, the
 * channels, and (for {@code run}) the HTTP server. Closing it stops them in reverse order.
 */
public final class Gateway implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Gateway.class);
    private static final Duration QUEUED_NOTICE_AFTER = Duration.ofSeconds(2);

    /**
     * What to start besides the core: the HTTP server (with the API channel), extra channels, the
     * {@code on_message_sending} (SPEC RP-1) and {@code on_message_received} (IN-7) hooks of an embedding program, the
     * config file (hidden from shell commands, SPEC AG-8; null when there is none) and the web client of
     * {@code web_fetch} and remote images (null: Jetty's, to public addresses only, SPEC AG-4, AG-5).
     */
    public record Options(
            boolean http,
            List<Channel> channels,
            SendingHook sendingHook,
            InboundHook inboundHook,
            Path configFile,
            PublicWeb web,
            Deployment deployment) {
        public Options {
            channels = List.copyOf(channels);
            sendingHook = sendingHook == null ? SendingHook.PASS : sendingHook;
            inboundHook = inboundHook == null ? InboundHook.PASS : inboundHook;
            deployment = deployment == null ? Deployment.local() : deployment;
        }

        public Options(boolean http, List<Channel> channels, SendingHook sendingHook, InboundHook inboundHook) {
            this(http, channels, sendingHook, inboundHook, null, null, null);
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
            return new Options(http, channels, hook, inboundHook, configFile, web, deployment);
        }

        public Options withInboundHook(InboundHook hook) {
            return new Options(http, channels, sendingHook, hook, configFile, web, deployment);
        }

        public Options withConfigFile(Path file) {
            return new Options(http, channels, sendingHook, inboundHook, file, web, deployment);
        }

        public Options withWeb(PublicWeb client) {
            return new Options(http, channels, sendingHook, inboundHook, configFile, client, deployment);
        }

        /** {@code [store]} and {@code [cluster]} (SPEC OP-1, OP-2). */
        public Options withDeployment(Deployment where) {
            return new Options(http, channels, sendingHook, inboundHook, configFile, web, where);
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
    private ChannelSupervisor supervisor;
    private OutboxWorker outboxWorker;
    private SystemPromptCache prompts;
    private HttpServer http;
    private ScheduledExecutorService memoryHygiene;
    private CronScheduler cron;
    private Consolidation consolidation;
    private GatewayMetrics metrics;
    private final JettyPinnedHttp fetchClient;
    private final PublicWeb web;
    private final Path configFile;
    private List<SandboxFinding> shellFindings = List.of();
    private McpServers mcp;
    private ClusterNode cluster;

    private Gateway(ClawgateConfig cfg, Options options) throws Exception {
        this.config = new AtomicReference<>(cfg);
        this.configFile = options.configFile();
        this.fetchClient = options.web() == null ? new JettyPinnedHttp() : null;
        this.web = options.web() == null ? PublicWeb.of(fetchClient) : options.web();
        if (options.http())
            HttpServer.checkBind(cfg.gateway().bind(), cfg.gateway().authToken());
        // SPEC OP-6: private to the gateway's user (Stores.open would make it so too; created so from the start)
        dev.clawgate.store.PrivateFiles.directory(cfg.gateway().dataDir());
        Files.createDirectories(cfg.agent().workspace());
        this.store = StoreOpening.open(options.deployment(), cfg.gateway().dataDir());
        try {
            this.providers = new AtomicReference<>(new ConfiguredProviders(cfg.providers()));
            this.access = new AccessGate(PairingBook.backedBy(store), Clock.systemUTC());
            this.tools = new AtomicReference<>(toolsFor(cfg));
            // SPEC AG-7: started in the background; their tools join a turn's once the server is ready
            this.mcp = McpServers.start(cfg.mcp());
            ApiChannel api = null;
            WebChatChannel webchat = null;
            if (options.http()) {
                api = new ApiChannel(
                        this::turnBudget,
                        this::modelNames,
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
                            factory.name(),
                            factory.create(settings, cfg.gateway().dataDir()));
            }

            requireReconcileWhereDurabilityIsRequired(cfg);
            // SPEC OUT-13: media markers may name files in the workspace or the data dir
            Payloads payloads = new Payloads(
                    options.sendingHook(),
                    new Payloads.MediaRoots(
                            () -> config.get().agent().workspace(),
                            cfg.gateway().dataDir()));
            this.metrics = new GatewayMetrics(store);
            metrics.watchChannels(channels.values());
            Outbox outbox = new Outbox(
                    store,
                    Clock.systemUTC(),
                    payloads,
                    () -> config.get().outbox(),
                    Math::random,
                    metrics.outboxObserver());
            // SPEC MD-3: "matrix:!room" routes to the matrix channel
            // SPEC SP-1: each channel says how its replies are formatted
            ChannelGuidance guidance = new ChannelGuidance(
                    name -> Optional.ofNullable(
                                    channels.get(ChannelNames.split(name).channel()))
                            .map(Channel::formatGuidance),
                    ChannelGuidance.FALLBACK);
            this.prompts = new SystemPromptCache(SystemPromptBuilder.create(
                    Clock.systemDefaultZone(),
                    java.time.ZoneId.systemDefault(),
                    () -> config.get().agent().skillsMode(),
                    guidance));
            TurnServices services = TurnServices.builder()
                    .store(store)
                    .channels(name -> Optional.ofNullable(
                            channels.get(ChannelNames.split(name).channel())))
                    .providers(providers::get)
                    .tools(this::turnTools)
                    .prompts(prompts)
                    .inboundHook(options.inboundHook())
                    .delivery(new DirectDelivery(payloads))
                    .outbox(outbox)
                    .config(config::get)
                    .sessionStatus(this::sessionStatus)
                    .memory(store.memory())
                    .web(web)
                    .build();
            Dispatcher.Policy policy = Dispatcher.Policy.builder()
                    .queue(this::queuePolicy)
                    .requestResponse(r -> requestResponse(r.message().channel()))
                    .turnBudget(this::turnBudget)
                    .notices(this::notice, QUEUED_NOTICE_AFTER)
                    .admission(this::admit)
                    // request/response channels answer each request on its own connection: never batched
                    .debounceMs(channel -> requestResponse(channel)
                            ? 0L
                            : config.get().inbound().debounceMsFor(channel))
                    .build();
            // SPEC ME-6: after each turn, off its reply path; bounded, fire and forget
            this.consolidation = new Consolidation(
                            new Consolidator(
                                    store, store.memory(), () -> config.get().memory(), this::consolidationModel),
                            () -> config.get().memory(),
                            cfg.memory().consolidationQueue(),
                            Clock.systemUTC())
                    .start();
            TurnPipeline turns = new TurnPipeline(services, metrics.modelAttempts());
            // SPEC OP-5: the turn's session key, inbox id and turn id on every line it logs
            TurnRunner runner = TurnLogContext.around(consolidation.after(turns));
            this.dispatcher = new Dispatcher(
                            store,
                            runner,
                            TurnPipeline.DISPATCHING,
                            turns.receipts(),
                            new StopReplies(services),
                            policy,
                            cfg.dispatch().busCapacity(),
                            cfg.dispatch().effectiveMaxInFlight(channels.size()),
                            Clock.systemUTC())
                    .start();
            // SPEC OUT-7: before any recovered turn runs, so no live send is mistaken for one cut by the crash
            Pacer replayPace = Pacer.perSecond(cfg.outbox().replayPerSecond());
            // SPEC OP-2: in a cluster, what a dead node left is taken over by the others, not by a restart
            this.cluster = StoreOpening.cluster(options.deployment(), cfg);
            if (cluster == null) outbox.recover(this::durableAdapter, replayPace);
            this.outboxWorker = new OutboxWorker(outbox, this::durableAdapter, replayPace, OUTBOX_RETRY_POLL).start();
            if (cluster == null)
                dispatcher.recover(
                        cfg.inbound().inboxMaxAge(),
                        r -> channels.containsKey(r.message().channel()));
            Inbox inbox = new Inbox(
                    store,
                    dispatcher,
                    m -> SessionKeys.of(m, config.get().session(), config.get().gateway()),
                    cfg.inbound().dedupeTtl(),
                    () -> config.get().inbound().maxChars(),
                    metrics::unreadable);
            // said before any channel starts, so in the terminal it comes before the first prompt (issue 14)
            if (providers.get().names().isEmpty()) log.warn(dev.clawgate.core.turn.ModelSelector.NO_PROVIDER);
            // SPEC CH-0: the supervisor owns every listener: started here, stopped at close, restartable meanwhile
            this.supervisor = new ChannelSupervisor(
                    channels.values(), cluster == null ? inbox : cluster.sink(inbox, channels.values()));
            if (cluster == null) supervisor.startAll();
            else cluster.start(dispatcher, supervisor, cfg.gateway().bind());
            this.memoryHygiene = startMemoryHygiene();
            this.cron = new CronScheduler(
                            store.cron(),
                            inbox,
                            channels::containsKey,
                            () -> config.get().cron(),
                            Clock.systemUTC())
                    .start();
            this.http = options.http()
                    ? HttpServer.start(
                            cfg.gateway().bind(),
                            cfg.gateway().authToken(),
                            cfg.gateway().bounds(),
                            api,
                            webchat,
                            new ArrayList<>(channels.values()),
                            this::readiness,
                            cluster == null ? metrics::scrape : () -> metrics.scrape() + cluster.scrape())
                    : null;
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    /** The built-in tools of {@code cfg}, the cron tools included (SPEC AG-5), the shell in its sandbox (AG-8). */
    private ToolRegistry toolsFor(ClawgateConfig cfg) {
        List<Path> hidden = new ArrayList<>(List.of(cfg.gateway().dataDir()));
        if (configFile != null) hidden.add(configFile);
        ShellSandboxStatus shell = ShellSandboxes.select(cfg.tools(), hidden);
        logShellSandbox(shell);
        List<dev.clawgate.core.tool.Tool> all =
                new ArrayList<>(BuiltinTools.create(cfg.tools(), cfg.memory(), shell, web));
        all.addAll(BuiltinTools.cron(
                store.cron(), cfg.cron(), () -> config.get().cron(), Clock.systemUTC(), this::cronChanged));
        return new ToolRegistry(all);
    }

    /** What a turn may use (SPEC AG-5, AG-7): the built-in tools, then those of the MCP servers ready now. */
    private ToolRegistry turnTools() {
        ToolRegistry builtin = tools.get();
        List<dev.clawgate.core.tool.Tool> remote = mcp == null ? List.of() : mcp.tools();
        if (remote.isEmpty()) return builtin;
        List<dev.clawgate.core.tool.Tool> all = new ArrayList<>(builtin.all());
        for (dev.clawgate.core.tool.Tool t : remote) if (!builtin.names().contains(t.name())) all.add(t);
        return new ToolRegistry(all);
    }

    /** Each configured MCP server, its state and its tools (SPEC AG-7). */
    public List<McpServerStatus> mcpServers() {
        return mcp == null ? List.of() : mcp.status();
    }

    /** SPEC AG-8: what the shell runs in, and each limit that does not hold; said at start, again when it changes. */
    private void logShellSandbox(ShellSandboxStatus shell) {
        if (shell.findings().equals(shellFindings)) return;
        shellFindings = shell.findings();
        for (SandboxFinding f : shell.findings()) {
            switch (f.level()) {
                case OK -> log.info("{}", f.what());
                case WARNING, PROBLEM -> log.warn("{}; to fix: {}", f.what(), f.fix());
            }
        }
    }

    /**
     * The agent's default model, as a turn without routes or a /model choice gets it: what consolidation asks (SPEC
     * ME-6).
     */
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
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofVirtual().name("memory-hygiene").factory());
        timer.scheduleWithFixedDelay(
                () -> {
                    try {
                        int removed = MemoryHygiene.expire(
                                store.memory(), config.get().memory(), Instant.now());
                        if (removed > 0) log.info("memory hygiene: removed {} expired conversation memories", removed);
                    } catch (StoreException e) {
                        log.warn(
                                "memory hygiene failed; trying again in {}: {}",
                                MemoryHygiene.INTERVAL,
                                e.getMessage());
                    }
                },
                0,
                MemoryHygiene.INTERVAL.toMillis(),
                TimeUnit.MILLISECONDS);
        return timer;
    }

    /** Starts a gateway; on failure everything it had started is closed again before the error propagates. */
    public static Gateway start(ClawgateConfig config, Options options) throws Exception {
        return new Gateway(config, options);
    }

    /** {@code channels.webchat.enabled}, true unless set false: the page is served with the HTTP server (SPEC CH-2). */
    public static boolean webChatEnabled(ClawgateConfig cfg) {
        return !"false".equals(cfg.channel(WebChatChannel.NAME).options().get("enabled"));
    }

    /** SPEC DI-3 precedence: the session's /queue directive, then the channel's mode, then the global one. */
    private QueuePolicy queuePolicy(InboxRecord r) {
        QueueSettings q = config.get().queue();
        SessionKey s = r.session();
        QueueMode mode = store.transcripts()
                .setting(s, QueueDirective.MODE)
                .flatMap(QueueMode::parse)
                .orElse(q.modeFor(r.message().channel()));
        long quietMs = store.transcripts()
                .setting(s, QueueDirective.DEBOUNCE_MS)
                .map(Long::parseLong)
                .orElse(q.debounceMs());
        int cap = store.transcripts()
                .setting(s, QueueDirective.CAP)
                .map(Integer::parseInt)
                .orElse(q.cap());
        DropPolicy drop = store.transcripts()
                .setting(s, QueueDirective.DROP)
                .flatMap(DropPolicy::parse)
                .orElse(q.drop());
        return new QueuePolicy(mode, Duration.ofMillis(quietMs), cap, drop);
    }

    /** SPEC IN-5 access control, IN-6 group triggers; owner channels are exempt. */
    private Admission.Verdict admit(InboxRecord r) {
        boolean owner = Optional.ofNullable(channels.get(r.message().channel()))
                .map(Channel::ownerChannel)
                .orElse(false);
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
            ch.messageAdapter()
                    .send(
                            new OutboundMessage(
                                    OutboundTarget.replyTo(r.message()), text, OutboundMessage.Kind.NOTICE, r.id()),
                            CancelToken.none());
        } catch (DeliveryException e) {
            log.info("notice to {} on {} not delivered: {}", r.message().sender(), ch.name(), e.getMessage());
        }
    }

    /** Whether {@code channel} answers each request on its own connection (the API, web chat). */
    private boolean requestResponse(String channel) {
        return Optional.ofNullable(channels.get(channel))
                .map(Channel::requestResponse)
                .orElse(false);
    }

    private Duration turnBudget() {
        return Duration.ofSeconds(config.get().agent().turnBudgetSecs());
    }

    private Dispatcher.SessionStatus sessionStatus(SessionKey key) {
        return dispatcher.status(key);
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
            ChannelHealth h = supervisor == null ? ch.health() : supervisor.health(ch.name());
            // SPEC OP-2: a pull channel listens on one node; the others stand by, healthy
            boolean standby = cluster != null && cluster.standby(ch.name());
            parts.put("channel." + ch.name(), standby ? "standby" : h.healthy() ? "ok" : h.detail());
            ready &= standby || h.healthy();
        }
        if (cluster != null) parts.putAll(cluster.readiness());
        // SPEC AG-7: shown, not required: a turn runs without a server's tools while it restarts
        for (McpServerStatus m : mcpServers()) {
            parts.put("mcp." + m.name(), m.state().name().toLowerCase(java.util.Locale.ROOT));
        }
        parts.put(
                "providers",
                providers.get().names().isEmpty()
                        ? "none configured"
                        : String.join(",", providers.get().names()));
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
     * Puts a changed config in force without a restart (SPEC RT-3): providers, routes, tools and every setting read per
     * turn or per message. Runs in flight keep what they started with (a turn reads the config once, at its start).
     * What only a restart can change (data dir, bind address, the set of channels, the gateway token of the HTTP
     * server) is kept, with a warning.
     *
     * @throws RuntimeException when the new config cannot be put in force (a provider cannot be built); nothing changes
     *     then
     */
    public void reload(ClawgateConfig next) {
        ConfiguredProviders nextProviders = new ConfiguredProviders(next.providers());
        ToolRegistry nextTools = toolsFor(next);
        ClawgateConfig current = config.get();
        List<String> restartOnly = next.restartOnlyChanges(current);
        if (!restartOnly.isEmpty())
            log.warn("config: {} changed; that needs a restart, the running values stay until then", restartOnly);
        providers.set(nextProviders);
        tools.set(nextTools);
        config.set(next.withRestartOnlyFrom(current));
        prompts.invalidateAll();
        log.info(
                "config reloaded: providers {}, agent provider {}",
                next.providers().keySet(),
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

    /** The owner of every channel listener (SPEC CH-0): stop and start one while the gateway runs. */
    public ChannelSupervisor channels() {
        return supervisor;
    }

    public Dispatcher dispatcher() {
        return dispatcher;
    }

    /** The adapter of {@code name}'s channel when its replies go through the outbox (SPEC OUT-6). */
    private Optional<MessageAdapter> durableAdapter(String name) {
        return Optional.ofNullable(channels.get(ChannelNames.split(name).channel()))
                .map(Channel::messageAdapter)
                .filter(a -> a.durability() != Durability.DISABLED);
    }

    /**
     * SPEC OUT-6: {@code required} needs every durable channel to reconcile unknown sends; say which cannot, at start.
     */
    private void requireReconcileWhereDurabilityIsRequired(ClawgateConfig cfg) {
        if (cfg.outbox().durability() != Durability.REQUIRED) return;
        for (Channel ch : channels.values()) {
            MessageAdapter a = ch.messageAdapter();
            if (a.durability() != Durability.DISABLED
                    && !a.capabilities().contains(Capability.RECONCILE_UNKNOWN_SEND)) {
                throw new ConfigException(
                        "outbox.durability = \"required\" needs channels that can reconcile unknown sends, and "
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
        if (cluster != null) cluster.quiesce();
        if (supervisor != null) supervisor.close();
        if (dispatcher != null) dispatcher.close(Duration.ofSeconds(10));
        // after the dispatcher: the others take over what this node leaves unfinished (SPEC OP-2)
        if (cluster != null) cluster.close();
        // after the dispatcher: a CLI provider kills the process trees still running (SPEC SP-4)
        if (providers != null) providers.get().close();
        // after the dispatcher: no turn calls a server's tool any more (SPEC AG-7)
        if (mcp != null) mcp.close();
        if (consolidation != null) consolidation.close();
        if (fetchClient != null) fetchClient.close();
        store.close();
    }
}
