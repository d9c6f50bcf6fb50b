package dev.clawgate.core.internal.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.config.InboundSettings;
import dev.clawgate.core.model.Attachment;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.run.Scheduler;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.testing.ManualScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The inbound debouncer on a manual clock: no test sleeps. */
class DebouncerTest {

    private final ManualScheduler clock = new ManualScheduler();
    private final List<List<InboxRecord>> batches = new CopyOnWriteArrayList<>();
    private final AtomicLong ids = new AtomicLong();

    private Debouncer debouncer(long ms) {
        return new Debouncer(channel -> ms, clock, batches::add);
    }

    @Test
    void threeTextsThreeHundredMillisApartBecomeOneBatchAfterTheQuietPeriod() {
        // SPEC IN-2: rapid messages from one sender in one conversation are batched into one turn
        Debouncer d = debouncer(1000);
        InboxRecord a = direct("alice", "first");
        InboxRecord b = direct("alice", "second");
        InboxRecord c = direct("alice", "third");

        d.offer(a);
        clock.advanceMillis(300);
        d.offer(b);
        clock.advanceMillis(300);
        d.offer(c);
        assertThat(clock.live())
                .as("each text replaces the timer: a flood leaves one, not one per text")
                .isEqualTo(1);
        clock.advanceMillis(999);
        assertThat(batches).isEmpty();
        assertThat(d.pendingMessages()).isEqualTo(3);

        clock.advanceMillis(1);

        assertThat(batches).containsExactly(List.of(a, b, c));
        assertThat(d.pendingKeys()).isZero();
        assertThat(clock.live()).isZero();
    }

    @Test
    void attachmentFlushesTheWaitingTextsWithItAndTheNextTextWaitsAlone() {
        // SPEC IN-2: a message with media or an attachment flushes the batch at once
        Debouncer d = debouncer(1000);
        InboxRecord text = direct("alice", "look");
        InboxRecord image = withImage(direct("alice", "this one"));
        InboxRecord after = direct("alice", "nice, right?");

        d.offer(text);
        clock.advanceMillis(200);
        d.offer(image);
        assertThat(batches).containsExactly(List.of(text, image));

        d.offer(after);
        clock.advanceMillis(999);
        assertThat(batches).hasSize(1);
        clock.advanceMillis(1);
        assertThat(batches).containsExactly(List.of(text, image), List.of(after));
    }

    @Test
    void stopHandsOnTheWaitingTextsFirstThenItselfAloneSoItStopsThem() {
        // SPEC IN-2, DI-5: a command passes the debounce buffer: the sender's waiting texts go first,
        // as their own batch, then the command alone, at once; so /stop reaches the dispatcher after
        // the texts it must stop (it cancels their run or their queued turn), never before them
        Debouncer d = debouncer(1000);
        InboxRecord first = direct("alice", "write me a poem");
        InboxRecord more = direct("alice", "a long one");
        InboxRecord stop = direct("alice", "/stop");
        InboxRecord second = direct("alice", "about cats");

        d.offer(first);
        clock.advanceMillis(300);
        d.offer(more);
        clock.advanceMillis(300);
        d.offer(stop);
        assertThat(batches).containsExactly(List.of(first, more), List.of(stop));
        assertThat(d.pendingMessages()).isZero();

        d.offer(second);
        clock.advanceMillis(999);
        assertThat(batches).as("the flushed batch's old timer fires nothing").hasSize(2);
        clock.advanceMillis(1);
        assertThat(batches).containsExactly(List.of(first, more), List.of(stop), List.of(second));
    }

    @Test
    void newHandsOnTheWaitingTextsFirstAndLeavesOtherSendersWaiting() {
        // SPEC IN-2, RT-1: /new passes the buffer too, and only its own sender's texts are flushed
        Debouncer d = debouncer(1000);
        InboxRecord text = direct("alice", "hello");
        InboxRecord other = direct("bob", "hi there");
        InboxRecord fresh = direct("alice", "/new");

        d.offer(text);
        d.offer(other);
        clock.advanceMillis(900);
        d.offer(fresh);
        assertThat(batches).containsExactly(List.of(text), List.of(fresh));
        clock.advanceMillis(100);
        assertThat(batches).containsExactly(List.of(text), List.of(fresh), List.of(other));
    }

    @Test
    void aCommandWithNothingWaitingIsHandedOnAloneAtOnce() {
        // SPEC IN-2: control commands bypass debounce and stay standalone
        Debouncer d = debouncer(1000);
        InboxRecord stop = direct("alice", "/stop");
        d.offer(stop);
        assertThat(batches).containsExactly(List.of(stop));
    }

