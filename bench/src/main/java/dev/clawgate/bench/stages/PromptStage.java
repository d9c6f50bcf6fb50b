package dev.clawgate.bench.stages;

import dev.clawgate.bench.BenchChannel;
import dev.clawgate.bench.InstantProvider;
import dev.clawgate.bench.LookupTool;
import dev.clawgate.core.config.AgentSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.GatewaySettings;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.internal.agent.ModelRoute;
import dev.clawgate.core.internal.outbound.Delivery;
import dev.clawgate.core.internal.outbound.Outbox;
import dev.clawgate.core.internal.tool.builtin.BuiltinTools;
import dev.clawgate.core.internal.turn.BenchConversationBuilder;
import dev.clawgate.core.internal.turn.TurnServices;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.prompt.MemoryLine;
import dev.clawgate.core.prompt.SystemPromptBuilder;
import dev.clawgate.core.prompt.SystemPromptCache;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.tool.Tool;
import dev.clawgate.core.tool.ToolRegistry;
import dev.clawgate.server.ConfiguredProviders;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The messages of a turn's first model call, built by the turn's own {@code ConversationBuilder}: the session's
 * transcript loaded ({@code history.max_messages} = 50 of its {@link #TURNS} turns), normalised and trimmed, and the
 * system prompt from the gateway's per-session cache (the stable part built once per session, the date and the turn's
 * three recalled memories put in every time), with the built-in tools and {@code lookup} offered natively. Building
 * only reads, so the store stays as seeded.
 */
@State(Scope.Benchmark)
public class PromptStage {
    /** Turns already in the session: more than the 50 messages a turn loads. */
    static final int TURNS = 30;

    static final String REPLY = """
            Here is what I found. The report is due on the 14th:

            - Ana drafts the figures by the 10th.
            - You review them on the 12th.
            - Marc sends it to the board.

            Tell me if you want a reminder the day before.""";

    public TempStore db;
    public ClawgateConfig config;
    public BenchConversationBuilder conversation;
    public ModelRoute route;
    public ToolRegistry tools;
    public InboxRecord current;
    public List<MemoryLine> memory;

    @Setup(Level.Trial)
    public void seed() {
        db = TempStore.open("prompt");
        Path workspace = db.root().resolve("workspace");
        createDirectories(workspace);
        ProviderSettings provider =
                new ProviderSettings(InstantProvider.NAME, "instant", null, null, true, InstantProvider.MODEL, 30);
        ClawgateConfig defaults = ClawgateConfig.defaults();
        config = new ClawgateConfig(
                new GatewaySettings(db.root().resolve("data"), "127.0.0.1:0", null),
                new AgentSettings(InstantProvider.NAME, InstantProvider.MODEL, 10, 300, 4, workspace, false, List.of()),
                Map.of(InstantProvider.NAME, provider),
                List.of(),
                defaults.history(),
                defaults.tools(),
                defaults.dispatch());
        InstantProvider model = new InstantProvider(0);
        ConfiguredProviders providers =
                new ConfiguredProviders(Map.of(InstantProvider.NAME, provider), Map.of(InstantProvider.NAME, model));
        List<Tool> all = new ArrayList<>(BuiltinTools.create(config.tools()));
        all.add(new LookupTool());
        tools = new ToolRegistry(all);
        route = new ModelRoute(
                model, InstantProvider.MODEL, model.capabilities().nativeTools());
        Store store = db.store();
        TurnServices services = TurnServices.builder()
                .store(store)
                .channels(name -> Optional.empty())
                .providers(() -> providers)
                .tools(() -> tools)
                .prompts(new SystemPromptCache(
                        SystemPromptBuilder.create(Clock.systemDefaultZone(), ZoneId.systemDefault())))
                .delivery(Delivery.direct())
                .outbox(new Outbox(store, Clock.systemUTC()))
                .config(() -> config)
                .sessionStatus(key -> null)
                .build();
        conversation = new BenchConversationBuilder(services);
        for (int i = 0; i < TURNS; i++) {
            InboxRecord turn = userMessage(
                    "t-" + i,
                    "Question " + i + ": what about the quarterly report, part " + i
                            + "? Who has the figures and when is it due?");
            String reply = i % 4 == 3 ? "[Used tools: lookup]\nThe lookup said: value " + i + ". " + REPLY : REPLY;
            store.transcripts().completeTurn(turn.session(), turn.id(), reply, InboxState.DONE);
        }
        current = userMessage("current", "And who reviews the figures before Marc sends the report?");
        memory = List.of(
                new MemoryLine("conversation_a1", "Ana drafts the quarterly figures; she is in Madrid on Fridays"),
                new MemoryLine("conversation_b2", "The board meets on the second Tuesday of the month"),
                new MemoryLine("core_report", "Reports go out as PDF, never as a spreadsheet"));
    }

    @TearDown(Level.Trial)
    public void close() {
        db.close();
    }

    /** A user message recorded and appended to the session's transcript, as the dispatcher does before a turn. */
    private InboxRecord userMessage(String id, String text) {
        InboundMessage m = InboundMessage.direct(BenchChannel.NAME, id, "user-1", text);
        InboxRecord r = db.store()
                .inbox()
                .record(m, SessionKey.of(m), null, InboundStage.DEDUPE_TTL)
                .orElseThrow();
        db.store().transcripts().appendUserMessage(r.session(), r.id(), text);
        return r;
    }

    private static void createDirectories(Path p) {
        try {
            Files.createDirectories(p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + p, e);
        }
    }
}
