package dev.clawgate.server.config;

import dev.clawgate.server.telemetry.TelemetrySettings;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/** Reads {@code [telemetry]} (SPEC OP-9): {@code otlp_endpoint} (an http or https URL) and {@code service_name}. */
final class TelemetrySection {
    private TelemetrySection() {}

    static TelemetrySettings read(TableReader root) {
        TableReader t = root.table("telemetry");
        String endpoint = t.string("otlp_endpoint");
        String service = t.string("service_name");
        if (endpoint == null || endpoint.isBlank()) return new TelemetrySettings(null, service);
        URI uri;
        try {
            uri = new URI(endpoint.strip());
        } catch (URISyntaxException e) {
            throw t.error(t.keyPath("otlp_endpoint"), "is not a URL; write e.g. \"http://127.0.0.1:4318\"");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
            throw t.error(
                    t.keyPath("otlp_endpoint"),
                    "is not an http or https URL; write the collector's OTLP/HTTP address, e.g. "
                            + "\"http://127.0.0.1:4318\"");
        }
        return new TelemetrySettings(uri, service);
    }
}
