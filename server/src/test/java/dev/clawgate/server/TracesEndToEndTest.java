package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.hook.InboundHook;
import dev.clawgate.core.internal.trace.PhaseListener;
import dev.clawgate.core.internal.trace.TurnPhases;
import dev.clawgate.server.logging.LogFormat;
import dev.clawgate.server.logging.StderrLogging;
import dev.clawgate.server.telemetry.Telemetry;
import dev.clawgate.server.telemetry.TelemetrySettings;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.otlp.FakeOtlpCollector;
import dev.clawgate.testkit.otlp.ReceivedSpan;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A turn through the real gateway (API channel, fake OpenAI model calling a tool) traced to an OTLP/HTTP collector on
 * loopback: the phases arrive as spans of one trace, and the JSON log lines carry its id (SPEC OP-9, OP-5).
 */
class TracesEndToEndTest extends GatewayFixture {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final PrintStream stderr = System.err;
    private final FakeOtlpCollector collector = FakeOtlpCollector.start();

    @AfterEach
    void stopCollector() {
        System.setErr(stderr);
        StderrLogging.use(LogFormat.TEXT);
        collector.close();
    }

    @Test
    void oneTurnArrivesAtTheCollectorAsOneTraceWithItsPhasesAsSpans() throws Exception {
        // SPEC OP-9
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        StderrLogging.use(LogFormat.JSON);
        model.enqueue(Reply.toolCalls(Reply.call("file_list", "{\"path\":\".\"}")));
        model.enqueue(Reply.text("Nothing there yet."));
        Telemetry telemetry =
                Telemetry.start(new TelemetrySettings(URI.create(collector.baseUrl()), null), "9.9.9-test");
        int port;
        try {
            port = start(config(), GatewayOptions.server().withTelemetry(telemetry))
                    .httpPort();
            GatewayHarness.Reply r = GatewayHarness.chat(port, "ann", "what files do I have?", null);
            assertThat(r.content()).isEqualTo("Nothing there yet.");

            // exported in the background, within the batch delay: no close needed to see them
            await().atMost(Duration.ofSeconds(20))
                    .until(() ->
                            collector.spans().stream().anyMatch(s -> s.name().equals("turn")));
        } finally {
            closeGateway();
            telemetry.close();
            System.setErr(stderr);
        }
        assertThat(collector.rejected()).isEmpty();
        ReceivedSpan turn = collector.spans().stream()
                .filter(s -> s.name().equals("turn"))
                .findFirst()
                .orElseThrow();
        assertThat(turn.parentSpanId()).isEmpty();
        assertThat(turn.service()).isEqualTo("clawgate");
        assertThat(turn.attribute("clawgate.channel")).isEqualTo("api");
        assertThat(turn.error()).isFalse();

        List<ReceivedSpan> trace = collector.trace(turn.traceId());
        assertThat(trace)
                .extracting(ReceivedSpan::name)
                .contains("inbound", "queue_wait", "prompt", "tool_call", "send")
                .filteredOn("model_call"::equals)
                .hasSize(2);
        // every phase is a child of the turn, and lies within it
        assertThat(trace).filteredOn(s -> !s.name().equals("turn")).allSatisfy(s -> {
            assertThat(s.parentSpanId()).isEqualTo(turn.spanId());
            assertThat(s.startNanos()).isBetween(turn.startNanos(), turn.endNanos());
            assertThat(s.endNanos()).isBetween(s.startNanos(), turn.endNanos());
        });
        ReceivedSpan tool = one(trace, "tool_call");
        assertThat(tool.attribute("clawgate.target")).isEqualTo("file_list");
        assertThat(tool.error()).isFalse();
        List<ReceivedSpan> calls =
                trace.stream().filter(s -> s.name().equals("model_call")).toList();
        assertThat(calls).allSatisfy(c -> {
            assertThat(c.attribute("clawgate.target")).isEqualTo("fake/gpt-test");
            assertThat(c.attribute("clawgate.outcome")).isEqualTo("ok");
        });
        // the order of a turn: queue, prompt, model, tool, model, send
        assertThat(one(trace, "queue_wait").endNanos())
                .isLessThanOrEqualTo(one(trace, "prompt").startNanos());
        assertThat(calls.get(0).endNanos()).isLessThanOrEqualTo(tool.startNanos());
        assertThat(tool.endNanos()).isLessThanOrEqualTo(calls.get(1).startNanos());
        assertThat(calls.get(1).endNanos())
                .isLessThanOrEqualTo(one(trace, "send").startNanos());
        assertThat(one(trace, "send").attribute("clawgate.kind")).isEqualTo("final");

        // SPEC OP-5: the turn's log lines name the trace, and the span they were logged in
        List<JsonNode> lines = new ArrayList<>();
        for (String line : captured.toString(StandardCharsets.UTF_8).split("\n")) {
            // the gateway's own lines are JSON; a native library may print a plain line of its own
            if (line.startsWith("{")) lines.add(JSON.readTree(line));
        }
        JsonNode done = lines.stream()
                .filter(l -> l.path("formattedMessage").asText().contains("outcome="))
                .findFirst()
                .orElseThrow();
        assertThat(done.path("mdc").path("trace_id").asText()).isEqualTo(turn.traceId());
        assertThat(done.path("mdc").path("span_id").asText()).isEqualTo(turn.spanId());
    }

    @Test
    void withoutAnEndpointTurnsRunWithNoPhaseListenerAndNoWrapper() throws Exception {
        // SPEC OP-9: off and free: the runner is the gateway's own, a turn's thread has no phase listener
        assertThat(Telemetry.start(TelemetrySettings.OFF, "x")).isSameAs(Telemetry.OFF);
        dev.clawgate.core.internal.run.TurnRunner runner = h -> {};
        assertThat(Telemetry.OFF.around(runner)).isSameAs(runner);
        AtomicReference<PhaseListener> seen = new AtomicReference<>();
        InboundHook spy = m -> {
            seen.set(TurnPhases.current());
            return new InboundHook.Continue(m);
        };
        model.enqueue(Reply.text("Hello."));
        int port = start(config(), GatewayOptions.server().withInboundHook(spy)).httpPort();
        assertThat(GatewayHarness.chat(port, "bob", "hi", null).content()).isEqualTo("Hello.");
        assertThat(seen.get()).isSameAs(PhaseListener.NONE);
        closeGateway();

        // the same turn with an endpoint set runs with a listener: the check above can fail
        Telemetry on = Telemetry.start(new TelemetrySettings(URI.create(collector.baseUrl()), null), "x");
        try {
            model.enqueue(Reply.text("Hello again."));
            port = start(config(), GatewayOptions.server().withInboundHook(spy).withTelemetry(on))
                    .httpPort();
            assertThat(GatewayHarness.chat(port, "bob", "hi", null).content()).isEqualTo("Hello again.");
            assertThat(seen.get()).isNotSameAs(PhaseListener.NONE);
        } finally {
            closeGateway();
            on.close();
        }
    }

    private static ReceivedSpan one(List<ReceivedSpan> trace, String name) {
        List<ReceivedSpan> named =
                trace.stream().filter(s -> s.name().equals(name)).toList();
        assertThat(named).as(name).hasSize(1);
        return named.getFirst();
    }
}
