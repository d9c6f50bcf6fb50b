package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.server.telemetry.TelemetrySettings;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code [telemetry]}: the OTLP endpoint and service name, read at start (SPEC OP-9). */
class TelemetryConfigTest {
    @TempDir
    Path dir;

    private TelemetrySettings read(String toml, Map<String, String> env) {
        ConfigFixture files = new ConfigFixture(dir);
        Path file = files.write(toml);
        ConfigLoader loader = new ConfigLoader();
        loader.load(new ConfigLocation(file, true), env);
        return loader.telemetry(new ConfigLocation(file, true), env);
    }

    @Test
    void noTelemetryTableMeansNoTraces() {
        // SPEC OP-9
        assertThat(read("[gateway]\nbind = \"127.0.0.1:0\"\n", Map.of()).enabled())
                .isFalse();
        assertThat(new ConfigLoader().telemetry(new ConfigLocation(dir.resolve("none.toml"), false), Map.of()))
                .isEqualTo(TelemetrySettings.OFF);
    }

    @Test
    void anEndpointFromTheEnvironmentTurnsTracesOnWithTheOtlpTracesPath() {
        // SPEC OP-9, OP-6: ${VAR} like every string
        TelemetrySettings t = read(
                "[telemetry]\notlp_endpoint = \"${OTLP}\"\nservice_name = \"gw-eu\"\n",
                Map.of("OTLP", "http://collector:4318"));
        assertThat(t.enabled()).isTrue();
        assertThat(t.serviceName()).isEqualTo("gw-eu");
        assertThat(TelemetrySettings.tracesUrl(t.tracesEndpoint()))
                .isEqualTo(URI.create("http://collector:4318/v1/traces"));
        assertThat(TelemetrySettings.tracesUrl(URI.create("https://otlp.example.com/")))
                .isEqualTo(URI.create("https://otlp.example.com/v1/traces"));
        assertThat(TelemetrySettings.tracesUrl(URI.create("https://otlp.example.com/api/traces")))
                .isEqualTo(URI.create("https://otlp.example.com/api/traces"));
        assertThat(read("[telemetry]\notlp_endpoint = \"http://127.0.0.1:4318\"\n", Map.of())
                        .serviceName())
                .isEqualTo("clawgate");
    }

    @Test
    void anEndpointThatIsNotAnHttpUrlIsAConfigErrorNamingTheKey() {
        // SPEC OP-9
        ConfigFixture files = new ConfigFixture(dir);
        assertThat(files.error("[telemetry]\notlp_endpoint = \"collector:4317\"\n"))
                .contains("telemetry.otlp_endpoint")
                .contains("http or https URL");
        assertThat(files.error("[telemetry]\notlp_endpoint = \"grpc://collector:4317\"\n"))
                .contains("telemetry.otlp_endpoint");
        assertThat(files.error("[telemetry]\notlp_endpont = \"http://x\"\n")).contains("otlp_endpont");
    }
}
