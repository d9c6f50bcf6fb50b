package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.server.config.ConfigLoader;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A config edit while the gateway runs (SPEC RT-3): the next message uses it; a broken edit is refused. */
class ConfigHotReloadTest {
    @TempDir
    Path dir;

    private final FakeOpenAiServer first = FakeOpenAiServer.start();
    private final FakeOpenAiServer second = FakeOpenAiServer.start();
    private Gateway gateway;
    private ConfigWatcher watcher;

    @AfterEach
    void stop() {
        if (watcher != null) watcher.close();
        if (gateway != null) gateway.close();
        first.close();
        second.close();
    }

    private String toml(String baseUrl, String model) {
        return """
                [gateway]
                data_dir = "%s"
                bind = "127.0.0.1:0"

                [agent]
                provider = "main"
                workspace = "%s"

                [providers.main]
                kind = "openai"
                base_url = "%s"
                api_key = "sk-test-key-0000"
                model = "%s"
                """.formatted(dir.resolve("data"), dir.resolve("workspace"), baseUrl, model);
    }

    /** Rewrites the file so its size or time surely differs from what the watcher saw. */
    private void edit(Path file, String text) throws Exception {
        Thread.sleep(20);
        Files.writeString(file, text);
    }

    @Test
    void anEditSwitchesTheProviderForTheNextMessageAndABrokenEditIsRefused() throws Exception {
        // SPEC RT-3
        first.enqueue(Reply.text("from the first model"));
        second.echoLastUserMessage();
        Path file = dir.resolve("clawgate.toml");
        Files.writeString(file, toml(first.baseUrl(), "model-a"));
        gateway = Gateway.start(new ConfigLoader().load(file, Map.of()), GatewayOptions.server());
        watcher = new ConfigWatcher(file, gateway, Map::of, Duration.ofMillis(50)).start();
        int port = gateway.httpPort();

        assertThat(GatewayHarness.chat(port, "alice", "hello", null).content()).isEqualTo("from the first model");

        edit(file, toml(second.baseUrl(), "model-b"));
        await().atMost(Duration.ofSeconds(10)).until(() -> watcher.reloads() == 1);
        assertThat(GatewayHarness.chat(port, "alice", "still there?", null).content())
                .isEqualTo("still there?");
        assertThat(second.lastRequest().body().path("model").asText()).isEqualTo("model-b");
        assertThat(first.chatRequests()).hasSize(1);

        edit(file, toml(second.baseUrl(), "model-b") + "\n[agent\nbroken = \n");
        await().atMost(Duration.ofSeconds(10)).until(() -> watcher.lastRefusal() != null);
        assertThat(watcher.lastRefusal()).contains("clawgate.toml");
        assertThat(GatewayHarness.chat(port, "alice", "and now?", null).content())
                .isEqualTo("and now?");
        assertThat(gateway.config().providers().get("main").defaultModel()).isEqualTo("model-b");
    }

    @Test
    void aRunInFlightFinishesWithTheConfigItStartedWith() throws Exception {
        // SPEC RT-3: a reload never drops a run in flight
        first.enqueue(Reply.text("slow but whole").delayBefore(Duration.ofMillis(800)));
        second.echoLastUserMessage();
        Path file = dir.resolve("clawgate.toml");
        Files.writeString(file, toml(first.baseUrl(), "model-a"));
        gateway = Gateway.start(new ConfigLoader().load(file, Map.of()), GatewayOptions.server());
        watcher = new ConfigWatcher(file, gateway, Map::of, Duration.ofMillis(50)).start();
        int port = gateway.httpPort();

        CompletableFuture<String> slow = CompletableFuture.supplyAsync(() -> {
            try {
                return GatewayHarness.chat(port, "bob", "take your time", null).content();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        await().until(() -> first.chatRequests().size() == 1);
        edit(file, toml(second.baseUrl(), "model-b"));
        await().atMost(Duration.ofSeconds(10)).until(() -> watcher.reloads() == 1);

        assertThat(slow.get(20, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("slow but whole");
        assertThat(GatewayHarness.chat(port, "carol", "next one", null).content())
                .isEqualTo("next one");
    }
}
