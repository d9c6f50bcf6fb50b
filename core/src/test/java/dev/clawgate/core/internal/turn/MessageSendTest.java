package dev.clawgate.core.internal.turn;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.internal.tool.builtin.MessageSendTool;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code message_send} goes through the same durable outbound path as replies (SPEC AG-5, OUT-5, OUT-12). */
class MessageSendTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path workspace;

    private static ChatResponse call(String id, String args) throws Exception {
        return new ChatResponse(
                "", List.of(new ToolCall(id, MessageSendTool.NAME, JSON.readTree(args))), null, null, "tool_calls");
    }

    @Test
    void aSentMessageIsAnOutboxEntryOfTheTurnAndReachesTheChat() throws Exception {
        // SPEC AG-5 message_send, OUT-5 intent before I/O, OUT-8 receipt
        TurnFixture f = new TurnFixture(workspace, "test");
        f.tools.add(new MessageSendTool());
        f.provider("p", "m", true, false)
                .answer(call("c1", "{\"text\":\"heads up: build is green\"}"))
                .text("done");
        InboxRecord r = f.record("alice", "tell me when it is green");
        f.run(r);

        assertThat(f.channel.texts(OutboundMessage.Kind.SEND)).containsExactly("heads up: build is green");
        assertThat(f.channel.texts(OutboundMessage.Kind.FINAL)).containsExactly("done");
        List<OutboxEntry> entries = f.store.outbox().byState(OutboxState.values());
        assertThat(entries)
                .extracting(e -> e.draft().kind(), OutboxEntry::state)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(OutboundMessage.Kind.SEND, OutboxState.SENT),
                        org.assertj.core.groups.Tuple.tuple(OutboundMessage.Kind.FINAL, OutboxState.SENT));
        assertThat(entries).allSatisfy(e -> assertThat(e.turnId()).isEqualTo(r.id()));
        assertThat(f.channel.sent.get(0).target().inReplyToMessageId())
                .as("a sent message is not a reply")
                .isNull();
        assertThat(f.providers.get("p").requests().get(1).messages())
                .anySatisfy(m -> assertThat(m.content()).contains("sent to test:"));
    }

    @Test
    void theSameMessageSentAgainInTheTurnIsNotSentTwice() throws Exception {
        // SPEC OUT-12: a re-run (or a model repeating itself) adds no second entry for the same target and text
        TurnFixture f = new TurnFixture(workspace, "test");
        f.tools.add(new MessageSendTool());
        f.provider("p", "m", true, false)
                .answer(call("c1", "{\"text\":\"ping\"}"))
                .answer(call("c2", "{\"text\":\"ping\"}"))
                .text("ok");
        f.run(f.record("alice", "ping me"));

        assertThat(f.channel.texts(OutboundMessage.Kind.SEND)).containsExactly("ping");
        assertThat(f.providers.get("p").requests().get(2).messages())
                .anySatisfy(m -> assertThat(m.content()).contains("already sent"));
    }

    @Test
    void aPayloadTheChannelCannotCarryIsUnsupportedBeforeAnyIntentIsWritten() throws Exception {
        // SPEC OUT-5 unsupported (nothing written, nothing sent), OUT-4 payload derived from the message, AG-5
        TurnFixture f = new TurnFixture(workspace, "test");
        f.tools.add(new MessageSendTool());
        f.provider("p", "m", true, false)
                .answer(call("c1", "{\"text\":\"the card\",\"payload\":{\"card\":{\"title\":\"x\"}}}"))
                .text("done");
        InboxRecord r = f.record("alice", "send the card");
        f.run(r);

        assertThat(f.channel.texts(OutboundMessage.Kind.SEND)).isEmpty();
        assertThat(f.store.outbox().byState(OutboxState.values()))
                .extracting(e -> e.draft().kind())
                .containsExactly(OutboundMessage.Kind.FINAL);
        assertThat(f.providers.get("p").requests().get(1).messages())
                .anySatisfy(m -> assertThat(m.content())
                        .contains("not sent: test cannot carry this message (it lacks payload)"));
    }

    @Test
    void aPayloadTheChannelCarriesIsKeptWithTheIntentAndSentWithTheText() throws Exception {
        // SPEC OUT-4 payload, OUT-5, AG-5
        TurnFixture f = new TurnFixture(workspace, "test");
        f.channel.capabilities = java.util.EnumSet.of(
                dev.clawgate.core.outbound.Capability.TEXT,
                dev.clawgate.core.outbound.Capability.PAYLOAD,
                dev.clawgate.core.outbound.Capability.MESSAGE_SENDING_HOOKS);
        f.tools.add(new MessageSendTool());
        f.provider("p", "m", true, false)
                .answer(call("c1", "{\"text\":\"the card\",\"payload\":{\"card\":{\"title\":\"x\"}}}"))
                .text("done");
        f.run(f.record("alice", "send the card"));

        assertThat(f.channel.sent)
                .filteredOn(m -> m.kind() == OutboundMessage.Kind.SEND)
                .singleElement()
                .satisfies(m -> {
                    assertThat(m.text()).isEqualTo("the card");
                    assertThat(JSON.readTree(m.payload())
                                    .path("card")
                                    .path("title")
                                    .asText())
                            .isEqualTo("x");
                });
        assertThat(f.store.outbox().byState(OutboxState.SENT))
                .filteredOn(e -> e.draft().kind() == OutboundMessage.Kind.SEND)
                .singleElement()
                .satisfies(e -> assertThat(e.draft().payload()).isEqualTo("{\"card\":{\"title\":\"x\"}}"));
    }

    @Test
    void anUnknownChannelIsAToolErrorNotACrash() throws Exception {
        // SPEC AG-5: bad arguments are told to the model
        TurnFixture f = new TurnFixture(workspace, "test");
        f.tools.add(new MessageSendTool());
        f.provider("p", "m", true, false)
                .answer(call("c1", "{\"text\":\"hi\",\"channel\":\"carrier-pigeon\",\"to\":\"x\"}"))
                .text("sorry");
        f.run(f.record("alice", "send it by pigeon"));

        assertThat(f.channel.texts(OutboundMessage.Kind.SEND)).isEmpty();
        assertThat(f.providers.get("p").requests().get(1).messages())
                .anySatisfy(m -> assertThat(m.content()).contains("there is no channel 'carrier-pigeon'"));
    }
}
