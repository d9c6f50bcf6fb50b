package dev.clawgate.channel.email;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.hook.SendingHook;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.testkit.contract.CapabilityProofs;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.contract.PlatformCallLog;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.contract.SendIdentityProofs;
import dev.clawgate.testkit.email.MailServer;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * The e-mail adapter's capability proofs (SPEC OUT-4, CH-9) against GreenMail: the mails in the user's INBOX, delivered
 * through the server's SMTP, are the platform's record.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmailContractTest {
    private MailServer mail;
    private EmailChannel channel;
    private PlatformCallLog log;
    private final RecordingInbox inbox = new RecordingInbox();
    private final AtomicLong turns = new AtomicLong(100);
    private final AtomicInteger sent = new AtomicInteger();

    @BeforeAll
    void start() throws Exception {
        mail = MailServer.start(EmailGreenMailTest.BOT + ":botpass", EmailGreenMailTest.ALICE + ":alicepass");
        channel = new EmailChannel(
                EmailSettings.of(EmailGreenMailTest.settings(mail)), Files.createTempDirectory("email-media"));
        channel.start(inbox);
        await().atMost(Duration.ofSeconds(30)).until(() -> channel.health().healthy());
        log = () -> {
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> mail.inbox(EmailGreenMailTest.ALICE).size() >= sent.get());
            List<PlatformCall> calls = new ArrayList<>();
            for (MailServer.Stored s : mail.inbox(EmailGreenMailTest.ALICE)) {
                try {
                    MimeMessage m = s.message();
                    Map<String, String> headers =
                            new HashMap<>(Map.of("Message-ID", m.getMessageID(), "Subject", m.getSubject()));
                    if (m.getHeader("In-Reply-To") != null) headers.put("In-Reply-To", m.getHeader("In-Reply-To")[0]);
                    if (m.getHeader("References") != null) headers.put("References", m.getHeader("References")[0]);
                    calls.add(new PlatformCall("SMTP", EmailGreenMailTest.part(m, "text/plain"), headers));
                } catch (Exception e) {
                    throw new AssertionError("an unreadable reply in the user's mailbox: " + e, e);
                }
            }
            return calls;
        };
    }

    @AfterAll
    void stop() {
        channel.stop();
        mail.close();
    }

    private OutboundMessage toAlice(String text) {
        return new OutboundMessage(
                new OutboundTarget("email", "default", EmailGreenMailTest.ALICE, null, null),
                text,
                OutboundMessage.Kind.FINAL,
                turns.getAndIncrement());
    }

    private MessageReceipt send(OutboundMessage m) throws DeliveryException {
        sent.incrementAndGet();
        return channel.messageAdapter().send(m, CancelToken.none());
    }

    @TestFactory
    Stream<DynamicTest> everyDeclaredCapabilityIsProven() {
        return CapabilityProofs.of(channel.messageAdapter().capabilities(), channel.ackPolicies(), log)
                .prove(Capability.TEXT, p -> {
                    // SPEC OUT-4, CH-9: one mail, the text as written, its Message-ID in the receipt
                    MessageReceipt r = send(toAlice("Hello Alice,\n\nthe report is ready."));
                    p.verify(calls -> assertThat(calls).singleElement().satisfies(c -> {
                        assertThat(c.body()).isEqualTo("Hello Alice,\n\nthe report is ready.");
                        assertThat(c.headers()).containsEntry("Message-ID", r.primaryId());
                    }));
                })
                .prove(Capability.MESSAGE_SENDING_HOOKS, p -> {
                    // SPEC RP-1: what the hook decided is exactly what reaches the user
                    SendingHook hook = (t, where) -> new SendingHook.Send(t.replace("sk-secret", "[redacted]"));
                    OutboundMessage m = toAlice("the key is sk-secret");
                    send(m.withText(((SendingHook.Send) hook.onMessageSending(m.text(), m.target())).text()));
                    p.verify(calls -> assertThat(calls)
                            .singleElement()
                            .satisfies(c -> assertThat(c.body()).isEqualTo("the key is [redacted]")));
                })
                .prove(Capability.THREAD, p -> {
                    // SPEC CH-9, OUT-4: a reply in a thread names the thread's root (RFC 5322 3.6.4); one answering a
                    // known mail
                    // names that mail in In-Reply-To, after the root in References, whatever reply_to_mode decided
                    // about quoting
                    // (mail threads by these headers; it has no quote to turn off)
                    send(new OutboundMessage(
                            new OutboundTarget(
                                    "email", "default", EmailGreenMailTest.ALICE, "<root-1@localhost>", null),
                            "in the thread",
                            OutboundMessage.Kind.FINAL,
                            turns.getAndIncrement()));
                    OutboundTarget t = new OutboundTarget(
                            "email", "default", EmailGreenMailTest.ALICE, "<root-2@localhost>", "<m-2@localhost>");
                    send(new OutboundMessage(
                            t,
                            "answers m-2",
                            OutboundMessage.Kind.FINAL,
                            turns.getAndIncrement(),
                            List.of(),
                            dev.clawgate.core.outbound.SendOptions.DEFAULT.withoutReplyTo(),
                            0,
                            null));
                    p.verify(calls -> {
                        assertThat(calls).hasSize(2);
                        assertThat(calls.get(0).headers())
                                .containsEntry("In-Reply-To", "<root-1@localhost>")
                                .containsEntry("References", "<root-1@localhost>")
                                .containsEntry("Subject", "Re: your message");
                        assertThat(calls.get(1).headers())
                                .containsEntry("In-Reply-To", "<m-2@localhost>")
                                .containsEntry("References", "<root-2@localhost> <m-2@localhost>");
                    });
                })
                .prove(AckPolicy.MANUAL, p -> {
                    // SPEC IN-3, CH-9: the channel acks by \Seen itself, after the inbox took the mail; only the reply
                    // goes back
                    int before = inbox.messages().size();
                    mail.send(MailServer.Mail.text(
                            EmailGreenMailTest.ALICE, EmailGreenMailTest.BOT, "Hi", "anyone there?"));
                    await().atMost(Duration.ofSeconds(20))
                            .until(() -> inbox.messages().size() == before + 1);
                    send(toAlice("yes"));
                    p.verify(calls -> assertThat(calls)
                            .singleElement()
                            .satisfies(c -> assertThat(c.body()).isEqualTo("yes")));
                })
                .tests();
    }

    @Test
    void eachPayloadHasAStableMessageIdSoAReplayIsRecognised() throws Exception {
        // SPEC OUT-5, OUT-8, CH-9: the Message-ID follows from the payload's idempotency key
        MessageAdapter counted = (m, cancel) -> send(m);
        SendIdentityProofs.withoutMessageIds(counted, () -> toAlice("one mail " + turns.get()), log);
        assertThat(channel.messageAdapter().capabilities()).doesNotContain(Capability.RECONCILE_UNKNOWN_SEND);
    }

    @Test
    void formatGuidanceSaysPlainParagraphs() {
        // SPEC SP-1
        assertThat(channel.formatGuidance()).contains("plain text");
        assertThat(channel.name()).isEqualTo("email");
    }
}
