package dev.clawgate.store.internal;

import java.sql.SQLException;

/**
 * Connections for the store: writes run in a transaction that has committed when {@link #write} returns; reads see only
 * committed data. A {@link java.sql.SQLException} comes out as a {@link dev.clawgate.core.store.StoreException} naming
 * the operation; any other exception thrown by the work rolls the transaction back and is rethrown as it is.
 */
public interface Database extends AutoCloseable {

    /** Work done on one connection; may throw SQLException. */
    @FunctionalInterface
    interface Work<T> {
        T run(Tx tx) throws SQLException;
    }

    <T> T write(String operation, Work<T> work);

    <T> T read(String operation, Work<T> work);

    Dialect dialect();

    @Override
    void close();
}
