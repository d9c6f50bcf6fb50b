package dev.clawgate.testkit.contract;

import dev.clawgate.core.channel.Channel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * Proofs for a channel whose listener holds a socket to the platform (a WebSocket gateway: Discord, Slack Socket Mode,
 * Lark, QQ; SPEC CH-0, IN-4): what the platform pushes reaches the inbox once; after the platform drops the connection
 * the listener reconnects by itself and nothing pushed before or after is lost or recorded twice; stopped and started
 * again (the supervisor's handover) it takes up again, and what was pushed while it was stopped and not acknowledged
 * comes through. The proofs run in order on one channel, which they start on {@code inbox} and stop at the end.
 */
public final class SocketListenerProofs {
    /** The platform end, as its fake (or a real server) lets a test drive it. */
    public interface SocketPlatform {
        /** Pushes one new text message to the bot (a new platform id each call). */
        void push(String text);

        /** Closes the bot's connections abruptly, as a gateway restart or a network cut does. */
        void dropConnections();

        /** Connections the bot has opened so far. */
        int connectionsOpened();
    }

    private final Channel channel;
    private final SocketPlatform platform;
    private final RecordingInbox inbox;
    private final Duration wait;

    private SocketListenerProofs(Channel channel, SocketPlatform platform, RecordingInbox inbox, Duration wait) {
        this.channel = Objects.requireNonNull(channel, "channel");
        this.platform = Objects.requireNonNull(platform, "platform");
        this.inbox = Objects.requireNonNull(inbox, "inbox");
        this.wait = wait;
    }

    /** @param wait how long each proof waits for the listener to take what was pushed */
    public static SocketListenerProofs of(
            Channel channel, SocketPlatform platform, RecordingInbox inbox, Duration wait) {
        return new SocketListenerProofs(channel, platform, inbox, wait);
    }

    public Stream<DynamicTest> tests() {
        List<DynamicTest> tests = new ArrayList<>();
        tests.add(DynamicTest.dynamicTest("what the platform pushes reaches the inbox once", this::receives));
        tests.add(DynamicTest.dynamicTest(
                "after a dropped connection it reconnects and loses nothing", this::survivesADrop));
        tests.add(DynamicTest.dynamicTest("stopped and started again it takes up where it was", this::restarts));
        return tests.stream();
    }

    /**
     * Runs every proof in order, failing at the first that does not hold; for a harness test that expects a failure.
     */
    public void proveAll() throws Throwable {
        try {
            for (DynamicTest t : tests().toList()) t.getExecutable().execute();
        } finally {
            channel.stop();
        }
    }

    private void receives() throws Exception {
        channel.start(inbox);
        awaitThat("the listener connects", () -> platform.connectionsOpened() >= 1);
        List<String> texts = pushAll("first", 3);
        awaitAllOnce(texts);
    }

    private void survivesADrop() {
        int opened = platform.connectionsOpened();
        List<String> before = pushAll("before drop", 2);
        awaitAllOnce(before);
        platform.dropConnections();
        awaitThat("the listener reconnects after the drop", () -> platform.connectionsOpened() > opened);
        List<String> after = pushAll("after drop", 2);
        awaitAllOnce(after);
        awaitAllOnce(before);
    }

    private void restarts() throws Exception {
        channel.stop();
        int opened = platform.connectionsOpened();
        List<String> whileStopped = pushAll("while stopped", 2);
        channel.start(inbox);
        awaitThat("the listener connects again after a start", () -> platform.connectionsOpened() > opened);
        List<String> afterStart = pushAll("after start", 2);
        awaitAllOnce(afterStart);
        awaitAllOnce(whileStopped);
        channel.stop();
    }

    private List<String> pushAll(String label, int n) {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String text = label + " " + i + " " + System.nanoTime();
            platform.push(text);
            texts.add(text);
        }
        return texts;
    }

    private void awaitAllOnce(List<String> texts) {
        awaitThat(
                "the inbox holds " + texts,
                () -> texts.stream().allMatch(t -> inbox.texts().stream().anyMatch(r -> r.contains(t))));
        for (String t : texts) {
            long n = inbox.texts().stream().filter(r -> r.contains(t)).count();
            if (n != 1) throw new AssertionError("'" + t + "' was recorded " + n + " times");
        }
    }

    private void awaitThat(String what, BooleanSupplier condition) {
        try {
            org.awaitility.Awaitility.await(what)
                    .atMost(wait)
                    .pollInterval(Duration.ofMillis(20))
                    .until(condition::getAsBoolean);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("not within " + wait.toMillis() + " ms: " + what, e);
        }
    }
}
