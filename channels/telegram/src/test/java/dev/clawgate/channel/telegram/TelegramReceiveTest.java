package dev.clawgate.channel.telegram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.model.Attachment;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the polling receiver hands the inbox for each kind of Telegram message (SPEC CH-3, MD-1, IN-1). */
class TelegramReceiveTest {
    @TempDir
    Path dir;

    private FakeTelegramServer tg;
    private TelegramChannel channel;
    private final List<InboundMessage> received = new CopyOnWriteArrayList<>();
    private TelegramUser alice;

    @BeforeEach
    void start() {
        tg = TelegramFixture.server();
        alice = tg.user(111, "alice");
        channel = TelegramFixture.channel(tg, dir, false, false, Duration.ofSeconds(5), Duration.ZERO);
        InboundSink sink = m -> {
            received.add(m);
            return InboundSink.Acceptance.recorded(received.size());
        };
        channel.start(sink);
    }

    @AfterEach
    void stop() {
        channel.stop();
        tg.close();
    }

    private InboundMessage awaitMessage(String id) {
        await().atMost(Duration.ofSeconds(10)).until(() -> received.stream().anyMatch(m -> id.equals(m.id())));
        return received.stream().filter(m -> id.equals(m.id())).findFirst().orElseThrow();
    }

    @Test
    void aDirectMessageIsMentionedAndIdentifiedByChatAndMessageId() {
        // SPEC MD-1, IN-1 (the id dedupes a redelivered update), CH-3 (deleteWebhook before polling)
        TelegramChat dm = tg.privateChat(alice);
        long id = tg.sendText(dm, alice, "hello");
        InboundMessage m = awaitMessage(dm.id() + ":" + id);
        assertThat(m.chatType()).isEqualTo(ChatType.DIRECT);
        assertThat(m.mentioned()).isTrue();
        assertThat(m.sender()).isEqualTo("111");
        assertThat(m.replyTarget()).isEqualTo("111");
        assertThat(m.text()).isEqualTo("hello");
        assertThat(tg.calls().getFirst().method()).isEqualTo("getMe");
        assertThat(tg.calls("deleteWebhook")).hasSize(1);
    }

    @Test
    void inAGroupOnlyAMentionOrAReplyToTheBotCountsAsAMention() {
        // SPEC IN-5 (require_mention gates on this flag), CH-3
        TelegramChat group = tg.group(-100, "Friends");
        long plain = tg.sendText(group, alice, "just chatting");
        long other = tg.sendText(group, alice, "hey @someoneelse");
        long mention = tg.sendText(group, alice, "hey @ClawBot look");
        assertThat(awaitMessage(group.id() + ":" + plain).mentioned()).isFalse();
        assertThat(awaitMessage(group.id() + ":" + other).mentioned()).isFalse();
        InboundMessage m = awaitMessage(group.id() + ":" + mention);
        assertThat(m.mentioned()).isTrue();
        assertThat(m.chatType()).isEqualTo(ChatType.GROUP);
        assertThat(m.senderName()).isEqualTo("Alice");
    }

    @Test
    void aReplyToTheBotIsAMentionAndItsThreadOfRepliesIsNotAThread() throws Exception {
        // SPEC CH-3: replies set reply-to, not the thread
        TelegramChat group = tg.group(-101, "Friends");
        channel.messageAdapter()
                .send(
                        TelegramFixture.finalReply(TelegramFixture.target(group, null, null), "I am the bot"),
                        dev.clawgate.core.run.CancelToken.none());
        long botMessage = tg.sentTo(group).getFirst().messageId();
        long reply = tg.replyTo(group, alice, botMessage, "answering you");
        InboundMessage m = awaitMessage(group.id() + ":" + reply);
        assertThat(m.mentioned()).isTrue();
        assertThat(m.threadId()).isNull();
    }

    @Test
    void aForumTopicMessageCarriesItsTopicAsTheThread() {
        // SPEC CH-3: a thread only when is_topic_message
        TelegramChat forum = tg.forum(-102, "Forum");
        long topic = tg.createTopic(forum, "Ideas");
        long id = tg.sendTopicText(forum, topic, alice, "@clawbot in a topic");
        InboundMessage m = awaitMessage(forum.id() + ":" + id);
        assertThat(m.threadId()).isEqualTo(Long.toString(topic));
        assertThat(m.mentioned()).isTrue();
    }

    @Test
    void photosAndDocumentsAreDownloadedIntoTheDataDirAsAttachments() throws Exception {
        // SPEC MD-1 (attachments with a local path), CH-3 (getFile + file download)
        TelegramChat dm = tg.privateChat(alice);
        byte[] jpeg = {(byte) 0xFF, (byte) 0xD8, 1, 2, 3};
        long photo = tg.sendPhoto(dm, alice, jpeg, "look at this");
        long doc = tg.sendDocument(dm, alice, "notes.txt", "text/plain", "my notes".getBytes(), null);
        InboundMessage p = awaitMessage(dm.id() + ":" + photo);
        assertThat(p.text()).isEqualTo("look at this");
        Attachment image = p.attachments().getFirst();
        assertThat(image.kind()).isEqualTo(Attachment.Kind.IMAGE);
        assertThat(Path.of(image.location())).startsWith(dir).hasBinaryContent(jpeg);
        Attachment file = awaitMessage(dm.id() + ":" + doc).attachments().getFirst();
        assertThat(file.kind()).isEqualTo(Attachment.Kind.FILE);
        assertThat(file.mimeType()).isEqualTo("text/plain");
        assertThat(Files.readString(Path.of(file.location()))).isEqualTo("my notes");
        assertThat(Path.of(file.location()).getFileName().toString()).endsWith("notes.txt");
        assertThat(tg.calls("getFile")).hasSize(2);
    }
}
