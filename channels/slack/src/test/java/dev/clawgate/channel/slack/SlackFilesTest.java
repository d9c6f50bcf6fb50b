package dev.clawgate.channel.slack;

import static dev.clawgate.channel.slack.SlackFixture.finalReply;
import static dev.clawgate.channel.slack.SlackFixture.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.clawgate.core.channel.MediaStore;
import dev.clawgate.core.model.Attachment;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MediaRef;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.SendOptions;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.slack.FakeSlack;
import dev.clawgate.testkit.slack.SlackChannel;
import dev.clawgate.testkit.slack.SlackUser;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files both ways and the thread status on the fake Slack (SPEC OUT-13, OUT-7, OUT-11, RP-5, CH-4). */
class SlackFilesTest {
    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 1, 2, 3, 4};

    @TempDir
    Path dir;

    private FakeSlack slack;
    private dev.clawgate.channel.slack.SlackChannel channel;
    private SlackMessageAdapter adapter;
    private final RecordingInbox inbox = new RecordingInbox();
    private SlackFixture.RouteServer server;
    private SlackUser alice;
    private SlackChannel dm;

    @BeforeEach
    void start() {
        slack = FakeSlack.start("clawbot");
        alice = slack.user("alice");
        dm = slack.dm(alice);
        slack.eventRetryDelays(Duration.ofMillis(50), Duration.ofMillis(50), Duration.ofMillis(50));
        SlackAccount account = SlackFixture.account(slack, SlackAccount.Mode.EVENTS, false, Duration.ofMillis(800));
        channel = SlackFixture.channel(account);
        adapter = (SlackMessageAdapter) channel.messageAdapter();
    }

    @AfterEach
    void stop() {
        channel.stop();
        if (server != null) server.close();
        slack.close();
    }

    private void events() throws Exception {
        channel.start(inbox);
        server = new SlackFixture.RouteServer(channel.webhookRoutes().getFirst());
        slack.deliverEventsTo(server.url());
    }

    private List<PlatformCall> downloads() {
        return slack.calls().stream()
                .filter(c -> c.method().equals("GET url_private"))
                .toList();
    }

    @Test
    void anImageSharedInADirectMessageIsDownloadedWithTheBotTokenIntoAnAttachmentOnce() throws Exception {
        // SPEC OUT-13, MD-1: files[] fetched from url_private_download with Authorization: Bearer <bot token>
        events();
        slack.postFile(dm, alice, "photo.png", "image/png", PNG, "what is this?");
        await().atMost(Duration.ofSeconds(10)).until(() -> inbox.messages().size() == 1);
        InboundMessage m = inbox.messages().getFirst();
        assertThat(m.text()).isEqualTo("what is this?");
        Attachment a = m.attachments().getFirst();
        assertThat(m.attachments()).hasSize(1);
        assertThat(a.kind()).isEqualTo(Attachment.Kind.IMAGE);
        assertThat(a.mimeType()).isEqualTo("image/png");
        assertThat(Files.readAllBytes(Path.of(a.location()))).isEqualTo(PNG);
        assertThat(downloads()).singleElement().satisfies(c -> {
            assertThat(c.headers().get(":token")).isEqualTo("bot");
            assertThat(c.headers().get(":status")).isEqualTo("200");
            assertThat(c.body()).contains("/download/photo.png");
        });
        // SPEC IN-1: Slack's retry of the event is one message, and the file is not fetched again
        slack.redeliver(slack.events().getLast().path("event_id").asText());
        assertThat(inbox.handOvers()).isEqualTo(2);
        assertThat(inbox.messages()).hasSize(1);
        assertThat(downloads()).hasSize(1);
    }

    @Test
    void aMessageThatIsOnlyADocumentIsATurnWithTheFile() throws Exception {
        // SPEC OUT-13: a file without text still starts a turn; a PDF is a file attachment
        events();
        slack.postFile(dm, alice, "report.pdf", "application/pdf", "%PDF-1.4 body".getBytes(), null);
        await().atMost(Duration.ofSeconds(10)).until(() -> inbox.messages().size() == 1);
        InboundMessage m = inbox.messages().getFirst();
        assertThat(m.text()).isEmpty();
        assertThat(m.attachments()).singleElement().satisfies(a -> {
            assertThat(a.kind()).isEqualTo(Attachment.Kind.FILE);
            assertThat(Path.of(a.location())).hasContent("%PDF-1.4 body");
        });
    }

    @Test
    void aFileOverTheLimitIsNotDownloadedAndTheTextSaysSo() throws Exception {
        // SPEC OUT-13, OP-7: downloads are bounded in size
        events();
        byte[] huge = new byte[(int) FileFetcher.MAX_DOWNLOAD + 1];
        slack.postFile(dm, alice, "huge.bin", "application/octet-stream", huge, "look");
        await().atMost(Duration.ofSeconds(10)).until(() -> inbox.messages().size() == 1);
        InboundMessage m = inbox.messages().getFirst();
        assertThat(m.attachments()).isEmpty();
        assertThat(m.text()).isEqualTo("look\n[huge.bin is larger than 20 MB and was not downloaded]");
        assertThat(downloads()).isEmpty();
    }

    @Test
    void aFileUrlOnAnotherHostNeverGetsTheToken() throws Exception {
        // SPEC OP-6, OUT-13: the bot token goes only to Slack's hosts or api_base's; another host gets a note
        List<String> seen = new CopyOnWriteArrayList<>();
        HttpServer other = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        other.createContext("/", ex -> {
            seen.add(String.valueOf(ex.getRequestHeaders().getFirst("Authorization")));
            ex.sendResponseHeaders(200, PNG.length);
            ex.getResponseBody().write(PNG);
            ex.close();
        });
        other.start();
        try {
            SlackAccount account = SlackFixture.account(slack, SlackAccount.Mode.EVENTS, false, Duration.ofSeconds(2));
            SlackBot bot = new SlackBot(
                    account,
                    new SlackApi(
                            account.apiBase(),
                            account.botToken(),
                            SlackApi.client(),
                            account.callTimeout(),
                            Clock.systemUTC()));
            bot.identify();
            MediaStore store = new MediaStore(
                    "slack", dir, MediaStore.DEFAULT_MAX_AGE, MediaStore.DEFAULT_MAX_BYTES, Clock.systemUTC());
            EventReader reader = new EventReader(bot, new FileFetcher(bot, store));
            String url = "http://127.0.0.1:" + other.getAddress().getPort() + "/files-pri/T1-F1/download/x.png";
            String json = "{\"type\":\"event_callback\",\"event\":{\"type\":\"message\",\"subtype\":\"file_share\","
                    + "\"channel\":\"" + dm.id() + "\",\"channel_type\":\"im\",\"user\":\"" + alice.id() + "\","
                    + "\"text\":\"see\",\"ts\":\"1700000000.000100\",\"files\":[{\"id\":\"F1\",\"name\":\"x.png\","
                    + "\"mimetype\":\"image/png\",\"size\":12,\"url_private_download\":\"" + url + "\"}]}}";
            EventReader.Reading r = reader.read(SlackApi.JSON.readTree(json));
            assertThat(r).isInstanceOfSatisfying(EventReader.Reading.Message.class, msg -> {
                assertThat(msg.message().attachments()).isEmpty();
                assertThat(msg.message().text()).isEqualTo("see\n[x.png could not be downloaded]");
            });
            assertThat(seen).isEmpty();
        } finally {
            other.stop(0);
        }
    }

    @Test
    void anUploadWhoseCompletionAnswerIsLostIsAmbiguousAndSharedOnce() throws Exception {
        // SPEC OUT-7: files.completeUploadExternal shares the files; its lost answer is unknown_after_send, not
        // repeated
        Path png = Files.write(dir.resolve("chart.png"), PNG);
        slack.delayNext("files.completeUploadExternal", Duration.ofSeconds(2));
        OutboundMessage m = new OutboundMessage(
                target(dm, null, null),
                "",
                OutboundMessage.Kind.FINAL,
                1,
                List.of(new MediaRef(MediaRef.MediaKind.IMAGE, png.toString())),
                SendOptions.DEFAULT,
                0);
        assertThatThrownBy(() -> adapter.send(m, CancelToken.none()))
                .isInstanceOfSatisfying(
                        DeliveryException.class, e -> assertThat(e.kind()).isEqualTo(DeliveryException.Kind.AMBIGUOUS));
        await().atMost(Duration.ofSeconds(5)).until(() -> slack.botMessages(dm).size() == 1);
        assertThat(slack.calls("files.completeUploadExternal")).hasSize(1);
        assertThat(slack.botMessages(dm).getFirst().fileIds()).hasSize(1);
    }

    @Test
    void anUploadThatFailsBeforeItsCompletionShowsNothingAndMayBeRetried() throws Exception {
        // SPEC OUT-7, OUT-11: before files.completeUploadExternal nothing is visible: a lost answer is transient
        Path png = Files.write(dir.resolve("chart.png"), PNG);
        OutboundMessage m = new OutboundMessage(
                target(dm, null, null),
                "the chart",
                OutboundMessage.Kind.FINAL,
                1,
                List.of(new MediaRef(MediaRef.MediaKind.IMAGE, png.toString())),
                SendOptions.DEFAULT,
                0);
        slack.delayNext("files.getUploadURLExternal", Duration.ofSeconds(2));
        assertThatThrownBy(() -> adapter.send(m, CancelToken.none()))
                .isInstanceOfSatisfying(
                        DeliveryException.class, e -> assertThat(e.kind()).isEqualTo(DeliveryException.Kind.TRANSIENT));
        slack.failNext("files.getUploadURLExternal", "invalid_auth");
        assertThatThrownBy(() -> adapter.send(m, CancelToken.none()))
                .isInstanceOfSatisfying(
                        DeliveryException.class, e -> assertThat(e.kind()).isEqualTo(DeliveryException.Kind.PERMANENT));
        assertThat(slack.calls("files.completeUploadExternal")).isEmpty();
        assertThat(slack.botMessages(dm)).isEmpty();
        // the retry the outbox makes shares the file once
        adapter.send(m, CancelToken.none());
        assertThat(slack.botMessages(dm)).singleElement().satisfies(s -> {
            assertThat(s.text()).isEqualTo("the chart");
            assertThat(slack.fileBytes(s.fileIds().getFirst())).isEqualTo(PNG);
        });
    }

    @Test
    void aThreadShowsTheAppsStatusWhileTheTurnWorksAndTheReplyClearsIt() throws Exception {
        // SPEC RP-5, CH-4: assistant.threads.setStatus in the thread; none for a top-level message; no placeholder
        SlackChannel general = slack.channel("general");
        String root = slack.post(general, alice, "question");
        String inThread = slack.reply(general, root, alice, "more");
        OutboundTarget t = target(general, root, inThread);
        adapter.typing(t);
        adapter.typing(t);
        assertThat(slack.threadStatus(general, root)).isEqualTo(ThreadStatus.THINKING);
        assertThat(slack.calls("assistant.threads.setStatus")).singleElement().satisfies(b -> {
            assertThat(b.path("channel_id").asText()).isEqualTo(general.id());
            assertThat(b.path("thread_ts").asText()).isEqualTo(root);
        });
        assertThat(slack.botMessages(general)).isEmpty();
        adapter.send(finalReply(t, "answer"), CancelToken.none());
        assertThat(slack.threadStatus(general, root)).isNull();
        adapter.turnEnded(t, 1, TurnOutcome.REPLIED);
        adapter.typing(target(dm, null, slack.post(dm, alice, "top level")));
        assertThat(slack.calls("assistant.threads.setStatus")).hasSize(1);
    }

    @Test
    void aTurnEndingWithoutAReplyClearsTheStatusAndARefusingConversationIsNotAskedAgain() throws Exception {
        // SPEC RP-5, DI-5: a cancelled turn leaves no status behind; an error answer stops it in that conversation
        SlackChannel general = slack.channel("general");
        String root = slack.post(general, alice, "question");
        OutboundTarget t = target(general, root, root);
        adapter.typing(t);
        adapter.turnEnded(t, 1, TurnOutcome.CANCELLED);
        assertThat(slack.threadStatus(general, root)).isNull();
        assertThat(slack.calls("assistant.threads.setStatus"))
                .extracting(b -> b.path("status").asText())
                .containsExactly(ThreadStatus.THINKING, "");
        SlackChannel outside = slack.channelWithoutBot("outside");
        List<String> roots =
                new ArrayList<>(List.of(slack.post(outside, alice, "one"), slack.post(outside, alice, "two")));
        adapter.typing(target(outside, roots.get(0), roots.get(0)));
        adapter.typing(target(outside, roots.get(1), roots.get(1)));
        assertThat(slack.calls())
                .filteredOn(c -> c.method().equals("assistant.threads.setStatus"))
                .hasSize(3)
                .last()
                .satisfies(c -> assertThat(c.headers().get(":error")).isEqualTo("channel_not_found"));
    }
}
