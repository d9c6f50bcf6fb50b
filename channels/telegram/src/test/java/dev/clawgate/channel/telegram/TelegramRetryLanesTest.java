package dev.clawgate.channel.telegram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.internal.outbound.Outbox;
import dev.clawgate.core.internal.outbound.OutboxWorker;
import dev.clawgate.core.internal.outbound.Pacer;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboundDraft;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.OutboxUpdate;
import dev.clawgate.core.testing.InMemoryStore;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Outbox retries on the fake Bot API (SPEC OUT-7): one slow send holds up only its own chat. Before the fix one retry
 * worker sent every due entry in turn, so a 35 s send delayed another chat's retry by 30 s.
 */
class TelegramRetryLanesTest {
    /** Longer than the test waits for the other chat: the old single worker could not send it in time. */
    private static final Duration SLOW = Duration.ofSeconds(40);

    @TempDir
    Path dir;

    private FakeTelegramServer tg;
    private TelegramChannel channel;
    private OutboxWorker worker;
    private final InMemoryStore store = new InMemoryStore(Clock.systemUTC());

    @BeforeEach
    void start() {
        tg = TelegramFixture.server();
        // the call waits longer than the stall, so the slow send is slow, not failed
        channel = TelegramFixture.channel(tg, dir, false, false, SLOW.plusSeconds(20), Duration.ZERO);
        channel.start(new RecordingSink());
    }

    @AfterEach
    void stop() {
        if (worker != null) worker.close();
        channel.stop();
        tg.close();
    }

    /** A reply to {@code chat} that failed once and is due for its retry now. */
    private OutboxEntry failedOnce(TelegramChat chat, TelegramUser user, String text) {
        String chatId = Long.toString(chat.id());
        InboundMessage m = new InboundMessage(
                chatId + ":1",
                "telegram",
                InboundMessage.DEFAULT_ACCOUNT,
                Long.toString(user.id()),
                null,
                chatId,
                null,
                null,
                ChatType.DIRECT,
                true,
                Instant.now(),
                "hi",
                List.of(),
                null);
        SessionKey session = SessionKey.of(m);
        long turn = store.inbox()
                .record(m, session, null, Duration.ZERO)
                .orElseThrow()
                .id();
        OutboundTarget to = new OutboundTarget("telegram", InboundMessage.DEFAULT_ACCOUNT, chatId, null, null);
        OutboxEntry e = store.outbox()
                .completeTurnWithReply(
                        session, turn, text, InboxState.DONE, OutboundDraft.of(to, text, OutboundMessage.Kind.FINAL))
                .orElseThrow();
        OutboxUpdate failed = new OutboxUpdate(OutboxState.PENDING, List.of(), "502 Bad Gateway", 1, Instant.now());
        store.outbox().update(e.id(), failed);
        return store.outbox().entry(e.id()).orElseThrow();
    }

    @Test
    void aSlowSendToOneChatDoesNotDelayAnotherChatsRetry() {
        // SPEC OUT-7: retries go out per chat, concurrently within a bound; the slow chat's older entry goes first
        TelegramUser alice = tg.user(111, "alice");
        TelegramUser bob = tg.user(222, "bob");
        TelegramChat slowChat = tg.privateChat(alice);
        TelegramChat otherChat = tg.privateChat(bob);
        OutboxEntry slow = failedOnce(slowChat, alice, "reply to alice");
        OutboxEntry other = failedOnce(otherChat, bob, "reply to bob");
        tg.stallNext("sendMessage", slowChat, SLOW);

        MessageAdapter adapter = channel.messageAdapter();
        Outbox outbox = new Outbox(store, Clock.systemUTC());
        worker = new OutboxWorker(outbox, name -> Optional.of(adapter), Pacer.NONE, Duration.ofMillis(100)).start();

        await().atMost(Duration.ofSeconds(10)).until(() -> tg.sentTo(otherChat).size() == 1);
        assertThat(tg.sentTo(otherChat).getFirst().text()).isEqualTo("reply to bob");
        await().atMost(Duration.ofSeconds(5)).until(() -> state(other) == OutboxState.SENT);
        // the slow chat's send is still waiting for Telegram's answer: it really was in flight all along
        assertThat(state(slow)).isEqualTo(OutboxState.SENDING);
    }

    @Test
    void entriesOfOneChatStillGoOutInOrderOneAtATime() {
        // SPEC OUT-7, OUT-12: a chat's replies keep their order; the next waits until the one before has ended
        TelegramUser alice = tg.user(111, "alice");
        TelegramChat chat = tg.privateChat(alice);
        OutboxEntry first = failedOnce(chat, alice, "first");
        OutboxEntry second = failedOnce(chat, alice, "second");
        tg.stallNext("sendMessage", chat, Duration.ofSeconds(2));

        MessageAdapter adapter = channel.messageAdapter();
        worker = new OutboxWorker(
                        new Outbox(store, Clock.systemUTC()),
                        name -> Optional.of(adapter),
                        Pacer.NONE,
                        Duration.ofMillis(100))
                .start();

        await().atMost(Duration.ofSeconds(15)).until(() -> tg.sentTo(chat).size() == 2);
        assertThat(tg.sentTo(chat)).extracting(m -> m.text()).containsExactly("first", "second");
        await().atMost(Duration.ofSeconds(5)).until(() -> state(second) == OutboxState.SENT);
        OutboxEntry firstDone = store.outbox().entry(first.id()).orElseThrow();
        assertThat(firstDone.state()).isEqualTo(OutboxState.SENT);
        // the second send left only after the first had its answer, not while it was stalled
        List<Instant> sends = tg.callTimes("sendMessage");
        assertThat(sends).hasSize(2);
        assertThat(sends.get(1)).isAfterOrEqualTo(firstDone.updatedAt());
    }

    private OutboxState state(OutboxEntry e) {
        return store.outbox().entry(e.id()).orElseThrow().state();
    }
}
