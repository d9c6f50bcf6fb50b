package dev.clawgate.server.telemetry;

import dev.clawgate.core.internal.run.TurnRunner;
import dev.clawgate.core.internal.trace.Phase;
import dev.clawgate.core.internal.trace.TurnPhases;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.time.Instant;
import java.util.stream.Collectors;
import org.slf4j.MDC;

/**
 * Each turn as one trace (SPEC OP-9): a {@code turn} span from the message's arrival to the run's end, its
 * {@code inbound} (the platform's time of the message to its inbox commit) and {@code queue_wait} (the commit to the
 * run's start) spans, and the phases the stages report while it runs ({@link SpanPhases}). The trace and span ids go
 * into the log lines' MDC ({@code trace_id}, {@code span_id}), so a JSON log line leads to its trace.
 */
final class TracedTurns implements TurnRunner {
    static final String TRACE_ID = "trace_id";
    static final String SPAN_ID = "span_id";

    private final Tracer tracer;
    private final TurnRunner runner;

    TracedTurns(Tracer tracer, TurnRunner runner) {
        this.tracer = tracer;
        this.runner = runner;
    }

    @Override
    public void run(RunHandle handle) throws Exception {
        Instant started = Instant.now();
        Instant recorded = handle.records().stream()
                .map(InboxRecord::recordedAt)
                .filter(t -> t != null)
                .min(Instant::compareTo)
                .orElse(started);
        if (recorded.isAfter(started)) recorded = started;
        Instant received = handle.records().stream()
                .map(r -> r.message().timestamp())
                .min(Instant::compareTo)
                .orElse(recorded);
        // a platform's clock may run ahead of ours: the inbound phase never starts after its commit
        if (received.isAfter(recorded)) received = recorded;
        InboxRecord current = handle.record();
        Span turn = tracer.spanBuilder("turn")
                .setNoParent()
                .setSpanKind(SpanKind.SERVER)
                .setStartTimestamp(received)
                .setAttribute("clawgate.turn_id", current.id())
                .setAttribute("clawgate.channel", current.message().channel())
                .setAttribute("clawgate.session_key", current.session().display())
                .setAttribute(
                        "clawgate.inbox_ids",
                        handle.records().stream()
                                .map(r -> Long.toString(r.id()))
                                .collect(Collectors.joining(",")))
                .startSpan();
        Context context = Context.root().with(turn);
        ended(context, Phase.INBOUND, received, recorded);
        ended(context, Phase.QUEUE_WAIT, recorded, started);
        String traceId = turn.getSpanContext().getTraceId();
        try (Scope scope = context.makeCurrent()) {
            MDC.put(TRACE_ID, traceId);
            MDC.put(SPAN_ID, turn.getSpanContext().getSpanId());
            TurnPhases.runWith(new SpanPhases(tracer, context, traceId), () -> runner.run(handle));
        } catch (Exception | Error e) {
            turn.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
            throw e;
        } finally {
            MDC.remove(TRACE_ID);
            MDC.remove(SPAN_ID);
            turn.end();
        }
    }

    /** A phase that ended before the run started, with its own times. */
    private void ended(Context parent, Phase phase, Instant start, Instant end) {
        tracer.spanBuilder(phase.wireName())
                .setParent(parent)
                .setStartTimestamp(start)
                .setAttribute("clawgate.phase", phase.wireName())
                .startSpan()
                .end(end);
    }
}
