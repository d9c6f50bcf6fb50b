package dev.clawgate.channel.email;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.model.Attachment;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.render.Chunker;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.email.MailServer;
import dev.clawgate.testkit.email.MailServer.Mail;
import dev.clawgate.testkit.xmpp.CuttableRelay;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The e-mail channel against a real IMAP/SMTP server (GreenMail, which has IDLE) (SPEC CH-9): a mail is a turn from its
 * sender's address, its thread the session; \Seen only after the inbox took it; IDLE renewed, poll fallback; replies
 * threaded; the connection cut and made again with nothing lost.
 */
class EmailGreenMailTest {
    static final String BOT = "bot@localhost";
    static final String ALICE = "alice@localhost";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path media;

    private final MailServer mail = MailServer.start(BOT + ":botpass", ALICE + ":alicepass");
    private final RecordingInbox inbox = new RecordingInbox();
    private final AtomicLong turns = new AtomicLong(1);
    private EmailChannel channel;
    private CuttableRelay relay;

    @AfterEach
    void stop() {
        if (channel != null) channel.stop();
        if (relay != null) relay.close();
        mail.close();
    }

    static ChannelSettings settings(MailServer mail, String... more) {
        Map<String, String> o = new HashMap<>(Map.of(
                "imap_host",
                mail.host(),
                "imap_port",
                Integer.toString(mail.imapPort()),
                "smtp_port",
                Integer.toString(mail.smtpPort()),
                "username",
                BOT,
                "password",
                "botpass",
                "tls",
                "none"));
        for (int i = 0; i + 1 < more.length; i += 2) o.put(more[i], more[i + 1]);
        return new ChannelSettings("email", AccessSettings.defaults(), Map.of(), o);
    }

    private void startBot(InboundSink sink, Duration renewal, Duration poll, boolean idle, String... more) {
        channel = new EmailChannel(EmailSettings.of(settings(mail, more)), media, renewal, poll, idle);
        channel.start(sink);
        await().atMost(WAIT).until(() -> channel.health().healthy());
    }

    private InboundMessage awaitInbound(String textPart) {
        await().atMost(WAIT)
                .until(() -> inbox.messages().stream().anyMatch(m -> m.text().contains(textPart)));
        return inbox.messages().stream()
                .filter(m -> m.text().contains(textPart))
                .findFirst()
                .orElseThrow();
    }

    static String part(MimeMessage m, String type) throws Exception {
        MimeMultipart alt = (MimeMultipart) m.getContent();
        for (int i = 0; i < alt.getCount(); i++) {
            // mail lines end in CRLF on the wire
            if (alt.getBodyPart(i).isMimeType(type))
                return String.valueOf(alt.getBodyPart(i).getContent()).replace("\r\n", "\n");
        }
        return null;
    }

    @Test
    void aMailIsATurnFromItsSenderAndTheReplyIsThreadedWithTextAndHtml() throws Exception {
        // SPEC CH-9, IN-5: the sender's address is the user, the thread the session; the reply says Re: with
        // In-Reply-To/References
        startBot(inbox, Duration.ofMinutes(29), Duration.ofMinutes(10), true);
        String id = mail.send(Mail.text(ALICE, BOT, "Plans", "Hi, what is on today?"));
        InboundMessage in = awaitInbound("what is on today");
        assertThat(in.sender()).isEqualTo(ALICE);
        assertThat(in.replyTarget()).isEqualTo(ALICE);
        assertThat(in.id()).isEqualTo(id);
        assertThat(in.threadId()).isEqualTo(id);
        assertThat(in.text()).isEqualTo("Subject: Plans\n\nHi, what is on today?");
        await().atMost(WAIT).until(() -> mail.inbox(BOT).getFirst().seen());

        var receipt = channel.messageAdapter()
                .send(
                        new OutboundMessage(
                                OutboundTarget.replyTo(in),
                                "A walk.\n\nThen <lunch> & tea.",
                                OutboundMessage.Kind.FINAL,
                                turns.getAndIncrement()),
                        CancelToken.none());
        await().atMost(WAIT).until(() -> mail.inbox(ALICE).size() == 1);
        MimeMessage reply = mail.inbox(ALICE).getFirst().message();
        assertThat(reply.getSubject()).isEqualTo("Re: Plans");
        assertThat(reply.getHeader("In-Reply-To")[0]).isEqualTo(id);
        assertThat(reply.getHeader("References")[0]).isEqualTo(id);
        assertThat(reply.getMessageID()).isEqualTo(receipt.primaryId());
        assertThat(reply.getFrom()[0].toString()).isEqualTo(BOT);
        assertThat(part(reply, "text/plain")).isEqualTo("A walk.\n\nThen <lunch> & tea.");
        assertThat(part(reply, "text/html")).contains("<p>A walk.</p><p>Then &lt;lunch&gt; &amp; tea.</p>");

        // her answer in the thread: the same session, the quoted part taken off
        mail.send(Mail.text(ALICE, BOT, "Re: Re: Plans", "Sounds good.\n\nOn Fri, 27 Nov 2026, bot wrote:\n> A walk.")
                .inReplyTo(reply.getMessageID(), id + " " + reply.getMessageID()));
        InboundMessage answer = awaitInbound("Sounds good");
        assertThat(answer.text()).isEqualTo("Sounds good.");
        assertThat(answer.threadId()).isEqualTo(id);
    }

