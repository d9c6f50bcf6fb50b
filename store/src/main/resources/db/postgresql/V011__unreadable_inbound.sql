-- Clawgate store, schema version 11 (PostgreSQL): updates a channel could not read (SPEC IN-4, CH-0).
-- One statement per ';' at the end of a line; times are epoch milliseconds, as in SQLite.

-- A poison message is kept here as failed, its raw payload cut to 16 KiB, and the channel
-- acknowledges past it. The same platform update delivered again is one row; only the newest
-- 1000 rows are kept.
CREATE TABLE unreadable_inbound (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel      TEXT    NOT NULL,
    account      TEXT    NOT NULL,
    platform_ref TEXT    NOT NULL,
    reason       TEXT    NOT NULL,
    raw          TEXT    NOT NULL,
    raw_length   INTEGER NOT NULL,
    recorded_at  BIGINT  NOT NULL,
    UNIQUE (channel, account, platform_ref)
);
