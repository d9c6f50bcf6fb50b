package dev.clawgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The packaged jar as a user runs it: a separate JVM, real stdin/stdout, exit codes (SPEC OP-4). */
class CliIT {
    @TempDir
    Path dir;

    record Result(int exit, String out, String err) {}

    private Result run(String stdin, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-jar",
                Path.of("target", "clawgate.jar").toAbsolutePath().toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().remove("CLAWGATE_CONFIG");
        pb.environment().remove("OPENAI_API_KEY");
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("clawgate exits").isTrue();
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Test
    void initWritesAStarterConfigThatLoadsAndRefusesToOverwrite() throws Exception {
        // SPEC OP-4
        Result first = run("", "init");
        assertThat(first.exit()).isEqualTo(0);
        assertThat(dir.resolve("clawgate.toml")).exists();
        assertThat(Files.readString(dir.resolve("clawgate.toml"))).contains("OPENAI_API_KEY");
        Result second = run("", "init");
        assertThat(second.exit()).isEqualTo(2);
        assertThat(second.err()).contains("already exists");
        assertThat(run("", "sessions").exit()).isEqualTo(0);
    }

    @Test
    void anUnknownKeyIsExitTwoWithOneLineNamingTheNearestKey() throws Exception {
        // SPEC defaults table: an unknown key is an error that names the nearest known key
        Files.writeString(dir.resolve("clawgate.toml"), "[agent]\nmax_tool_iteration = 3\n");
        Result r = run("", "chat");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err())
                .contains("agent.max_tool_iterations")
                .doesNotContain("Exception")
                .doesNotContain("\tat ");
    }

    @Test
    void malformedTomlAndAnUnsetVariableAreExitTwo() throws Exception {
        // SPEC OP-6
        Files.writeString(dir.resolve("clawgate.toml"), "[gateway\nbind = 1\n");
        Result r = run("", "run");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).doesNotContain("\tat ");
        Files.writeString(dir.resolve("clawgate.toml"), "[gateway]\nauth_token = \"${CLAWGATE_TEST_UNSET_VAR}\"\n");
        Result unset = run("", "run");
        assertThat(unset.exit()).isEqualTo(2);
        assertThat(unset.err()).contains("gateway.auth_token", "CLAWGATE_TEST_UNSET_VAR");
    }

    @Test
    void chatWithPipedInputAnswersEachLineAndExitsAfterTheLastReply() throws Exception {
        // SPEC CH-1
        try (FakeOpenAiServer model = FakeOpenAiServer.start()) {
            model.enqueue(
                    Reply.text("Hello from the model."),
                    Reply.text("Second reply.").delayBefore(Duration.ofMillis(300)));
            Files.writeString(dir.resolve("clawgate.toml"), """
                    [providers.local]
                    kind = "openai"
                    base_url = "%s"
                    model = "test-model"
                    """.formatted(model.baseUrl()));
            Result r = run("hi\nand again\n", "chat");
            assertThat(r.exit()).isEqualTo(0);
            assertThat(r.out()).isEqualTo("Hello from the model.\nSecond reply.\n");
            assertThat(model.chatRequests()).hasSize(2);
        }
    }

    @Test
    void chatWithoutAProviderExplainsWhatToConfigure() throws Exception {
        // SPEC HI-6: a one-line explanation, never a stack trace
        Result r = run("hello\n", "chat");
        assertThat(r.exit()).isEqualTo(0);
        assertThat(r.out().strip())
                .startsWith("No model provider is configured")
                .doesNotContain("\n");
    }

    @Test
    void runServesHealthzUntilStoppedAndAStopIsExitZero() throws Exception {
        // SPEC OP-3, OP-4: SIGTERM (what a service manager sends) is a clean stop, exit 0; before the fix the JVM's own
        // handling made it 143, which systemd reports as a failure
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Files.writeString(dir.resolve("clawgate.toml"), "[gateway]\nbind = \"127.0.0.1:" + port + "\"\n");
        List<String> cmd = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-jar",
                Path.of("target", "clawgate.jar").toAbsolutePath().toString(),
                "run");
        Process p = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("run.log").toFile())
                .start();
        try {
            HttpClient http = HttpClient.newHttpClient();
            await().atMost(Duration.ofSeconds(30))
                    .ignoreExceptionsInstanceOf(IOException.class)
                    .until(() -> http.send(
                                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz"))
                                                    .build(),
                                            HttpResponse.BodyHandlers.ofString())
                                    .statusCode()
                            == 200);
            assertThat(Files.readString(dir.resolve("run.log"))).contains("http://127.0.0.1:" + port + "/v1");
        } finally {
            p.destroy();
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("run.log"))).isZero();
    }
}
