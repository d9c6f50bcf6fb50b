package dev.clawgate.channel.telegram;

import static dev.clawgate.channel.telegram.TelegramFixture.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MediaRef;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.SendOptions;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.SentMessage;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Header and URL injection into outgoing Bot API calls (SPEC OP-6, CH-3): line breaks and other control characters in
 * file names, chat and thread ids, reply text and Telegram's own file paths never reach a request line or a header.
 * What the fake Bot API parsed (its request log, what it stored) is the proof.
 */
class TelegramHeaderInjectionTest {
    @TempDir
    Path dir;

    private FakeTelegramServer tg;
    private TelegramChannel channel;
    private TelegramUser alice;
    private TelegramChat dm;

    @BeforeEach
    void start() {
        tg = TelegramFixture.server();
        alice = tg.user(111, "alice");
        dm = tg.privateChat(alice);
        channel = TelegramFixture.channel(tg, dir, false, false, Duration.ofSeconds(5), Duration.ZERO);
    }

    @AfterEach
    void stop() {
        channel.stop();
        tg.close();
    }

    private OutboundMessage withMedia(OutboundTarget to, Path file) {
        MediaRef doc = new MediaRef(MediaRef.MediaKind.DOCUMENT, file.toString());
        return new OutboundMessage(to, "", OutboundMessage.Kind.FINAL, 1, List.of(doc), SendOptions.DEFAULT, 0);
    }

    @Test
    void aFileNameWithLineBreaksCannotAddHeadersToTheUpload() throws Exception {
        // found: the name went into the part header as it was; "\r\nX-Injected: 1\r\n\r\n" added a header and ended
        // the header early, the rest became the part's body, so Telegram got no document (or a forged part)
        String hostile = "report\r\nX-Injected: 1\r\n\r\nforged.txt";
        Path file = Files.write(Files.createDirectories(dir.resolve("ws")).resolve(hostile), new byte[] {7, 8, 9});
        channel.messageAdapter().send(withMedia(target(dm, null, null), file), CancelToken.none());

        SentMessage doc = tg.sentTo(dm).getFirst();
        assertThat(doc.fileName())
                .doesNotContain("\r", "\n", "\"")
                .startsWith("report")
                .endsWith(".txt");
        assertThat(doc.bytes()).containsExactly(7, 8, 9);
        assertThat(tg.calls("sendDocument"))
                .singleElement()
                .satisfies(c -> assertThat(c.toString()).doesNotContain("\r"));
    }

    @Test
    void aChatIdOrThreadIdThatIsNotANumberFailsForGoodBeforeAnyCall() {
        // found: Long.parseLong threw a NumberFormatException out of the adapter, which the outbox can only treat as
        // "adapter broke mid-send" (unknown_after_send); now it is a permanent failure and nothing is sent
        for (OutboundTarget bad : List.of(
                new OutboundTarget("telegram", InboundMessage.DEFAULT_ACCOUNT, "111\r\nHost: evil.example", null, null),
                new OutboundTarget("telegram", InboundMessage.DEFAULT_ACCOUNT, "../../getMe?x=", null, null),
                new OutboundTarget("telegram", InboundMessage.DEFAULT_ACCOUNT, "111", "7\r\nX-Injected: 1", null))) {
            OutboundMessage reply = TelegramFixture.finalReply(bad, "hi");
            assertThatThrownBy(() -> channel.messageAdapter().send(reply, CancelToken.none()))
                    .isInstanceOfSatisfying(
                            DeliveryException.class,
                            d -> assertThat(d.kind()).isEqualTo(DeliveryException.Kind.PERMANENT));
            channel.messageAdapter().typing(bad);
            channel.messageAdapter().received(bad);
        }
        assertThat(tg.calls()).noneMatch(c -> c.method().startsWith("send"));
    }

    @Test
    void replyTextWithLineBreaksAndControlCharactersStaysInsideTheJsonBody() throws Exception {
        // held before the fix too: the text is a JSON string, never a header; checked so it stays that way
        String text = "line one\r\nX-Injected: yes\r\n\r\n\u0000\u0007 end";
        channel.messageAdapter().send(TelegramFixture.finalReply(target(dm, null, null), text), CancelToken.none());
        assertThat(tg.sentTo(dm).getFirst().text()).contains("X-Injected: yes").contains("end");
        assertThat(tg.calls("sendMessage")).hasSize(1);
    }

    @Test
    void aFilePathFromTelegramThatWouldChangeTheDownloadUrlIsNotFollowedAndTheMessageStillArrives() {
        // found: getFile's file_path went into URI.create as it came; a line break made it throw out of the reader,
        // so polling stopped on that update for good. Now the file is not fetched and the text says so
        RecordingSink sink = new RecordingSink();
        channel.start(sink);
        tg.sendDocument(dm, alice, "notes\r\nHost: evil.example.txt", "text/plain", new byte[] {1}, "see attached");
        tg.sendText(dm, alice, "and then");
        await().atMost(Duration.ofSeconds(10)).until(() -> sink.accepted.size() == 2);
        assertThat(sink.accepted.getFirst().text()).startsWith("see attached").contains("could not be downloaded");
        assertThat(sink.accepted.getFirst().attachments()).isEmpty();
        assertThat(tg.calls()).noneMatch(c -> c.method().equals("downloadFile"));
        assertThat(sink.unreadable).isEmpty();
    }
}