    @Test
    void perChannelOverrideSetsEachChannelsQuietPeriod() {
        // SPEC IN-2: messages.inbound.debounce_ms is global, messages.inbound.by_channel.<ch> overrides it
        InboundSettings settings = new InboundSettings(
                1000, Map.of("slack", 200L, "irc", 0L), Duration.ofMinutes(20), 50, Map.of(), Duration.ofHours(1));
        Debouncer d = new Debouncer(settings::debounceMsFor, clock, batches::add);
        InboxRecord telegram = direct("alice", "from telegram");
        InboxRecord slack = on("slack", direct("alice", "from slack"));
        InboxRecord irc = on("irc", direct("alice", "from irc"));

        d.offer(telegram);
        d.offer(slack);
        d.offer(irc);
        assertThat(batches).containsExactly(List.of(irc));
        clock.advanceMillis(200);
        assertThat(batches).containsExactly(List.of(irc), List.of(slack));
        clock.advanceMillis(800);

        assertThat(batches).containsExactly(List.of(irc), List.of(slack), List.of(telegram));
    }

    @Test
    void debounceZeroHandsEveryMessageOnAtOnce() {
        // SPEC IN-2: 0 disables debouncing (the default)
        Debouncer d = new Debouncer(InboundSettings.defaults()::debounceMsFor, clock, batches::add);
        InboxRecord a = direct("alice", "one");
        InboxRecord b = direct("alice", "two");

        d.offer(a);
        d.offer(b);

        assertThat(batches).containsExactly(List.of(a), List.of(b));
        assertThat(clock.live()).isZero();
        assertThat(d.pendingKeys()).isZero();
    }

    @Test
    void turningDebounceOffHandsOnWhatWaitsTogetherWithTheNewMessage() {
        // SPEC IN-2, RT-3: after a reload sets 0, nothing already waiting is left behind or overtaken
        AtomicLong ms = new AtomicLong(1000);
        Debouncer d = new Debouncer(channel -> ms.get(), clock, batches::add);
        InboxRecord before = direct("alice", "before the reload");
        InboxRecord after = direct("alice", "after the reload");

        d.offer(before);
        ms.set(0);
        d.offer(after);

        assertThat(batches).containsExactly(List.of(before, after));
        clock.advanceMillis(1000);
        assertThat(batches).hasSize(1);
    }

    @Test
    void twoSendersInOneGroupGetTwoBatches() {
        // SPEC IN-2: one sender in one conversation: a shared group session still batches per member
        Debouncer d = debouncer(1000);
        InboxRecord carol1 = group("carol", "room-1", null, "hi all");
        InboxRecord dave1 = group("dave", "room-1", null, "hey");
        InboxRecord carol2 = group("carol", "room-1", null, "quick question");
        InboxRecord carolThread = group("carol", "room-1", "t-9", "in the thread");
        assertThat(carol1.session()).isEqualTo(dave1.session());

        d.offer(carol1);
        d.offer(dave1);
        d.offer(carol2);
        d.offer(carolThread);
        assertThat(d.pendingKeys()).isEqualTo(3);
        clock.advanceMillis(1000);

        assertThat(batches).containsExactlyInAnyOrder(List.of(carol1, carol2), List.of(dave1), List.of(carolThread));
    }

    @Test
    void batchThatReachesItsSizeLimitIsHandedOnAtOnce() {
        // SPEC IN-2, DI-3: no flood grows memory without bound: at most maxBatch messages per batch
        Debouncer d = new Debouncer(channel -> 1000L, clock, batches::add, Debouncer::isRuntimeCommand, 100, 3);
        List<InboxRecord> flood =
                List.of(direct("alice", "1"), direct("alice", "2"), direct("alice", "3"), direct("alice", "4"));

        flood.forEach(d::offer);

        assertThat(batches).containsExactly(flood.subList(0, 3));
        assertThat(d.pendingMessages()).isEqualTo(1);
        clock.advanceMillis(1000);
        assertThat(batches).containsExactly(flood.subList(0, 3), flood.subList(3, 4));
    }

    @Test
    void newConversationBeyondTheKeyLimitHandsOnTheOldestWaitingBatch() {
        // SPEC IN-2, DI-3: at most maxKeys conversations wait at once
        Debouncer d = new Debouncer(channel -> 1000L, clock, batches::add, Debouncer::isRuntimeCommand, 2, 50);
        InboxRecord alice = direct("alice", "a");
        InboxRecord bob = direct("bob", "b");
        InboxRecord carol = direct("carol", "c");

        d.offer(alice);
        d.offer(bob);
        d.offer(carol);

        assertThat(batches).containsExactly(List.of(alice));
        assertThat(d.pendingKeys()).isEqualTo(2);
        clock.advanceMillis(1000);
        assertThat(batches).containsExactlyInAnyOrder(List.of(alice), List.of(bob), List.of(carol));
    }

