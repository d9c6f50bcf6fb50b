package dev.clawgate.server.cli;

import dev.clawgate.store.SqliteBackup;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code clawgate backup FILE} (SPEC OP-9): a consistent copy of the SQLite store, taken while the gateway runs (no
 * stop needed); the copy is private to the user (mode 0600) and never overwrites a file.
 */
@Command(name = "backup", description = "Copy the database to FILE, consistent even while the gateway runs.")
final class BackupCommand implements Callable<Integer> {
    @Mixin
    ConfigOption config;

    @Mixin
    StoreUrlOption store;

    @Parameters(paramLabel = "FILE", description = "the backup file to write (must not exist)")
    Path file;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        Path db = store.sqliteFile(spec, config.load().gateway().dataDir());
        try {
            SqliteBackup.backup(db, file);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        SqliteBackup.Check check = SqliteBackup.check(file);
        if (!check.ok()) {
            spec.commandLine()
                    .getErr()
                    .println("clawgate: the backup " + file + " fails its integrity check: "
                            + String.join("; ", check.problems()));
            return Main.FAILURE;
        }
        spec.commandLine()
                .getOut()
                .println("Backed up " + db + " to " + file + " (schema version " + check.schemaVersion()
                        + ", integrity check ok).");
        return Main.OK;
    }
}
