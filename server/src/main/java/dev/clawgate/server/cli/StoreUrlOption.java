package dev.clawgate.server.cli;

import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine;

/**
 * {@code --store-url}: the database of the backup, restore and export commands. The gateway keeps its data in the
 * SQLite file {@code <gateway.data_dir>/clawgate.db}; a cluster's PostgreSQL is named by its JDBC URL.
 */
final class StoreUrlOption {
    static final String PG_TOOLS = "back up PostgreSQL with its own tools: pg_dump (and pg_restore), as the README's "
            + "'Backups' section shows";

    @CommandLine.Option(
            names = "--store-url",
            paramLabel = "URL",
            description = "the database: jdbc:sqlite:<file> or jdbc:postgresql:... "
                    + "(default: clawgate.db in gateway.data_dir)")
    String url;

    /** The SQLite file, or a usage error naming pg_dump for PostgreSQL. */
    Path sqliteFile(CommandLine.Model.CommandSpec spec, Path dataDir) {
        Optional<Path> file;
        try {
            file = dev.clawgate.store.SqliteBackup.databaseFile(url, dataDir);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        return file.orElseThrow(
                () -> new CommandLine.ParameterException(spec.commandLine(), "the store is PostgreSQL: " + PG_TOOLS));
    }
}
