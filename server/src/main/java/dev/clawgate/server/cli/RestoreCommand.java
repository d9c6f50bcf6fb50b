package dev.clawgate.server.cli;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.store.SqliteBackup;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code clawgate restore FILE} (SPEC OP-9): checks FILE (SQLite's integrity check, a Clawgate schema this version
 * knows), then replaces the database with it. Refused while a gateway runs on this data: one holds the data dir's lock
 * ({@link DataDirLock}), or something answers on {@code gateway.bind}. The database as it was is kept as
 * {@code clawgate.db.before-restore}.
 */
@Command(name = "restore", description = "Replace the database with a backup FILE (the gateway must be stopped).")
final class RestoreCommand implements Callable<Integer> {
    @Mixin
    ConfigOption config;

    @Mixin
    StoreUrlOption store;

    @Parameters(paramLabel = "FILE", description = "a backup written by 'clawgate backup'")
    Path file;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        ClawgateConfig cfg = config.load();
        Path dataDir = cfg.gateway().dataDir();
        Path db = store.sqliteFile(spec, dataDir);
        if (!java.nio.file.Files.isRegularFile(file)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "there is no file " + file);
        }
        String bind = cfg.gateway().bind();
        if (answers(bind)) return refuse("something answers on " + bind + " (gateway.bind): stop the gateway first");
        Optional<DataDirLock> lock = DataDirLock.forRestore(dataDir);
        if (lock.isEmpty()) {
            return refuse("a gateway (" + DataDirLock.holder(dataDir) + ") is using " + dataDir + ": stop it first");
        }
        try (DataDirLock held = lock.get()) {
            Optional<Path> before = SqliteBackup.restore(file, db);
            spec.commandLine()
                    .getOut()
                    .println("Restored " + db + " from " + file + "."
                            + before.map(p -> " The database as it was is in " + p + ".")
                                    .orElse(""));
            return Main.OK;
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("clawgate: " + e.getMessage() + "; nothing was changed");
            return Main.FAILURE;
        }
    }

    private int refuse(String why) {
        spec.commandLine().getErr().println("clawgate: not restoring: " + why);
        return Main.FAILURE;
    }

    /** True when a TCP connect to the bind address succeeds (a wildcard bind is tried on loopback). */
    static boolean answers(String bind) {
        int colon = bind.lastIndexOf(':');
        if (colon < 0) return false;
        int port;
        try {
            port = Integer.parseInt(bind.substring(colon + 1));
        } catch (NumberFormatException e) {
            return false;
        }
        if (port <= 0) return false;
        String host = bind.substring(0, colon).replace("[", "").replace("]", "");
        if (host.isEmpty() || host.equals("0.0.0.0") || host.equals("::")) host = "127.0.0.1";
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
