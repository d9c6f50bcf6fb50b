package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.server.config.ConfigLoader;
import dev.clawgate.testkit.email.MailServer;
import dev.clawgate.testkit.email.MailServer.Mail;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.xmpp.CuttableRelay;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway with the e-mail channel module, found by {@code ServiceLoader} and configured from a real config file,
 * reading a real IMAP mailbox and answering by SMTP (GreenMail) (SPEC CH-9), with the fake model server behind it.
 */
class EmailEndToEndTest {
    private static final String BOT = "bot@localhost";
    private static final String ALICE = "alice@localhost";
    private static final Duration WAIT = Duration.ofSeconds(40);

    @TempDir
    Path dir;

    private final FakeOpenAiServer model = FakeOpenAiServer.start();
    private final MailServer mail = MailServer.start(BOT + ":botpass", ALICE + ":alicepass");
    private final CuttableRelay imap = CuttableRelay.to(mail.host(), mail.imapPort());
    private Gateway gateway;

    @AfterEach
    void stop() throws Exception {
        if (gateway != null) gateway.close();
        imap.close();
        mail.close();
        model.close();
    }

    private void start() throws Exception {
        Path file = Files.writeString(dir.resolve("clawgate.toml"), """
                [gateway]
                data_dir = "%s"

                [agent]
                workspace = "%s"

                [providers.fake]
                kind = "openai"
                base_url = "%s"
                api_key = "sk-test-key-0000"
                model = "gpt-test"

                [channels.email]
                imap_host = "%s"
                imap_port = %d
                smtp_port = %d
                username = "%s"
                password = "botpass"
                tls = "none"
                dm_policy = "allowlist"
                allowed_users = ["%s"]
                """.formatted(
                        dir.resolve("data"),
                        dir.resolve("workspace"),
                        model.baseUrl(),
                        imap.host(),
                        imap.port(),
                        mail.smtpPort(),
                        BOT,
                        ALICE));
        gateway = Gateway.start(new ConfigLoader().load(file, Map.of()), GatewayOptions.with());
    }

    private static String text(MimeMessage m) throws Exception {
        MimeMultipart alt = (MimeMultipart) m.getContent();
        return String.valueOf(alt.getBodyPart(0).getContent()).replace("\r\n", "\n");
    }

    @Test
    void aMailGetsATurnWithAToolCallAThreadedReplyAndAnAnswerAfterTheConnectionIsCut() throws Exception {
        // SPEC CH-9 (IMAP in, SMTP out, threading), AG-1 (a tool call), IN-5 (allowlisted address), CH-0 (reconnect)
        model.enqueue(
                Reply.toolCalls(Reply.call("file_write", "{\"path\":\"notes/todo.txt\",\"content\":\"buy milk\"}")),
                Reply.text("I wrote notes/todo.txt."),
                Reply.text("Still here after the cut."));
        start();
        String first = mail.send(Mail.text(ALICE, BOT, "Shopping", "Please note: buy milk"));
        await().atMost(WAIT).until(() -> mail.inbox(ALICE).size() == 1);
        MimeMessage reply = mail.inbox(ALICE).getFirst().message();
        assertThat(text(reply)).isEqualTo("I wrote notes/todo.txt.");
        assertThat(reply.getSubject()).isEqualTo("Re: Shopping");
        assertThat(reply.getHeader("In-Reply-To")[0]).isEqualTo(first);
        assertThat(dir.resolve("workspace/notes/todo.txt")).hasContent("buy milk");
        assertThat(model.chatRequests()).hasSize(2);
        assertThat(model.chatRequests().getFirst().messages().toString()).contains("Please note: buy milk");
        await().atMost(WAIT).until(() -> mail.inbox(BOT).getFirst().seen());

        // the IMAP connection dies mid-conversation; her answer in the thread arrives meanwhile
        imap.cutAll();
        String answer = mail.send(
                Mail.text(ALICE, BOT, "Re: Shopping", "Thanks! Are you still there?\n\n> I wrote notes/todo.txt.")
                        .inReplyTo(reply.getMessageID(), first + " " + reply.getMessageID()));
        await().atMost(WAIT).until(() -> mail.inbox(ALICE).size() == 2);
        MimeMessage second = mail.inbox(ALICE).get(1).message();
        assertThat(text(second)).isEqualTo("Still here after the cut.");
        assertThat(second.getHeader("In-Reply-To")[0]).isEqualTo(answer);
        assertThat(second.getHeader("References")[0]).isEqualTo(first + " " + reply.getMessageID() + " " + answer);
        assertThat(model.chatRequests()).hasSize(3);
        // the same thread is the same session: the second turn carries the first exchange
        String secondTurn = model.chatRequests().getLast().messages().toString();
        assertThat(secondTurn)
                .contains("Please note: buy milk", "Thanks! Are you still there?")
                .doesNotContain("> I wrote");
        assertThat(imap.accepted()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void aSenderNotOnTheAllowlistGetsNoTurn() throws Exception {
        // SPEC IN-5: dm_policy allowlist by sender address
        model.echoLastUserMessage();
        start();
        mail.send(Mail.text("mallory@localhost", BOT, "Hi", "let me in"));
        mail.send(Mail.text(ALICE, BOT, "Hi", "it is me"));
        await().atMost(WAIT).until(() -> mail.inbox(ALICE).size() == 1);
        assertThat(model.chatRequests()).hasSize(1);
        assertThat(model.chatRequests().getFirst().messages().toString())
                .contains("it is me")
                .doesNotContain("let me in");
        await().atMost(WAIT).until(() -> mail.inbox(BOT).stream().allMatch(MailServer.Stored::seen));
    }
}
