package dev.clawgate.provider.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.provider.ChatRequest;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.Provider;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** Cancellation as every provider must honour it (SPEC AG-2), whatever its wire format. */
public final class CancelScenarios {
    private CancelScenarios() {}

    /** Runs the chat on a virtual thread; the future fails with whatever the provider threw. */
    public static CompletableFuture<ChatResponse> chatAsync(
            Provider provider, ChatRequest request, StreamObserver observer, CancelToken cancel) {
        CompletableFuture<ChatResponse> f = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                f.complete(provider.chat(request, observer, cancel));
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        return f;
    }

    /**
     * With a slow stream of 200 deltas already scripted: cancelling after the third delta throws
     * {@link CancelledException} with the reason, the server sees the connection go (asked through
     * {@code awaitDisconnect}), and the rest of the stream is never reported.
     */
    public static void cancelDuringSlowStream(
            Provider provider, ChatRequest streamed, Predicate<Duration> awaitDisconnect) {
        List<String> deltas = new CopyOnWriteArrayList<>();
        CancelToken cancel = new CancelToken();
        CompletableFuture<ChatResponse> run = chatAsync(provider, streamed, deltas::add, cancel);
        await().atMost(Duration.ofSeconds(5)).until(() -> deltas.size() >= 3);
        cancel.cancel("user pressed stop");
        assertThatThrownBy(() -> run.get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(CancelledException.class)
                .hasMessage("user pressed stop");
        assertThat(awaitDisconnect.test(Duration.ofSeconds(5))).isTrue();
        assertThat(deltas.size()).isLessThan(200);
    }
}
