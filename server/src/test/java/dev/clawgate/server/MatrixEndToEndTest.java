package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GroupPolicy;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.testkit.matrix.FakeMatrixHomeserver;
import dev.clawgate.testkit.matrix.MatrixRoom;
import dev.clawgate.testkit.matrix.MatrixUser;
import dev.clawgate.testkit.matrix.SentEvent;
import dev.clawgate.testkit.openai.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The real gateway with the Matrix channel (found by ServiceLoader from channels/matrix) on a
 * {@link FakeMatrixHomeserver} that speaks the client-server API on loopback, and a fake model behind it (SPEC CH-6).
 */
class MatrixEndToEndTest extends GatewayFixture {
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** Any DM and any room may talk to the bot; in a room it must be mentioned. */
    private static final AccessSettings OPEN =
            new AccessSettings(DmPolicy.OPEN, List.of("*"), GroupPolicy.OPEN, List.of(), true);

    private FakeMatrixHomeserver hs;
    private MatrixUser alice;

    @BeforeEach
    void startHomeserver() {
        hs = FakeMatrixHomeserver.start("clawbot");
        alice = hs.user("alice");
    }

    @AfterEach
    void stopHomeserver() {
        closeGateway();
        hs.close();
    }

    private ClawgateConfig matrixConfig(Map<String, String> extra) {
        Map<String, String> options = new HashMap<>(Map.of(
                "homeserver",
                hs.baseUrl(),
                "access_token",
                hs.botLogin().accessToken(),
                "user_id",
                hs.bot().userId()));
        options.putAll(extra);
        return config().withChannel(new ChannelSettings("matrix", OPEN, Map.of(), options));
    }

    /** The gateway running, and a DM alice opened with the bot, joined. */
    private MatrixRoom startWithDm(Map<String, String> extra) throws Exception {
        start(matrixConfig(extra));
        await().atMost(WAIT).until(() -> gateway.store() != null && tokenFile() != null);
        MatrixRoom dm = hs.directRoom(alice);
        await().atMost(WAIT).until(() -> "join".equals(hs.membership(dm, hs.bot())));
        return dm;
    }

