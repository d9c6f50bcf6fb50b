-- Clawgate store, schema version 4 (SQLite): the write-ahead outbox (SPEC OUT-5, OUT-7, OUT-12).
-- One statement per ';' at the end of a line; times are epoch milliseconds.

-- A delivery intent, written in the transaction that ends its turn, before any platform I/O.
-- UNIQUE (turn_id, kind): one final reply per turn, whatever retries or restarts happen (OUT-12).
-- state is 'pending', 'sending', 'sent', 'suppressed', 'partial_failed', 'failed', 'expired' or
-- 'unknown_after_send'. turn_id is the inbox id; no foreign key, so pruning the inbox keeps it.
CREATE TABLE outbox (
    id                     INTEGER PRIMARY KEY AUTOINCREMENT,
    turn_id                INTEGER NOT NULL,
    kind                   TEXT    NOT NULL,
    channel                TEXT    NOT NULL,
    account                TEXT    NOT NULL,
    reply_target           TEXT    NOT NULL,
    thread_id              TEXT,
    in_reply_to_message_id TEXT,
    text                   TEXT    NOT NULL,
    state                  TEXT    NOT NULL,
    attempts               INTEGER NOT NULL DEFAULT 0,
    created_at             INTEGER NOT NULL,
    updated_at             INTEGER NOT NULL,
    receipt_id             TEXT,
    detail                 TEXT,
    UNIQUE (turn_id, kind)
) STRICT;

-- Serves the recovery scans (state IN (...) ORDER BY id) and the per-state counts.
CREATE INDEX outbox_state_id ON outbox (state, id);
