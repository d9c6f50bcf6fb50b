package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.ChannelOutput;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.GatewaySettings;
import dev.clawgate.core.config.InspectorSettings;
import dev.clawgate.core.inspect.TurnPhase;
import dev.clawgate.core.inspect.TurnSummary;
import dev.clawgate.core.inspect.TurnTrace;
import dev.clawgate.server.cli.Main;
import dev.clawgate.store.Stores;
import dev.clawgate.testkit.openai.Reply;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The turn inspector end to end (SPEC OP-8): the real gateway, the Telegram channel on the fake Bot API and the model
 * on the fake OpenAI server; what each turn did is read back with {@code clawgate turns list} and {@code turns show}.
 */
class TurnInspectorEndToEndTest extends TelegramGatewayFixture {
    private static final String SECRET = "hook-secret_123";

    /** @param port the HTTP port to serve on, or 0 for no HTTP server */
    private void start(Map<String, String> extra, int port, InspectorSettings inspector) throws Exception {
        boolean http = port != 0;
        ClawgateConfig c = config();
        GatewaySettings g = new GatewaySettings(dir.resolve("data"), "127.0.0.1:" + port, null);
        ClawgateConfig cfg = new ClawgateConfig(
                        g,
                        c.agent(),
                        c.providers(),
                        c.routes(),
                        c.history(),
                        c.tools(),
                        c.dispatch(),
                        c.session(),
                        c.inbound(),
                        c.queue(),
                        Map.of("telegram", telegram(extra, ChannelOutput.defaults())))
                .withInspector(inspector);
        start(cfg, http ? GatewayOptions.server() : GatewayOptions.with());
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Runs {@code clawgate ARGS --config F} against the gateway's data dir; what it printed. */
    private String clawgate(String... args) throws Exception {
        Path config = dir.resolve("cli.toml");
        Files.writeString(
                config,
                "[gateway]\ndata_dir = \""
                        + dir.resolve("data").toAbsolutePath().toString().replace("\\", "\\\\") + "\"\n");
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--config";
        all[args.length + 1] = config.toString();
        PrintStream was = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            assertThat(Main.execute(all)).as("clawgate %s", List.of(args)).isEqualTo(Main.OK);
        } finally {
            System.setOut(was);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private List<TurnSummary> turns() {
        try (var store = Stores.open(null, dir.resolve("data"))) {
            return store.turns().list(null, null, 100);
        }
    }

    private TurnTrace trace(long id) {
        try (var store = Stores.open(null, dir.resolve("data"))) {
            return store.turns().find(id).orElseThrow();
        }
    }

    @Test
    void aTelegramTurnIsRecordedPhaseByPhaseAndListedAndShownByTheCli() throws Exception {
        // SPEC OP-8 (every phase of a turn, on by default), OP-4 (clawgate turns), OUT-8 (the send's receipt)
        model.enqueue(
                Reply.toolCalls(Reply.call("file_write", "{\"path\":\"notes/a.txt\",\"content\":\"milk\"}")),
                Reply.text("Noted **milk**."));
        start(Map.of("ack_reactions", "true"), 0, InspectorSettings.defaults());
        tg.sendText(dm, alice, "please note: milk");
        String sentId = dm.id() + ":" + awaitSent(dm, 1).getFirst().messageId();
        await().atMost(Duration.ofSeconds(10)).until(() -> turns().size() == 1);

        TurnSummary turn = turns().getFirst();
        assertThat(turn.outcome()).isEqualTo(TurnSummary.REPLIED);
        assertThat(turn.channel()).isEqualTo("telegram");
        assertThat(turn.preview()).isEqualTo("please note: milk");
        TurnTrace trace = trace(turn.id());
        assertThat(trace.phases())
                .extracting(TurnPhase::name)
                .containsSubsequence(
                        "inbound",
                        "dedupe",
                        "queue",
                        "session",
                        "history",
                        "prompt",
                        "model",
                        "tool",
                        "model",
                        "sanitise",
                        "chunks",
                        "send",
                        "reaction",
                        "end");
        assertThat(trace.phases().stream().filter(p -> p.name().equals("model")))
                .allSatisfy(p -> assertThat(p.detail()).contains("\"provider\":\"fake\"", "\"model\":\"gpt-test\""));
        assertThat(trace.phases().stream()
                        .filter(p -> p.name().equals("tool"))
                        .findFirst()
                        .orElseThrow()
                        .detail())
                .contains("\"name\":\"file_write\"", "notes/a.txt", "\"error\":false");
        assertThat(trace.phases().stream()
                        .filter(p -> p.name().equals("send"))
                        .findFirst()
                        .orElseThrow()
                        .detail())
                .contains("\"outcome\":\"sent\"", "\"message_id\":\"" + sentId + "\"");
        assertThat(trace.phases().stream()
                        .filter(p -> p.name().equals("prompt"))
                        .findFirst()
                        .orElseThrow()
                        .detail())
                .contains("\"sections\":[", "\"name\":\"Tools\"");
        assertThat(trace.prompt())
                .as("the prompt text only with inspector.keep_prompts")
                .isNull();

        String list = clawgate("turns", "list", "--session", turn.session().display());
        assertThat(list.lines()).hasSize(1);
        assertThat(list).startsWith(turn.id() + " ").contains("replied", "please note: milk");
        assertThat(clawgate("turns", "list", "--since", "1h")).startsWith(turn.id() + " ");
        assertThat(clawgate("turns", "list", "--session", "telegram_nobody")).startsWith("No recorded turns");
        String show = clawgate("turns", "show", String.valueOf(turn.id()));
        assertThat(show)
                .contains(
                        "Turn " + turn.id(),
                        "replied",
                        "session " + turn.session().display())
                .containsPattern("\\+\\d+\\.\\d{3} ms +\\d+\\.\\d{3} ms +model +\\{\"provider\":\"fake\"")
                .containsPattern("tool +\\{\"name\":\"file_write\"");
    }

    @Test
    void aContextOverflowShowsTheCompactionAndTheRetry() throws Exception {
        // SPEC OP-8, HI-5: turns show on a turn that hit a context overflow shows the compaction and the retry
        start(Map.of(), 0, new InspectorSettings(true, Duration.ofDays(7), true));
        for (int i = 0; i < 3; i++) {
            model.enqueue(Reply.text("answer " + i + " " + "y".repeat(700)));
            tg.sendText(dm, alice, "message " + i + " " + "x".repeat(700));
            awaitSent(dm, i + 1);
        }
        model.enqueue(Reply.contextLengthExceeded(), Reply.text("fits now"));
        tg.sendText(dm, alice, "one more");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> tg.sentTo(dm).stream().anyMatch(m -> m.text().contains("fits now")));
        await().atMost(Duration.ofSeconds(10)).until(() -> turns().size() == 4);

        TurnSummary overflowed = turns().getFirst();
        assertThat(overflowed.preview()).isEqualTo("one more");
        String show = clawgate("turns", "show", String.valueOf(overflowed.id()));
        assertThat(show.lines()
                        .map(String::strip)
                        .map(l -> l.split(" +"))
                        .filter(f -> f.length > 4)
                        .map(f -> f[4])
                        .toList())
                .containsSubsequence("model", "overflow", "compaction", "retry", "model", "send", "end");
        assertThat(show)
                .containsPattern("model +\\{[^\\n]*\"outcome\":\"context_overflow\"")
                .containsPattern("compaction +\\{\"compacted\":true,\"messages_before\":\\d+")
                .containsPattern("retry +\\{\"reason\":\"context overflow, history compacted\"}")
                .containsPattern("model +\\{[^\\n]*\"outcome\":\"ok\"");
        assertThat(trace(overflowed.id()).prompt())
                .as("inspector.keep_prompts keeps the prompt of the last model call")
                .contains("one more");
    }

    @Test
    void aDuplicateUpdateShowsTheDedupeDecision() throws Exception {
        // SPEC OP-8, IN-1: "why did it answer twice?" - the redelivered update is recorded with its dedupe decision
        int port = freePort();
        start(
                Map.of(
                        "mode",
                        "webhook",
                        "webhook_url",
                        "http://127.0.0.1:" + port + "/webhooks/telegram",
                        "webhook_secret",
                        SECRET),
                port,
                InspectorSettings.defaults());
        await().until(() -> !tg.webhookUrl().isEmpty());
        tg.sendText(dm, alice, "hello once");
        awaitSent(dm, 1);
        long update = tg.lastUpdateId();
        tg.redeliver(update);
        await().atMost(Duration.ofSeconds(10)).until(() -> turns().size() == 2);

        TurnSummary duplicate = turns().stream()
                .filter(t -> t.outcome().equals(TurnSummary.DUPLICATE))
                .findFirst()
                .orElseThrow();
        TurnSummary answered = turns().stream()
                .filter(t -> t.outcome().equals(TurnSummary.REPLIED))
                .findFirst()
                .orElseThrow();
        assertThat(duplicate.inboxId())
                .as("the duplicate names the record it repeats")
                .isEqualTo(answered.inboxId());
        assertThat(clawgate("turns", "list")).contains(duplicate.id() + " ").contains("duplicate");
        String show = clawgate("turns", "show", String.valueOf(duplicate.id()));
        assertThat(show)
                .contains("duplicate")
                .containsPattern("dedupe +\\{\"decision\":\"duplicate: dropped before any run\"")
                .contains("\"repeats_inbox_id\":" + answered.inboxId());
        assertThat(clawgate("turns", "show", String.valueOf(answered.id())))
                .containsPattern("dedupe +\\{\"decision\":\"new\"");
        assertThat(model.chatRequests()).hasSize(1);
    }

    @Test
    void nothingIsRecordedWithTheInspectorOff() throws Exception {
        // SPEC OP-8: inspector.enabled = false records no turn
        start(Map.of(), 0, new InspectorSettings(false, Duration.ofDays(7), false));
        tg.sendText(dm, alice, "hello");
        awaitSent(dm, 1);
        assertThat(turns()).isEmpty();
    }
}
