package dev.clawgate.server.cli;

import dev.clawgate.store.DataExport;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code clawgate export} (SPEC OP-9): sessions, transcripts and memories as JSON Lines, to stdout or to a new file
 * (mode 0600: it holds the user's conversations). Works while the gateway runs, on SQLite and PostgreSQL.
 */
@Command(name = "export", description = "Write sessions, transcripts and memories as JSON Lines (stdout or --output).")
final class ExportCommand implements Callable<Integer> {
    @Mixin
    ConfigOption config;

    @Mixin
    StoreUrlOption store;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            description = "write to FILE (must not exist) instead of stdout")
    Path output;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        Path dataDir = config.load().gateway().dataDir();
        DataExport.Counts counts;
        try {
            if (output == null) {
                Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
                counts = DataExport.export(store.url, dataDir, out);
                out.flush();
            } else {
                if (Files.exists(output)) {
                    throw new CommandLine.ParameterException(spec.commandLine(), output + " exists; name a new file");
                }
                try (Writer out = Files.newBufferedWriter(
                        Files.createFile(
                                output,
                                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))),
                        StandardCharsets.UTF_8,
                        StandardOpenOption.WRITE)) {
                    counts = DataExport.export(store.url, dataDir, out);
                } catch (RuntimeException e) {
                    // no half export left behind to be taken for a whole one
                    Files.deleteIfExists(output);
                    throw e;
                }
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        // stdout holds the data: the summary goes to stderr
        spec.commandLine()
                .getErr()
                .println("Exported " + counts.sessions() + " sessions, " + counts.messages() + " messages and "
                        + counts.memories() + " memories" + (output == null ? "." : " to " + output + "."));
        return Main.OK;
    }
}
