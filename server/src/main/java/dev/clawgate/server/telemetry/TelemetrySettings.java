package dev.clawgate.server.telemetry;

import java.net.URI;

/**
 * {@code [telemetry]} (SPEC OP-9): where the turns' spans go by OTLP over HTTP (protobuf), and the service name they
 * carry. With no endpoint there are no traces and nothing of OpenTelemetry is started.
 *
 * @param tracesEndpoint the collector's traces URL ({@code otlp_endpoint}; a bare base such as
 *     {@code http://collector:4318} gets the OTLP path {@code /v1/traces}), or null: tracing off
 * @param serviceName {@code service_name}, default {@code clawgate}
 */
public record TelemetrySettings(URI tracesEndpoint, String serviceName) {
    public static final String DEFAULT_SERVICE_NAME = "clawgate";
    public static final TelemetrySettings OFF = new TelemetrySettings(null, DEFAULT_SERVICE_NAME);

    public TelemetrySettings {
        serviceName = serviceName == null || serviceName.isBlank() ? DEFAULT_SERVICE_NAME : serviceName;
    }

    public boolean enabled() {
        return tracesEndpoint != null;
    }

    /** {@code endpoint} as the traces URL: OTLP's {@code /v1/traces} added when it names no path of its own. */
    public static URI tracesUrl(URI endpoint) {
        String path = endpoint.getRawPath();
        if (path != null && !path.isEmpty() && !"/".equals(path)) return endpoint;
        String base = endpoint.toString();
        return URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/v1/traces");
    }
}
