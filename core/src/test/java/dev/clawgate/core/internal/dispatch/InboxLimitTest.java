package dev.clawgate.core.internal.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.channel.InboundSink.Acceptance;
import dev.clawgate.core.internal.inbound.Inbox;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.testing.InMemoryStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The inbox's one length rule, {@code messages.max_chars} (SPEC OP-10, IN-4, IN-1). */
class InboxLimitTest {
    private final InMemoryStore store = new InMemoryStore(Clock.systemUTC());
    private final List<String> notices = new CopyOnWriteArrayList<>();
    private final List<String> ran = new CopyOnWriteArrayList<>();
    private final AtomicInteger maxChars = new AtomicInteger(10);
    private Dispatcher dispatcher;
    private Inbox inbox;

    @BeforeEach
    void start() {
        // the "api" channel answers on its connection (request/response); "chat" is told by a notice
        Dispatcher.Policy policy = new Dispatcher.Policy(
                r -> QueuePolicy.followup(20),
                r -> false,
                r -> r.message().channel().equals("api"),
                () -> Duration.ofMinutes(1),
                (r, text) ->
                        notices.add(r.message().channel() + "/" + r.message().sender() + ": " + text),
                Duration.ZERO);
        dispatcher = new Dispatcher(
                        store,
                        handle -> {
                            ran.add(handle.record().message().text());
                            store.transcripts()
                                    .completeTurn(
                                            handle.record().session(),
                                            handle.record().id(),
                                            "ok",
                                            InboxState.DONE);
                        },
                        (r, cancelled, queued) -> {},
                        policy,
                        16,
                        4,
                        Clock.systemUTC())
                .start();
        inbox = new Inbox(store, dispatcher, SessionKey::of, Duration.ofMinutes(20), maxChars::get);
    }

    @AfterEach
    void stop() {
        dispatcher.close(Duration.ofSeconds(2));
    }

    private static InboundMessage msg(String channel, String id, String text) {
        return new InboundMessage(
                id,
                channel,
                null,
                "alice",
                null,
                "alice",
                null,
                null,
                ChatType.DIRECT,
                true,
                Instant.now(),
                text,
                List.of(),
                "{\"raw\":\"" + text + "\"}");
    }

    @Test
    void aMessageOverTheLimitIsRecordedBoundedAndFailedAndItsSenderIsToldWithoutATurn() {
        // SPEC OP-10, IN-4: refused before its text is stored; the reason is the record's detail and the notice
        Acceptance a = inbox.accept(msg("chat", "m1", "x".repeat(11)));
        assertThat(a.refused()).isTrue();
        assertThat(a.refusal()).isEqualTo("message too long: 11 characters, the limit is 10; send a shorter one");
        assertThat(store.inbox().find(a.inboxId())).hasValueSatisfying(r -> {
            assertThat(r.state()).isEqualTo(InboxState.FAILED);
            assertThat(r.message().text()).isEmpty();
            assertThat(r.message().rawPayload()).isNull();
        });
        await().until(() -> notices.size() == 1);
        assertThat(notices).containsExactly("chat/alice: ⚠️ I could not take that message: " + a.refusal() + ".");
        assertThat(ran).isEmpty();
    }

    @Test
    void aRequestResponseChannelGetsTheRefusalBackAndNoNotice() {
        // SPEC OP-10, CH-10: the API answers the refusal on its own connection
        Acceptance a = inbox.accept(msg("api", "m1", "x".repeat(11)));
        assertThat(a.refusal()).contains("too long");
        assertThat(store.inbox().find(a.inboxId()).orElseThrow().state()).isEqualTo(InboxState.FAILED);
        Acceptance fits = inbox.accept(msg("api", "m2", "y".repeat(10)));
        assertThat(fits.refused()).isFalse();
        await().until(() -> ran.size() == 1);
        assertThat(ran).containsExactly("y".repeat(10));
        assertThat(notices).isEmpty();
    }

    @Test
    void aRedeliveredRefusedMessageIsADuplicateAndItsSenderIsToldOnce() {
        // SPEC OP-10, IN-1: the refusal keeps the dedupe key, so a webhook retry or a re-polled update is dropped
        assertThat(inbox.accept(msg("chat", "m1", "x".repeat(50))).refused()).isTrue();
        assertThat(inbox.accept(msg("chat", "m1", "x".repeat(50)))).isEqualTo(Acceptance.DUPLICATE);
        await().until(() -> notices.size() == 1);
        assertThat(store.inbox().counts()).containsEntry(InboxState.FAILED, 1L);
    }

    @Test
    void theLimitIsReadForEachMessageSoAReloadedConfigApplies() {
        // SPEC OP-10, RT-3: messages.max_chars takes effect without a restart
        assertThat(inbox.accept(msg("chat", "m1", "x".repeat(20))).refused()).isTrue();
        maxChars.set(20);
        assertThat(inbox.accept(msg("chat", "m2", "x".repeat(20))).refused()).isFalse();
        await().until(() -> ran.size() == 1);
    }
}
