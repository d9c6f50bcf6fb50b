package dev.clawgate.channel.lark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.lark.FakeLark;
import dev.clawgate.testkit.lark.LarkEvents;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Without an encrypt_key (SPEC CH-11, IN-5): plain events proven by the verification token alone; more types. */
class LarkPlainModeTest {
    @TempDir
    Path dir;

    private FakeLark lark;
    private LarkChannel channel;
    private LarkFixture.RouteServer server;
    private final RecordingInbox inbox = new RecordingInbox();

    @BeforeEach
    void start() throws Exception {
        lark = LarkFixture.fake(false);
        channel = LarkFixture.channel(LarkFixture.account(lark, false, false), dir);
        channel.start(inbox);
        server = new LarkFixture.RouteServer(channel.webhookRoutes().getFirst());
        lark.deliverTo(server.url());
    }

    @AfterEach
    void stop() {
        channel.stop();
        server.close();
        lark.close();
    }

    private InboundMessage awaitMessage(String id) {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> inbox.messages().stream().anyMatch(m -> m.id().equals(id)));
        return inbox.messages().stream()
                .filter(m -> m.id().equals(id))
                .findFirst()
                .orElseThrow();
    }

    private static byte[] event(String token, String messageId, String text) {
        return LarkEvents.messageReceive(
                        "ev_" + messageId,
                        token,
                        LarkFixture.APP_ID,
                        messageId,
                        "ou_u",
                        "oc_c",
                        "p2p",
                        "text",
                        LarkEvents.text(text))
                .toString()
                .getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aPlainEventIsTakenOnlyWithTheVerificationToken() throws Exception {
        // SPEC IN-5, CH-11: header.token must equal verification_token; refused ones are counted, never stored
        assertThat(lark.postOnce(event("guessed", "om_forged", "forged"), Map.of())
                        .status())
                .isEqualTo(401);
        assertThat(channel.rejectedRequests()).isEqualTo(1);
        assertThat(inbox.handOvers()).isZero();
        assertThat(lark.postOnce(event(LarkFixture.VERIFY, "om_real", "real"), Map.of())
                        .status())
                .isEqualTo(200);
        assertThat(awaitMessage("om_real").text()).isEqualTo("real");
        FakeLark.Answer challenge = lark.verifyUrl("plain-challenge");
        assertThat(challenge.status()).isEqualTo(200);
        assertThat(challenge.body()).isEqualTo("{\"challenge\":\"plain-challenge\"}");
    }

    @Test
    void postMentionsImagesAndUnknownTypesAreRead() throws Exception {
        // SPEC CH-11, MD-1: a post's at and img elements; a type the gateway cannot read says so
        String post = "{\"zh_cn\":{\"title\":\"\",\"content\":[[{\"tag\":\"at\",\"user_id\":\"@_user_1\"},"
                + "{\"tag\":\"text\",\"text\":\" look\"},{\"tag\":\"emotion\",\"emoji_type\":\"SMILE\"}]]}}";
        InboundMessage p = awaitMessage(lark.userSends("ou_u", "oc_g", "group", "post", post, "ou_bob"));
        assertThat(p.text()).isEqualTo("@name of ou_bob look:SMILE:");
        assertThat(p.mentioned()).isFalse();
        InboundMessage file = awaitMessage(
                lark.userSends("ou_u", "oc_dm", "p2p", "file", "{\"file_key\":\"file_v2_x\",\"file_name\":\"a.pdf\"}"));
        assertThat(file.text()).isEqualTo("[a file message, which the gateway cannot read]");
        InboundMessage broken =
                awaitMessage(lark.userSends("ou_u", "oc_dm", "p2p", "image", "{\"image_key\":\"img_not_there\"}"));
        assertThat(broken.attachments()).isEmpty();
        assertThat(broken.text()).contains("could not be downloaded");
    }

    @Test
    void anotherAppsOrABotsMessageStartsNothing() throws Exception {
        // SPEC CH-11: a message whose sender is not a user is acknowledged and ignored
        ObjectNode e = LarkEvents.messageReceive(
                "ev_app",
                LarkFixture.VERIFY,
                LarkFixture.APP_ID,
                "om_app",
                "ou_x",
                "oc_c",
                "group",
                "text",
                LarkEvents.text("from an app"));
        ((ObjectNode) e.path("event").path("sender")).put("sender_type", "app");
        assertThat(lark.postOnce(e.toString().getBytes(StandardCharsets.UTF_8), Map.of())
                        .status())
                .isEqualTo(200);
        assertThat(inbox.handOvers()).isZero();
    }
}
