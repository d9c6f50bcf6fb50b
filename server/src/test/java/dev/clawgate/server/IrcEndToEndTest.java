package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.server.config.ConfigLoader;
import dev.clawgate.testkit.irc.IrcUser;
import dev.clawgate.testkit.irc.Ngircd;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway with the IRC channel module, found by {@code ServiceLoader} and configured from a real config file,
 * talking through Debian's ngircd to a raw-socket IRC client (SPEC CH-7), with the fake model server behind it.
 */
class IrcEndToEndTest {
    private static final String ROOM = "#clawgate";

    @TempDir
    Path dir;

    private final FakeOpenAiServer model = FakeOpenAiServer.start();
    private final Ngircd irc = Ngircd.start();
    private final List<AutoCloseable> users = new ArrayList<>();
    private Gateway gateway;

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable u : users) u.close();
        if (gateway != null) gateway.close();
        irc.close();
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

                [channels.irc]
                server = "%s"
                port = %d
                nick = "clawbot"
                channels = ["%s"]
                dm_policy = "open"
                allowed_users = ["*"]
                group_policy = "open"
                """.formatted(
                        dir.resolve("data"), dir.resolve("workspace"), model.baseUrl(), irc.host(), irc.port(), ROOM));
        gateway = Gateway.start(new ConfigLoader().load(file, Map.of()), GatewayOptions.with());
    }

    private IrcUser user(String nick) {
        IrcUser u = IrcUser.connect(irc, nick);
        users.add(u);
        return u;
    }

    private static void awaitBotIn(IrcUser u) {
        u.await(
                "clawbot in " + ROOM,
                l -> (l.text().startsWith(":clawbot!") && l.text().contains(" JOIN "))
                        || (l.text().contains(" 353 ")
                                && l.text().contains(ROOM)
                                && l.text().contains("clawbot")));
    }

    @Test
    void anAddressedChannelLineGetsATurnWithAToolCallAndTheGatewayAnswersAgainAfterTheServerRestarts()
            throws Exception {
        // SPEC CH-7 (addressed lines only; plain text), AG-1 (a tool call), IN-6 (unaddressed lines are context), CH-0
        // (reconnect)
        model.enqueue(
                Reply.toolCalls(Reply.call("file_write", "{\"path\":\"notes/todo.txt\",\"content\":\"buy milk\"}")),
                Reply.text("I wrote **notes/todo.txt**."),
                Reply.text("Still here after the restart."));
        IrcUser alice = user("alice");
        alice.join(ROOM);
        start();
        awaitBotIn(alice);

        alice.say(ROOM, "the shop closes at six");
        alice.say(ROOM, "clawbot: please note: buy milk");
        alice.await(
                "the reply", l -> l.text().startsWith(":clawbot!") && l.text().contains(" PRIVMSG " + ROOM + " :"));
        assertThat(alice.texts("clawbot", ROOM)).containsExactly("I wrote notes/todo.txt.");
        assertThat(dir.resolve("workspace/notes/todo.txt")).hasContent("buy milk");
        assertThat(model.chatRequests()).hasSize(2);
        String firstTurn = model.chatRequests().getFirst().messages().toString();
        assertThat(firstTurn).contains("please note: buy milk", "the shop closes at six");

        // the server dies mid-conversation and comes back: the gateway reconnects and rejoins by itself
        irc.restart();
        IrcUser again = user("alice");
        again.join(ROOM);
        awaitBotIn(again);
        again.say(ROOM, "clawbot, are you back?");
        again.await(
                "the reply after the restart",
                l -> l.text().startsWith(":clawbot!") && l.text().contains(" PRIVMSG " + ROOM + " :"));
        assertThat(again.texts("clawbot", ROOM)).containsExactly("Still here after the restart.");
        assertThat(model.chatRequests()).hasSize(3);
        assertThat(model.chatRequests().getLast().messages().toString()).contains("are you back?");
    }

    @Test
    void aQueryIsADirectConversation() throws Exception {
        // SPEC CH-7 (PRIVMSG in queries), IN-5 (dm_policy)
        model.echoLastUserMessage();
        start();
        IrcUser bob = user("bob");
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            bob.send("WHOIS clawbot");
            return bob.lines().stream().anyMatch(l -> l.text().contains(" 311 bob clawbot "));
        });
        bob.say("clawbot", "hello from a query");
        bob.await("the reply", l -> l.text().startsWith(":clawbot!") && l.text().contains(" PRIVMSG bob :"));
        assertThat(bob.texts("clawbot", "bob"))
                .singleElement()
                .satisfies(t -> assertThat(t).contains("hello from a query"));
    }
}
