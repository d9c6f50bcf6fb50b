/** The Store SPI on JDBC: SQLite (default) and PostgreSQL. */
package dev.clawgate.store;
