package dev.clawgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.server.Gateway;
import dev.clawgate.server.GatewayOptions;
import dev.clawgate.server.config.ConfigLoader;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code clawgate status} asks a running gateway over {@code GET /api/status} (SPEC OP-3, OP-4, CH-0). */
class StatusCommandTest {
    private static final String TOKEN = "status-token-0123456789";

    @TempDir
    Path dir;

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private Path config(int port, String token) throws Exception {
        String toml = "[gateway]\ndata_dir = \""
                + dir.resolve("data").toString().replace("\\", "\\\\")
                + "\"\nbind = \"127.0.0.1:" + port + "\"\n" + (token == null ? "" : "auth_token = \"" + token + "\"\n")
                + "[agent]\nworkspace = \"" + dir.resolve("ws").toString().replace("\\", "\\\\") + "\"\n";
        return Files.writeString(dir.resolve("clawgate-" + port + ".toml"), toml);
    }

    @Test
    void statusPrintsChannelsQueuesOutboxAndUptimeOfTheGatewayTheConfigNames() throws Exception {
        // SPEC OP-3, OP-4: address and token from the config, as `clawgate run` uses them
        Path cfg = config(freePort(), TOKEN);
        try (Gateway gateway = Gateway.start(new ConfigLoader().load(cfg, Map.of()), GatewayOptions.server())) {
            CliRunner.Result r = CliRunner.run("status", "--config", cfg.toString());
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.out())
                    .contains("healthy", "up ", "Channels:", "api", "Queues: bus 0, active runs 0", "Outbox:");
        }
    }

    @Test
    void flagsNameAnotherGatewayAndAWrongTokenIsSaidSo() throws Exception {
        // SPEC OP-3: --url and --token; a refused token is a clear one-line error, exit 1
        Path cfg = config(0, TOKEN);
        try (Gateway gateway = Gateway.start(new ConfigLoader().load(cfg, Map.of()), GatewayOptions.server())) {
            String url = "http://127.0.0.1:" + gateway.httpPort();
            CliRunner.Result ok = CliRunner.run("status", "--url", url, "--token", TOKEN, "--config", cfg.toString());
            assertThat(ok.exit()).as(ok.err()).isZero();
            assertThat(ok.out()).contains("Gateway " + url + "/: healthy");
            CliRunner.Result refused =
                    CliRunner.run("status", "--url", url, "--token", "wrong", "--config", cfg.toString());
            assertThat(refused.exit()).isEqualTo(Main.FAILURE);
            assertThat(refused.err()).contains("refused the token");
        }
    }

    @Test
    void noGatewayAnsweringIsAClearErrorNotAStackTrace() throws Exception {
        // SPEC OP-4: exit 1 and one line that says what to check
        Path cfg = config(freePort(), null);
        CliRunner.Result r = CliRunner.run("status", "--config", cfg.toString());
        assertThat(r.exit()).isEqualTo(Main.FAILURE);
        assertThat(r.err()).contains("no gateway answers at http://127.0.0.1:", "clawgate run");
        assertThat(r.err()).doesNotContain("at java.");
    }

    @Test
    void statusPrintsTheRecallModeTheBackFillAndHowEachLargeMemoryScopeIsSearched() throws Exception {
        // SPEC ME-5, OP-4: the running gateway's indexes, ready or being built, as /api/status says them
        var body = new com.fasterxml.jackson.databind.ObjectMapper().readTree("""
                {"healthy": true, "version": "1", "uptime_seconds": 5, "channels": [], "queues": {},
                 "outbox": {}, "inbox": {}, "model": {},
                 "memory": {"recall": "hybrid: local model m@1 (384 dimensions)", "model": "m@1",
                            "embedded": 35, "entries": 36, "ann_threshold": 20,
                            "large_scopes": [
                              {"scope": "telegram:alice", "vectors": 30, "search": "index_ready"},
                              {"scope": "telegram:bob", "vectors": 25, "search": "index_building"},
                              {"scope": "telegram:carol", "vectors": 90000, "search": "exact_too_large"}]}}
                """);
        var text = new java.io.StringWriter();
        try (var out = new java.io.PrintWriter(text)) {
            StatusCommand.print(out, "http://127.0.0.1:8787/", body);
        }
        assertThat(text.toString())
                .contains("Memory: hybrid: local model m@1 (384 dimensions), 35 of 36 embedded\n")
                .contains("  telegram:alice: 30 vectors, searched through its HNSW index\n")
                .contains("  telegram:bob: 25 vectors, HNSW index being built, searched exactly until ready\n")
                .contains("  telegram:carol: 90000 vectors, searched exactly: its index would not fit")
                .contains("a third of the heap");
    }
}
