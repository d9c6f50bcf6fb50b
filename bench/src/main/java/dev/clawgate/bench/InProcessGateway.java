package dev.clawgate.bench;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.config.AgentSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.GatewaySettings;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.config.QueueMode;
import dev.clawgate.core.internal.dispatch.Dispatcher;
import dev.clawgate.core.internal.dispatch.QueuePolicy;
import dev.clawgate.core.internal.inbound.Inbox;
import dev.clawgate.core.internal.outbound.Delivery;
import dev.clawgate.core.internal.outbound.Outbox;
import dev.clawgate.core.internal.tool.builtin.BuiltinTools;
import dev.clawgate.core.internal.turn.StopReplies;
import dev.clawgate.core.internal.turn.TurnPipeline;
import dev.clawgate.core.internal.turn.TurnServices;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.prompt.SystemPromptBuilder;
import dev.clawgate.core.prompt.SystemPromptCache;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.tool.Tool;
import dev.clawgate.core.tool.ToolRegistry;
import dev.clawgate.server.ConfiguredProviders;
import dev.clawgate.store.Stores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * The core of a gateway wired as {@code dev.clawgate.server.Gateway} wires it (SQLite store in WAL mode, inbox, bounded
 * dispatcher, turn pipeline, prompt cache, built-in tools), with {@link InstantProvider} as the model and
 * {@link BenchChannel} as the only channel. Lives in a temporary folder that {@link #close()} deletes.
 */
public final class InProcessGateway implements AutoCloseable {
    private static final Duration DEDUPE_TTL = Duration.ofMinutes(20);

    private final Path dir;
    private final Store store;
    private final InstantProvider provider;
    private final BenchChannel channel = new BenchChannel();
    private final Dispatcher dispatcher;
    private final Inbox inbox;
    private final AtomicLong messageIds = new AtomicLong();

    private InProcessGateway(Path dir, int toolEvery) {
        this.dir = dir;
        ClawgateConfig defaults = ClawgateConfig.defaults();
        AgentSettings agent = new AgentSettings(
                InstantProvider.NAME, InstantProvider.MODEL, 10, 300, 4, dir.resolve("workspace"), false, List.of());
        ProviderSettings settings =
                new ProviderSettings(InstantProvider.NAME, "instant", null, null, true, InstantProvider.MODEL, 30);
        ClawgateConfig config = new ClawgateConfig(
                new GatewaySettings(dir.resolve("data"), "127.0.0.1:0", null),
                agent,
                Map.of(InstantProvider.NAME, settings),
                List.of(),
                defaults.history(),
                defaults.tools(),
                defaults.dispatch());
        createDirectories(agent.workspace());
        this.store = Stores.open(null, config.gateway().dataDir());
        this.provider = new InstantProvider(toolEvery);
        ConfiguredProviders providers =
                new ConfiguredProviders(Map.of(InstantProvider.NAME, settings), Map.of(InstantProvider.NAME, provider));
        List<Tool> tools = new ArrayList<>(BuiltinTools.create(config.tools()));
        tools.add(new LookupTool());
        ToolRegistry registry = new ToolRegistry(tools);
        // the pipeline asks the dispatcher for queue depths, and the dispatcher needs the pipeline first
        AtomicReference<Dispatcher> dispatcherRef = new AtomicReference<>();
        TurnServices services = TurnServices.builder()
                .store(store)
                .channels(this::channel)
                .providers(() -> providers)
                .tools(() -> registry)
                .prompts(new SystemPromptCache(
                        SystemPromptBuilder.create(Clock.systemDefaultZone(), ZoneId.systemDefault())))
                .delivery(Delivery.direct())
                .outbox(new Outbox(store, Clock.systemUTC()))
                .config(() -> config)
                .sessionStatus(key -> dispatcherRef.get().status(key))
                .build();
        Dispatcher.Policy policy = Dispatcher.Policy.builder()
                .queue(r -> queuePolicy(r, config))
                .requestResponse(r -> channel.requestResponse())
                .turnBudget(() -> Duration.ofSeconds(config.agent().turnBudgetSecs()))
                .build();
        TurnPipeline turns = new TurnPipeline(services);
        this.dispatcher = new Dispatcher(
                        store,
                        turns,
                        TurnPipeline.DISPATCHING,
                        turns.receipts(),
                        new StopReplies(services),
                        policy,
                        config.dispatch().busCapacity(),
                        config.dispatch().effectiveMaxInFlight(1),
                        Clock.systemUTC())
                .start();
        dispatcherRef.set(dispatcher);
        this.inbox = new Inbox(store, dispatcher, SessionKey::of, DEDUPE_TTL);
    }

    /**
     * Opens a fresh gateway in a new temporary folder.
     *
     * @param toolEvery the model asks for a tool on every n-th turn; 0 never
     */
    public static InProcessGateway start(int toolEvery) {
        Path dir;
        try {
            dir = Files.createTempDirectory("clawgate-bench-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary folder for the benchmark store", e);
        }
        try {
            return new InProcessGateway(dir, toolEvery);
        } catch (RuntimeException | Error e) {
            // an Error too (a NoSuchMethodError from a stale jar): the folder must not outlive a failed start
            RuntimeException cleanup = deleteTree(dir, null);
            if (cleanup != null) e.addSuppressed(cleanup);
            throw e;
        }
    }

    /**
     * One turn as a channel drives it: hands a direct message from {@code sender} to {@link Inbox#accept} and waits for
     * the reply the turn sends.
     *
     * @throws IllegalStateException when the turn answered with an error instead of a final reply
     * @throws TimeoutException when no reply came within {@code timeout}
     */
    public OutboundMessage turn(String sender, String text, Duration timeout)
            throws InterruptedException, TimeoutException {
        String id = "m" + messageIds.incrementAndGet();
        CompletableFuture<OutboundMessage> reply = channel.expectReply(id);
        InboundSink.Acceptance accepted = inbox.accept(InboundMessage.direct(BenchChannel.NAME, id, sender, text));
        if (accepted.duplicate()) {
            channel.forget(id);
            throw new IllegalStateException("message " + id + " was taken for a duplicate");
        }
        OutboundMessage out;
        try {
            out = reply.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            channel.forget(id);
            throw new TimeoutException(
                    "no reply to inbox " + accepted.inboxId() + " within " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            throw new IllegalStateException("waiting for the reply to " + id + " failed", e.getCause());
        }
        if (out.kind() != OutboundMessage.Kind.FINAL) {
            throw new IllegalStateException(
                    "turn " + accepted.inboxId() + " answered with " + out.kind() + ": " + out.text());
        }
        return out;
    }

    public Store store() {
        return store;
    }

    /** The temporary folder holding the database and the workspace; gone after {@link #close()}. */
    public Path directory() {
        return dir;
    }

    public InstantProvider provider() {
        return provider;
    }

    public BenchChannel channel() {
        return channel;
    }

    public Dispatcher dispatcher() {
        return dispatcher;
    }

    /** Stops in the gateway's order (channel, dispatcher, store) and deletes the folder. */
    @Override
    public void close() {
        RuntimeException failure = null;
        try {
            channel.stop();
            dispatcher.close(Duration.ofSeconds(5));
        } catch (RuntimeException e) {
            failure = e;
        }
        try {
            store.close();
        } catch (RuntimeException e) {
            if (failure == null) failure = e;
            else failure.addSuppressed(e);
        }
        failure = deleteTree(dir, failure);
        if (failure != null) throw failure;
    }

    private Optional<Channel> channel(String name) {
        return BenchChannel.NAME.equals(name) ? Optional.of(channel) : Optional.empty();
    }

    /** As the gateway decides it: the session's {@code /queue} setting, else the configured mode. */
    private QueuePolicy queuePolicy(InboxRecord r, ClawgateConfig config) {
        QueueMode mode = store.transcripts()
                .setting(r.session(), "queue")
                .flatMap(QueueMode::parse)
                .orElse(config.queue().mode());
        return new QueuePolicy(
                mode,
                Duration.ofMillis(config.queue().debounceMs()),
                config.queue().cap(),
                config.queue().drop());
    }

    private static void createDirectories(Path p) {
        try {
            Files.createDirectories(p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + p, e);
        }
    }

    /** Deletes {@code dir}; a failure is added to {@code pending} (or becomes it) rather than hiding it. */
    private static RuntimeException deleteTree(Path dir, RuntimeException pending) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
            return pending;
        } catch (IOException e) {
            UncheckedIOException failure = new UncheckedIOException("cannot delete the benchmark folder " + dir, e);
            if (pending == null) return failure;
            pending.addSuppressed(failure);
            return pending;
        }
    }
}
