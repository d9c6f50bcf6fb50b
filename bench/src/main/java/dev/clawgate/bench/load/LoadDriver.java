package dev.clawgate.bench.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The end-to-end load driver (SPEC CH-3, OUT-12, OP-7): the real gateway as a separate process, long-polling a fake
 * Telegram Bot API and answered by a fake OpenAI model, both over loopback HTTP in this JVM. Reports replies per
 * second, update-to-{@code sendMessage} latency, the gateway's start times, RSS and CPU, and fails (exit 1) unless
 * every message got exactly one reply. With {@code --kills} it is a kill test (SPEC OUT-7): the gateway is SIGKILLed
 * and restarted mid-run, and it fails on any message answered twice or unanswered and not listed
 * {@code unknown_after_send} in the gateway's store. See bench/README.md.
 */
@Command(
        name = "LoadDriver",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description =
                "Drive N Telegram messages from M users through the gateway (or the echo bot) and report the figures.")
public final class LoadDriver implements Callable<Integer> {
    @Option(names = "--messages", description = "Messages in the measured phase (default ${DEFAULT-VALUE}).")
    int messages = 2000;

    @Option(names = "--users", description = "Distinct users, each in a private chat (default ${DEFAULT-VALUE}).")
    int users = 200;

    @Option(
            names = "--rate",
            description = "Open loop at this many messages per second; 0 = closed loop, each user sends when answered "
                    + "(default ${DEFAULT-VALUE}).")
    double rate = 0;

    @Option(
            names = "--warmup",
            description = "Closed-loop messages before the measured phase, to warm the JIT (default ${DEFAULT-VALUE}).")
    int warmup = 1000;

    @Option(
            names = "--model-delay-ms",
            description = "The fake model thinks this long per answer (default ${DEFAULT-VALUE}: instant).")
    long modelDelayMs = 0;

    @Option(
            names = "--bot",
            description = "gateway or echo (the echo bot: the ceiling of driver and fake) (default ${DEFAULT-VALUE}).")
    String bot = "gateway";

    @Option(
            names = "--launcher",
            description = "The gateway's launcher script, run as an operator runs it (default ${DEFAULT-VALUE}).")
    Path launcher = Path.of("clawgate");

    @Option(
            names = "--jar",
            description =
                    "Run this gateway jar with java -jar instead of the launcher (e.g. server/target/clawgate.jar).")
    Path jar;

    @Option(
            names = "--classpath-launch",
            description = "Run the gateway's Main from this JVM's classpath instead of the jar.")
    boolean classpathLaunch;

    @Option(
            names = "--jvm-arg",
            description = "An option for the bot's JVM after the launcher's, e.g. --jvm-arg=-Xmx256m (repeatable).")
    List<String> jvmArgs = new ArrayList<>();

    @Option(
            names = "--launcher-options",
            description = "The gateway's JVM options file, as ./clawgate passes it (default ${DEFAULT-VALUE}; "
                    + "'none' for the JVM's own defaults). Only for --jar and --classpath-launch: ./clawgate "
                    + "passes it itself; the echo bot never gets it.")
    String launcherOptions = "server/jvm.options";

    @Option(
            names = "--extra-toml",
            description = "A file of TOML appended to the gateway's config, e.g. [memory] auto_save = false.")
    Path extraToml;

    @Option(
            names = "--idle-ms",
            description = "Idle time after ready before the idle RSS is read (default ${DEFAULT-VALUE}).")
    long idleMs = 2000;

    @Option(
            names = "--timeout-s",
            description = "A phase ends unfinished when no reply came for this long (default ${DEFAULT-VALUE}).")
    long timeoutS = 60;

    @Option(
            names = "--settle-ms",
            description = "Listening after the last reply, for late duplicates (default ${DEFAULT-VALUE}).")
    long settleMs = 1000;

    @Option(
            names = "--sample-every",
            description = "Soak: live heap after a full GC and RSS every this many replies; 0 = none (default "
                    + "${DEFAULT-VALUE}).")
    int sampleEvery = 0;

    @Option(
            names = "--histogram",
            description = "Soak: report the classes whose live bytes grew from the first sample to the end.")
    boolean histogram;

