package dev.clawgate.store.internal;

import java.util.ArrayList;
import java.util.List;

/** A {@link Database} that logs the name of every read and write transaction it runs, for round-trip counts. */
final class CountingDatabase implements Database {
    private final Database db;
    private final List<String> log = new ArrayList<>();

    CountingDatabase(Database db) {
        this.db = db;
    }

    @Override
    public synchronized <T> T write(String operation, Work<T> work) {
        log.add("write " + operation);
        return db.write(operation, work);
    }

    @Override
    public synchronized <T> T read(String operation, Work<T> work) {
        log.add("read " + operation);
        return db.read(operation, work);
    }

    /** The transactions run since the last call, oldest first. */
    synchronized List<String> drain() {
        List<String> out = List.copyOf(log);
        log.clear();
        return out;
    }

    @Override
    public Dialect dialect() {
        return db.dialect();
    }

    @Override
    public void close() {
        db.close();
    }
}
