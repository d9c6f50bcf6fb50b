package dev.clawgate.provider.openai;

import static dev.clawgate.provider.testing.CancelScenarios.cancelDuringSlowStream;
import static dev.clawgate.provider.testing.CancelScenarios.chatAsync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.provider.ChatRequest;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** A cancelled run aborts its model request, not just stops listening to it (SPEC AG-2). */
class OpenAiProviderCancelTest {
    @AutoClose
    private final FakeOpenAiServer server = FakeOpenAiServer.start();

    @AutoClose
    private final OpenAiProvider provider = new OpenAiProvider(OpenAiProviderTest.settings(server, null));

    private static ChatRequest streamed() {
        return new ChatRequest("gpt-test", List.of(ChatMessage.user("tell me a long story")), List.of(), true, null);
    }

    @Test
    void cancellingDuringASlowStreamAbortsTheRequestAndTheServerSeesTheDisconnect() {
        // SPEC AG-2
        server.enqueue(Reply.text("word ".repeat(200)).delayPerChunk(Duration.ofMillis(25)));
        cancelDuringSlowStream(provider, streamed(), server::awaitClientDisconnect);
    }

    @Test
    void cancellingBeforeTheFirstByteAbortsTheRequest() throws Exception {
        // SPEC AG-2
        // many small writes after the delay: the first write to a closed socket can still succeed, a later one cannot
        server.enqueue(Reply.text("late answer ".repeat(50))
                .streamedInChunks(50)
                .delayPerChunk(Duration.ofMillis(20))
                .delayBefore(Duration.ofMillis(1500)));
        CancelToken cancel = new CancelToken();
        CompletableFuture<ChatResponse> run = chatAsync(provider, streamed(), StreamObserver.NONE, cancel);
        server.awaitRequests(1, Duration.ofSeconds(5));
        cancel.cancel("stop");
        assertThatThrownBy(() -> run.get(2, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(CancelledException.class);
        // the server only learns of it when it first writes, after its delay
        assertThat(server.awaitClientDisconnect(Duration.ofSeconds(5))).isTrue();
    }

    @Test
    void anAlreadyCancelledRunSendsNothing() {
        // SPEC AG-2
        CancelToken cancel = new CancelToken();
        cancel.cancel("gone");
        assertThatThrownBy(() -> provider.chat(streamed(), StreamObserver.NONE, cancel))
                .isInstanceOf(CancelledException.class)
                .hasMessage("gone");
        assertThatThrownBy(() -> provider.listModels(cancel)).isInstanceOf(CancelledException.class);
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void aFinishedRunLeavesNoCancelListenerBehind() throws Exception {
        // SPEC AG-2: cancelling after the answer must not disturb anything
        server.enqueue(Reply.text("done"));
        CancelToken cancel = new CancelToken();
        assertThat(provider.chat(streamed(), StreamObserver.NONE, cancel).text())
                .isEqualTo("done");
        cancel.cancel("late");
        assertThat(server.awaitClientDisconnect(Duration.ofMillis(200))).isFalse();
    }
}
