package dev.clawgate.core.internal.turn;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.config.RouteSettings;
import dev.clawgate.core.hook.InboundHook;
import dev.clawgate.core.hook.SendingHook;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.TranscriptEntry;
import dev.clawgate.core.testing.ScriptedProvider;
import dev.clawgate.core.tool.Tool;
import dev.clawgate.core.tool.ToolResult;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class TurnPipelineTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path workspace;

    private TurnFixture fixture(String channel) {
        return new TurnFixture(workspace, channel);
    }

    private static List<String> transcript(TurnFixture f, InboxRecord r) {
        return f.store.transcripts().load(r.session(), 50).stream()
                .map(TranscriptEntry::content)
                .toList();
    }

    @Test
    void aRunCountsItsAttemptInItsFirstWriteAndADroppedMessageIsNeverDispatched() {
        // SPEC IN-4: the pipeline dispatches its own records: an agent turn with its user message, a command before it
        // runs
        TurnFixture f = fixture("test");
        f.provider("p", "m", true, false).text("ok");
        f.inboundHook = m ->
                m.text().contains("spam") ? new InboundHook.Cancel("looks like spam") : new InboundHook.Continue(m);
        InboxRecord turn = f.record("alice", "question");
        InboxRecord command = f.record("alice", "/status");
        InboxRecord spam = f.record("alice", "buy spam now");

        f.run(turn);
        f.run(command);
        f.run(spam);

        assertThat(f.store.transitions())
                .containsExactly(
                        turn.id() + ":dispatched",
                        turn.id() + ":done",
                        command.id() + ":dispatched",
                        command.id() + ":done",
                        spam.id() + ":dropped_by_hook");
        assertThat(f.store.inbox().find(turn.id()).orElseThrow().attempts()).isEqualTo(1);
        assertThat(transcript(f, turn)).containsExactly("question", "ok");
    }

    @Test
    void theInboundHookCanDropAMessageBeforeAnyModelCall() {
        // SPEC IN-7
        TurnFixture f = fixture("test");
        ScriptedProvider p = f.provider("p", "m", true, false);
        f.inboundHook = m ->
                m.text().contains("spam") ? new InboundHook.Cancel("looks like spam") : new InboundHook.Continue(m);
        InboxRecord r = f.record("alice", "buy spam now");
        f.run(r);
        assertThat(f.store.inbox().find(r.id()).orElseThrow().state()).isEqualTo(InboxState.DROPPED_BY_HOOK);
        assertThat(p.requests()).isEmpty();
        assertThat(f.channel.sent).isEmpty();
        assertThat(transcript(f, r)).isEmpty();
    }

    @Test
    void theInboundHookCanReplaceTheMessage() {
        // SPEC IN-7
        TurnFixture f = fixture("test");
        ScriptedProvider p = f.provider("p", "m", true, false).text("ok");
        f.inboundHook = m -> new InboundHook.Continue(m.withText(m.text().toUpperCase()));
        InboxRecord r = f.record("alice", "quiet please");
        f.run(r);
        List<ChatMessage> sent = p.requests().get(0).messages();
        assertThat(sent.get(sent.size() - 1).content()).isEqualTo("QUIET PLEASE");
        assertThat(transcript(f, r)).containsExactly("QUIET PLEASE", "ok");
    }

    @Test
    void theSendingHookCanSuppressOrRewriteButTheDestinationStays() {
        // SPEC RP-1
        TurnFixture f = fixture("test");
        f.provider("p", "m", true, false).text("secret plan").text("hello world");
        f.sendingHook = (text, target) ->
                text.contains("secret") ? new SendingHook.Suppress("policy") : new SendingHook.Send(text + "!");
        InboxRecord first = f.record("alice", "one");
        f.run(first);
        assertThat(f.channel.sent).isEmpty();
        assertThat(f.channel.ended).extracting(e -> e.outcome()).containsExactly(TurnOutcome.NO_REPLY);
        InboxRecord second = f.record("alice", "two");
        f.run(second);
        assertThat(f.channel.texts(OutboundMessage.Kind.FINAL)).containsExactly("hello world!");
        assertThat(f.channel.sent.get(0).target().replyTarget()).isEqualTo("alice");
        assertThat(f.channel.sent.get(0).turnId()).isEqualTo(second.id());
    }

    @Test
    void theReplyIsSanitisedAndTheStoredTurnCarriesTheToolSummary() throws Exception {
        // SPEC RP-2, RP-3
        TurnFixture f = fixture("test");
        f.tools.add(Tool.create("echo", "echo", JSON.createObjectNode(), (a, c) -> ToolResult.ok("echoed")));
        f.provider("p", "m", true, false)
                .answer(new ChatResponse(
                        "",
                        List.of(new ToolCall("c1", "echo", JSON.readTree("{\"text\":\"x\"}"))),
                        null,
                        null,
                        "tool_calls"))
                .text("<think>private reasoning</think>Let me check that.\nThe answer is 42.");
        InboxRecord r = f.record("alice", "question");
        f.run(r);
        assertThat(f.channel.texts(OutboundMessage.Kind.FINAL)).containsExactly("The answer is 42.");
        assertThat(transcript(f, r)).containsExactly("question", "[Used tools: echo]\nThe answer is 42.");
        assertThat(String.join("", f.channel.deltas)).doesNotContain("<think>");
    }

    @Test
    void aChannelThatAsksForNoToolSummaryStoresItsTurnsWithout() throws Exception {
        // SPEC RP-3: not on Telegram, which says so itself (no channel name in core)
        TurnFixture f = fixture("chat");
        f.channel.toolSummary = false;
        f.tools.add(Tool.create("echo", "echo", JSON.createObjectNode(), (a, c) -> ToolResult.ok("echoed")));
        f.provider("p", "m", true, false)
                .answer(new ChatResponse(
                        "", List.of(new ToolCall("c1", "echo", JSON.createObjectNode())), null, null, "tool_calls"))
                .text("done");
        InboxRecord r = f.record("alice", "go");
        f.run(r);
        assertThat(transcript(f, r)).containsExactly("go", "done");
    }

    @Test
    void eachTurnLogsTheSeedsLineWithChannelAndSenderAndTheTextOnlyAtDebug() {
        // SPEC OP-5 (the seeds' line), OP-6: at INFO the line carries the length, not what the user wrote
        Logger logger = (Logger) LoggerFactory.getLogger(TurnPipeline.class);
        ch.qos.logback.classic.Level before = logger.getLevel();
        logger.setLevel(ch.qos.logback.classic.Level.DEBUG);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        try {
            TurnFixture f = fixture("telegram");
            f.provider("p", "m", true, false).text("hi");
            f.run(f.record("alice", "hello"));
            List<String> info = appender.list.stream()
                    .filter(e -> e.getLevel().isGreaterOrEqual(ch.qos.logback.classic.Level.INFO))
                    .map(ILoggingEvent::getFormattedMessage)
                    .toList();
            assertThat(info)
                    .contains("💬 [telegram] from alice (5 chars)")
                    .anyMatch(l -> l.startsWith("turn ")
                            && l.contains("session=telegram_alice_alice")
                            && l.contains("outcome=REPLIED"))
                    .noneMatch(l -> l.contains("hello"));
            assertThat(appender.list)
                    .filteredOn(e -> e.getLevel() == ch.qos.logback.classic.Level.DEBUG)
                    .extracting(ILoggingEvent::getFormattedMessage)
                    .contains("💬 [telegram] from alice: hello");
        } finally {
            logger.detachAppender(appender);
            logger.setLevel(before);
        }
    }

    @Test
    void aKeywordRoutePicksItsProviderAndModel() {
        // SPEC RT-2: whole word, case-insensitive, first match wins
        TurnFixture f = fixture("test");
        ScriptedProvider general = f.provider("general", "small", true, false).text("general answer");
        ScriptedProvider coder = f.provider("coder", "big", true, false).text("code answer");
        f.routes.add(new RouteSettings("code", List.of("Python", "bug"), "coder", "big-coder"));
        f.run(f.record("alice", "fix this BUG please"));
        f.run(f.record("bob", "debugging is fun"));
        assertThat(coder.requests()).extracting(r -> r.model()).containsExactly("big-coder");
        assertThat(general.requests()).extracting(r -> r.model()).containsExactly("small");
    }

    @Test
    void aModelErrorRecordsAFailedTaskAndSendsAShortError() {
        // SPEC HI-6
        TurnFixture f = fixture("test");
        f.provider("p", "m", true, false)
                .fail(new ProviderException(
                        ProviderException.Kind.FATAL,
                        "model not found: see https://api.example.com/v1?key=sk-abcdefghijklmnop"));
        InboxRecord r = f.record("alice", "hi");
        f.run(r);
        assertThat(transcript(f, r)).containsExactly("hi", "[Task failed]");
        assertThat(f.store.inbox().find(r.id()).orElseThrow().state()).isEqualTo(InboxState.FAILED);
        assertThat(f.channel.texts(OutboundMessage.Kind.ERROR))
                .singleElement()
                .asString()
                .contains("model not found")
                .doesNotContain("sk-abc")
                .doesNotContain("https://");
    }

    @Test
    void aVisionErrorRollsTheUserTurnBack() {
        // SPEC HI-6
        TurnFixture f = fixture("test");
        f.provider("p", "m", true, false)
                .fail(new ProviderException(ProviderException.Kind.VISION_UNSUPPORTED, "no images"));
        InboxRecord r = f.record("alice", "look at this");
        f.run(r);
        assertThat(transcript(f, r)).isEmpty();
        assertThat(f.channel.texts(OutboundMessage.Kind.ERROR))
                .singleElement()
                .asString()
                .contains("cannot read images");
    }

    @Test
    void aCancelledRunSendsNothingAndRecordsNothingMore() {
        // SPEC HI-6, DI-5
        TurnFixture f = fixture("test");
        ScriptedProvider p = f.provider("p", "m", true, false).text("never seen");
        InboxRecord r = f.record("alice", "hi");
        RunHandle h = new RunHandle(List.of(r), Instant.now());
        h.cancel().cancel(RunHandle.REASON_STOP);
        new TurnPipeline(f.services()).run(h);
        assertThat(p.requests()).isEmpty();
        assertThat(f.channel.sent).isEmpty();
        assertThat(transcript(f, r)).containsExactly("hi");
        assertThat(f.store.inbox().find(r.id()).orElseThrow().state()).isEqualTo(InboxState.CANCELLED);
        assertThat(f.channel.ended).extracting(e -> e.outcome()).containsExactly(TurnOutcome.CANCELLED);
    }

    @Test
    void aTimedOutRunRecordsTaskTimedOutAndTellsTheUser() {
        // SPEC DI-6
        TurnFixture f = fixture("test");
        f.provider("p", "m", true, false).text("late");
        InboxRecord r = f.record("alice", "slow job");
        RunHandle h = new RunHandle(List.of(r), Instant.now());
        h.cancel().cancel(RunHandle.REASON_TIMEOUT);
        new TurnPipeline(f.services()).run(h);
        assertThat(transcript(f, r)).containsExactly("slow job", "[Task timed out]");
        assertThat(f.channel.texts(OutboundMessage.Kind.ERROR))
                .singleElement()
                .asString()
                .contains("took too long");
    }

    @Test
    void anInterruptedTurnStaysInHistoryAndTheNextRunSeesBothUserTurnsMerged() {
        // SPEC DI-3 interrupt, HI-3
        TurnFixture f = fixture("test");
        ScriptedProvider p = f.provider("p", "m", true, false).text("answer to both");
        InboxRecord first = f.record("alice", "first question");
        RunHandle cancelled = new RunHandle(List.of(first), Instant.now());
        f.store.transcripts().appendUserMessage(first.session(), first.id(), "first question");
        cancelled.cancel().cancel(RunHandle.REASON_INTERRUPT);
        new TurnPipeline(f.services()).run(cancelled);
        InboxRecord second = f.record("alice", "actually, this");
        f.run(second);
        List<ChatMessage> sent = p.requests().get(0).messages();
        assertThat(sent).extracting(ChatMessage::role).containsExactly(Role.SYSTEM, Role.USER);
        assertThat(sent.get(1).content()).isEqualTo("first question\n\nactually, this");
    }

    @Test
    void aBatchRecordsEveryUserMessageAndMergesTheEarlierOnes() {
        // SPEC IN-4: merged (into turn T)
        TurnFixture f = fixture("test");
        f.provider("p", "m", true, false).text("one answer");
        InboxRecord a = f.record("alice", "part one");
        InboxRecord b = f.record("alice", "part two");
        f.run(a, b);
        assertThat(f.store.inbox().find(a.id()).orElseThrow().state()).isEqualTo(InboxState.MERGED);
        assertThat(f.store.inbox().find(b.id()).orElseThrow().state()).isEqualTo(InboxState.DONE);
        assertThat(transcript(f, b)).containsExactly("part one", "part two", "one answer");
        assertThat(f.channel.sent)
                .singleElement()
                .extracting(OutboundMessage::turnId)
                .isEqualTo(b.id());
    }

    @Test
    void toolCallsAreAnnouncedWhenShowToolCallsIsOn() throws Exception {
        // SPEC AG-6
        TurnFixture f = fixture("test");
        f.showToolCalls = true;
        f.tools.add(Tool.create("shell", "shell", JSON.createObjectNode(), (a, c) -> ToolResult.ok("file.txt")));
        f.provider("p", "m", true, false)
                .answer(new ChatResponse(
                        "",
                        List.of(new ToolCall("c1", "shell", JSON.readTree("{\"command\":\"ls /home\"}"))),
                        null,
                        null,
                        "tool_calls"))
                .text("there is file.txt");
        f.run(f.record("alice", "what is there?"));
        assertThat(f.channel.texts(OutboundMessage.Kind.NOTICE)).containsExactly("🔧 `shell`: ls /home");
        assertThat(f.channel.texts(OutboundMessage.Kind.FINAL)).containsExactly("there is file.txt");
    }

    @Test
    void theSystemPromptComesFirstAndCarriesTheChannelContext() {
        // SPEC SP-1
        TurnFixture f = fixture("test");
        ScriptedProvider p = f.provider("p", "m", true, false).text("hi");
        f.run(f.record("room-7", "alice", ChatType.GROUP, "hello all"));
        ChatMessage system = p.requests().get(0).messages().get(0);
        assertThat(system.role()).isEqualTo(Role.SYSTEM);
        assertThat(system.content()).contains("channel=test", "reply_target=room-7");
    }

    @Test
    void groupsShareOneSessionPerRoomAndDirectChatsOnePerSender() {
        // SPEC HI-1
        TurnFixture f = fixture("test");
        f.provider("p", "m", true, false).text("a").text("b").text("c");
        InboxRecord g1 = f.record("room", "alice", ChatType.GROUP, "from alice");
        InboxRecord g2 = f.record("room", "bob", ChatType.GROUP, "from bob");
        InboxRecord d = f.record("alice", "alice", ChatType.DIRECT, "private");
        f.run(g1);
        f.run(g2);
        f.run(d);
        assertThat(g1.session()).isEqualTo(g2.session()).isNotEqualTo(d.session());
        assertThat(g1.session().sender()).isNull();
        assertThat(transcript(f, g1)).containsExactly("alice: from alice", "a", "bob: from bob", "b");
        assertThat(transcript(f, d)).containsExactly("private", "c");
        assertThat(new SessionKey("test", "bot2", ChatType.GROUP, "room", "t1", null).display())
                .isEqualTo("test.bot2_room_t1");
    }

    @Test
    void withNoProviderTheUserIsToldWhatToConfigure() {
        // SPEC HI-6
        TurnFixture f = fixture("test");
        InboxRecord r = f.record("alice", "hi");
        f.run(r);
        assertThat(f.channel.texts(OutboundMessage.Kind.ERROR)).containsExactly(ModelSelector.NO_PROVIDER);
        assertThat(transcript(f, r)).isEmpty();
        assertThat(f.store.inbox().find(r.id()).orElseThrow().state()).isEqualTo(InboxState.FAILED);
    }

    @Test
    void aSteeredMessageIsPersistedAsItsOwnUserMessageAndAnsweredByTheRunsReply() throws Exception {
        // SPEC DI-3 steer: persisted as its own user message (inbox merged), answered by the run's final reply
        TurnFixture f = fixture("test");
        InboxRecord first = f.record("alice", "first");
        InboxRecord steer = f.record("alice", "and also this");
        RunHandle h = new RunHandle(List.of(first), Instant.now());
        f.tools.add(Tool.create("look", "look", JSON.createObjectNode(), (a, c) -> {
            h.steer().offer(steer, 20);
            return ToolResult.ok("looked");
        }));
        ScriptedProvider p = f.provider("p", "m", true, false)
                .answer(new ChatResponse(
                        "", List.of(new ToolCall("c1", "look", JSON.createObjectNode())), null, null, "tool_calls"))
                .text("answered both");
        new TurnPipeline(f.services()).run(h);
        assertThat(transcript(f, first)).containsExactly("first", "and also this", "[Used tools: look]\nanswered both");
        assertThat(f.store.inbox().find(steer.id()).orElseThrow().state()).isEqualTo(InboxState.MERGED);
        assertThat(f.channel.texts(OutboundMessage.Kind.FINAL)).containsExactly("answered both");
        List<ChatMessage> second = p.requests().get(1).messages();
        assertThat(second.get(second.size() - 1)).isEqualTo(ChatMessage.user("and also this"));
    }

    @Test
    void summariesOfDroppedMessagesReachTheNextTurn() {
        // SPEC DI-3 drop = summarize: hand the summaries to the next turn
        TurnFixture f = fixture("test");
        ScriptedProvider p = f.provider("p", "m", true, false).text("ok");
        InboxRecord r = f.record("alice", "latest");
        new TurnPipeline(f.services())
                .run(new RunHandle(List.of(r), Instant.now(), List.of("alice: old one", "alice: older")));
        String sent = p.requests().get(0).messages().get(1).content();
        assertThat(sent)
                .contains("2 earlier messages were dropped", "- alice: old one", "- alice: older")
                .endsWith("latest");
    }

    @Test
    void bufferedGroupMessagesAppearOnceInTheNextTriggeredTurnWithSenderLabels() {
        // SPEC IN-6, MD-2: pending history wrapper, sender labels, never repeated
        TurnFixture f = fixture("test");
        ScriptedProvider p = f.provider("p", "m", true, false).text("noted").text("again");
        InboxRecord b1 = f.record("room", "bob", ChatType.GROUP, "lunch at noon?");
        InboxRecord b2 = f.record("room", "carol", ChatType.GROUP, "yes please");
        f.store.inbox().mark(b1.id(), InboxState.BUFFERED, "no mention");
        f.store.inbox().mark(b2.id(), InboxState.BUFFERED, "no mention");
        f.run(f.record("room", "alice", ChatType.GROUP, "@bot what did they decide?"));
        String body = p.requests().get(0).messages().get(1).content();
        assertThat(body)
                .isEqualTo("[Chat messages since your last reply - for context]\nbob: lunch at noon?\ncarol: yes "
                        + "please\n\n"
                        + "[Current message - respond to this]\nalice: @bot what did they decide?");
        assertThat(f.store.inbox().find(b1.id()).orElseThrow().state()).isEqualTo(InboxState.MERGED);
        f.run(f.record("room", "alice", ChatType.GROUP, "@bot and now?"));
        List<ChatMessage> second = p.requests().get(1).messages();
        assertThat(second.get(second.size() - 1).content()).isEqualTo("alice: @bot and now?");
        assertThat(second.stream()
                        .filter(m -> m.content().contains("lunch at noon?"))
                        .count())
                .isEqualTo(1);
    }
}