    @Test
    void anHtmlMailIsFlattenedAndItsAttachmentIsKeptAsMedia() throws Exception {
        // SPEC CH-9, IN-2: HTML bodies flattened, attachments as media files
        startBot(inbox, Duration.ofMinutes(29), Duration.ofMinutes(10), true);
        mail.send(new Mail(
                ALICE,
                BOT,
                "Photo",
                null,
                "<html><body><p>Look at <b>this</b>&nbsp;picture</p><blockquote>old</blockquote>"
                        + "<script>x()</script></body></html>",
                null,
                null,
                null,
                new byte[] {(byte) 0x89, 'P', 'N', 'G'},
                "cat photo.png",
                "image/png"));
        InboundMessage in = awaitInbound("picture");
        assertThat(in.text()).isEqualTo("Subject: Photo\n\nLook at this picture");
        assertThat(in.attachments()).singleElement().satisfies(a -> {
            assertThat(a.kind()).isEqualTo(Attachment.Kind.IMAGE);
            assertThat(a.mimeType()).isEqualTo("image/png");
            assertThat(Path.of(a.location())).startsWith(media).hasFileName("cat_photo.png");
            assertThat(Files.readAllBytes(Path.of(a.location()))).containsExactly((byte) 0x89, 'P', 'N', 'G');
        });
    }

    @Test
    void aMailIsSeenOnlyAfterTheInboxTookItAndTheSameMessageIdIsRecordedOnce() throws Exception {
        // SPEC CH-9, IN-1, IN-3: an inbox failure leaves the mail unseen, so it is read again; a redelivered
        // Message-ID is one record
        AtomicInteger failures = new AtomicInteger(1);
        InboundSink flaky = m -> {
            if (failures.getAndDecrement() > 0) throw new IllegalStateException("the inbox database is down");
            return inbox.accept(m);
        };
        startBot(flaky, Duration.ofMinutes(29), Duration.ofMinutes(10), true);
        mail.send(Mail.text(ALICE, BOT, "One", "first mail").withId("<fixed-1@localhost>"));
        await().atMost(WAIT).until(() -> failures.get() < 0 || inbox.messages().size() == 1);
        assertThat(inbox.messages())
                .singleElement()
                .satisfies(m -> assertThat(m.id()).isEqualTo("<fixed-1@localhost>"));
        assertThat(channel.reader().connections()).isGreaterThanOrEqualTo(2);
        await().atMost(WAIT).until(() -> mail.inbox(BOT).getFirst().seen());
        mail.send(Mail.text(ALICE, BOT, "One", "first mail").withId("<fixed-1@localhost>"));
        await().atMost(WAIT)
                .until(() ->
                        mail.inbox(BOT).size() == 2 && mail.inbox(BOT).get(1).seen());
        assertThat(inbox.handOvers()).isEqualTo(2);
        assertThat(inbox.messages()).hasSize(1);
    }