    @Option(
            names = "--short-messages",
            description = "Send messages of under 20 characters, which memory neither auto-saves nor embeds.")
    boolean shortMessages;

    @Option(names = "--jfr", description = "Record the measured phase in the bot with Flight Recorder into this file.")
    Path jfr;

    @Option(
            names = "--kills",
            description = "Kill test: SIGKILL the gateway this many times in the measured phase, at seeded random reply"
                    + " counts, and restart it on the same data; passes when no message is answered twice and each "
                    + "unanswered one is listed"
                    + " unknown_after_send (closed loop only) (default ${DEFAULT-VALUE}).")
    int kills = 0;

    @Option(
            names = "--kill-seed",
            description = "The seed of the kill times, to replay a kill test (default: drawn, and printed).")
    Long killSeed;

    @Option(
            names = "--work-dir",
            description = "Config, store and logs of the run; emptied first (default ${DEFAULT-VALUE}).")
    Path workDir = Path.of("bench/target/load-run");

    @Option(names = "--label", description = "The run's name in the report (default: bot and loop).")
    String label;

    @Option(names = "--results-md", description = "Append the run as a row of a Markdown table to this file.")
    Path resultsMd;

    @Option(names = "--results-json", description = "Append the run as one JSON line to this file.")
    Path resultsJson;

    public static void main(String[] args) {
        System.exit(new CommandLine(new LoadDriver()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        LoadResult r = new LoadRun(plan()).run();
        System.out.print(LoadReport.text(r));
        if (resultsMd != null) LoadReport.append(resultsMd, LoadReport.markdownRow(r), LoadReport.TABLE_HEADER);
        if (resultsJson != null) LoadReport.append(resultsJson, LoadReport.json(r) + System.lineSeparator(), null);
        return r.passed() ? 0 : 1;
    }

    LoadPlan plan() {
        ChildJvm.Launch launch = switch (bot) {
            case "gateway" ->
                classpathLaunch
                        ? new ChildJvm.Launch.GatewayClasspath(ChildJvm.ownClasspath())
                        : jar != null
                                ? new ChildJvm.Launch.GatewayJar(jar)
                                : new ChildJvm.Launch.GatewayLauncher(launcher);
            case "echo" -> new ChildJvm.Launch.Echo(ChildJvm.ownClasspath());
            default ->
                throw new CommandLine.ParameterException(
                        new CommandLine(this), "--bot must be gateway or echo, got " + bot);
        };
        String name = label != null
                ? label
                : bot
                        + (rate > 0 ? " open " + (long) rate + "/s" : " closed")
                        + (kills > 0 ? ", " + kills + " kills" : "");
        String extra;
        try {
            extra = extraToml == null ? "" : java.nio.file.Files.readString(extraToml);
        } catch (java.io.IOException e) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this), "--extra-toml: cannot read " + extraToml + ": " + e.getMessage());
        }
        List<String> botJvmArgs = new ArrayList<>();
        // the launcher passes its own options file; a java -jar or classpath launch gets it from here
        if ((launch instanceof ChildJvm.Launch.GatewayJar || launch instanceof ChildJvm.Launch.GatewayClasspath)
                && !launcherOptions.equals("none")) {
            Path options = Path.of(launcherOptions).toAbsolutePath();
            if (!java.nio.file.Files.isRegularFile(options)) {
                throw new CommandLine.ParameterException(
                        new CommandLine(this), "--launcher-options: no file " + options + " (or say none)");
            }
            botJvmArgs.add("@" + options);
        }
        botJvmArgs.addAll(jvmArgs);
        KillSchedule schedule;
        try {
            schedule = kills == 0
                    ? KillSchedule.none()
                    : KillSchedule.draw(
                            kills, messages, killSeed != null ? killSeed : new java.util.Random().nextLong());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
        }
        try {
            return new LoadPlan(
                    launch,
                    botJvmArgs,
                    extra,
                    messages,
                    users,
                    rate,
                    warmup,
                    Duration.ofMillis(modelDelayMs),
                    Duration.ofMillis(idleMs),
                    Duration.ofSeconds(timeoutS),
                    Duration.ofMillis(settleMs),
                    sampleEvery,
                    histogram,
                    jfr,
                    workDir.toAbsolutePath(),
                    name,
                    schedule,
                    shortMessages);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
        }
    }
}