    @Test
    void flushAllHandsOnEveryWaitingBatchAndTheirTimersThenDoNothing() {
        // SPEC IN-2, IN-4: at shutdown nothing stays waiting in memory
        Debouncer d = debouncer(1000);
        InboxRecord a = direct("alice", "a");
        InboxRecord b = direct("bob", "b");
        d.offer(a);
        d.offer(b);

        d.flushAll();

        assertThat(batches).containsExactly(List.of(a), List.of(b));
        assertThat(clock.live()).isZero();
        clock.advanceMillis(5000);
        assertThat(batches).hasSize(2);
    }

    @Test
    void failingSinkIsLoggedAndLaterBatchesStillFlow() {
        // SPEC IN-2, IN-4: one batch that cannot be handed on does not wedge the debouncer
        AtomicLong calls = new AtomicLong();
        Consumer<List<InboxRecord>> sink = batch -> {
            if (calls.incrementAndGet() == 1) throw new IllegalStateException("bus closed");
            batches.add(batch);
        };
        Debouncer d = new Debouncer(channel -> 1000L, clock, sink);
        d.offer(direct("alice", "lost until restart"));
        clock.advanceMillis(1000);
        InboxRecord next = direct("alice", "/status");

        d.offer(next);

        assertThat(calls).hasValue(2);
        assertThat(batches).containsExactly(List.of(next));
    }

    @Test
    void refusedTimerHandsTheBatchOnAtOnce() {
        // SPEC IN-2: a text is never stranded without a timer
        Scheduler closed = (delay, task) -> {
            throw new RejectedExecutionException("executor shut down");
        };
        Debouncer d = new Debouncer(channel -> 1000L, closed, batches::add);
        InboxRecord text = direct("alice", "hello");

        d.offer(text);

        assertThat(batches).containsExactly(List.of(text));
        assertThat(d.pendingKeys()).isZero();
    }

    @Test
    void missingOrNegativeDebounceTimeIsAClearError() {
        // SPEC IN-2: a configuration hole is reported, not silently read as "off"
        Function<String, Long> none = channel -> null;
        assertThatThrownBy(() -> new Debouncer(none, clock, batches::add).offer(direct("alice", "x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("telegram");
        assertThatThrownBy(() -> new Debouncer(channel -> -5L, clock, batches::add).offer(direct("alice", "x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> new Debouncer(channel -> 0L, clock, batches::add, r -> false, 0, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxKeys");
        assertThat(batches).isEmpty();
    }

    // --- fixtures

    private InboxRecord direct(String sender, String text) {
        return record(new InboundMessage(
                "m" + (ids.get() + 1),
                "telegram",
                "default",
                sender,
                null,
                "chat-" + sender,
                null,
                null,
                ChatType.DIRECT,
                true,
                Instant.parse("2025-03-01T10:00:00Z"),
                text,
                List.of(),
                null));
    }

    private InboxRecord group(String sender, String room, String thread, String text) {
        return record(new InboundMessage(
                "m" + (ids.get() + 1),
                "telegram",
                "default",
                sender,
                null,
                room,
                thread,
                null,
                ChatType.GROUP,
                false,
                Instant.parse("2025-03-01T10:00:00Z"),
                text,
                List.of(),
                null));
    }

    private InboxRecord withImage(InboxRecord r) {
        InboundMessage m = r.message();
        return new InboxRecord(
                r.id(),
                new InboundMessage(
                        m.id(),
                        m.channel(),
                        m.account(),
                        m.sender(),
                        m.senderName(),
                        m.replyTarget(),
                        m.threadId(),
                        m.scopeId(),
                        m.chatType(),
                        m.mentioned(),
                        m.timestamp(),
                        m.text(),
                        List.of(new Attachment(Attachment.Kind.IMAGE, "image/png", "/tmp/cat.png")),
                        null),
                r.session(),
                r.state(),
                r.attempts(),
                r.recordedAt());
    }

    private InboxRecord on(String channel, InboxRecord r) {
        InboundMessage m = r.message();
        InboundMessage moved = new InboundMessage(
                m.id(),
                channel,
                m.account(),
                m.sender(),
                m.senderName(),
                m.replyTarget(),
                m.threadId(),
                m.scopeId(),
                m.chatType(),
                m.mentioned(),
                m.timestamp(),
                m.text(),
                m.attachments(),
                null);
        return new InboxRecord(r.id(), moved, SessionKey.of(moved), r.state(), r.attempts(), r.recordedAt());
    }

    private InboxRecord record(InboundMessage m) {
        return new InboxRecord(ids.incrementAndGet(), m, SessionKey.of(m), InboxState.RECEIVED, 0, m.timestamp());
    }
}
