package dev.clawgate.server.telemetry;

import dev.clawgate.core.internal.run.TurnRunner;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The OpenTelemetry SDK with one OTLP/HTTP (protobuf) span exporter, sent in batches off the turns' threads (SPEC OP-9,
 * OP-7: the queue is bounded; spans past it are dropped, never waited for). Not registered as the global OpenTelemetry:
 * the gateway's turns are all it traces.
 */
final class OtlpTelemetry implements Telemetry {
    private static final Logger log = LoggerFactory.getLogger(OtlpTelemetry.class);
    private static final int MAX_QUEUED_SPANS = 4096;
    private static final Duration EXPORT_DELAY = Duration.ofSeconds(1);
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

    private final SdkTracerProvider provider;
    private final Tracer tracer;

    private OtlpTelemetry(SdkTracerProvider provider, Tracer tracer) {
        this.provider = provider;
        this.tracer = tracer;
    }

    static OtlpTelemetry start(TelemetrySettings settings, String version) {
        String url = TelemetrySettings.tracesUrl(settings.tracesEndpoint()).toString();
        OtlpHttpSpanExporter exporter = OtlpHttpSpanExporter.builder()
                .setEndpoint(url)
                .setTimeout(Duration.ofSeconds(10))
                .build();
        Resource resource = Resource.getDefault()
                .merge(Resource.create(Attributes.of(
                        AttributeKey.stringKey("service.name"),
                        settings.serviceName(),
                        AttributeKey.stringKey("service.version"),
                        version)));
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .setResource(resource)
                .addSpanProcessor(BatchSpanProcessor.builder(exporter)
                        .setScheduleDelay(EXPORT_DELAY)
                        .setMaxQueueSize(MAX_QUEUED_SPANS)
                        .build())
                .build();
        log.info("traces: each turn's spans go by OTLP/HTTP to {}", url);
        return new OtlpTelemetry(provider, provider.get("dev.clawgate", version));
    }

    @Override
    public TurnRunner around(TurnRunner runner) {
        return new TracedTurns(tracer, runner);
    }

    @Override
    public void close() {
        provider.shutdown().join(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }
}