    @Test
    void idleIsRenewedOnScheduleAndNewMailArrivesWithoutPolling() {
        // SPEC CH-9 (RFC 2177: IDLE re-issued before the server's 30-minute limit; here every second)
        startBot(inbox, Duration.ofSeconds(1), Duration.ofHours(1), true);
        await().atMost(WAIT).until(() -> channel.reader().idles() >= 3);
        assertThat(inbox.messages()).isEmpty();
        mail.send(Mail.text(ALICE, BOT, "Ping", "pushed by idle"));
        awaitInbound("pushed by idle");
        assertThat(channel.reader().connections()).isEqualTo(1);
        assertThat(EmailReader.IDLE_RENEWAL).isLessThanOrEqualTo(Duration.ofMinutes(29));
    }

    @Test
    void withoutIdleTheFolderIsPolled() {
        // SPEC CH-9: the poll fallback
        startBot(inbox, Duration.ofMinutes(29), Duration.ofMillis(500), false);
        mail.send(Mail.text(ALICE, BOT, "Ping", "found by polling"));
        awaitInbound("found by polling");
        assertThat(channel.reader().idles()).isZero();
    }

    @Test
    void theConnectionCutMidConversationIsMadeAgainAndNothingIsLostOrRepeated() throws Exception {
        // SPEC CH-0, CH-9: the IMAP connection dies; the reader reconnects by itself; mail sent meanwhile arrives once
        relay = CuttableRelay.to(mail.host(), mail.imapPort());
        startBot(
                inbox,
                Duration.ofMinutes(29),
                Duration.ofMinutes(10),
                true,
                "imap_port",
                Integer.toString(relay.port()));
        mail.send(Mail.text(ALICE, BOT, "Before", "before the cut"));
        InboundMessage before = awaitInbound("before the cut");
        relay.cutAll();
        mail.send(Mail.text(ALICE, BOT, "During", "during the cut"));
        awaitInbound("during the cut");
        assertThat(channel.reader().connections()).isGreaterThanOrEqualTo(2);
        channel.messageAdapter()
                .send(
                        new OutboundMessage(
                                OutboundTarget.replyTo(before),
                                "answer after the cut",
                                OutboundMessage.Kind.FINAL,
                                turns.getAndIncrement()),
                        CancelToken.none());
        await().atMost(WAIT).until(() -> mail.inbox(ALICE).size() == 1);
        assertThat(inbox.handOvers()).isEqualTo(2);
    }

    @Test
    void aLongReplyIsSeveralMailsEachUnderTheSizeCapWithNothingLost() throws Exception {
        // SPEC OUT-1, CH-9: no length limit but a size cap per mail
        startBot(inbox, Duration.ofMinutes(29), Duration.ofMinutes(10), true);
        String longText =
                "All work and no play makes a dull gateway. ".repeat(5000).strip();
        List<String> payloads = Chunker.split(longText, channel.messageAdapter().chunkLimits());
        assertThat(payloads).hasSizeGreaterThan(1);
        OutboundTarget to = new OutboundTarget("email", "default", ALICE, null, null);
        for (String p : payloads) {
            channel.messageAdapter()
                    .send(
                            new OutboundMessage(to, p, OutboundMessage.Kind.FINAL, turns.getAndIncrement()),
                            CancelToken.none());
        }
        await().atMost(WAIT).until(() -> mail.inbox(ALICE).size() == payloads.size());
        StringBuilder got = new StringBuilder();
        for (MailServer.Stored s : mail.inbox(ALICE)) {
            String text = part(s.message(), "text/plain");
            assertThat(text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                    .isLessThanOrEqualTo(EmailMessageAdapter.MAX_BYTES);
            got.append(text);
        }
        assertThat(got.toString().replaceAll("\\s", "")).isEqualTo(longText.replaceAll("\\s", ""));
    }

    @Test
    void doctorsProbeChecksBothServers() {
        // SPEC OP-4
        assertThat(new EmailChannelFactory().probe(settings(mail)).ok()).isTrue();
        var down = new EmailChannelFactory().probe(settings(mail, "smtp_port", "1"));
        assertThat(down.ok()).isFalse();
        assertThat(down.findings()).anySatisfy(f -> assertThat(f.fix()).contains("channels.email.smtp_host"));
    }
}
