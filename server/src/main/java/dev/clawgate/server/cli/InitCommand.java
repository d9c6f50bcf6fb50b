package dev.clawgate.server.cli;

import dev.clawgate.server.config.StarterConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code clawgate init}: writes a commented starter config (SPEC OP-4). */
@Command(name = "init", description = "Write a commented starter clawgate.toml.")
final class InitCommand implements Callable<Integer> {
    @Mixin
    ConfigOption config;

    @Option(names = "--force", description = "overwrite an existing file")
    boolean force;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Path path = config.path();
        if (Files.exists(path) && !force) {
            spec.commandLine().getErr().println("clawgate: " + path + " already exists; use --force to overwrite it");
            return Main.USAGE;
        }
        if (path.toAbsolutePath().getParent() != null)
            Files.createDirectories(path.toAbsolutePath().getParent());
        Files.writeString(path, StarterConfig.text());
        spec.commandLine()
                .getOut()
                .println("Wrote " + path
                        + ". Set a provider in it (e.g. export OPENAI_API_KEY=...), then run: ./clawgate chat");
        return Main.OK;
    }
}
