package dev.clawgate.store;

import dev.clawgate.core.store.Store;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;

/** One database the contract tests run against: every {@link #open} reaches the same data. */
interface StoreBackend {

    Store open(Clock clock);

    /** A plain JDBC connection to the same database, to assert on rows. */
    Connection raw() throws SQLException;

    /** Makes every transcript insert whose content contains {@code marker} fail inside the database. */
    void failTranscriptInsertsContaining(String marker) throws SQLException;

    /** Makes every inbox insert whose platform message id starts with {@code prefix} fail inside the database. */
    void failInboxInsertsOfMessagesStartingWith(String prefix) throws SQLException;
}
