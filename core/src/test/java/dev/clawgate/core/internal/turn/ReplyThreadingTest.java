package dev.clawgate.core.internal.turn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.ChannelOutput;
import dev.clawgate.core.internal.outbound.Outbox;
import dev.clawgate.core.internal.outbound.Pacer;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.render.ReplyToMode;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which messages of a turn quote the inbound one, and the response prefix, as the channel receives them (SPEC OUT-3).
 */
class ReplyThreadingTest {
    /** Two paragraphs that do not fit one 4000-unit message: the reply goes out as two parts. */
    private static final String LONG = "a".repeat(3000) + "\n\n" + "b".repeat(3000);

    @TempDir
    Path workspace;

    private TurnFixture fixture(ReplyToMode mode, String answer) {
        TurnFixture f = new TurnFixture(workspace, "test");
        f.output = new ChannelOutput(mode, null, Map.of(), null);
        f.provider("p", "m", true, false).text(answer);
        return f;
    }

    private static List<Boolean> quoted(TurnFixture f) {
        return f.channel.sent.stream()
                .filter(m -> m.kind() == OutboundMessage.Kind.FINAL)
                .map(m -> m.options().replyTo())
                .toList();
    }

    @Test
    void firstQuotesTheInboundMessageWithTheFirstPartOnly() {
        // SPEC OUT-3: reply_to_mode = first
        TurnFixture f = fixture(ReplyToMode.FIRST, LONG);
        f.run(f.record("alice", "question"));
        assertThat(quoted(f)).containsExactly(true, false);
    }

    @Test
    void allQuotesTheInboundMessageWithEveryPart() {
        // SPEC OUT-3: reply_to_mode = all
        TurnFixture f = fixture(ReplyToMode.ALL, LONG);
        f.run(f.record("alice", "question"));
        assertThat(quoted(f)).containsExactly(true, true);
    }

    @Test
    void offQuotesNothing() {
        // SPEC OUT-3: reply_to_mode = off
        TurnFixture f = fixture(ReplyToMode.OFF, LONG);
        f.run(f.record("alice", "question"));
        assertThat(quoted(f)).containsExactly(false, false);
    }

    @Test
    void batchedQuotesOnlyWhenTheTurnAnswersADebouncedBatch() {
        // SPEC OUT-3: reply_to_mode = batched: a single message needs no quote; a batch's reply quotes its last
        // message, once
        TurnFixture single = fixture(ReplyToMode.BATCHED, LONG);
        single.run(single.record("alice", "question"));
        assertThat(quoted(single)).containsExactly(false, false);

        TurnFixture batch = fixture(ReplyToMode.BATCHED, LONG);
        InboxRecord first = batch.record("alice", "one");
        InboxRecord second = batch.record("alice", "two");
        batch.run(first, second);
        assertThat(quoted(batch)).containsExactly(true, false);
        assertThat(batch.channel.sent.getFirst().target().inReplyToMessageId())
                .isEqualTo(second.message().id());
    }

    @Test
    void withoutAModeGroupsQuoteTheFirstPartAndDirectChatsNothing() {
        // SPEC OUT-3 default (ReplyToMode.defaultFor): first in groups, off in direct chats
        TurnFixture dm = fixture(null, LONG);
        dm.run(dm.record("alice", "question"));
        assertThat(quoted(dm)).containsExactly(false, false);

        TurnFixture group = fixture(null, LONG);
        group.run(group.record("room", "alice", ChatType.GROUP, "question"));
        assertThat(quoted(group)).containsExactly(true, false);
    }

    @Test
    void aReplayAfterAFailedSendThreadsItsPartsAsTheTurnDecided() {
        // SPEC OUT-3, OUT-7: the outbox keeps the threading with the reply, so the retry quotes only the first part
        TurnFixture f = fixture(ReplyToMode.FIRST, LONG);
        f.channel.failNext = new DeliveryException("HTTP 503", false, null);
        f.run(f.record("alice", "question"));
        assertThat(f.store.outbox().byState(OutboxState.PENDING))
                .singleElement()
                .satisfies(e -> assertThat(e.draft().replyTo()).isEqualTo(ReplyToMode.FIRST));

        new Outbox(f.store, Clock.offset(Clock.systemUTC(), Duration.ofMinutes(1)))
                .recover(name -> Optional.of(f.channel.messageAdapter()), Pacer.NONE);

        assertThat(quoted(f)).containsExactly(true, false);
        assertThat(f.store.outbox().byState(OutboxState.SENT))
                .extracting(OutboxEntry::turnId)
                .hasSize(1);
    }

    @Test
    void theGlobalPrefixIsRenderedOnTheFirstPartOnly() {
        // SPEC OUT-3: messages.response_prefix with {model} and {provider}; only the turn's first message carries it
        TurnFixture f = fixture(ReplyToMode.OFF, LONG);
        f.responsePrefix = "[{provider}/{model}]";
        f.run(f.record("alice", "question"));
        List<String> texts = f.channel.texts(OutboundMessage.Kind.FINAL);
        assertThat(texts).hasSize(2);
        assertThat(texts.get(0)).startsWith("[p/m] aaa");
        assertThat(texts.get(1)).startsWith("bbb");
    }

    @Test
    void theMostSpecificPrefixWinsAndAnEmptyOneStopsTheCascade() {
        // SPEC OUT-3: account over channel over messages.response_prefix; "" means no prefix
        TurnFixture account = fixture(ReplyToMode.OFF, "hi");
        account.responsePrefix = "global:";
        account.output = new ChannelOutput(
                ReplyToMode.OFF, "channel:", Map.of(InboundMessage.DEFAULT_ACCOUNT, "account:"), null);
        account.run(account.record("alice", "question"));
        assertThat(account.channel.texts(OutboundMessage.Kind.FINAL)).containsExactly("account: hi");

        TurnFixture channel = fixture(ReplyToMode.OFF, "hi");
        channel.responsePrefix = "global:";
        channel.output = new ChannelOutput(ReplyToMode.OFF, "", Map.of(), null);
        channel.run(channel.record("alice", "question"));
        assertThat(channel.channel.texts(OutboundMessage.Kind.FINAL)).containsExactly("hi");
    }

    @Test
    void theIdentityNameComesFromTheWorkspacesIdentityFile() throws Exception {
        // SPEC OUT-3: {identity.name}, from IDENTITY.md (SP-1)
        Files.writeString(workspace.resolve("IDENTITY.md"), "# Identity\n- **Name:** Clawd\n- Vibe: calm\n");
        TurnFixture f = fixture(ReplyToMode.OFF, "hello");
        f.responsePrefix = "{identity.name}:";
        f.run(f.record("alice", "question"));
        assertThat(f.channel.texts(OutboundMessage.Kind.FINAL)).containsExactly("Clawd: hello");
    }

    @Test
    void theTranscriptKeepsTheReplyWithoutThePrefix() {
        // SPEC OUT-3: the prefix is how the reply is shown, not what the model said
        TurnFixture f = fixture(ReplyToMode.OFF, "hello");
        f.responsePrefix = "bot:";
        InboxRecord r = f.record("alice", "question");
        f.run(r);
        assertThat(f.store.transcripts().load(r.session(), 10).getLast().content())
                .isEqualTo("hello");
    }
}
