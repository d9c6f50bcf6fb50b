package dev.clawgate.server;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.inspect.TurnInspector;
import dev.clawgate.core.internal.access.AccessGate;
import dev.clawgate.core.internal.channel.ChannelSupervisor;
import dev.clawgate.core.internal.dispatch.Dispatcher;
import dev.clawgate.core.internal.inbound.ChannelNames;
import dev.clawgate.core.internal.inbound.Inbox;
import dev.clawgate.core.internal.inbound.SessionKeys;
import dev.clawgate.core.internal.memory.Consolidation;
import dev.clawgate.core.internal.multimodal.PublicWeb;
import dev.clawgate.core.internal.outbound.DirectDelivery;
import dev.clawgate.core.internal.outbound.Outbox;
import dev.clawgate.core.internal.outbound.OutboxWorker;
import dev.clawgate.core.internal.outbound.Pacer;
import dev.clawgate.core.internal.outbound.Payloads;
import dev.clawgate.core.internal.run.SessionStatus;
import dev.clawgate.core.internal.run.TurnRunner;
import dev.clawgate.core.internal.turn.StopReplies;
import dev.clawgate.core.internal.turn.TurnPipeline;
import dev.clawgate.core.internal.turn.TurnServices;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.prompt.ChannelGuidance;
import dev.clawgate.core.prompt.SystemPromptBuilder;
import dev.clawgate.core.prompt.SystemPromptCache;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.tool.ToolRegistry;
import dev.clawgate.mcp.McpServerStatus;
import dev.clawgate.mcp.McpServers;
import dev.clawgate.server.cluster.ClusterNode;
import dev.clawgate.server.cluster.ConfigDigest;
import dev.clawgate.server.cluster.StoreOpening;
import dev.clawgate.server.control.ControlSources;
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
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires one running gateway from a config: store, providers, tools, the turn pipeline, the dispatcher and inbox, the
 * channels, and (for {@code run}) the HTTP server. Closing it stops them in reverse order.
 */
