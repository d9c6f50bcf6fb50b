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
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import java.io.ByteArrayOutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connection-bound channels on the adapter contract (SPEC OUT-4, OUT-6): durability disabled,
 * and each declared capability proven over the channel's real path: the API over HTTP, the
 * terminal over its output stream.
 */
class ConnectionBoundProofsTest {
    /** Rewrites "secret" so the proof of messageSendingHooks sees the hook's text at the platform. */
    private static final SendingHook MASK = (text, target) -> new SendingHook.Send(text.replace("secret", "******"));

    @TempDir
    Path dir;
    private final FakeOpenAiServer model = FakeOpenAiServer.start();
    private Gateway gateway;

    @AfterEach
    void stop() {
        if (gateway != null) gateway.close();
        model.close();
    }

    @TestFactory
    Stream<DynamicTest> theApiChannel() throws Exception {
        model.echoLastUserMessage();
        gateway = Gateway.start(GatewayHarness.config(dir, model.baseUrl(), null), Gateway.Options.server().withSendingHook(MASK));
        var adapter = gateway.channel("api").orElseThrow().messageAdapter();
        assertThat(adapter.durability()).isEqualTo(Durability.DISABLED);
        List<PlatformCall> answers = new CopyOnWriteArrayList<>();
        int port = gateway.httpPort();
        return CapabilityProofs.of(adapter.capabilities(), gateway.channel("api").orElseThrow().ackPolicies(), () -> answers)
                .prove(Capability.TEXT, p -> {
                    GatewayHarness.Reply r = GatewayHarness.chat(port, "proof-text", "hello there", null);
                    answers.add(new PlatformCall("POST /v1/chat/completions", r.raw(), Map.of("status", r.status() + "")));
                    p.verify(calls -> assertThat(calls.get(0).body()).contains("hello there"));
                })
                .prove(dev.clawgate.core.channel.AckPolicy.MANUAL, p -> {
                    // the API acknowledges a request with its HTTP response, once the turn has its reply
                    GatewayHarness.Reply r = GatewayHarness.chat(port, "proof-ack", "ack me", null);
                    answers.add(new PlatformCall("POST /v1/chat/completions", r.raw(), Map.of("status", r.status() + "")));
                    p.verify(calls -> {
                        assertThat(calls.get(0).headers()).containsEntry("status", "200");
                        assertThat(calls.get(0).body()).contains("ack me");
                    });
                })
                .prove(Capability.MESSAGE_SENDING_HOOKS, p -> {
                    GatewayHarness.Reply r = GatewayHarness.chat(port, "proof-hooks", "the secret word", null);
                    answers.add(new PlatformCall("POST /v1/chat/completions", r.raw(), Map.of("status", r.status() + "")));
                    p.verify(calls -> assertThat(calls.get(0).body()).contains("the ****** word").doesNotContain("secret"));
                })
                .tests();
    }

    @TestFactory
    Stream<DynamicTest> theTerminalChannel() throws Exception {
        model.echoLastUserMessage();
        PipedOutputStream keyboard = new PipedOutputStream();
        ByteArrayOutputStream screen = new ByteArrayOutputStream();
        TerminalChannel terminal = new TerminalChannel(new PipedInputStream(keyboard), new PrintStream(screen, true, StandardCharsets.UTF_8),
                false, "tester");
        gateway = Gateway.start(GatewayHarness.config(dir, model.baseUrl(), null), Gateway.Options.with(terminal).withSendingHook(MASK));
        var adapter = terminal.messageAdapter();
        assertThat(adapter.durability()).isEqualTo(Durability.DISABLED);
        // each printed line is one call of the terminal "platform"
        PlatformCallLog printed = () -> screen.toString(StandardCharsets.UTF_8).lines()
                .map(l -> new PlatformCall("print", l, Map.of())).toList();
        return CapabilityProofs.of(adapter.capabilities(), terminal.ackPolicies(), printed)
                .prove(Capability.TEXT, p -> {
                    type(keyboard, "good morning");
                    await().atMost(Duration.ofSeconds(10)).until(() -> !p.calls().isEmpty());
                    p.verify(calls -> assertThat(calls).extracting(PlatformCall::body).containsExactly("good morning"));
                })
                .prove(Capability.MESSAGE_SENDING_HOOKS, p -> {
                    type(keyboard, "a secret plan");
                    await().atMost(Duration.ofSeconds(10)).until(() -> !p.calls().isEmpty());
                    p.verify(calls -> assertThat(calls).extracting(PlatformCall::body).containsExactly("a ****** plan"));
                })
                .tests();
    }

    private static void type(PipedOutputStream keyboard, String line) throws java.io.IOException {
        keyboard.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        keyboard.flush();
    }
}
