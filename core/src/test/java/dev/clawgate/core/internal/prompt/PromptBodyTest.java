package dev.clawgate.core.internal.prompt;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.internal.command.RuntimeCommand;
import dev.clawgate.core.model.Attachment;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Raw, command and prompt bodies, with the group history wrapper. */
class PromptBodyTest {

    @Test
    void rawBodyIsTheTextExactly() {
        // SPEC MD-2: rawBody is the user's text exactly
        InboundMessage m = group("carol", "Carol", "  @clawbot   /stop  ");

        assertThat(PromptBody.rawBody(m)).isEqualTo("  @clawbot   /stop  ");
    }

    @Test
    void commandBodyDropsALeadingMentionSoTheCommandParses() {
        // SPEC MD-2: commandBody is what command parsing reads
        InboundMessage m = group("carol", "Carol", "  @ClawBot   /stop  ");

        String body = PromptBody.commandBody(m, "clawbot");

        assertThat(body).isEqualTo("/stop");
        assertThat(RuntimeCommand.parse(body)).contains(new RuntimeCommand.Stop());
        assertThat(PromptBody.commandBody(group("carol", null, "@clawbot: /new"), "@clawbot"))
                .isEqualTo("/new");
        assertThat(PromptBody.commandBody(group("carol", null, "@clawbot, what time is it?"), "clawbot"))
                .isEqualTo("what time is it?");
        assertThat(PromptBody.commandBody(group("carol", null, "@clawbot"), "clawbot"))
                .isEmpty();
    }

    @Test
    void commandBodyLeavesOtherNamesAndLaterMentionsAlone() {
        // SPEC MD-2: only a leading mention of this bot is stripped
        assertThat(PromptBody.commandBody(group("carol", null, "@clawbot_two /stop"), "clawbot"))
                .isEqualTo("@clawbot_two /stop");
        assertThat(PromptBody.commandBody(group("carol", null, "@otherbot /stop"), "clawbot"))
                .isEqualTo("@otherbot /stop");
        assertThat(PromptBody.commandBody(group("carol", null, " thanks @clawbot "), "clawbot"))
                .isEqualTo("thanks @clawbot");
        assertThat(PromptBody.commandBody(group("carol", null, " /status "), null))
                .isEqualTo("/status");
        assertThat(PromptBody.commandBody(group("carol", null, "@clawbot /stop"), " "))
                .isEqualTo("@clawbot /stop");
    }

    @Test
    void groupTurnWithPendingMessagesWrapsThemAsContextBeforeTheCurrentOne() {
        // SPEC IN-6: history wrapper, each message with its sender label
        InboundMessage current = group("carol", "Carol", "@clawbot what do you think?");
        List<InboundMessage> pending =
                List.of(group("dave", "Dave", "pizza tonight?"), group("u-77", null, "yes\nat 8"));

        String body = PromptBody.body(current, pending, true);

        assertThat(body).isEqualTo("""
                [Chat messages since your last reply - for context]
                Dave: pizza tonight?
                u-77: yes
                at 8

                [Current message - respond to this]
                Carol: @clawbot what do you think?""");
    }

    @Test
    void groupTurnWithoutPendingMessagesIsTheLabelledCurrentMessage() {
        // SPEC IN-6: the current message carries its sender label in a group
        InboundMessage current = group("carol", "  ", "hello");

        assertThat(PromptBody.body(current, List.of(), true)).isEqualTo("carol: hello");
    }

    @Test
    void directChatIsTheTextWithoutALabel() {
        // SPEC IN-6: direct chats get no sender label
        InboundMessage m = InboundMessage.direct("telegram", "1", "alice", "how are you?");

        assertThat(PromptBody.body(m, List.of(), false)).isEqualTo("how are you?");
    }

    @Test
    void attachmentsBecomeMarkersInEveryMessageOfTheBody() {
        // SPEC IN-6, MD-1: attachments reach the model as markers, in history and current message alike
        InboundMessage photo = withAttachments(
                group("dave", "Dave", "look"), new Attachment(Attachment.Kind.IMAGE, "image/png", "/data/a.png"));
        InboundMessage files = withAttachments(
                group("carol", "Carol", ""),
                new Attachment(Attachment.Kind.FILE, "application/pdf", "/data/b.pdf"),
                new Attachment(Attachment.Kind.AUDIO, "audio/ogg", "https://x.test/v.ogg"),
                new Attachment(Attachment.Kind.VIDEO, "video/mp4", "/data/c.mp4"));

        assertThat(PromptBody.withAttachmentMarkers(files))
                .isEqualTo("[DOCUMENT:/data/b.pdf]\n[AUDIO:https://x.test/v.ogg]\n[VIDEO:/data/c.mp4]");
        assertThat(PromptBody.body(files, List.of(photo), true)).isEqualTo("""
                [Chat messages since your last reply - for context]
                Dave: look
                [IMAGE:/data/a.png]

                [Current message - respond to this]
                Carol: [DOCUMENT:/data/b.pdf]
                [AUDIO:https://x.test/v.ogg]
                [VIDEO:/data/c.mp4]""");
    }

    @Test
    void pendingMessagesInADirectChatAreWrappedWithoutLabels() {
        // SPEC IN-6: direct chats get no sender label, even around the history wrapper
        InboundMessage earlier = InboundMessage.direct("telegram", "1", "alice", "first");
        InboundMessage current = InboundMessage.direct("telegram", "2", "alice", "second");

        assertThat(PromptBody.body(current, List.of(earlier), false)).isEqualTo("""
                [Chat messages since your last reply - for context]
                first

                [Current message - respond to this]
                second""");
    }

    @Test
    void senderLabelPrefersTheDisplayName() {
        // SPEC IN-6: the sender label is the display name, else the sender id
        assertThat(PromptBody.senderLabel(group("u-1", " Erin ", "x"))).isEqualTo("Erin");
        assertThat(PromptBody.senderLabel(group("u-1", null, "x"))).isEqualTo("u-1");
    }

    private static InboundMessage group(String sender, String name, String text) {
        return new InboundMessage(
                "id-" + sender,
                "telegram",
                "default",
                sender,
                name,
                "room-1",
                null,
                null,
                ChatType.GROUP,
                false,
                Instant.parse("2025-03-01T10:00:00Z"),
                text,
                List.of(),
                null);
    }

    private static InboundMessage withAttachments(InboundMessage m, Attachment... attachments) {
        return new InboundMessage(
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
                List.of(attachments),
                m.rawPayload());
    }
}
