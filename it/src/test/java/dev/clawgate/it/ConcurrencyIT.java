package dev.clawgate.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.server.Gateway;
import dev.clawgate.server.GatewayOptions;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.webhook.FakeWebhookPlatform;
import dev.clawgate.testkit.webhook.PlatformMessage;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many senders at once through the real HTTP webhook, the real dispatcher and SQLite store, with an instant model: no
 * session ever has two active runs, each session's turns keep their order, and every message ends done. Reports
 * messages per second.
 */
class ConcurrencyIT {
    private static final String SECRET = "it-webhook-secret-0123456789";

    @TempDir
    Path dir;

    @Test
    void tenThousandMessagesFromAThousandSendersRunOneAtATimePerSessionAndInOrder() throws Exception {
        // SPEC DI-2 (one active run per session, the rest queue), DI-1 (bounded bus, back-pressure, nothing dropped),
        // IN-4 (every recorded message ends in a final state)
        int messages = Integer.getInteger("concurrency.messages", 10_000);
        int senders = Integer.getInteger("concurrency.senders", 1_000);
        int maxInFlight = Integer.getInteger("concurrency.maxInFlight", 0);
        assertThat(messages % senders)
                .as("each sender gets the same number of messages")
                .isZero();
        SessionWindows windows = new SessionWindows();

        try (FakeOpenAiServer model = FakeOpenAiServer.start();
                FakeWebhookPlatform platform = FakeWebhookPlatform.start(SECRET, 64)) {
            model.respondWith(body -> {
                windows.modelRequest(lastUserText(body));
                return null; // then the default: echo the last user message at once
            });
            platform.onReply(r -> {
                if (r.isFinal()) windows.reply(r.text());
            });
            Path toml = dir.resolve("clawgate.toml");
            Files.writeString(toml, ItConfig.baseToml(dir, "127.0.0.1:0", model.baseUrl(), maxInFlight, 1000));
            ClawgateConfig config = ItConfig.withWebhook(ItConfig.load(toml, SECRET), SECRET, platform.callbackUrl());

            try (Gateway gateway = Gateway.start(config, GatewayOptions.server())) {
                platform.deliverTo(URI.create("http://127.0.0.1:" + gateway.httpPort() + ItConfig.WEBHOOK_PATH));
                List<PlatformMessage> script = CrashRecoveryIT.script(messages, senders);
                long t0 = System.nanoTime();
                platform.deliver(script);
                await().atMost(Duration.ofMinutes(10))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> platform.replies().stream()
                                        .filter(r -> r.isFinal())
                                        .count()
                                >= messages);
                long acceptedAllBy = System.nanoTime();
                double seconds = (acceptedAllBy - t0) / 1e9;

                assertThat(platform.accepted()).isEqualTo(messages);
                assertThat(windows.overlaps())
                        .as("sessions with two active runs")
                        .isEmpty();
                assertThat(windows.outOfOrder(messages / senders))
                        .as("sessions out of order")
                        .isEmpty();
                assertThat(windows.sessionsSeen()).isEqualTo(senders);
                assertThat(windows.maxConcurrentSessions())
                        .as("runs of different sessions overlap")
                        .isGreaterThan(1);
                assertThat(platform.finalRepliesPerMessage())
                        .hasSize(messages)
                        .allSatisfy((id, n) -> assertThat(n).isEqualTo(1));
                assertThat(model.chatRequests()).hasSize(messages);
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> gateway.store().inbox().unfinished().isEmpty());
                Map<InboxState, Long> counts = gateway.store().inbox().counts();
                assertThat(counts).containsEntry(InboxState.DONE, (long) messages);
                assertThat(counts.values().stream().mapToLong(Long::longValue).sum())
                        .isEqualTo(messages);

                String line = "concurrency: %d messages from %d senders, max_in_flight=%s: %.1f s, %.0f messages/s; %d "
                        + "sessions ran at once at most; %d platform posts"
                                .formatted(
                                        messages,
                                        senders,
                                        maxInFlight == 0 ? "default" : maxInFlight,
                                        seconds,
                                        messages / seconds,
                                        windows.maxConcurrentSessions(),
                                        platform.posts());
                System.out.println("==== " + line);
                Path report = Path.of(System.getProperty("crash.workdir", "target/crash-run"))
                        .getParent()
                        .resolve("concurrency-report.txt");
                Files.writeString(report, line + "\n");
            }
        }
    }

    /** The last user message of a chat-completions request, as text. */
    private static String lastUserText(JsonNode body) {
        JsonNode messages = body.path("messages");
        for (int i = messages.size() - 1; i >= 0; i--) {
            JsonNode m = messages.get(i);
            if (!"user".equals(m.path("role").asText())) continue;
            JsonNode content = m.path("content");
            if (content.isTextual()) return content.asText();
            StringBuilder text = new StringBuilder();
            for (JsonNode part : content) text.append(part.path("text").asText());
            return text.toString();
        }
        return null;
    }
}
