package dev.clawgate.core.channel;

import dev.clawgate.core.store.InboxState;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * The platform calls of ack reactions (SPEC RP-5), shared by the channels that react: a message's calls (the "seen"
 * mark on receipt, then its removal and the outcome when core settles it) run one after another on the channel's I/O
 * executor, never on the caller's thread and never out of order, while different messages' calls run independently.
 * {@link #outcome} says which mark a final state gets.
 *
 * @param <K> what names one message on the platform (its account, chat and id)
 */
public final class AckReactionCalls<K> {
    /** The mark a settled message gets beside the removal of "seen". */
    public enum Outcome {
        DONE,
        FAILED
    }

    private final Executor io;
    private final Map<K, CompletableFuture<Void>> calls = new ConcurrentHashMap<>();

    public AckReactionCalls(Executor io) {
        this.io = io;
    }

    /**
     * Runs {@code call} after the calls already queued for {@code message}; a call that throws does not stop later
     * ones.
     */
    public void inOrder(K message, Runnable call) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        CompletableFuture<Void> prev = calls.put(message, done);
        CompletableFuture<Void> before = prev == null ? CompletableFuture.completedFuture(null) : prev;
        before.thenRunAsync(call, io).whenComplete((v, e) -> {
            calls.remove(message, done);
            done.complete(null);
        });
    }

    /** Done for a message answered, failed for one that failed or expired; null (only "seen" removed) otherwise. */
    public static Outcome outcome(InboxState state) {
        return switch (state) {
            case DONE -> Outcome.DONE;
            case FAILED, EXPIRED -> Outcome.FAILED;
            default -> null;
        };
    }

    /** Messages whose calls are still queued or running: for tests and status. */
    public int pending() {
        return calls.size();
    }
}
