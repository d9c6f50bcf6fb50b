package dev.clawgate.it;

import java.io.File;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The gateway as a separate JVM on one data dir, started again and again: with the packaged jar ({@code java -jar
 * clawgate.jar run --config FILE}) when the config loader reads the webhook table, else with
 * {@link WebhookGatewayLauncher} on the jar's classpath. Its output goes to one log file, appended across restarts.
 */
final class ChildGateway {
    enum Mode {
        JAR,
        LAUNCHER
    }

    /** Exit status of a halted child ({@code Runtime.halt(137)}), and of one stopped with SIGTERM. */
    static final int HALTED = 137;

    static final int TERMINATED = 143;

    private final Path jar;
    private final Path config;
    private final Path log;
    private final Mode mode;
    private final String secret;
    private final String callbackUrl;

    ChildGateway(Path jar, Path config, Path log, Mode mode, String secret, String callbackUrl) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: package the server first (./mvnw -pl it -am verify)");
        }
        this.jar = jar;
        this.config = config;
        this.log = log;
        this.mode = mode;
        this.secret = secret;
        this.callbackUrl = callbackUrl;
    }

    /** A child of the packaged server jar: {@code -Dclawgate.jar}, else the server module's build output. */
    static ChildGateway ofPackagedJar(Path config, Path log, Mode mode, String secret, String callbackUrl) {
        return new ChildGateway(
                Path.of(System.getProperty("clawgate.jar", "../server/target/clawgate.jar")),
                config,
                log,
                mode,
                secret,
                callbackUrl);
    }

    /** Starts one child; {@code failpoint} and {@code random} may be null. */
    Process start(String failpoint, String random) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1"));
        if (failpoint != null) cmd.add("-Dclawgate.failpoint=" + failpoint);
        if (random != null) cmd.add("-Dclawgate.failpoint.random=" + random);
        if (mode == Mode.JAR) {
            cmd.addAll(List.of("-jar", jar.toString(), "run", "--config", config.toString()));
        } else {
            cmd.add("-Dclawgate.it.callback=" + callbackUrl);
            cmd.addAll(List.of(
                    "-cp",
                    jar + File.pathSeparator + testClasses(),
                    WebhookGatewayLauncher.class.getName(),
                    "--config",
                    config.toString()));
        }
        Files.writeString(
                log,
                "\n===== " + java.time.LocalTime.now() + " start " + (failpoint == null ? "" : failpoint)
                        + (random == null ? "" : " random " + random) + "\n",
                java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .directory(config.getParent().toFile())
                .redirectErrorStream(true)
                .redirectOutput(Redirect.appendTo(log.toFile()));
        pb.environment().remove("CLAWGATE_CONFIG");
        pb.environment().remove("OPENAI_API_KEY");
        pb.environment().put(ItConfig.SECRET_ENV, secret);
        return pb.start();
    }

    /** Stops a child as an operator would (SIGTERM, graceful); returns its exit status. */
    static int stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("the gateway did not stop within 60 s of SIGTERM");
        }
        return p.exitValue();
    }

    /** The last lines of the child log, for a failure message. */
    String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    Mode mode() {
        return mode;
    }

    private static Path testClasses() {
        try {
            return Path.of(WebhookGatewayLauncher.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the test classes", e);
        }
    }
}
