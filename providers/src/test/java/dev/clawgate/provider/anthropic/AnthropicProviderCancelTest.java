package dev.clawgate.provider.anthropic;

import static dev.clawgate.provider.testing.CancelScenarios.cancelDuringSlowStream;
import static dev.clawgate.provider.testing.CancelScenarios.chatAsync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.provider.ChatRequest;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.testkit.anthropic.FakeAnthropicServer;
import dev.clawgate.testkit.anthropic.Reply;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** A cancelled run aborts its Messages request, not just stops listening to it (SPEC AG-2). */
class AnthropicProviderCancelTest {
    @AutoClose
    private final FakeAnthropicServer server = FakeAnthropicServer.start();

    @AutoClose
    private final AnthropicProvider provider =
            new AnthropicProvider(AnthropicProviderTest.settings(server, null, null));

    private static ChatRequest streamed() {
        return new ChatRequest("claude-test", List.of(ChatMessage.user("tell me a long story")), List.of(), true, null);
    }

    @Test
    void cancellingDuringASlowStreamAbortsTheRequestAndTheServerSeesTheDisconnect() {
        // SPEC AG-2
        server.enqueue(Reply.text("word ".repeat(200)).delayPerChunk(Duration.ofMillis(25)));
        cancelDuringSlowStream(provider, streamed(), server::awaitClientDisconnect);
    }

    @Test
    void anAlreadyCancelledRunSendsNothing() {
        // SPEC AG-2
        CancelToken cancel = new CancelToken();
        cancel.cancel("gone");
        assertThatThrownBy(() -> chatAsync(provider, streamed(), StreamObserver.NONE, cancel)
                        .get(5, TimeUnit.SECONDS))
                .cause()
                .isInstanceOf(CancelledException.class)
                .hasMessage("gone");
        assertThat(server.requests()).isEmpty();
    }
}
