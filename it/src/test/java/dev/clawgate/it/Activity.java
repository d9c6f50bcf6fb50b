package dev.clawgate.it;

import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.webhook.FakeWebhookPlatform;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * Whether a gateway has gone quiet: the counters of what it did (accepted, replied, asked of the model) have not moved
 * for a while. Ends a crash-test round whose failpoint did not fire (random kills), instead of a fixed sleep.
 */
final class Activity {
    private final Supplier<List<Long>> counters;
    private List<Long> last = List.of();
    private long changedAt = System.nanoTime();

    private Activity(Supplier<List<Long>> counters) {
        this.counters = counters;
    }

    /** Messages the platform had accepted, replies it got, and model calls. */
    static Activity of(FakeWebhookPlatform platform, FakeOpenAiServer model) {
        return new Activity(() ->
                List.of((long) platform.accepted(), (long) platform.replies().size(), (long)
                        model.requests().size()));
    }

    /** Messages the bot sent, model calls, and the update offset the gateway confirmed. */
    static Activity of(FakeTelegramServer tg, FakeOpenAiServer model) {
        return new Activity(
                () -> List.of((long) tg.sent().size(), (long) model.requests().size(), tg.confirmedOffset()));
    }

    /** Samples the counters; true once they have not moved for {@code quiet}. */
    boolean quietFor(Duration quiet) {
        List<Long> now = counters.get();
        if (!now.equals(last)) {
            last = now;
            changedAt = System.nanoTime();
            return false;
        }
        return System.nanoTime() - changedAt >= quiet.toNanos();
    }
}
