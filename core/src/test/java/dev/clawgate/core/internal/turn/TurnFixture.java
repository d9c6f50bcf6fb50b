package dev.clawgate.core.internal.turn;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.AgentSettings;
import dev.clawgate.core.config.ChannelOutput;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.config.RouteSettings;
import dev.clawgate.core.hook.InboundHook;
import dev.clawgate.core.hook.SendingHook;
import dev.clawgate.core.internal.outbound.DirectDelivery;
import dev.clawgate.core.internal.outbound.Outbox;
import dev.clawgate.core.internal.outbound.Payloads;
import dev.clawgate.core.internal.run.SessionStatus;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.prompt.SystemPromptBuilder;
import dev.clawgate.core.prompt.SystemPromptCache;
import dev.clawgate.core.provider.Provider;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.testing.InMemoryStore;
import dev.clawgate.core.testing.ManualScheduler;
import dev.clawgate.core.testing.RecordingChannel;
import dev.clawgate.core.testing.ScriptedProvider;
import dev.clawgate.core.tool.Tool;
import dev.clawgate.core.tool.ToolRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A turn pipeline over the in-memory store, scripted providers and a recording channel. */
final class TurnFixture {
    final InMemoryStore store = new InMemoryStore();
    final RecordingChannel channel;
    final Map<String, ScriptedProvider> providers = new LinkedHashMap<>();
    final Path workspace;
    /** The gateway's data dir media markers may also name (SPEC OUT-13); null for none. */
    Path dataDir;

    InboundHook inboundHook = InboundHook.PASS;
    SendingHook sendingHook = SendingHook.PASS;
    List<RouteSettings> routes = new ArrayList<>();
    List<Tool> tools = new ArrayList<>();
    boolean showToolCalls;
    /** {@code agent.fallback}: providers tried after the first on transient errors and rate limits (SPEC SP-4). */
    List<String> fallback = new ArrayList<>();

    dev.clawgate.core.config.OutboxSettings outbox = dev.clawgate.core.config.OutboxSettings.defaults();
    MemorySettings memory = MemorySettings.defaults();
    /** False: services wired without memory, as an embedding program may do. */
    boolean wireMemory = true;
    /** {@code channels.<ch>} reply shaping (SPEC OUT-2, OUT-3) and {@code messages.response_prefix}. */
    ChannelOutput output = ChannelOutput.defaults();

    String responsePrefix = "";
    /** The turns' timer (SPEC OUT-2 block idle and human delay, RP-5 typing): moves only when a test advances it. */
    final ManualScheduler scheduler = new ManualScheduler();
    /** When set, the turns' channel (named like {@link #channel}) is this one: sends over a loopback socket. */
    Channel platform;
    /** The outbox of the last {@link #services()}: a test drives its retries. */
    Outbox outboxInUse;

    private final Map<String, ProviderSettings> settings = new LinkedHashMap<>();

    TurnFixture(Path workspace, String channelName) {
        this.workspace = workspace;
        this.channel = new RecordingChannel(channelName, true);
    }

    ScriptedProvider provider(String name, String model, boolean nativeTools, boolean vision) {
        ScriptedProvider p = new ScriptedProvider(
                name, new dev.clawgate.core.provider.ProviderCapabilities(nativeTools, vision, true));
        providers.put(name, p);
        settings.put(name, new ProviderSettings(name, "openai", null, "k", nativeTools, model, 30));
        return p;
    }

    ClawgateConfig config() {
        ClawgateConfig d = ClawgateConfig.defaults();
        AgentSettings a = d.agent();
        return new ClawgateConfig(
                        d.gateway(),
                        new AgentSettings(
                                providers.isEmpty()
                                        ? null
                                        : providers.keySet().iterator().next(),
                                null,
                                5,
                                a.messageTimeoutSecs(),
                                a.timeoutScaleCap(),
                                workspace,
                                showToolCalls,
                                fallback),
                        settings,
                        routes,
                        d.history(),
                        d.tools(),
                        d.dispatch())
                .withChannel(new ChannelSettings(
                        channel.name(), AccessSettings.defaults(), Map.of(), Map.of(), Map.of(), output))
                .withResponsePrefix(responsePrefix)
                .withOutbox(outbox)
                .withMemory(memory);
    }

    TurnServices services() {
        Map<String, Provider> ps = new LinkedHashMap<>(providers);
        ProviderDirectory dir = new ProviderDirectory() {
            public Optional<Provider> find(String name) {
                return Optional.ofNullable(ps.get(name));
            }

            public Optional<ProviderSettings> settings(String name) {
                return Optional.ofNullable(settings.get(name));
            }

            public List<String> names() {
                return new ArrayList<>(ps.keySet());
            }
        };
        ClawgateConfig cfg = config();
        Payloads payloads = new Payloads(
                (text, target) -> sendingHook.onMessageSending(text, target),
                new Payloads.MediaRoots(() -> workspace, dataDir));
        ToolRegistry registry = new ToolRegistry(tools);
        Channel ch = platform != null ? platform : channel;
        outboxInUse = new Outbox(store, Clock.systemUTC(), payloads, cfg::outbox, Math::random);
        return TurnServices.builder()
                .store(store)
                .channels(name -> name.equals(channel.name()) ? Optional.<Channel>of(ch) : Optional.empty())
                .providers(() -> dir)
                .tools(() -> registry)
                .prompts(new SystemPromptCache(SystemPromptBuilder.create(Clock.systemUTC(), ZoneId.of("UTC"))))
                .inboundHook(inboundHook)
                .delivery(new DirectDelivery(payloads))
                .outbox(outboxInUse)
                .config(() -> cfg)
                .sessionStatus(k -> new SessionStatus(false, 0))
                .memory(wireMemory ? store.memory() : dev.clawgate.core.memory.Memory.NONE)
                .scheduler(scheduler)
                .build();
    }

    InboxRecord record(String sender, String text) {
        return record(sender, sender, ChatType.DIRECT, text);
    }

    InboxRecord record(String chat, String sender, ChatType type, String text) {
        InboundMessage m = new InboundMessage(
                "id-" + text.hashCode(),
                channel.name(),
                null,
                sender,
                sender,
                chat,
                null,
                null,
                type,
                true,
                Instant.now(),
                text,
                List.of(),
                null);
        return store.inbox().record(m, SessionKey.of(m), null, Duration.ZERO).orElseThrow();
    }

    RunHandle run(InboxRecord... records) {
        return run(handle(records));
    }

    /** A run's handle before it runs: a test cancels it mid-run (a /stop, an interrupt). */
    RunHandle handle(InboxRecord... records) {
        return new RunHandle(List.of(records), Instant.now());
    }

    RunHandle run(RunHandle h) {
        new TurnPipeline(services()).run(h);
        return h;
    }
}
