package dev.clawgate.store.internal;

import dev.clawgate.core.store.StoreException;
import java.sql.SQLException;

/** Turns driver exceptions into store exceptions that say which operation failed. */
final class Failures {

    private Failures() {}

    /** The message names the operation and the driver's reason, never a URL or credentials. */
    static StoreException of(String operation, SQLException e) {
        String state = e.getSQLState() == null ? "" : " [SQLState " + e.getSQLState() + "]";
        return new StoreException("store operation '" + operation + "' failed" + state + ": " + e.getMessage(), e);
    }

    static StoreException closed(String operation) {
        return new StoreException("store operation '" + operation + "' failed: the store is closed", null);
    }

    /** Cleans up after {@code failure} (a rollback, a close); a clean-up that fails too is attached to it, not lost. */
    static void cleanUp(CleanUp action, Throwable failure) {
        try {
            action.run();
        } catch (SQLException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    @FunctionalInterface
    interface CleanUp {
        void run() throws SQLException;
    }
}
