package dev.clawgate.it;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.server.Gateway;
import dev.clawgate.server.GatewayOptions;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The child JVM's main while the config loader cannot read {@code [channels.webhook]} yet: what {@code clawgate run
 * --config FILE} does, with the webhook table added to the loaded config (secret from {@code $CLAWGATE_WEBHOOK_SECRET},
 * callback from {@code -Dclawgate.it.callback}). Everything else is the packaged jar's code, found by the same
 * ServiceLoader wiring.
 */
public final class WebhookGatewayLauncher {
    private WebhookGatewayLauncher() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2 || !args[0].equals("--config")) {
            System.err.println("usage: WebhookGatewayLauncher --config FILE");
            System.exit(2);
        }
        String secret = System.getenv(ItConfig.SECRET_ENV);
        String callback = System.getProperty("clawgate.it.callback");
        if (secret == null || callback == null) {
            System.err.println("set $" + ItConfig.SECRET_ENV + " and -Dclawgate.it.callback");
            System.exit(2);
        }
        ClawgateConfig cfg = ItConfig.withWebhook(ItConfig.load(Path.of(args[1]), secret), secret, callback);
        Gateway gateway = Gateway.start(cfg, GatewayOptions.server());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            gateway.close();
                            stopped.countDown();
                        },
                        "clawgate-shutdown"));
        System.out.println("Clawgate is running on port " + gateway.httpPort());
        stopped.await();
    }
}
