package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.TranscriptEntry;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hostile and broken inbound messages through the real gateway and SQLite store (SPEC IN-4). */
class InboundBadInputTest {
    @TempDir
    Path dir;

    /** An owner channel whose sink the test drives directly, recording what the gateway sends. */
    static final class ProbeChannel implements Channel {
        volatile InboundSink sink;
        final List<OutboundMessage> sent = new CopyOnWriteArrayList<>();

        public String name() {
            return "probe";
        }

        public void start(InboundSink s) {
            sink = s;
        }

        public void stop() {}

        public boolean ownerChannel() {
            return true;
        }

        public MessageAdapter messageAdapter() {
            return (message, cancel) -> {
                sent.add(message);
                return MessageReceipt.of("p" + sent.size());
            };
        }
    }

    private static InboundMessage msg(String id, String sender, String text) {
        return new InboundMessage(
                id,
                "probe",
                null,
                sender,
                null,
                sender,
                null,
                null,
                ChatType.DIRECT,
                true,
                Instant.now(),
                text,
                List.of(),
                null);
    }

    private static InboxRecord record(Gateway g, long id) {
        return g.store().inbox().find(id).orElseThrow();
    }

    @Test
    void brokenMessagesEachGetAClearRecordedOutcomeAndNothingIsLost() throws Exception {
        // SPEC IN-4: every accepted message reaches a final state with a clear outcome
        try (FakeOpenAiServer model = FakeOpenAiServer.start()) {
            ClawgateConfig cfg = GatewayHarness.config(dir, model.baseUrl(), null);
            ProbeChannel probe = new ProbeChannel();
            try (Gateway g = Gateway.start(cfg, GatewayOptions.with(probe))) {
                long empty = probe.sink.accept(msg("m1", "alice", "   ")).inboxId();
                long huge = probe.sink
                        .accept(msg("m2", "alice", "x".repeat(1 << 20)))
                        .inboxId();
                String sqlSender = "bob'); DROP TABLE inbox;--";
                long sql = probe.sink
                        .accept(msg("m3", sqlSender, "hello from bob"))
                        .inboxId();
                long broken = probe.sink
                        .accept(msg("m4", "carol", "half a pair \uD83D and a lone \uDE00 end"))
                        .inboxId();
                await().until(() -> List.of(empty, huge, sql, broken).stream()
                        .allMatch(id -> record(g, id).state().isFinal()));

                assertThat(record(g, empty).state()).isEqualTo(InboxState.FAILED);
                assertThat(record(g, huge).state()).isEqualTo(InboxState.FAILED);
                // SPEC OP-10: refused before its text was stored
                assertThat(record(g, huge).message().text()).isEmpty();
                assertThat(record(g, sql).state()).isEqualTo(InboxState.DONE);
                assertThat(record(g, broken).state()).isEqualTo(InboxState.DONE);
                assertThat(probe.sent)
                        .extracting(OutboundMessage::text)
                        .anyMatch(t -> t.contains("empty message"))
                        .anyMatch(t -> t.contains("message too long"));
                assertThat(model.chatRequests()).hasSize(2);

                List<TranscriptEntry> bob = g.store()
                        .transcripts()
                        .load(new SessionKey("probe", null, ChatType.DIRECT, sqlSender, null, sqlSender), 10);
                assertThat(bob).extracting(TranscriptEntry::role).containsExactly(Role.USER, Role.ASSISTANT);
                String carol = g.store()
                        .transcripts()
                        .load(new SessionKey("probe", null, ChatType.DIRECT, "carol", null, "carol"), 10)
                        .get(0)
                        .content();
                assertThat(carol).isEqualTo("half a pair \uFFFD and a lone \uFFFD end");
                assertThat(g.store().inbox().counts().values().stream()
                                .mapToLong(Long::longValue)
                                .sum())
                        .isEqualTo(4);
            }
        }
    }
}
