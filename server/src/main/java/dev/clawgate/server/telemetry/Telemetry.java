package dev.clawgate.server.telemetry;

import dev.clawgate.core.internal.run.TurnRunner;

/**
 * The gateway's traces (SPEC OP-9): each turn a trace, its phases (inbound, queue wait, prompt, each model call, each
 * tool call, each send) as spans, exported by OTLP. {@link #OFF} when no endpoint is set: turns run as they are, no
 * OpenTelemetry class is loaded, nothing costs anything.
 */
public interface Telemetry extends AutoCloseable {
    Telemetry OFF = new Telemetry() {
        @Override
        public TurnRunner around(TurnRunner runner) {
            return runner;
        }

        @Override
        public void close() {}
    };

    /** {@code runner} with each of its turns traced. */
    TurnRunner around(TurnRunner runner);

    /** Sends the spans still buffered (bounded wait) and stops the exporter. */
    @Override
    void close();

    /** Starts the exporter {@code settings} ask for, or {@link #OFF}. */
    static Telemetry start(TelemetrySettings settings, String version) {
        return settings.enabled() ? OtlpTelemetry.start(settings, version) : OFF;
    }
}
