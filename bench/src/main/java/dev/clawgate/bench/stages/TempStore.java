package dev.clawgate.bench.stages;

import dev.clawgate.core.store.Store;
import dev.clawgate.store.Stores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A real SQLite store ({@link Stores#open}: WAL, {@code synchronous=NORMAL}, the gateway's migrations) in a temporary
 * folder of its own, which {@link #close()} deletes. A stage that writes takes a {@link #snapshot()} of its seeded
 * database once per trial and {@link #restore()}s it before each iteration, so every iteration starts from the same
 * rows and what one iteration wrote never reaches the next.
 */
public final class TempStore implements AutoCloseable {
    private final Path root;
    private final Path data;
    private final Path template;
    private Store store;

    private TempStore(Path root) {
        this.root = root;
        this.data = root.resolve("data");
        this.template = root.resolve("template");
        this.store = Stores.open(null, data);
    }

    /** A fresh, empty store in a new temporary folder named after {@code stage}. */
    public static TempStore open(String stage) {
        Path root;
        try {
            root = Files.createTempDirectory("clawgate-stage-" + stage + "-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary folder for the " + stage + " store", e);
        }
        try {
            return new TempStore(root);
        } catch (RuntimeException | Error e) {
            delete(root);
            throw e;
        }
    }

    public Store store() {
        return store;
    }

    /** The temporary folder: the database, its snapshot and anything the stage keeps beside them (a workspace). */
    public Path root() {
        return root;
    }

    /** Closes the store, copies its files (database, WAL if any) aside, and opens it again. */
    public void snapshot() {
        store.close();
        copyFiles(data, template);
        store = Stores.open(null, data);
    }

    /** Closes the store, puts back the files of the last {@link #snapshot()}, and opens it again. */
    public void restore() {
        if (!Files.isDirectory(template)) throw new IllegalStateException("restore() before any snapshot()");
        store.close();
        copyFiles(template, data);
        store = Stores.open(null, data);
    }

    /** Closes the store and deletes the folder. */
    @Override
    public void close() {
        try {
            store.close();
        } finally {
            delete(root);
        }
    }

    /** Makes {@code to} hold exactly the files of {@code from} (both flat folders). */
    private static void copyFiles(Path from, Path to) {
        try {
            Files.createDirectories(to);
            for (Path p : list(to)) Files.delete(p);
            for (Path p : list(from)) Files.copy(p, to.resolve(p.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the store files from " + from + " to " + to, e);
        }
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(Files::isRegularFile).toList();
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the benchmark folder " + dir, e);
        }
    }
}
