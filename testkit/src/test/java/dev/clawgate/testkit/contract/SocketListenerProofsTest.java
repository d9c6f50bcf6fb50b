package dev.clawgate.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.testkit.slack.FakeSlack;
import dev.clawgate.testkit.slack.SlackChannel;
import dev.clawgate.testkit.slack.SlackUser;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The socket listener proofs against Slack's Socket Mode (a WebSocket gateway) on the fake: a listener that
 * acknowledges an envelope only once the inbox took its message and reconnects by itself passes; one that acknowledges
 * first and never reconnects fails (SPEC CH-0, IN-4).
 */
class SocketListenerProofsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private FakeSlack slack;
    private SlackChannel general;
    private SlackUser alice;

    @BeforeEach
    void start() {
        slack = FakeSlack.start("clawbot");
        slack.useSocketMode();
        slack.eventAckTimeout(Duration.ofMillis(300));
        general = slack.channel("general");
        alice = slack.user("alice");
    }

    @AfterEach
    void stop() {
        slack.close();
    }

    /** A Socket Mode listener in its simplest correct form, or (reconnects = false) one that gives up after a drop. */
    private final class SocketModeListener implements Channel {
        private final boolean reconnects;
        private final HttpClient http = HttpClient.newHttpClient();
        private final AtomicReference<WebSocket> socket = new AtomicReference<>();
        private volatile boolean running;
        private Thread loop;

        SocketModeListener(boolean reconnects) {
            this.reconnects = reconnects;
        }

        @Override
        public String name() {
            return "slack-test";
        }

        @Override
        public void start(InboundSink sink) {
            running = true;
            loop = Thread.ofVirtual().start(() -> {
                boolean first = true;
                while (running && (first || reconnects)) {
                    first = false;
                    try {
                        CompletableFuture<Void> closed = new CompletableFuture<>();
                        socket.set(http.newWebSocketBuilder()
                                .buildAsync(URI.create(openUrl()), new Frames(sink, closed))
                                .join());
                        closed.join();
                    } catch (RuntimeException | IOException e) {
                        if (!running) return;
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
        }

        private String openUrl() throws IOException, InterruptedException {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(slack.apiBase() + "/apps.connections.open"))
                            .header("Authorization", "Bearer " + slack.appToken())
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return JSON.readTree(r.body()).path("url").asText();
        }

        @Override
        public void stop() {
            running = false;
            WebSocket ws = socket.get();
            if (ws != null) ws.abort();
            if (loop != null) {
                loop.interrupt();
                try {
                    loop.join(Duration.ofSeconds(5));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public MessageAdapter messageAdapter() {
            return (m, cancel) -> MessageReceipt.of(null);
        }
    }

    /** Envelopes in; each acknowledged only after the inbox took its message (SPEC IN-4). */
    private static final class Frames implements WebSocket.Listener {
        private final InboundSink sink;
        private final CompletableFuture<Void> closed;
        private final StringBuilder text = new StringBuilder();

        Frames(InboundSink sink, CompletableFuture<Void> closed) {
            this.sink = sink;
            this.closed = closed;
        }

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            ws.request(1);
            if (!last) return null;
            String frame = text.toString();
            text.setLength(0);
            try {
                JsonNode n = JSON.readTree(frame);
                if ("events_api".equals(n.path("type").asText())) {
                    JsonNode e = n.path("payload").path("event");
                    if ("message".equals(e.path("type").asText())) {
                        sink.accept(new InboundMessage(
                                e.path("ts").asText(),
                                "slack-test",
                                null,
                                e.path("user").asText(),
                                null,
                                e.path("channel").asText(),
                                null,
                                null,
                                ChatType.GROUP,
                                true,
                                Instant.now(),
                                e.path("text").asText(),
                                List.of(),
                                null));
                    }
                    ws.sendText(
                            JSON.createObjectNode()
                                    .put("envelope_id", n.path("envelope_id").asText())
                                    .toString(),
                            true);
                } else if ("disconnect".equals(n.path("type").asText())) {
                    ws.abort();
                    closed.complete(null);
                }
            } catch (IOException bad) {
                throw new IllegalStateException("not JSON: " + frame, bad);
            }
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int status, String reason) {
            closed.complete(null);
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            closed.complete(null);
        }
    }

    private SocketListenerProofs.SocketPlatform platform() {
        return new SocketListenerProofs.SocketPlatform() {
            @Override
            public void push(String text) {
                slack.post(general, alice, text);
            }

            @Override
            public void dropConnections() {
                slack.dropSockets();
            }

            @Override
            public int connectionsOpened() {
                return slack.calls("apps.connections.open").size();
            }
        };
    }

    @Test
    void aListenerThatReconnectsAndAcknowledgesAfterTheInboxPassesEveryProof() throws Throwable {
        RecordingInbox inbox = new RecordingInbox();
        SocketListenerProofs.of(new SocketModeListener(true), platform(), inbox, Duration.ofSeconds(15))
                .proveAll();
        assertThat(inbox.texts()).hasSize(11);
        assertThat(slack.unacknowledgedEnvelopes()).isZero();
    }

    @Test
    void aListenerThatDoesNotReconnectFailsTheDropProof() {
        RecordingInbox inbox = new RecordingInbox();
        assertThatThrownBy(() -> SocketListenerProofs.of(
                                new SocketModeListener(false), platform(), inbox, Duration.ofSeconds(3))
                        .proveAll())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("reconnects after the drop");
    }
}
