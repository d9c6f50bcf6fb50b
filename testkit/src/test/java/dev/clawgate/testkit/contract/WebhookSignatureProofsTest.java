package dev.clawgate.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.testkit.whatsapp.MetaSignature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The webhook signature proofs hold for a route that checks Meta's X-Hub-Signature-256, and fail for one that does not
 * (SPEC IN-5).
 */
class WebhookSignatureProofsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SECRET = "app-secret-of-the-test";
    private final RecordingInbox inbox = new RecordingInbox();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong ids = new AtomicLong();

    /** A webhook receiver as a channel would have one: checks the signature unless {@code checks} is false. */
    private WebhookRoute route(boolean checks, boolean counts) {
        MetaSignature meta = new MetaSignature(SECRET);
        return new WebhookRoute("POST", "/hook", request -> {
            String given = request.header(MetaSignature.HEADER);
            if (checks && (given == null || !given.equals(meta.sign(request.body())))) {
                if (counts) rejected.incrementAndGet();
                return WebhookRoute.Response.text(401, "bad signature");
            }
            try {
                JsonNode n = JSON.readTree(request.body());
                inbox.accept(new InboundMessage(
                        n.path("id").asText(),
                        "meta-test",
                        null,
                        "alice",
                        null,
                        "alice",
                        null,
                        null,
                        ChatType.DIRECT,
                        true,
                        Instant.now(),
                        n.path("text").asText(),
                        List.of(),
                        null));
                return WebhookRoute.Response.text(200, "ok");
            } catch (IOException e) {
                return WebhookRoute.Response.text(400, "not JSON");
            }
        });
    }

    private byte[] body(String text) {
        return JSON.createObjectNode()
                .put("id", "m" + ids.incrementAndGet())
                .put("text", text)
                .toString()
                .getBytes(StandardCharsets.UTF_8);
    }

    private WebhookSignatureProofs proofs(WebhookRoute route) {
        return WebhookSignatureProofs.of(
                route,
                b -> Map.of(MetaSignature.HEADER, new MetaSignature(SECRET).sign(b)),
                b -> Map.of(MetaSignature.HEADER, new MetaSignature("another-secret").sign(b)),
                this::body,
                inbox,
                rejected::get);
    }

    @TestFactory
    Stream<DynamicTest> aRouteThatChecksAndCountsPassesEveryProof() {
        return proofs(route(true, true)).tests();
    }

    @Test
    void aRouteThatTakesUnsignedPostsFailsTheProofs() {
        assertThatThrownBy(() -> proofs(route(false, false)).proveAll())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("unsigned post got 200");
        assertThat(inbox.messages()).hasSize(2);
    }

    @Test
    void aRouteThatDoesNotCountRefusalsFailsTheProofs() {
        assertThatThrownBy(() -> proofs(route(true, false)).proveAll())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("was not counted as rejected");
    }
}
