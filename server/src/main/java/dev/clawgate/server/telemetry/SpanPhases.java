package dev.clawgate.server.telemetry;

import dev.clawgate.core.internal.trace.Phase;
import dev.clawgate.core.internal.trace.PhaseListener;
import dev.clawgate.core.internal.trace.PhaseScope;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import org.slf4j.MDC;

/**
 * One turn's phases as child spans of its {@code turn} span (SPEC OP-9). A phase begun inside another on the same
 * thread (a send by a tool) is that phase's child; on a thread the turn handed work to (a streamed block) it is the
 * turn's. While a phase runs, its span id is the log lines' {@code span_id}.
 */
final class SpanPhases implements PhaseListener {
    private final Tracer tracer;
    private final Context turn;
    private final String traceId;

    SpanPhases(Tracer tracer, Context turn, String traceId) {
        this.tracer = tracer;
        this.turn = turn;
        this.traceId = traceId;
    }

    @Override
    public PhaseScope begin(Phase phase, String name) {
        Context current = Context.current();
        boolean inTurn =
                traceId.equals(Span.fromContext(current).getSpanContext().getTraceId());
        Context parent = inTurn ? current : turn;
        Span span = tracer.spanBuilder(phase.wireName())
                .setParent(parent)
                .setSpanKind(phase == Phase.MODEL_CALL || phase == Phase.SEND ? SpanKind.CLIENT : SpanKind.INTERNAL)
                .setAttribute("clawgate.phase", phase.wireName())
                .setAttribute("clawgate.target", name == null ? "" : name)
                .startSpan();
        Scope scope = parent.with(span).makeCurrent();
        String traceBefore = MDC.get(TracedTurns.TRACE_ID);
        String spanBefore = MDC.get(TracedTurns.SPAN_ID);
        MDC.put(TracedTurns.TRACE_ID, traceId);
        MDC.put(TracedTurns.SPAN_ID, span.getSpanContext().getSpanId());
        return new PhaseScope() {
            @Override
            public void attribute(String key, String value) {
                span.setAttribute("clawgate." + key, value);
            }

            @Override
            public void failed(String reason) {
                span.setStatus(StatusCode.ERROR, reason);
            }

            @Override
            public void close() {
                scope.close();
                restore(TracedTurns.TRACE_ID, traceBefore);
                restore(TracedTurns.SPAN_ID, spanBefore);
                span.end();
            }
        };
    }

    private static void restore(String key, String value) {
        if (value == null) MDC.remove(key);
        else MDC.put(key, value);
    }
}
