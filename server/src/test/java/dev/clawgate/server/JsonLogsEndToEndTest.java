package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.server.config.ConfigException;
import dev.clawgate.server.config.ConfigLoader;
import dev.clawgate.server.config.ConfigLocation;
import dev.clawgate.server.logging.LogFormat;
import dev.clawgate.server.logging.StderrLogging;
import dev.clawgate.testkit.openai.Reply;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code logging.format = "json"}: one JSON object per line, with the turn's ids (SPEC OP-5, OP-9). */
class JsonLogsEndToEndTest extends GatewayFixture {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final PrintStream stderr = System.err;

    @AfterEach
    void backToText() {
        System.setErr(stderr);
        StderrLogging.use(LogFormat.TEXT);
    }

    @Test
    void aTurnLogsOneJsonObjectPerLineWithItsSessionInboxAndTurnIds() throws Exception {
        // SPEC OP-5, OP-9
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        StderrLogging.use(LogFormat.JSON);
        model.enqueue(Reply.text("Hello Ann."));
        int port = serve(config());
        GatewayHarness.Reply r = GatewayHarness.chat(port, "ann", "hi there", null);
        assertThat(r.content()).isEqualTo("Hello Ann.");
        closeGateway();
        System.setErr(stderr);

        List<JsonNode> lines = new ArrayList<>();
        for (String line : captured.toString(StandardCharsets.UTF_8).split("\n")) {
            if (line.isBlank()) continue;
            lines.add(JSON.readTree(line));
        }
        assertThat(lines).isNotEmpty().allSatisfy(l -> {
            assertThat(l.path("timestamp").asLong()).isPositive();
            assertThat(l.path("level").asText()).isIn("TRACE", "DEBUG", "INFO", "WARN", "ERROR");
            assertThat(l.path("loggerName").asText()).startsWith("");
            assertThat(l.has("formattedMessage")).isTrue();
        });
        JsonNode turn = lines.stream()
                .filter(l -> l.path("formattedMessage").asText().startsWith("turn ")
                        && l.path("formattedMessage").asText().contains("outcome="))
                .findFirst()
                .orElseThrow();
        assertThat(turn.path("level").asText()).isEqualTo("INFO");
        assertThat(turn.path("loggerName").asText()).isEqualTo("dev.clawgate.core.internal.turn.TurnPipeline");
        JsonNode mdc = turn.path("mdc");
        String turnId = mdc.path("turn_id").asText();
        assertThat(turnId).matches("\\d+");
        assertThat(mdc.path("inbox_id").asText()).isEqualTo(turnId);
        assertThat(mdc.path("session_key").asText()).contains("ann");
        assertThat(turn.path("formattedMessage").asText()).startsWith("turn " + turnId + " ");
        // the gateway's own start-up lines carry no turn
        assertThat(lines.get(0).path("mdc").path("turn_id").isMissingNode()).isTrue();
    }

    @Test
    void theFormatIsReadFromTheConfigAndAnUnknownOneIsAConfigError() throws Exception {
        // SPEC OP-9
        Path file = dir.resolve("clawgate.toml");
        ConfigLoader loader = new ConfigLoader();
        Files.writeString(file, "[logging]\nformat = \"json\"\n");
        loader.load(new ConfigLocation(file, true), Map.of());
        assertThat(loader.logFormat(new ConfigLocation(file, true), Map.of())).isEqualTo(LogFormat.JSON);
        Files.writeString(file, "[gateway]\nbind = \"127.0.0.1:0\"\n");
        assertThat(loader.logFormat(new ConfigLocation(file, true), Map.of())).isEqualTo(LogFormat.TEXT);
        assertThat(loader.logFormat(new ConfigLocation(dir.resolve("none.toml"), false), Map.of()))
                .isEqualTo(LogFormat.TEXT);
        Files.writeString(file, "[logging]\nformat = \"xml\"\n");
        Assertions.assertThatThrownBy(() -> loader.load(new ConfigLocation(file, true), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("logging.format")
                .hasMessageContaining("text, json");
    }
}
