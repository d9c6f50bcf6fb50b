package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.AgentSettings;
import dev.clawgate.core.config.ChannelOutput;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GatewaySettings;
import dev.clawgate.core.config.GroupPolicy;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.render.ReplyToMode;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.webhook.CallbackReply;
import dev.clawgate.testkit.webhook.FakeWebhookPlatform;
import dev.clawgate.testkit.webhook.PlatformMessage;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One final reply per turn, end to end (SPEC OUT-12): the real gateway, its webhook channel posting to the fake
 * platform (each reply names its turn and kind), and two fake OpenAI servers as the primary and {@code agent.fallback}
 * providers. A fallback, a compaction retry and a reply carrying both tool calls and text each end with exactly one
 * final reply at the platform, notices apart.
 */
class OneFinalReplyEndToEndTest {
    private static final String SECRET = "e2e-webhook-secret-0123456789";
    private static final String PATH = "/webhooks/generic";

    @TempDir
    Path dir;

    private FakeOpenAiServer primary;
    private FakeOpenAiServer backup;
    private FakeWebhookPlatform platform;
    private Gateway gateway;

    @BeforeEach
    void start() throws Exception {
        primary = FakeOpenAiServer.start();
        backup = FakeOpenAiServer.start();
        platform = FakeWebhookPlatform.start(SECRET);
        ClawgateConfig d = ClawgateConfig.defaults();
        AgentSettings a = d.agent();
        Map<String, ProviderSettings> providers = new LinkedHashMap<>();
        providers.put(
                "primary",
                new ProviderSettings("primary", "openai", primary.baseUrl(), "sk-test-key-0000", true, "model-a", 30));
        providers.put(
                "backup",
                new ProviderSettings("backup", "openai", backup.baseUrl(), "sk-test-key-0000", true, "model-b", 30));
        AgentSettings agent = new AgentSettings(
                "primary",
                null,
                a.maxToolIterations(),
                a.messageTimeoutSecs(),
                a.timeoutScaleCap(),
                dir.resolve("workspace"),
                true,
                List.of("backup"));
        AccessSettings open = new AccessSettings(DmPolicy.OPEN, List.of("*"), GroupPolicy.OPEN, List.of(), false);
        ClawgateConfig config = new ClawgateConfig(
                        new GatewaySettings(dir.resolve("data"), "127.0.0.1:0", null),
                        agent,
                        providers,
                        List.of(),
                        d.history(),
                        d.tools(),
                        d.dispatch())
                .withChannel(new ChannelSettings(
                        "webhook",
                        open,
                        Map.of(),
                        Map.of("path", PATH, "secret", SECRET, "callback_url", platform.callbackUrl()),
                        Map.of(),
                        new ChannelOutput(ReplyToMode.ALL, null, Map.of(), null)));
        gateway = Gateway.start(config, GatewayOptions.server());
        platform.deliverTo(URI.create("http://127.0.0.1:" + gateway.httpPort() + PATH));
    }

    @AfterEach
    void stop() {
        if (gateway != null) gateway.close();
        platform.close();
        primary.close();
        backup.close();
    }

    /** Delivers one message and waits for its final reply; returns every reply posted for it. */
    private List<CallbackReply> turn(String id, String text) {
        platform.deliver(PlatformMessage.direct(id, "user-" + id, text));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> platform.repliesTo(id).stream().anyMatch(CallbackReply::isFinal));
        // anything sent twice would arrive right behind the first: wait until the turn's outbox entry is settled
        await().atMost(Duration.ofSeconds(10))
                .until(() -> gateway.store()
                        .outbox()
                        .byState(OutboxState.PENDING, OutboxState.SENDING)
                        .isEmpty());
        return platform.repliesTo(id);
    }

    private List<OutboxEntry> entriesOf(CallbackReply reply) {
        return gateway.store().outbox().byState(OutboxState.values()).stream()
                .filter(e -> e.turnId() == reply.turnId())
                .toList();
    }

    @Test
    void aRateLimitedPrimaryFallsBackAndTheTurnHasOneFinalReply() {
        // SPEC OUT-12 (model fallback / rate-limit retry), SP-4: a retry-after above the cap moves to agent.fallback at
        // once
        primary.enqueue(Reply.rateLimited(Duration.ofMinutes(10)));
        backup.enqueue(Reply.text("the backup's answer"));

        List<CallbackReply> replies = turn("m-fallback", "question one");

        assertThat(replies)
                .filteredOn(CallbackReply::isFinal)
                .singleElement()
                .satisfies(r -> assertThat(r.text()).isEqualTo("the backup's answer"));
        assertThat(replies).hasSize(1);
        assertThat(primary.chatRequests()).hasSize(1);
        assertThat(backup.chatRequests()).hasSize(1);
        assertThat(entriesOf(replies.getFirst()))
                .singleElement()
                .satisfies(e -> assertThat(e.state()).isEqualTo(OutboxState.SENT));
    }

    @Test
    void aContextOverflowIsCompactedAndRetriedWithItsNoticeApartAndOneFinalReply() {
        // SPEC OUT-12 (compaction retry; the compaction notice is a notice), HI-5
        primary.enqueue(Reply.contextLengthExceeded(), Reply.text("answered after compaction"));

        List<CallbackReply> replies = turn("m-compact", "a long question " + "y".repeat(900));

        assertThat(replies)
                .filteredOn(CallbackReply::isFinal)
                .singleElement()
                .satisfies(r -> assertThat(r.text()).isEqualTo("answered after compaction"));
        assertThat(replies)
                .filteredOn(r -> r.kind().equals("notice"))
                .singleElement()
                .satisfies(r -> assertThat(r.text()).contains("compacted"));
        assertThat(replies).extracting(CallbackReply::kind).containsExactly("notice", "final");
        assertThat(primary.chatRequests()).hasSize(2);
        assertThat(backup.chatRequests()).isEmpty();
        assertThat(entriesOf(replies.getFirst()))
                .singleElement()
                .satisfies(e -> assertThat(e.draft().text()).isEqualTo("answered after compaction"));
    }

    @Test
    void aReplyCarryingToolCallsAndTextEndsWithOneFinalReplyAndItsToolNoticeApart() {
        // SPEC OUT-12 (a reply that carries both tool calls and text), AG-6 (the tool announcement is a notice)
        primary.enqueue(
                Reply.text("Let me list the files first.").withToolCalls(Reply.call("file_list", "{\"path\":\".\"}")),
                Reply.text("The workspace is empty."));

        List<CallbackReply> replies = turn("m-tools", "what is in the workspace?");

        assertThat(replies)
                .filteredOn(CallbackReply::isFinal)
                .singleElement()
                .satisfies(r -> assertThat(r.text()).isEqualTo("The workspace is empty."));
        assertThat(replies)
                .filteredOn(r -> r.kind().equals("notice"))
                .singleElement()
                .satisfies(r -> assertThat(r.text()).startsWith("🔧 `file_list`"));
        assertThat(replies).extracting(CallbackReply::text).doesNotContain("Let me list the files first.");
        assertThat(entriesOf(replies.getFirst()))
                .singleElement()
                .satisfies(e -> assertThat(e.state()).isEqualTo(OutboxState.SENT));
    }
}
