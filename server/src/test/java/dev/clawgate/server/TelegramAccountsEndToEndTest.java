package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.SessionSummary;
import dev.clawgate.server.config.ConfigLoader;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.RecordedRequest;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.SentMessage;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two bots in one gateway: {@code [channels.telegram]} and {@code [channels.telegram.accounts.support]}, loaded from a
 * real config file, each bot on its own fake Bot API (a fake answers only its own token, so a reply that arrives was
 * sent with the right one).
 */
class TelegramAccountsEndToEndTest {
    private static final String MAIN_TOKEN = "111000:Main-bot_token";
    private static final String SUPPORT_TOKEN = "222000:Support-bot_token";

    @TempDir
    Path dir;

    private final FakeOpenAiServer model = FakeOpenAiServer.start();
    private final FakeTelegramServer main = FakeTelegramServer.start(MAIN_TOKEN, "mainbot");
    private final FakeTelegramServer support = FakeTelegramServer.start(SUPPORT_TOKEN, "supportbot");
    private Gateway gateway;

    @AfterEach
    void stop() {
        if (gateway != null) gateway.close();
        main.close();
        support.close();
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

                [channels.telegram]
                bot_token = "%s"
                api_base = "%s"
                dm_policy = "open"
                allowed_users = ["*"]
                ack_reactions = true

                [channels.telegram.accounts.support]
                bot_token = "%s"
                api_base = "%s"
                dm_policy = "allowlist"
                allowed_users = ["111"]
                """.formatted(
                        dir.resolve("data"),
                        dir.resolve("workspace"),
                        model.baseUrl(),
                        MAIN_TOKEN,
                        main.apiBase(),
                        SUPPORT_TOKEN,
                        support.apiBase()));
        gateway = Gateway.start(new ConfigLoader().load(file, Map.of()), GatewayOptions.with());
    }

    private static List<SentMessage> awaitSent(FakeTelegramServer tg, TelegramChat chat, int n) {
        await().atMost(Duration.ofSeconds(20)).until(() -> tg.sentTo(chat).size() >= n);
        return tg.sentTo(chat);
    }

    @Test
    void eachBotAnswersItsOwnChatsWithItsOwnTokenAndKeepsItsOwnSession() throws Exception {
        // SPEC CH-3 (several bot accounts; keys an account does not set come from the channel table), HI-1 (the account
        // is part of the session key), IN-5 (access per channel and account)
        model.echoLastUserMessage();
        start();
        TelegramUser aliceOnMain = main.user(111, "alice");
        TelegramUser aliceOnSupport = support.user(111, "alice");
        TelegramChat mainDm = main.privateChat(aliceOnMain);
        TelegramChat supportDm = support.privateChat(aliceOnSupport);

        main.sendText(mainDm, aliceOnMain, "the main secret is lemon");
        assertThat(awaitSent(main, mainDm, 1).getFirst().text()).contains("the main secret is lemon");
        long asked = support.sendText(supportDm, aliceOnSupport, "help with my order");
        assertThat(awaitSent(support, supportDm, 1).getFirst().text()).contains("help with my order");
        // ack_reactions is set on [channels.telegram] only: the support account takes it from there
        await().atMost(Duration.ofSeconds(20))
                .until(() -> support.reactions(supportDm, asked).contains("👀"));

        // each reply went out through the bot that was written to, and only through it
        assertThat(main.calls("sendMessage"))
                .singleElement()
                .satisfies(b -> assertThat(b.path("chat_id").asLong()).isEqualTo(111));
        assertThat(support.calls("sendMessage"))
                .singleElement()
                .satisfies(b -> assertThat(b.path("chat_id").asLong()).isEqualTo(111));
        // the same person on two bots is two conversations: the support turn never saw the main chat
        RecordedRequest supportTurn = model.chatRequests().get(1);
        assertThat(supportTurn.messages().toString())
                .contains("help with my order")
                .doesNotContain("lemon");
        assertThat(gateway.store().transcripts().sessions())
                .extracting(SessionSummary::key)
                .containsExactlyInAnyOrder(
                        new SessionKey("telegram", "default", ChatType.DIRECT, "111", null, "111"),
                        new SessionKey("telegram", "support", ChatType.DIRECT, "111", null, "111"));
    }

    @Test
    void anAccountsOwnAllowlistAppliesToThatBotOnly() throws Exception {
        // SPEC IN-5 (per channel and account: keys an account sets override the channel's), CH-3 (accounts)
        model.echoLastUserMessage();
        start();
        TelegramUser carolOnMain = main.user(333, "carol");
        TelegramUser carolOnSupport = support.user(333, "carol");
        TelegramChat mainDm = main.privateChat(carolOnMain);
        TelegramChat supportDm = support.privateChat(carolOnSupport);

        support.sendText(supportDm, carolOnSupport, "let me in");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> gateway.store().inbox().counts().getOrDefault(InboxState.DENIED, 0L) == 1L);
        main.sendText(mainDm, carolOnMain, "hello main");
        assertThat(awaitSent(main, mainDm, 1).getFirst().text()).contains("hello main");

        assertThat(support.calls("sendMessage"))
                .as("the support bot's allowlist has only 111")
                .isEmpty();
        assertThat(model.chatRequests()).hasSize(1);
        assertThat(gateway.store().inbox().counts())
                .containsEntry(InboxState.DENIED, 1L)
                .containsEntry(InboxState.DONE, 1L);
    }
}
