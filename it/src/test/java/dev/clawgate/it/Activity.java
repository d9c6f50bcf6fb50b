package dev.clawgate.it;

import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.webhook.FakeWebhookPlatform;
import java.time.Duration;
import java.util.List;

/**
 * Whether a gateway has gone quiet: nothing accepted, replied or asked of the model for a while.
 * Ends a crash-test round whose failpoint did not fire (random kills), instead of a fixed sleep.
 */
final class Activity {
    private final FakeWebhookPlatform platform;
    private final FakeOpenAiServer model;
    private List<Long> last = List.of();
    private long changedAt = System.nanoTime();

    Activity(FakeWebhookPlatform platform, FakeOpenAiServer model) {
        this.platform = platform;
        this.model = model;
    }

    /** Samples the counters; true once they have not moved for {@code quiet}. */
    boolean quietFor(Duration quiet) {
        List<Long> now = List.of((long) platform.accepted(), (long) platform.replies().size(), (long) model.requests().size());
        if (!now.equals(last)) {
            last = now;
            changedAt = System.nanoTime();
            return false;
        }
        return System.nanoTime() - changedAt >= quiet.toNanos();
    }
}
