package dev.clawgate.bench.load;

import java.io.File;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A bot under test in its own JVM: the gateway from its packaged jar, the gateway's {@code Main} from a classpath (when
 * no jar was built, e.g. in {@code mvn test}), or the {@link EchoBot}. Its stdout and stderr go to one log file in the
 * run's folder.
 */
final class ChildJvm implements AutoCloseable {
    /** How the bot under test is started. */
    sealed interface Launch {
        /**
         * {@code ./clawgate run --config FILE}, exactly as an operator starts it: the launcher script with its JVM
         * options, environment and start-up cache; the driver's JVM options go in as {@code CLAWGATE_JAVA_OPTS}. The
         * script {@code exec}s the JVM, so the process is the gateway's.
         */
        record GatewayLauncher(Path script) implements Launch {}

        /** {@code java -jar clawgate.jar run --config FILE}, with only the options the driver gives. */
        record GatewayJar(Path jar) implements Launch {}

        /** {@code dev.clawgate.server.cli.Main run --config FILE} from a classpath. */
        record GatewayClasspath(String classpath) implements Launch {}

        /** The {@link EchoBot}: the ceiling of driver and fake, with no gateway at all. */
        record Echo(String classpath) implements Launch {}
    }

    private final Process process;
    private final Path log;
    private final long startedNanos;

    private ChildJvm(Process process, Path log, long startedNanos) {
        this.process = process;
        this.log = log;
        this.startedNanos = startedNanos;
    }

    /**
     * Starts the child; {@code config} is the gateway's config file, {@code echoArgs} the echo bot's arguments (each
     * used only by its own kind of launch).
     */
    static ChildJvm start(Launch launch, List<String> jvmArgs, Path workDir, Path config, List<String> echoArgs)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        if (launch instanceof Launch.GatewayLauncher l) {
            if (!Files.isExecutable(l.script()))
                throw new IOException(l.script() + " is not an executable launcher script");
            cmd.addAll(List.of(l.script().toAbsolutePath().toString(), "run", "--config", config.toString()));
        } else {
            cmd.addAll(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED"));
            cmd.addAll(jvmArgs);
        }
        switch (launch) {
            case Launch.GatewayLauncher l -> {}
            case Launch.GatewayJar j -> {
                if (!Files.isRegularFile(j.jar())) {
                    throw new IOException(j.jar()
                            + " is missing: build it with ./mvnw -o -B -pl server -am package -DskipTests "
                            + "-Dpit.skip=true");
                }
                cmd.addAll(List.of("-jar", j.jar().toAbsolutePath().toString(), "run", "--config", config.toString()));
            }
            case Launch.GatewayClasspath c ->
                cmd.addAll(List.of(
                        "-cp", c.classpath(), "dev.clawgate.server.cli.Main", "run", "--config", config.toString()));
            case Launch.Echo e -> {
                cmd.addAll(List.of("-cp", e.classpath(), EchoBot.class.getName()));
                cmd.addAll(echoArgs);
            }
        }
        Files.createDirectories(workDir);
        Path log = workDir.resolve(launch instanceof Launch.Echo ? "echo-bot.log" : "gateway.log");
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(Redirect.appendTo(log.toFile()));
        pb.environment().remove("CLAWGATE_CONFIG");
        pb.environment().remove("OPENAI_API_KEY");
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        pb.environment().remove("CLAWGATE_JAVA_OPTS");
        if (launch instanceof Launch.GatewayLauncher)
            pb.environment().put("CLAWGATE_JAVA_OPTS", String.join(" ", jvmArgs));
        long t0 = System.nanoTime();
        return new ChildJvm(pb.start(), log, t0);
    }

    /** The classpath this JVM runs on: surefire's test classpath when under Maven, else {@code java.class.path}. */
    static String ownClasspath() {
        String surefire = System.getProperty("surefire.test.class.path");
        String cp = surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
        if (cp.contains("surefirebooter")) {
            throw new IllegalStateException(
                    "the classpath is surefire's manifest-only jar; run with surefire.test.class.path set");
        }
        // the child runs in the run's folder: relative entries would point nowhere
        return java.util.Arrays.stream(cp.split(File.pathSeparator))
                .filter(e -> !e.isBlank())
                .map(e -> Path.of(e).toAbsolutePath().toString())
                .collect(java.util.stream.Collectors.joining(File.pathSeparator));
    }

    long pid() {
        return process.pid();
    }

    /** {@link System#nanoTime()} just before the process was started. */
    long startedNanos() {
        return startedNanos;
    }

    boolean alive() {
        return process.isAlive();
    }

    Path log() {
        return log;
    }

    /** The last lines of the log, for an error message. */
    String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    /** Stops the child as an operator would (SIGTERM), forcibly after 30 s. */
    @Override
    public void close() throws InterruptedException {
        if (!process.isAlive()) return;
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** SIGKILL ({@link Process#destroyForcibly}, as {@code kill -9}), then waits until the process is gone. */
    void kill() throws InterruptedException, IOException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS))
            throw new IOException("process " + process.pid() + " outlived SIGKILL by 30 s");
    }

    int exitValue() {
        return process.exitValue();
    }
}