public final class Gateway implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Gateway.class);

    /** How often the outbox looks for retries that fell due (SPEC OUT-7). */
    private static final Duration OUTBOX_RETRY_POLL = Duration.ofSeconds(1);

    private final AtomicReference<ClawgateConfig> config;
    private AtomicReference<ConfiguredProviders> providers;
    private AtomicReference<ToolRegistry> tools;
    private DispatchRules rules;
    private GatewayTools toolsFactory;
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
    private MemoryRecall recall;
    private GatewayMetrics metrics;
    private final JettyPinnedHttp fetchClient;
    private final PublicWeb web;
    private final Path configFile;
    private McpServers mcp;
    private ClusterNode cluster;

    private Gateway(ClawgateConfig cfg, GatewayOptions options) throws Exception {
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
            this.rules = new DispatchRules(config, store, channels, new AccessGate(store.pairing(), Clock.systemUTC()));
            this.toolsFactory = new GatewayTools(config, store, web, configFile, this::cronChanged);
            this.tools = new AtomicReference<>(toolsFactory.toolsFor(cfg));
            // SPEC AG-7: started in the background; their tools join a turn's once the server is ready
            this.mcp = McpServers.start(cfg.mcp());
            GatewayChannels owned = GatewayChannels.open(cfg, options, channels, config, store, rules::turnBudget);

            DurableChannels.requireReconcileWhereDurabilityIsRequired(cfg, channels);
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
            // SPEC ME-5: hybrid recall when an embedder can be had, keyword only otherwise
            this.recall =
                    MemoryRecall.start(store.memory(), cfg, () -> config.get().memory());
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
                    .memory(recall.memory())
                    .web(web)
                    .build();
            Dispatcher.Policy policy = rules.policy();
            // SPEC ME-6: after each turn, off its reply path; bounded, fire and forget
            this.consolidation = MemoryUpkeep.startConsolidation(store, config, providers, recall::afterTurn);
            TurnPipeline turns = new TurnPipeline(services, metrics.modelAttempts());
            // SPEC OP-5: the turn's session key, inbox id and turn id on every line it logs
            TurnRunner runner = options.telemetry().around(TurnLogContext.around(consolidation.after(turns)));
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
                    metrics::unreadable,
                    new TurnInspector(store.turns(), () -> config.get().inspector(), Clock.systemUTC()));
            // said before any channel starts, so in the terminal it comes before the first prompt (issue 14)
            if (providers.get().names().isEmpty()) log.warn(dev.clawgate.core.internal.turn.ModelSelector.NO_PROVIDER);
            // SPEC CH-0: the supervisor owns every listener: started here, stopped at close, restartable meanwhile
            this.supervisor = new ChannelSupervisor(
                    channels.values(), cluster == null ? inbox : cluster.sink(inbox, channels.values()));
            if (cluster == null) supervisor.startAll();
            else cluster.start(dispatcher, supervisor, cfg.gateway().bind());
            this.memoryHygiene = MemoryUpkeep.startHygiene(store, config::get);
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
                            owned.api(),
                            owned.webchat(),
                            new ArrayList<>(channels.values()),
                            this::readiness,
                            cluster == null ? metrics::scrape : () -> metrics.scrape() + cluster.scrape(),
                            new ControlSources(store, supervisor, dispatcher, config::get, Instant.now(), recall))
                    : null;
            // after the listeners and the server: the model's load does not slow the start (issue 27)
            recall.warmUpInBackground();
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    /** What a turn may use (SPEC AG-5, AG-7): the built-in tools, then those of the MCP servers ready now. */
    private ToolRegistry turnTools() {
        return GatewayTools.withServerTools(tools.get(), mcp == null ? List.of() : mcp.tools());
    }

    /** Each configured MCP server, its state and its tools (SPEC AG-7). */
    public List<McpServerStatus> mcpServers() {
        return mcp == null ? List.of() : mcp.status();
    }

    /** Memory consolidation's counters (SPEC ME-6): for status and tests. */
    public Consolidation.Stats consolidation() {
        return consolidation.stats();
    }

    /** The memory recall mode and its indexer (SPEC ME-5): for status and tests. */
    public MemoryRecall memoryRecall() {
        return recall;
    }

    private void cronChanged() {
        if (cron != null) cron.wake();
    }

    /** Starts a gateway; on failure everything it had started is closed again before the error propagates. */
    public static Gateway start(ClawgateConfig config, GatewayOptions options) throws Exception {
        return new Gateway(config, options);
    }

    /** {@code channels.webchat.enabled}, true unless set false: the page is served with the HTTP server (SPEC CH-2). */
    public static boolean webChatEnabled(ClawgateConfig cfg) {
        return GatewayChannels.webChatEnabled(cfg);
    }

    private SessionStatus sessionStatus(SessionKey key) {
        return dispatcher.status(key);
    }

    public HttpServer.Readiness readiness() {
        return GatewayReadiness.of(store, channels.values(), supervisor, cluster, mcpServers(), providers.get());
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
        reload(next, true);
    }

    /**
     * {@link #reload(ClawgateConfig)}, told to the cluster when {@code announce} (SPEC OP-2): false when this reload
     * follows another node's, so announcements do not echo.
     */
    public void reload(ClawgateConfig next, boolean announce) {
        ConfiguredProviders nextProviders = new ConfiguredProviders(next.providers());
        ToolRegistry nextTools = toolsFactory.toolsFor(next);
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
        if (announce && cluster != null && configFile != null) cluster.announceConfig(ConfigDigest.of(configFile));
    }

    /**
     * In a cluster (SPEC OP-2, RT-3): re-reads this node's config file with {@code reRead} whenever another node
     * announces a reload; nothing otherwise.
     */
    public void followClusterReloads(Runnable reRead) {
        if (cluster != null && configFile != null) cluster.followConfig(reRead, () -> ConfigDigest.of(configFile));
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
        return DurableChannels.durableAdapter(channels, name);
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
        if (recall != null) recall.close();
        if (fetchClient != null) fetchClient.close();
        store.close();
    }
}
