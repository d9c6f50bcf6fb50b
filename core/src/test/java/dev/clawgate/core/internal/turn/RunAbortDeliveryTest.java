package dev.clawgate.core.internal.turn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.hook.SendingHook;
import dev.clawgate.core.internal.outbound.Pacer;
import dev.clawgate.core.internal.tool.builtin.MessageSendTool;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.testing.LoopbackAdapter;
import dev.clawgate.core.testing.LoopbackChannel;
import dev.clawgate.core.testing.LoopbackPlatform;
import dev.clawgate.core.testing.LoopbackPlatform.Answer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's abort (/stop, an interrupt) reaches its deliveries (SPEC OUT-11): sends still waiting in the outbox are
 * cancelled, a committed reply not yet out is suppressed, a media upload in flight is aborted, and a reply whose first
 * part is out is finished, never half-sent. Observed at the loopback platform's request log and the outbox rows.
 */
class RunAbortDeliveryTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<Capability> CAPS = EnumSet.of(
            Capability.TEXT,
            Capability.REPLY_TO,
            Capability.THREAD,
            Capability.MEDIA,
            Capability.MESSAGE_SENDING_HOOKS);

    @TempDir
    Path workspace;

    private final LoopbackPlatform platform;

    RunAbortDeliveryTest() throws IOException {
        platform = new LoopbackPlatform();
    }

    @AfterEach
    void stop() {
        platform.releaseUploads();
        platform.close();
    }

    private TurnFixture fixture(int textLimit) {
        TurnFixture f = new TurnFixture(workspace, "test");
        f.platform = new LoopbackChannel("test", new LoopbackAdapter(platform, CAPS, Duration.ofSeconds(5), textLimit));
        return f;
    }

    private static ChatResponse sendCall(String text) throws Exception {
        return new ChatResponse(
                "",
                List.of(new ToolCall("c1", MessageSendTool.NAME, JSON.readTree("{\"text\":\"" + text + "\"}"))),
                null,
                null,
                "tool_calls");
    }

    private static OutboxEntry only(TurnFixture f, OutboundMessage.Kind kind) {
        return f.store.outbox().byState(OutboxState.values()).stream()
                .filter(e -> e.draft().kind() == kind)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aStopWhileAMessageSendWaitsForItsRetryCancelsItAndTheRetryPassSendsNothing() throws Exception {
        // SPEC OUT-11, AG-5: the message_send the platform refused for now (503) is cancelled with the run, not sent
        // later
        TurnFixture f = fixture(4000);
        f.tools.add(new MessageSendTool());
        platform.script(Answer.status(503));
        InboxRecord r = f.record("alice", "tell the team");
        RunHandle h = f.handle(r);
        f.provider("p", "m", true, false)
                .answer(sendCall("build is green"))
                .working(obs -> h.cancel().cancel(RunHandle.REASON_STOP), ChatResponse.text("never sent"));

        f.run(h);

        await().untilAsserted(() -> assertThat(only(f, OutboundMessage.Kind.SEND))
                .satisfies(e -> {
                    assertThat(e.state()).isEqualTo(OutboxState.SUPPRESSED);
                    assertThat(e.detail()).isEqualTo("run_cancelled: " + RunHandle.REASON_STOP);
                    assertThat(e.attempts()).isEqualTo(1);
                }));
        // the retry would be due by now: the retry pass finds nothing to send
        int tried = new dev.clawgate.core.internal.outbound.Outbox(
                        f.store, Clock.offset(Clock.systemUTC(), Duration.ofMinutes(5)))
                .retryDue(name -> Optional.of(f.platform.messageAdapter()), Pacer.NONE);
        assertThat(tried).isZero();
        assertThat(platform.calls("send"))
                .singleElement()
                .satisfies(c -> assertThat(c.body().path("text").asText()).isEqualTo("build is green"));
        assertThat(platform.deliveredTexts()).isEmpty();
        assertThat(f.store.outbox().byState(OutboxState.values()))
                .extracting(e -> e.draft().kind())
                .containsExactly(OutboundMessage.Kind.SEND);
        assertThat(f.store.inbox().find(r.id()).orElseThrow().state()).isEqualTo(InboxState.CANCELLED);
    }

    @Test
    void anInterruptAfterTheReplyCommittedButBeforeItWentOutSuppressesIt() {
        // SPEC OUT-11: the reply intent is committed; the abort comes before its first payload, so nothing is sent
        TurnFixture f = fixture(4000);
        f.provider("p", "m", true, false).text("a reply overtaken by a newer message");
        InboxRecord r = f.record("alice", "question");
        RunHandle h = f.handle(r);
        // the sending hook runs after the claim, right before the platform I/O
        f.sendingHook = (text, target) -> {
            h.cancel().cancel(RunHandle.REASON_INTERRUPT);
            return new SendingHook.Send(text);
        };

        f.run(h);

        assertThat(only(f, OutboundMessage.Kind.FINAL)).satisfies(e -> {
            assertThat(e.state()).isEqualTo(OutboxState.SUPPRESSED);
            assertThat(e.detail()).isEqualTo("run_cancelled: " + RunHandle.REASON_INTERRUPT);
            assertThat(e.receipts()).isEmpty();
        });
        assertThat(platform.calls("send")).isEmpty();
    }

    @Test
    void aStopDuringTheMediaUploadAbortsItAndTheReplyIsNotSent() throws Exception {
        // SPEC OUT-11: the abort reaches media loading: the upload in flight is dropped, the message never sent
        TurnFixture f = fixture(4000);
        Path chart = Files.write(workspace.resolve("chart.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 1, 2, 3});
        f.provider("p", "m", true, false).text("[IMAGE:" + chart + "]");
        InboxRecord r = f.record("alice", "draw it");
        RunHandle h = f.handle(r);
        platform.holdUploads();

        Thread run = Thread.ofVirtual().start(() -> f.run(h));
        await().until(() -> !platform.calls("upload").isEmpty());
        h.cancel().cancel(RunHandle.REASON_STOP);
        run.join(Duration.ofSeconds(10));

        assertThat(run.isAlive())
                .as("the run ends without waiting for the held upload")
                .isFalse();
        assertThat(platform.uploadSizes()).containsExactly(7);
        assertThat(platform.calls("send")).isEmpty();
        assertThat(only(f, OutboundMessage.Kind.FINAL)).satisfies(e -> {
            assertThat(e.state()).isEqualTo(OutboxState.SUPPRESSED);
            assertThat(e.detail()).startsWith("run_cancelled");
        });
    }

    @Test
    void onceTheFirstPartIsOutAStopLetsTheRestFollow() {
        // SPEC OUT-11 not half-sent, OUT-1: a reply cut in two parts is finished when the abort comes after part one
        TurnFixture f = fixture(20);
        f.provider("p", "m", true, false).text("first part here.\n\nsecond part here.");
        InboxRecord r = f.record("alice", "question");
        RunHandle h = f.handle(r);
        ((LoopbackAdapter) f.platform.messageAdapter()).onAccepted =
                m -> h.cancel().cancel(RunHandle.REASON_STOP);

        f.run(h);

        assertThat(platform.deliveredTexts()).containsExactly("first part here.", "second part here.");
        assertThat(only(f, OutboundMessage.Kind.FINAL)).satisfies(e -> {
            assertThat(e.state()).isEqualTo(OutboxState.SENT);
            assertThat(e.receipts()).hasSize(2);
        });
    }

    @Test
    void aShutdownIsNotAnAbortTheRunsWaitingSendStaysPendingForTheRestart() throws Exception {
        // SPEC OUT-11, OUT-7: a shutdown cancels the run, not what it committed
        TurnFixture f = fixture(4000);
        f.tools.add(new MessageSendTool());
        platform.script(Answer.status(503));
        InboxRecord r = f.record("alice", "tell the team");
        RunHandle h = f.handle(r);
        f.provider("p", "m", true, false)
                .answer(sendCall("deploy done"))
                .working(obs -> h.cancel().cancel(RunHandle.REASON_SHUTDOWN), ChatResponse.text("never sent"));

        f.run(h);

        assertThat(only(f, OutboundMessage.Kind.SEND).state()).isEqualTo(OutboxState.PENDING);
        int tried = new dev.clawgate.core.internal.outbound.Outbox(
                        f.store, Clock.offset(Clock.systemUTC(), Duration.ofMinutes(5)))
                .retryDue(name -> Optional.of(f.platform.messageAdapter()), Pacer.NONE);
        assertThat(tried).isEqualTo(1);
        assertThat(platform.deliveredTexts()).containsExactly("deploy done");
    }
}
