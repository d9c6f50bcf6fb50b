package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GroupPolicy;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.qq.FakeQq;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The real gateway with the QQ channel (found by ServiceLoader from channels/qq) on a {@link FakeQq} speaking the token
 * endpoint, the WebSocket gateway and the OpenAPI on loopback, and a fake model behind it (SPEC CH-13).
 */
class QqEndToEndTest extends GatewayFixture {
    private static final AccessSettings OPEN =
            new AccessSettings(DmPolicy.OPEN, List.of("*"), GroupPolicy.OPEN, List.of(), true);
    private static final Duration WAIT = Duration.ofSeconds(30);

    private FakeQq qq;

    @BeforeEach
    void startQq() {
        qq = FakeQq.start("102030405", "qq-e2e-secret");
    }

    @AfterEach
    void stopQq() {
        closeGateway();
        qq.close();
    }

    private void startQqGateway(Map<String, String> extra) throws Exception {
        Map<String, String> options = new HashMap<>(Map.of(
                "app_id",
                "102030405",
                "client_secret",
                "qq-e2e-secret",
                "api_base",
                qq.apiBase(),
                "token_url",
                qq.tokenUrl()));
        options.putAll(extra);
        start(config().withChannel(new ChannelSettings("qq", OPEN, Map.of(), options)));
        await().atMost(WAIT).until(() -> qq.liveSessions() == 1);
    }

    private List<FakeQq.Sent> awaitSent(int n) {
        await().atMost(WAIT).until(() -> qq.sent().size() >= n);
        return qq.sent();
    }

    @Test
    void theFactoryDeclaresExactlyTheIssuesKeys() {
        // SPEC CH-13: [channels.qq] keys (the access keys are every channel's)
        ChannelFactory f = ServiceLoader.load(ChannelFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(x -> x.name().equals("qq"))
                .findFirst()
                .orElseThrow();
        assertThat(f.options())
                .extracting(ChannelOption::key)
                .containsExactlyInAnyOrder(
                        "app_id",
                        "client_secret",
                        "mode",
                        "api_base",
                        "token_url",
                        "gateway_url",
                        "webhook_path",
                        "sandbox",
                        "stream_mode",
                        "ack_reactions",
                        "text_limit");
    }

    @Test
    void aGroupConversationWithAToolCallWritesTheFileAndRepliesPassively() throws Exception {
        // SPEC CH-13, AG-1: an @-message in a group, a tool call, the reply a passive one (msg_id, msg_seq 1)
        model.enqueue(
                Reply.toolCalls(Reply.call("file_write", "{\"path\":\"notes/todo.txt\",\"content\":\"buy milk\"}")),
                Reply.text("I wrote notes/todo.txt."));
        startQqGateway(Map.of());
        String asked = qq.groupMessage("GROUPE2E", "MEMBERA", "please note: buy milk");
        FakeQq.Sent reply = awaitSent(1).getFirst();
        assertThat(reply.content()).isEqualTo("I wrote notes/todo.txt.");
        assertThat(reply.chat()).isEqualTo("GROUPE2E");
        assertThat(reply.msgId()).isEqualTo(asked);
        assertThat(reply.msgSeq()).isEqualTo(1);
        assertThat(dir.resolve("workspace/notes/todo.txt")).hasContent("buy milk");
        assertThat(model.chatRequests()).hasSize(2);
        assertThat(model.chatRequests()
                        .getFirst()
                        .messages()
                        .get(0)
                        .path("content")
                        .asText())
                .contains("QQ shows plain text");
    }

    @Test
    void aLongReplyIsSplitWithinTheTextLimitAsPassiveRepliesInOrder() throws Exception {
        // SPEC OUT-1, CH-13: 1,800 characters with text_limit 500: several messages, each within 500, seq 1, 2, ...
        StringBuilder text = new StringBuilder();
        for (int i = 0; text.length() < 1800; i++)
            text.append("Sentence number ").append(i).append(" of the plan. ");
        text.append("The end.");
        model.enqueue(Reply.text(text.toString()));
        startQqGateway(Map.of("text_limit", "500"));
        String asked = qq.c2cMessage("USERLONG", "write a lot");
        await().atMost(WAIT)
                .until(() -> qq.sent().stream().anyMatch(s -> s.content().contains("The end.")));
        List<FakeQq.Sent> parts = qq.sent();
        assertThat(parts).hasSizeBetween(4, 5);
        assertThat(parts).allSatisfy(s -> {
            assertThat(s.content().length()).isLessThanOrEqualTo(500);
            assertThat(s.msgId()).isEqualTo(asked);
        });
        assertThat(parts).extracting(FakeQq.Sent::msgSeq).isSorted().doesNotHaveDuplicates();
        assertThat(String.join(" ", parts.stream().map(FakeQq.Sent::content).toList()))
                .contains("Sentence number 0 ", "The end.");
    }

    @Test
    void aRedeliveredEventIsAnsweredOnce() throws Exception {
        // SPEC IN-1, OUT-12, CH-13: the platform dispatches the same message again: no second turn, no second reply
        model.enqueue(Reply.text("answered"), Reply.text("must not be sent"));
        startQqGateway(Map.of());
        String asked = qq.c2cMessage("USERDUP", "hello");
        awaitSent(1);
        qq.redeliver(asked);
        qq.c2cMessage("USERDUP2", "a later message");
        await().atMost(WAIT).until(() -> model.chatRequests().size() == 2);
        Thread.sleep(300);
        assertThat(qq.sent()).filteredOn(s -> s.chat().equals("USERDUP")).hasSize(1);
    }

    @Test
    void aDroppedConnectionMidConversationResumesWithNothingLostOrAnsweredTwice() throws Exception {
        // SPEC CH-0, CH-13, IN-1: the drop is resumed (op 6); what was dispatched meanwhile comes once
        model.enqueue(Reply.text("first answer"), Reply.text("second answer"), Reply.text("third answer"));
        startQqGateway(Map.of());
        qq.c2cMessage("USERD", "first");
        awaitSent(1);
        qq.dropConnections();
        qq.c2cMessage("USERD", "second");
        awaitSent(2);
        qq.c2cMessage("USERD", "third");
        awaitSent(3);
        Thread.sleep(500);
        assertThat(qq.sent())
                .extracting(FakeQq.Sent::content)
                .containsExactly("first answer", "second answer", "third answer");
        assertThat(model.chatRequests()).hasSize(3);
        assertThat(qq.calls()).anyMatch(c -> c.method().equals("gateway.resume"));
    }
}
