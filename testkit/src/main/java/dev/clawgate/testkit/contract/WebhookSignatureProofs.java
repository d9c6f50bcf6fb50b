package dev.clawgate.testkit.contract;

import dev.clawgate.core.channel.WebhookRoute;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * Proofs for a channel that takes signed webhooks (SPEC IN-4, IN-5; CH-3, CH-4, CH-12): a post the platform signed is
 * taken, answered 2xx only once recorded; an unsigned post, one signed with another secret, and one whose body changed
 * after signing are refused with a 4xx, counted, and never reach the inbox. The channel is started on {@code inbox};
 * its route is called as the server would call it.
 *
 * <pre>{@code
 * @TestFactory Stream<DynamicTest> signatures() {
 *     return WebhookSignatureProofs.of(
 *             route, platformSigner, impostorSigner, text -> body(text), inbox, channel::rejectedRequests)
 *         .tests();
 * }
 * }</pre>
 */
public final class WebhookSignatureProofs {
    /** How a platform signs a post: the headers it adds for a body (signature, timestamp, secret token). */
    @FunctionalInterface
    public interface Signer {
        Map<String, String> headersFor(byte[] body);
    }

    private final WebhookRoute route;
    private final Signer platform;
    private final Signer impostor;
    private final Function<String, byte[]> messageBody;
    private final RecordingInbox inbox;
    private final LongSupplier rejected;
    private boolean signsTheBody = true;

    private WebhookSignatureProofs(
            WebhookRoute route,
            Signer platform,
            Signer impostor,
            Function<String, byte[]> messageBody,
            RecordingInbox inbox,
            LongSupplier rejected) {
        this.route = Objects.requireNonNull(route, "route");
        this.platform = Objects.requireNonNull(platform, "platform");
        this.impostor = Objects.requireNonNull(impostor, "impostor");
        this.messageBody = Objects.requireNonNull(messageBody, "messageBody");
        this.inbox = Objects.requireNonNull(inbox, "inbox");
        this.rejected = Objects.requireNonNull(rejected, "rejected");
    }

    /**
     * @param route the channel's webhook route, wired to {@code inbox}
     * @param platform signs as the platform does, with the configured secret
     * @param impostor signs the same way with another secret
     * @param messageBody a body the channel reads as one new text message with that text (a new platform id each call)
     * @param rejected the channel's count of refused requests ({@code Channel.rejectedRequests()})
     */
    public static WebhookSignatureProofs of(
            WebhookRoute route,
            Signer platform,
            Signer impostor,
            Function<String, byte[]> messageBody,
            RecordingInbox inbox,
            LongSupplier rejected) {
        return new WebhookSignatureProofs(route, platform, impostor, messageBody, inbox, rejected);
    }

    /**
     * For a platform that proves itself with a secret token in a header (Telegram's
     * {@code X-Telegram-Bot-Api-Secret-Token}) rather than a signature of the body: the tampered-body proof does not
     * apply and is left out.
     */
    public WebhookSignatureProofs secretTokenOnly() {
        signsTheBody = false;
        return this;
    }

    public Stream<DynamicTest> tests() {
        List<DynamicTest> tests = new ArrayList<>();
        tests.add(DynamicTest.dynamicTest(
                "a post the platform signed is recorded, then answered 2xx", this::signedIsTaken));
        tests.add(DynamicTest.dynamicTest(
                "an unsigned post is refused and never recorded", () -> refused("unsigned", Map.of(), false)));
        tests.add(DynamicTest.dynamicTest(
                "a post signed with another secret is refused", () -> refused("impostor", null, false)));
        if (signsTheBody)
            tests.add(DynamicTest.dynamicTest(
                    "a body changed after signing is refused", () -> refused("tampered", null, true)));
        return tests.stream();
    }

    /**
     * Runs every proof in order, failing at the first that does not hold; for a harness test that expects a failure.
     */
    public void proveAll() throws Throwable {
        for (DynamicTest t : tests().toList()) t.getExecutable().execute();
    }

    private void signedIsTaken() {
        String text = "signed message " + System.nanoTime();
        byte[] body = messageBody.apply(text);
        int before = inbox.messages().size();
        WebhookRoute.Response r = post(body, platform.headersFor(body));
        if (r.status() / 100 != 2)
            throw new AssertionError("a correctly signed post got " + r.status() + ": " + bodyOf(r));
        if (inbox.messages().size() != before + 1 || !inbox.texts().getLast().contains(text)) {
            throw new AssertionError(
                    "a correctly signed post answered " + r.status() + " but its message is not in the inbox");
        }
    }

    private void refused(String what, Map<String, String> headers, boolean tamper) {
        String text = what + " message " + System.nanoTime();
        byte[] body = messageBody.apply(text);
        Map<String, String> h = headers != null ? headers : (tamper ? platform : impostor).headersFor(body);
        byte[] sent = tamper ? messageBody.apply(text + " (changed)") : body;
        int before = inbox.handOvers();
        long rejectedBefore = rejected.getAsLong();
        WebhookRoute.Response r = post(sent, h);
        if (r.status() < 400 || r.status() >= 500) {
            throw new AssertionError("the " + what + " post got " + r.status() + ", not a 4xx refusal: " + bodyOf(r));
        }
        if (inbox.handOvers() != before) throw new AssertionError("the " + what + " post reached the inbox");
        if (rejected.getAsLong() != rejectedBefore + 1) {
            throw new AssertionError("the " + what + " post was not counted as rejected (SPEC IN-5): " + rejectedBefore
                    + " -> " + rejected.getAsLong());
        }
    }

    private WebhookRoute.Response post(byte[] body, Map<String, String> headers) {
        Map<String, String> h = new HashMap<>(headers);
        h.putIfAbsent("Content-Type", "application/json");
        return route.handler().handle(new WebhookRoute.Request(h, body, "127.0.0.1"));
    }

    private static String bodyOf(WebhookRoute.Response r) {
        return r.body() == null ? "" : new String(r.body(), StandardCharsets.UTF_8);
    }
}
