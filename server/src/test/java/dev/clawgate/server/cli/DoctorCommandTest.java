package dev.clawgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.testkit.openai.FakeOpenAiServer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code clawgate doctor} names each problem and its fix (SPEC OP-4). */
class DoctorCommandTest {
    @TempDir
    Path dir;

    private Path config(String providerUrl) throws Exception {
        Path file = dir.resolve("clawgate.toml");
        Files.writeString(file, """
                [gateway]
                data_dir = "state"

                [providers.local]
                kind = "openai"
                base_url = "%s"
                api_key = "sk-test-key-0000"
                model = "m"
                """.formatted(providerUrl));
        return file;
    }

    private static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void anUnreachableProviderIsNamedWithItsFix() throws Exception {
        // SPEC OP-4
        Path file = config("http://127.0.0.1:" + closedPort() + "/v1");
        CliRunner.Result r = CliRunner.run("doctor", "--config", file.toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("ok       store").contains("PROBLEM  provider 'local'").contains("unreachable")
                .contains("fix: check providers.local.base_url").contains("1 problem found.");
    }

    @Test
    void aHealthySetupPassesEveryCheck() throws Exception {
        // SPEC OP-4
        try (FakeOpenAiServer model = FakeOpenAiServer.start()) {
            Path file = config(model.baseUrl());
            CliRunner.Result r = CliRunner.run("doctor", "--config", file.toString());
            assertThat(r.out()).contains("ok       config").contains("ok       provider 'local'").contains("All checks passed.");
            assertThat(r.exit()).isZero();
        }
    }

    @Test
    void aBrokenConfigIsReportedWithoutGoingFurther() throws Exception {
        // SPEC OP-4
        Path file = dir.resolve("clawgate.toml");
        Files.writeString(file, "[agent]\nmax_tool_iteration = 3\n");
        CliRunner.Result r = CliRunner.run("doctor", "--config", file.toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("PROBLEM  config").contains("max_tool_iterations");
    }
}
