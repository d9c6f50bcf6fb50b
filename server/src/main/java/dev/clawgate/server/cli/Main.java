package dev.clawgate.server.cli;

import dev.clawgate.server.config.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code clawgate}: exit 0 when all went well, 2 for a usage or config error (one line on stderr, no stack trace), 1
 * for a failure at run time (SPEC OP-4). picocli's conventions: every command takes {@code --help} (the standard help
 * options are inherited), {@code --config} is a global option accepted before or after any command name, and
 * {@code clawgate help COMMAND} prints that command's help.
 */
@Command(
        name = "clawgate",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        scope = CommandLine.ScopeType.INHERIT,
        description = "A self-hosted gateway between chat platforms and an AI agent.",
        subcommands = {
            RunCommand.class,
            StatusCommand.class,
            ChatCommand.class,
            InitCommand.class,
            SessionsCommand.class,
            PairingCommand.class,
            OutboxCommand.class,
            InboxCommand.class,
            DoctorCommand.class,
            ClusterCommand.class,
            MemoryCommand.class,
            CronCommand.class,
            BackupCommand.class,
            RestoreCommand.class,
            ExportCommand.class,
            TurnsCommand.class,
            AotTrainCommand.class,
            CommandLine.HelpCommand.class
        })
public final class Main implements Runnable {
    public static final int OK = 0;
    public static final int FAILURE = 1;
    public static final int USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * The global {@code --config}: inherited, so every command and subcommand takes it anywhere on the line
     * ({@link ConfigOption}).
     */
    @CommandLine.Option(
            names = "--config",
            paramLabel = "FILE",
            scope = CommandLine.ScopeType.INHERIT,
            description = "config file (default: $CLAWGATE_CONFIG or ./clawgate.toml)")
    String configFile;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command: " + commandNames(spec));
    }

    /** The commands a user can name, as the usage lists them (hidden ones left out): always current. */
    static String commandNames(CommandLine.Model.CommandSpec spec) {
        return String.join(
                ", ",
                spec.subcommands().entrySet().stream()
                        .filter(e ->
                                !e.getValue().getCommandSpec().usageMessage().hidden())
                        .map(java.util.Map.Entry::getKey)
                        .distinct()
                        .toList());
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs a command line and returns its exit code; for tests as well as {@link #main}. */
    public static int execute(String... args) {
        CommandLine cl = new CommandLine(new Main());
        cl.setExitCodeExceptionMapper(
                e -> e instanceof ConfigException || e instanceof CommandLine.ParameterException ? USAGE : FAILURE);
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("clawgate: " + oneLine(e));
            return e instanceof ConfigException ? USAGE : FAILURE;
        });
        cl.setParameterExceptionHandler((e, args1) -> {
            e.getCommandLine().getErr().println("clawgate: " + e.getMessage());
            e.getCommandLine().getErr().println("Try 'clawgate --help'.");
            return USAGE;
        });
        return cl.execute(args);
    }

    static String oneLine(Throwable e) {
        String m = e.getMessage();
        if (m == null || m.isBlank()) m = e.getClass().getSimpleName();
        return m.replaceAll("\\s*\\R\\s*", " ");
    }
}
