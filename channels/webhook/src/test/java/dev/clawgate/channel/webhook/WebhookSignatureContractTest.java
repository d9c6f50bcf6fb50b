package dev.clawgate.channel.webhook;

import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.contract.WebhookSignatureProofs;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The generic webhook channel against the harness's webhook signature proofs (SPEC IN-4, IN-5). */
class WebhookSignatureContractTest {
    private static final String SECRET = "0123456789abcdef-secret";
    private final WebhookChannel channel =
            new WebhookChannel(new WebhookChannelSettings(null, SECRET, "http://127.0.0.1:9/cb"));
    private final RecordingInbox inbox = new RecordingInbox();
    private final AtomicLong ids = new AtomicLong();

    @AfterEach
    void stop() {
        channel.stop();
    }

    private byte[] body(String text) {
        return ("{\"id\":\"m-" + ids.incrementAndGet() + "\",\"sender\":\"alice\",\"chat\":\"alice\",\"text\":\"" + text
                        + "\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    @TestFactory
    Stream<DynamicTest> signedPostsAreTakenAndEveryOtherIsRefusedAndCounted() {
        channel.start(inbox);
        return WebhookSignatureProofs.of(
                        channel.webhookRoutes().getFirst(),
                        b -> Map.of("X-Clawgate-Signature", new WebhookSignature(SECRET).sign(b)),
                        b -> Map.of("X-Clawgate-Signature", new WebhookSignature("another-secret-0123456789").sign(b)),
                        this::body,
                        inbox,
                        channel::rejectedRequests)
                .tests();
    }
}
