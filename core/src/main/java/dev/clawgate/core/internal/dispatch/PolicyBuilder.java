package dev.clawgate.core.internal.dispatch;

import dev.clawgate.core.internal.command.RuntimeCommand;
import dev.clawgate.core.store.InboxRecord;
import java.time.Duration;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Builds a {@link Dispatcher.Policy}: the queue policy and the turn budget must be set; the rest default to
 * {@code /stop} as the stop command (SPEC DI-5), no request/response channel, no notices, admitting everyone and no
 * debouncing.
 */
public final class PolicyBuilder {
    private Function<InboxRecord, QueuePolicy> queue;
    private Predicate<InboxRecord> isStopCommand =
            r -> RuntimeCommand.parse(r.message().text())
                    .filter(c -> c instanceof RuntimeCommand.Stop)
                    .isPresent();
    private Predicate<InboxRecord> requestResponse = r -> false;
    private Supplier<Duration> turnBudget;
    private BiConsumer<InboxRecord, String> notices = (r, text) -> {};
    private Duration queuedNoticeAfter = Duration.ZERO;
    private Admission admission = Admission.ALL;
    private Function<String, Long> debounceMs = channel -> 0L;

    PolicyBuilder() {}

    public PolicyBuilder queue(Function<InboxRecord, QueuePolicy> queue) {
        this.queue = queue;
        return this;
    }

    public PolicyBuilder isStopCommand(Predicate<InboxRecord> isStopCommand) {
        this.isStopCommand = isStopCommand;
        return this;
    }

    public PolicyBuilder requestResponse(Predicate<InboxRecord> requestResponse) {
        this.requestResponse = requestResponse;
        return this;
    }

    public PolicyBuilder turnBudget(Supplier<Duration> turnBudget) {
        this.turnBudget = turnBudget;
        return this;
    }

    /** Best-effort notices to a record's sender ("queued", "not queued"), sent once a message waited {@code after}. */
    public PolicyBuilder notices(BiConsumer<InboxRecord, String> notices, Duration after) {
        this.notices = notices;
        this.queuedNoticeAfter = after;
        return this;
    }

    public PolicyBuilder admission(Admission admission) {
        this.admission = admission;
        return this;
    }

    public PolicyBuilder debounceMs(Function<String, Long> debounceMs) {
        this.debounceMs = debounceMs;
        return this;
    }

    public Dispatcher.Policy build() {
        return new Dispatcher.Policy(
                Objects.requireNonNull(queue, "queue"),
                isStopCommand,
                requestResponse,
                Objects.requireNonNull(turnBudget, "turnBudget"),
                notices,
                queuedNoticeAfter,
                admission,
                debounceMs);
    }
}
