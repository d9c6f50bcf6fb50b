package dev.clawgate.server.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.testing.ManualScheduler;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The web chat's live preview on a manual clock (SPEC OUT-9, RP-4): the frames an open page gets are the boundary. The
 * preview's sends run on the test's thread, so each frame is there when the call returns.
 */
class WebChatPreviewTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CLIENT = "client-preview-01";

    private final ManualScheduler clock = new ManualScheduler();
    private final AtomicReference<Map<String, String>> options =
            new AtomicReference<>(Map.of("preview_interval_ms", "1000"));
    private final List<JsonNode> frames = new CopyOnWriteArrayList<>();
    private WebChatChannel channel;
    private MessageAdapter adapter;

    @BeforeEach
    void open() {
        channel = new WebChatChannel(m -> List.of(), options::get, clock, Runnable::run);
        channel.opened(new WebChatChannel.Connection() {
            @Override
            public String clientId() {
                return CLIENT;
            }

            @Override
            public boolean send(String frame) {
                try {
                    frames.add(JSON.readTree(frame));
                } catch (java.io.IOException e) {
                    throw new AssertionError(e);
                }
                return true;
            }

            @Override
            public void close(int code, String reason) {}
        });
        adapter = channel.messageAdapter();
    }

    private static OutboundTarget target(String id) {
        return new OutboundTarget(WebChatChannel.NAME, "default", CLIENT, null, id);
    }

    private List<String> types() {
        return frames.stream().map(f -> f.path("type").asText()).toList();
    }

    @Test
    void twentyDeltasInsideOneIntervalMakeOneEditAndTheNextComesOnlyAfterTheNextInterval() {
        // SPEC OUT-9: the draft at once, then at most one edit per interval; without the limit each delta would be an
        // edit
        ReplyStream s = adapter.openStream(target("m1"));
        assertThat(types()).containsExactly("draft");
        assertThat(frames.getFirst().path("text").asText()).isEmpty();
        for (int i = 0; i < 20; i++) s.delta("w" + i + " ");
        clock.advance(999);
        assertThat(types()).containsExactly("draft");
        clock.advance(1);
        assertThat(types()).containsExactly("draft", "edit");
        assertThat(frames.get(1).path("text").asText()).startsWith("w0 w1 ").endsWith("w19 ");
        s.delta("more");
        clock.advance(999);
        assertThat(types()).containsExactly("draft", "edit");
        clock.advance(1);
        assertThat(types()).containsExactly("draft", "edit", "edit");
        assertThat(frames.get(2).path("text").asText()).endsWith("w19 more");
        assertThat(frames)
                .extracting(f -> f.path("messageId").asText())
                .containsOnly(frames.getFirst().path("messageId").asText());
    }

    @Test
    void reasoningRidesInTheDraftFramesAndTheFinalReplacesTheDraftWithoutIt() throws Exception {
        // SPEC RP-4 stream: reasoning streamed into the draft preview; OUT-9 finalEdit
        OutboundTarget t = target("m2");
        ReplyStream s = adapter.openStream(t);
        s.reasoning("Weigh ");
        s.reasoning("both options.");
        clock.advance(1000);
        s.delta("Option B.");
        clock.advance(1000);
        assertThat(types()).containsExactly("draft", "edit", "edit");
        assertThat(frames.get(1).path("reasoning").asText()).isEqualTo("Weigh both options.");
        assertThat(frames.get(1).path("text").asText()).isEmpty();
        assertThat(frames.get(2).path("reasoning").asText()).isEqualTo("Weigh both options.");
        assertThat(frames.get(2).path("text").asText()).isEqualTo("Option B.");
        assertThat(frames.getFirst().has("reasoning")).isFalse();
        adapter.send(
                new OutboundMessage(t, "Option B, because it is cheaper.", OutboundMessage.Kind.FINAL, 1),
                CancelToken.none());
        JsonNode fin = frames.getLast();
        assertThat(fin.path("type").asText()).isEqualTo("final");
        assertThat(fin.path("messageId").asText())
                .isEqualTo(frames.getFirst().path("messageId").asText());
        assertThat(fin.has("reasoning")).isFalse();
        clock.advance(10_000);
        assertThat(types()).containsExactly("draft", "edit", "edit", "final");
    }

    @Test
    void aCancelledRunEndsItsDraftAndNoEditFollows() {
        // SPEC OUT-9 discardPending, DI-5
        OutboundTarget t = target("m3");
        ReplyStream s = adapter.openStream(t);
        s.delta("partial");
        adapter.turnEnded(t, 1, TurnOutcome.CANCELLED);
        clock.advance(10_000);
        assertThat(types()).containsExactly("draft", "done");
        assertThat(frames.getLast().path("outcome").asText()).isEqualTo("cancelled");
        assertThat(clock.live()).isZero();
    }

    @Test
    void theTextLimitAndPreviewIntervalAreConfigurableAndChecked() {
        // SPEC OUT-1: every limit is configurable; a bad value is a clear error naming the key
        assertThat(adapter.textLimit()).isEqualTo(WebChatChannel.TEXT_LIMIT);
        options.set(Map.of("text_limit", "500"));
        assertThat(adapter.textLimit()).isEqualTo(500);
        assertThat(adapter.chunkLimits().maxUnits()).isEqualTo(500);
        options.set(Map.of("text_limit", "2"));
        assertThat(adapter.textLimit())
                .as("a reload that broke the key keeps the default")
                .isEqualTo(WebChatChannel.TEXT_LIMIT);
        assertThatThrownBy(() -> WebChatChannel.textLimit(Map.of("text_limit", "2")))
                .hasMessageContaining("channels.webchat.text_limit");
        assertThatThrownBy(() -> WebChatChannel.textLimit(Map.of("text_limit", "lots")))
                .hasMessageContaining("must be an integer");
        assertThatThrownBy(() -> WebChatChannel.previewInterval(Map.of("preview_interval_ms", "-1")))
                .hasMessageContaining("channels.webchat.preview_interval_ms");
        assertThatThrownBy(() ->
                        new WebChatChannel(m -> List.of(), () -> Map.of("text_limit", "1000000"), clock, Runnable::run))
                .hasMessageContaining("between");
        assertThat(WebChatChannel.previewInterval(Map.of())).isEqualTo(WebChatChannel.DEFAULT_PREVIEW_INTERVAL);
    }
}
