package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.hook.SendingHook;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.Durability;
import dev.clawgate.server.channel.TerminalChannel;
import dev.clawgate.testkit.contract.CapabilityProofs;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.contract.PlatformCallLog;
import java.io.ByteArrayOutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The connection-bound channels on the adapter contract (SPEC OUT-4, OUT-6): durability disabled, and each declared
 * capability proven over the channel's real path: the API over HTTP, the terminal over its output stream. The
 * "platform" of each is the other end of its wire, and the harness's call log is what that end received: the HTTP
 * client's responses as they arrived, the lines the terminal printed; a proof never writes the log itself.
 */
class ConnectionBoundProofsTest extends GatewayFixture {
    /** Rewrites "secret" so the proof of messageSendingHooks sees the hook's text at the platform. */
    private static final SendingHook MASK = (text, target) -> new SendingHook.Send(text.replace("secret", "******"));

    @TestFactory
    Stream<DynamicTest> theApiChannel() throws Exception {
        model.echoLastUserMessage();
        start(config(), GatewayOptions.server().withSendingHook(MASK));
        var adapter = gateway.channel("api").orElseThrow().messageAdapter();
        assertThat(adapter.durability()).isEqualTo(Durability.DISABLED);
        ApiClient client = new ApiClient(gateway.httpPort());
        return CapabilityProofs.of(
                        adapter.capabilities(),
                        gateway.channel("api").orElseThrow().ackPolicies(),
                        client)
                .prove(Capability.TEXT, p -> {
                    client.chat("proof-text", "hello there");
                    p.verify(calls -> assertThat(content(calls.get(0))).isEqualTo("hello there"));
                })
                .prove(dev.clawgate.core.channel.AckPolicy.MANUAL, p -> {
                    // the API acknowledges a request with its HTTP response, once the turn has its reply
                    client.chat("proof-ack", "ack me");
                    p.verify(calls -> {
                        assertThat(calls).singleElement().satisfies(c -> {
                            assertThat(c.headers())
                                    .containsEntry("status", "200")
                                    .containsEntry("content-type", "application/json");
                            assertThat(c.body()).contains("ack me");
                        });
                    });
                })
                .prove(Capability.MESSAGE_SENDING_HOOKS, p -> {
                    client.chat("proof-hooks", "the secret word");
                    p.verify(calls -> assertThat(calls.get(0).body())
                            .contains("the ****** word")
                            .doesNotContain("secret"));
                })
                .tests();
    }

    @TestFactory
    Stream<DynamicTest> theTerminalChannel() throws Exception {
        model.echoLastUserMessage();
        PipedOutputStream keyboard = new PipedOutputStream();
        ByteArrayOutputStream screen = new ByteArrayOutputStream();
        TerminalChannel terminal = new TerminalChannel(
                new PipedInputStream(keyboard), new PrintStream(screen, true, StandardCharsets.UTF_8), false, "tester");
        start(config(), GatewayOptions.with(terminal).withSendingHook(MASK));
        var adapter = terminal.messageAdapter();
        assertThat(adapter.durability()).isEqualTo(Durability.DISABLED);
        // each printed line is one call of the terminal "platform"
        PlatformCallLog printed = () -> screen.toString(StandardCharsets.UTF_8)
                .lines()
                .map(l -> new PlatformCall("print", l, Map.of()))
                .toList();
        return CapabilityProofs.of(adapter.capabilities(), terminal.ackPolicies(), printed)
                .prove(Capability.TEXT, p -> {
                    type(keyboard, "good morning");
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> !p.calls().isEmpty());
                    p.verify(calls ->
                            assertThat(calls).extracting(PlatformCall::body).containsExactly("good morning"));
                })
                .prove(Capability.MESSAGE_SENDING_HOOKS, p -> {
                    type(keyboard, "a secret plan");
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> !p.calls().isEmpty());
                    p.verify(calls ->
                            assertThat(calls).extracting(PlatformCall::body).containsExactly("a ****** plan"));
                })
                .tests();
    }

    /**
     * The API's other end: a real HTTP client whose log is every response it received, recorded as it arrived (status,
     * content type, body). A request the gateway never answered leaves no entry.
     */
    private static final class ApiClient implements PlatformCallLog {
        private final int port;
        private final List<PlatformCall> received = new CopyOnWriteArrayList<>();

        ApiClient(int port) {
            this.port = port;
        }

        void chat(String session, String text) throws java.io.IOException, InterruptedException {
            String body = GatewayHarness.JSON
                    .createObjectNode()
                    .put("model", "clawgate")
                    .put("stream", false)
                    .set(
                            "messages",
                            GatewayHarness.JSON
                                    .createArrayNode()
                                    .add(GatewayHarness.JSON
                                            .createObjectNode()
                                            .put("role", "user")
                                            .put("content", text)))
                    .toString();
            java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(
                            java.net.URI.create("http://127.0.0.1:" + port + "/v1/chat/completions"))
                    .timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/json")
                    .header("X-Clawgate-Session", session)
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body))
                    .build();
            java.net.http.HttpResponse<String> r =
                    GatewayHarness.HTTP.send(request, java.net.http.HttpResponse.BodyHandlers.ofString());
            String type = r.headers()
                    .firstValue("content-type")
                    .map(t -> t.split(";")[0].strip())
                    .orElse("");
            received.add(new PlatformCall(
                    "POST /v1/chat/completions",
                    r.body(),
                    Map.of("status", Integer.toString(r.statusCode()), "content-type", type)));
        }

        @Override
        public List<PlatformCall> calls() {
            return List.copyOf(received);
        }
    }

    /** The assistant's text in a chat-completions response the client received. */
    private static String content(PlatformCall response) {
        try {
            return GatewayHarness.JSON
                    .readTree(response.body())
                    .path("choices")
                    .path(0)
                    .path("message")
                    .path("content")
                    .asText();
        } catch (java.io.IOException e) {
            throw new AssertionError("the client received no JSON: " + response.body(), e);
        }
    }

    private static void type(PipedOutputStream keyboard, String line) throws java.io.IOException {
        keyboard.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        keyboard.flush();
    }
}