    private Path tokenFile() throws java.io.IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.getFileName().toString().equals("next_batch"))
                    .findFirst()
                    .orElse(null);
        }
    }

    private List<SentEvent> awaitBotMessages(MatrixRoom room, int n) {
        await().atMost(WAIT).until(() -> hs.botMessages(room).size() >= n);
        return hs.botMessages(room);
    }

    @Test
    void aDirectMessageWithAToolCallWritesTheFileAndRepliesWithHtmlAndReactions() throws Exception {
        // SPEC CH-6, AG-1, RP-5 (ack reactions as m.annotation), OUT-4 (body + org.matrix.custom.html)
        model.enqueue(
                Reply.toolCalls(Reply.call("file_write", "{\"path\":\"notes/todo.txt\",\"content\":\"buy milk\"}")),
                Reply.text("I wrote **notes/todo.txt**."));
        MatrixRoom dm = startWithDm(Map.of("ack_reactions", "true"));
        String asked = hs.as(alice).sendText(dm, "please note: buy milk");
        SentEvent reply = awaitBotMessages(dm, 1).getFirst();
        assertThat(reply.body()).isEqualTo("I wrote **notes/todo.txt**.");
        assertThat(reply.formattedBody()).isEqualTo("I wrote <strong>notes/todo.txt</strong>.");
        assertThat(dir.resolve("workspace/notes/todo.txt")).hasContent("buy milk");
        await().atMost(WAIT).until(() -> hs.botReactions(dm).stream().anyMatch(r -> "✅".equals(r.reactionKey())));
        assertThat(hs.botReactions(dm))
                .singleElement()
                .satisfies(r -> assertThat(r.relatesTo()).isEqualTo(asked));
        assertThat(model.chatRequests()).hasSize(2);
        // SPEC SP-1: the system prompt carries Matrix's own formatting guidance
        assertThat(model.chatRequests()
                        .getFirst()
                        .messages()
                        .get(0)
                        .path("content")
                        .asText())
                .contains("Matrix clients render");
    }

    @Test
    void aRoomMessageWithoutAMentionIsContextAndTheMentionIsAnsweredInItsThread() throws Exception {
        // SPEC IN-5 (require_mention), IN-6 (group history), CH-6 (m.thread as threads), HI-1 (one session per room)
        MatrixUser bob = hs.user("bob");
        MatrixRoom room = hs.createRoom(alice, "Team", bob);
        model.enqueue(Reply.text("It is swordfish."));
        start(matrixConfig(Map.of()));
        hs.as(alice).inviteBot(room, false);
        await().atMost(WAIT).until(() -> "join".equals(hs.membership(room, hs.bot())));
        String root = hs.as(bob).sendText(room, "the password is swordfish");
        await().atMost(WAIT).until(() -> gateway.store().inbox().counts().getOrDefault(InboxState.BUFFERED, 0L) == 1L);
        assertThat(model.chatRequests()).isEmpty();
        hs.as(alice).sendInThread(room, root, "clawbot: what is the password?");
        SentEvent reply = awaitBotMessages(room, 1).getFirst();
        assertThat(reply.body()).isEqualTo("It is swordfish.");
        assertThat(reply.threadRoot()).isEqualTo(root);
    }

    @Test
    void aBatchSyncedAgainAfterARestartIsAnsweredOnce() throws Exception {
        // SPEC IN-1, IN-3, IN-4: the same events come again (the stored token is older, as after a crash before it was
        // written); the inbox's dedupe by event id starts no second turn
        model.enqueue(Reply.text("answered once"), Reply.text("a second answer must not happen"));
        MatrixRoom dm = startWithDm(Map.of());
        Path token = tokenFile();
        String before = Files.readString(token);
        hs.as(alice).sendText(dm, "hello once");
        awaitBotMessages(dm, 1);
        await().atMost(WAIT).until(() -> !Files.readString(token).equals(before));
        closeGateway();
        Files.writeString(token, before);
        int syncs = hs.calls("sync").size();
        start(matrixConfig(Map.of()));
        await().atMost(WAIT).until(() -> hs.calls("sync").size() >= syncs + 2);
        await().atMost(WAIT).until(() -> !Files.readString(token).equals(before));
        Thread.sleep(300);
        assertThat(model.chatRequests()).hasSize(1);
        assertThat(hs.botMessages(dm)).extracting(SentEvent::body).containsExactly("answered once");
    }

    @Test
    void aLongReplyArrivesAsSeveralMessagesWithinTheLimitWithFencesBalanced() throws Exception {
        // SPEC OUT-1, CH-6: 9,000 characters cut to text_limit 4000 per event; a code fence cut across events is
        // closed and reopened
        StringBuilder text = new StringBuilder();
        while (text.length() < 4500)
            text.append("Some prose about the plan, sentence ")
                    .append(text.length())
                    .append(". ");
        text.append("\n\n```java\n");
        while (text.length() < 9000)
            text.append("code line ").append(text.length()).append('\n');
        text.append("```\nThe end.");
        model.enqueue(Reply.text(text.toString()));
        MatrixRoom dm = startWithDm(Map.of());
        hs.as(alice).sendText(dm, "write a lot");
        await().atMost(WAIT)
                .until(() -> hs.botMessages(dm).stream().anyMatch(m -> m.body().contains("The end.")));
        List<SentEvent> parts = hs.botMessages(dm);
        assertThat(parts).hasSizeGreaterThanOrEqualTo(3);
        assertThat(parts).allSatisfy(m -> {
            assertThat(m.body().length()).isLessThanOrEqualTo(4000);
            assertThat(m.body().split("```", -1).length % 2)
                    .as("fences balanced in %s", m.eventId())
                    .isEqualTo(1);
        });
        assertThat(parts.stream()
                        .filter(m -> m.formattedBody() != null
                                && m.formattedBody().contains("<pre><code class=\"language-java\">")))
                .hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void aLivePreviewIsEditedIntoTheFinalReply() throws Exception {
        // SPEC OUT-9 (a ... draft at once, m.replace edits, finalEdit), CH-6
        model.enqueue(Reply.text("The quick brown fox jumps over the **lazy** dog again and again.")
                .streamedInChunks(12)
                .delayPerChunk(Duration.ofMillis(250)));
        MatrixRoom dm = startWithDm(Map.of("stream_mode", "preview"));
        hs.as(alice).sendText(dm, "tell me about the fox");
        String fin = "The quick brown fox jumps over the **lazy** dog again and again.";
        await().atMost(WAIT)
                .until(() -> !hs.botMessages(dm).isEmpty()
                        && fin.equals(hs.botMessages(dm).getFirst().body()));
        SentEvent only = hs.botMessages(dm).getFirst();
        assertThat(hs.botMessages(dm)).hasSize(1);
        assertThat(only.formattedBody()).contains("<strong>lazy</strong>");
        assertThat(only.edits()).isGreaterThanOrEqualTo(2);
        assertThat(only.content().path("body").asText()).isEqualTo("...");
    }

    @Test
    void anEncryptedRoomGetsOneNoticeAndNoTurn() throws Exception {
        // SPEC CH-6: encryption is not supported yet: a plain notice, once, logged, and no model call
        MatrixRoom dm = startWithDm(Map.of());
        hs.as(alice).enableEncryption(dm);
        hs.as(alice).sendEncrypted(dm);
        hs.as(alice).sendEncrypted(dm);
        SentEvent notice = awaitBotMessages(dm, 1).getFirst();
        assertThat(notice.msgtype()).isEqualTo("m.notice");
        assertThat(notice.body()).contains("encrypted");
        await().atMost(WAIT).until(() -> gateway.store().inbox().unreadable(10).size() == 2);
        assertThat(gateway.store().inbox().unreadable(10))
                .allSatisfy(u -> assertThat(u.reason()).contains("encrypted"));
        Thread.sleep(300);
        assertThat(hs.botMessages(dm)).hasSize(1);
        assertThat(model.chatRequests()).isEmpty();
    }
}
