package dev.clawgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
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
        assertThat(r.out())
                .contains("ok       store")
                .contains("PROBLEM  provider 'local'")
                .contains("unreachable")
                .contains("fix: check providers.local.base_url")
                .contains("1 problem found.");
    }

    @Test
    void aProviderWhoseKeyVariableIsUnsetIsNamedAsUnconfiguredEvenWhenItsServerAnswers() throws Exception {
        // SPEC OP-6, OP-4: the README's rule, said by doctor with the variable and the fix
        try (FakeOpenAiServer model = FakeOpenAiServer.start()) {
            Path file = config(model.baseUrl());
            String unset = Files.readString(file).replace("sk-test-key-0000", "${CLAWGATE_TEST_KEY_NEVER_SET}");
            Files.writeString(file, unset);
            CliRunner.Result r = CliRunner.run("doctor", "--config", file.toString());
            assertThat(r.out())
                    .contains("PROBLEM  provider 'local'")
                    .contains("is not configured")
                    .contains("${CLAWGATE_TEST_KEY_NEVER_SET}, which is not set")
                    .contains("fix: export the variable");
            assertThat(r.exit()).isEqualTo(1);
            assertThat(model.chatRequests()).isEmpty();
        }
    }

    @Test
    void unreadableUpdatesAreNotedWithoutFailingTheCheck() throws Exception {
        // SPEC IN-4, CH-0, OP-4: doctor says poison messages were kept and skipped, and where to look
        try (FakeOpenAiServer model = FakeOpenAiServer.start()) {
            Path file = config(model.baseUrl());
            try (dev.clawgate.core.store.Store store = dev.clawgate.store.Stores.open(null, dir.resolve("state"))) {
                store.inbox()
                        .recordUnreadable(dev.clawgate.core.store.UnreadableInbound.of(
                                "telegram", "default", "4711", "message.date is missing or not a time", "{}"));
            }
            CliRunner.Result r = CliRunner.run("doctor", "--config", file.toString());
            assertThat(r.out())
                    .contains("note     1 inbound update could not be read")
                    .contains("telegram 4711")
                    .contains("message.date")
                    .contains("clawgate inbox")
                    .contains("All checks passed.");
            assertThat(r.exit()).isZero();
        }
    }

    @Test
    void aHealthySetupPassesEveryCheck() throws Exception {
        // SPEC OP-4
        try (FakeOpenAiServer model = FakeOpenAiServer.start()) {
            Path file = config(model.baseUrl());
            CliRunner.Result r = CliRunner.run("doctor", "--config", file.toString());
            assertThat(r.out())
                    .contains("ok       config")
                    .contains("ok       provider 'local'")
                    .contains("All checks passed.");
            assertThat(r.exit()).isZero();
        }
    }

    @Test
    void theShellSandboxAndEachOfItsLimitsAreReported() throws Exception {
        // SPEC AG-8, OP-4: this machine (like CI) has bubblewrap, prlimit and a writable cgroup
        try (FakeOpenAiServer model = FakeOpenAiServer.start()) {
            Path file = config(model.baseUrl());
            CliRunner.Result r = CliRunner.run("doctor", "--config", file.toString());
            assertThat(r.out())
                    .contains("ok       shell sandbox: bubblewrap")
                    .contains("no network")
                    .contains("ok       shell limits per process (prlimit): 60 s of CPU")
                    .contains("ok       shell limits per command (cgroup")
                    .contains("64 processes, 512 MiB of memory");
            Files.writeString(file, Files.readString(file) + "\n[tools]\nshell_sandbox = \"none\"\n");
            CliRunner.Result none = CliRunner.run("doctor", "--config", file.toString());
            assertThat(none.out())
                    .contains("warning  tools.shell_sandbox = \"none\": shell commands run without a")
                    .contains("fix: remove tools.shell_sandbox")
                    .doesNotContain("shell limits");
            assertThat(none.exit()).isZero();
        }
    }

    @Test
    void aBrokenConfigIsReportedWithoutGoingFurther() throws Exception {
        // SPEC OP-4
        Path file = dir.resolve("clawgate.toml");
        Files.writeString(file, "[agent]\nmax_tool_iteration = 3\n");
        CliRunner.Result r = CliRunner.run("doctor", "--config", file.toString());
        // README: a config error is exit 2 from every command (problems the checks find are 1)
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).contains("PROBLEM  config").contains("max_tool_iterations");
    }

    private Path telegramConfig(String modelUrl, String token, String apiBase) throws Exception {
        Path file = config(modelUrl);
        Files.writeString(file, Files.readString(file) + """

                [channels.telegram]
                bot_token = "%s"
                api_base = "%s"
                """.formatted(token, apiBase));
        return file;
    }

    @Test
    void aTelegramBotWhoseTokenTheBotApiAcceptsIsNamedAsAnswering() throws Exception {
        // SPEC OP-4, CH-0: doctor checks channel reachability with getMe
        try (FakeOpenAiServer model = FakeOpenAiServer.start();
                FakeTelegramServer tg = FakeTelegramServer.start("123:good-token", "clawbot")) {
            CliRunner.Result r = CliRunner.run(
                    "doctor",
                    "--config",
                    telegramConfig(model.baseUrl(), "123:good-token", tg.apiBase())
                            .toString());
            assertThat(r.out())
                    .contains("ok       channel telegram: bot @clawbot answers")
                    .contains("All checks passed.");
            assertThat(r.exit()).isZero();
            assertThat(tg.calls("getMe")).hasSize(1);
        }
    }

    @Test
    void aRefusedTelegramTokenIsAProblemWithItsFixAndTheTokenIsNotPrinted() throws Exception {
        // SPEC OP-4, CH-0, OP-6: the fake Bot API answers an unknown token with 401
        try (FakeOpenAiServer model = FakeOpenAiServer.start();
                FakeTelegramServer tg = FakeTelegramServer.start("123:good-token", "clawbot")) {
            CliRunner.Result r = CliRunner.run(
                    "doctor",
                    "--config",
                    telegramConfig(model.baseUrl(), "999:wrong-token", tg.apiBase())
                            .toString());
            assertThat(r.exit()).isEqualTo(1);
            assertThat(r.out())
                    .contains("PROBLEM  channel telegram: the bot token was refused (401)")
                    .contains("fix: set channels.telegram.bot_token to the token @BotFather gave you")
                    .contains("1 problem found.")
                    .doesNotContain("wrong-token");
        }
    }

    @Test
    void aProviderWhoseErrorsEchoTheKeyDoesNotGetItIntoTheReport() throws Exception {
        // SPEC OP-6 (attack class "secret leaks"): an OpenAI-style server quoting the key in its 401 and 500 answers
        for (int status : new int[] {401, 500}) {
            com.sun.net.httpserver.HttpServer echo = com.sun.net.httpserver.HttpServer.create(
                    new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
            echo.createContext("/", ex -> {
                String json = "{\"error\":{\"message\":\"Incorrect API key provided: sk-test-key-0000 (Bearer "
                        + "sk-test-key-0000)\",\"type\":\"invalid_request_error\"}}";
                byte[] body = json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                ex.getResponseHeaders().set("Content-Type", "application/json");
                ex.sendResponseHeaders(status, body.length);
                ex.getResponseBody().write(body);
                ex.close();
            });
            echo.start();
            try {
                Path file = config("http://127.0.0.1:" + echo.getAddress().getPort() + "/v1");
                CliRunner.Result r = CliRunner.run("doctor", "--config", file.toString());
                assertThat(r.out()).contains("PROBLEM  provider 'local'");
                assertThat(r.out() + r.err()).as("status %d", status).doesNotContain("sk-test-key-0000");
            } finally {
                echo.stop(0);
            }
        }
    }

    @Test
    void anUnreachableBotApiIsAProblemWithItsFix() throws Exception {
        // SPEC OP-4, CH-0
        try (FakeOpenAiServer model = FakeOpenAiServer.start()) {
            Path file = telegramConfig(model.baseUrl(), "123:good-token", "http://127.0.0.1:" + closedPort());
            CliRunner.Result r = CliRunner.run("doctor", "--config", file.toString());
            assertThat(r.exit()).isEqualTo(1);
            assertThat(r.out())
                    .contains("PROBLEM  channel telegram: the Bot API at http://127.0.0.1:")
                    .contains("is unreachable")
                    .contains("fix: check channels.telegram.api_base");
        }
    }

    @Test
    void doctorDoesNotCreateTheDataDirOrTheStoreWhenNoneExistsYet() throws Exception {
        // SPEC OP-4: a check changes nothing; the store is created on first run
        try (FakeOpenAiServer model = FakeOpenAiServer.start()) {
            CliRunner.Result r =
                    CliRunner.run("doctor", "--config", config(model.baseUrl()).toString());
            assertThat(r.out())
                    .contains("ok       store in " + dir.resolve("state")
                            + " not created yet; it is created on first run");
            assertThat(dir.resolve("state")).doesNotExist();
            assertThat(r.exit()).isZero();
        }
    }

    @Test
    void theRecallModeTheBackFillAndHowEachLargeScopeIsSearchedAreReported() throws Exception {
        // SPEC ME-5, OP-4: hybrid with which embedder and model, memories embedded of all, and each scope at or over
        // memory.ann_threshold with how it is searched (the gateway indexes it at start); smaller scopes not listed
        var selection = dev.clawgate.core.embedding.Embedders.select(
                dev.clawgate.core.config.EmbeddingSettings.defaults(), java.util.Map.of());
        var embedder = selection.embedder().orElseThrow();
        String modelId = embedder.modelId();
        int dims = embedder.dimensions();
        embedder.close();
        var alice = dev.clawgate.core.memory.MemoryScope.sender("telegram", "alice");
        var bob = dev.clawgate.core.memory.MemoryScope.sender("telegram", "bob");
        try (dev.clawgate.core.store.Store store = dev.clawgate.store.Stores.open(null, dir.resolve("state"))) {
            var memory = store.memory();
            java.util.Random rnd = new java.util.Random(1);
            for (int i = 0; i < 30; i++) memory.store(alice, "a" + i, "alice memory " + i, "core");
            for (int i = 0; i < 5; i++) memory.store(bob, "b" + i, "bob memory " + i, "core");
            memory.store(bob, "late", "not embedded yet", "core");
            for (var p : memory.vectors().pending(modelId, 0, 35)) {
                float[] v = new float[dims];
                for (int d = 0; d < dims; d++) v[d] = (float) rnd.nextGaussian();
                assertThat(memory.vectors().put(p.id(), p.contentHash(), modelId, v))
                        .isTrue();
            }
        }
        try (FakeOpenAiServer model = FakeOpenAiServer.start()) {
            Path file = config(model.baseUrl());
            Files.writeString(file, Files.readString(file) + "\n[memory]\nann_threshold = 20\n");
            CliRunner.Result r = CliRunner.run("doctor", "--config", file.toString());
            assertThat(r.out())
                    .contains("ok       memory recall: " + selection.mode())
                    .contains("note     memory vectors: 35 of 36 memories embedded; the running gateway embeds the"
                            + " other 1 in the background")
                    .contains("ok       memory scope " + alice.id() + ": 30 vectors (memory.ann_threshold = 20),"
                            + " searched through an HNSW index the gateway builds in the background at start")
                    .doesNotContain("memory scope " + bob.id())
                    .contains("All checks passed.");
            assertThat(selection.mode()).startsWith("hybrid: local model").contains(modelId);
            assertThat(r.exit()).isZero();
        }
    }
}
