package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.server.config.ConfigLoader;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.xmpp.Prosody;
import dev.clawgate.testkit.xmpp.XmppUser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway with the XMPP channel module, found by {@code ServiceLoader} and configured from a real config file,
 * talking through Debian's prosody to a second Smack client (SPEC CH-8), with the fake model server behind it.
 */
class XmppEndToEndTest {
    private static final String ROOM = "team@" + Prosody.MUC_DOMAIN;
    private static final Duration WAIT = Duration.ofSeconds(40);

    @TempDir
    Path dir;

    private final FakeOpenAiServer model = FakeOpenAiServer.start();
    private final Prosody prosody = Prosody.start("clawbot:botpass", "alice:alicepass");
    private XmppUser alice;
    private Gateway gateway;

    @AfterEach
    void stop() throws Exception {
        if (alice != null) alice.close();
        if (gateway != null) gateway.close();
        prosody.close();
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

                [channels.xmpp]
                jid = "%s"
                password = "botpass"
                host = "%s"
                port = %d
                tls = "none"
                nick = "clawbot"
                rooms = ["%s"]
                dm_policy = "allowlist"
                allowed_users = ["alice@localhost"]
                group_policy = "open"
                """.formatted(
                        dir.resolve("data"),
                        dir.resolve("workspace"),
                        model.baseUrl(),
                        prosody.jid("clawbot"),
                        prosody.host(),
                        prosody.port(),
                        ROOM));
        gateway = Gateway.start(new ConfigLoader().load(file, Map.of()), GatewayOptions.with());
    }

    @Test
    void aDirectChatGetsATurnWithAToolCallAndTheGatewayAnswersAgainAfterProsodyRestarts() throws Exception {
        // SPEC CH-8 (one-to-one chat), AG-1 (a tool call), IN-5 (allowlisted bare JID), CH-0 (reconnect after a
        // restart)
        model.enqueue(
                Reply.toolCalls(Reply.call("file_write", "{\"path\":\"notes/todo.txt\",\"content\":\"buy milk\"}")),
                Reply.text("I wrote notes/todo.txt."),
                Reply.text("Still here after the restart."));
        start();
        alice = XmppUser.connect(prosody, "alice", "alicepass");
        String bot = prosody.jid("clawbot");
        // the gateway may still be logging in: a chat to an offline JID waits in prosody's offline store
        alice.say(bot, "please note: buy milk");
        await().atMost(WAIT).until(() -> alice.textsFrom(bot).contains("I wrote notes/todo.txt."));
        assertThat(dir.resolve("workspace/notes/todo.txt")).hasContent("buy milk");
        assertThat(model.chatRequests()).hasSize(2);
        assertThat(model.chatRequests().getFirst().messages().toString()).contains("please note: buy milk");
        assertThat(alice.chatStates()).contains("composing");

        prosody.restart();
        alice.login();
        alice.say(bot, "are you back?");
        await().atMost(WAIT).until(() -> alice.textsFrom(bot).contains("Still here after the restart."));
        assertThat(model.chatRequests()).hasSize(3);
        assertThat(model.chatRequests().getLast().messages().toString()).contains("are you back?");
        assertThat(alice.textsFrom(bot)).containsExactly("I wrote notes/todo.txt.", "Still here after the restart.");
    }

    @Test
    void inARoomAnAddressedLineIsAnsweredWithTheEarlierLinesAsContext() throws Exception {
        // SPEC CH-8 (XEP-0045, addressed only), IN-6 (unaddressed lines are context)
        model.echoLastUserMessage();
        start();
        alice = XmppUser.connect(prosody, "alice", "alicepass");
        // the bot's join (the gateway logs in on its own thread) makes the room; alice joins once it is there
        MultiUserChat muc = await().atMost(WAIT)
                .ignoreExceptions()
                .until(
                        () -> {
                            MultiUserChat m = alice.join(ROOM, "alice");
                            return m.getOccupants().stream()
                                            .anyMatch(o -> o.getResourceOrEmpty()
                                                    .toString()
                                                    .equals("clawbot"))
                                    ? m
                                    : leave(m);
                        },
                        m -> m != null);
        alice.sayInRoom(muc, "the shop closes at six");
        alice.sayInRoom(muc, "clawbot: when does the shop close?");
        await().atMost(WAIT)
                .until(() -> !alice.textsFrom(ROOM).stream()
                        .filter(t -> t.contains("when does the shop close") && !t.startsWith("clawbot:"))
                        .toList()
                        .isEmpty());
        assertThat(model.chatRequests()).hasSize(1);
        assertThat(model.chatRequests().getFirst().messages().toString())
                .contains("the shop closes at six", "when does the shop close?");
    }

    private static MultiUserChat leave(MultiUserChat m) throws Exception {
        m.leave();
        return null;
    }
}
