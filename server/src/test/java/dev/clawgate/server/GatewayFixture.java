package dev.clawgate.server;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real gateway with its model on a {@link FakeOpenAiServer} on a loopback port, so the production OpenAI client
 * runs. A test extends this, starts the gateway with the config it needs, and the gateway and the fake are closed after
 * it.
 */
abstract class GatewayFixture {
    @TempDir
    Path dir;

    FakeOpenAiServer model;
    Gateway gateway;

    @BeforeEach
    final void startModel() {
        model = FakeOpenAiServer.start();
    }

    @AfterEach
    final void stopGatewayAndModel() {
        closeGateway();
        model.close();
    }

    /** Closes the gateway now, if one runs; the next {@link #start} makes a new one. */
    final void closeGateway() {
        if (gateway != null) gateway.close();
        gateway = null;
    }

    /** The fake model as the only provider, the workspace and data in {@link #dir}, no channels. */
    final ClawgateConfig config() {
        return GatewayHarness.config(dir, model.baseUrl(), null);
    }

    /** Starts the gateway without its HTTP server. */
    final Gateway start(ClawgateConfig config) throws Exception {
        return start(config, GatewayOptions.with());
    }

    final Gateway start(ClawgateConfig config, GatewayOptions options) throws Exception {
        gateway = Gateway.start(config, options);
        return gateway;
    }

    /** Starts the gateway with its HTTP server on a free loopback port; that port. */
    final int serve(ClawgateConfig config) throws Exception {
        return start(config, GatewayOptions.server()).httpPort();
    }
}
