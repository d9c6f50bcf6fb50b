-- Clawgate store, schema version 12 (PostgreSQL): the turn inspector (SPEC OP-8).
-- One statement per ';' at the end of a line; times are epoch milliseconds, as in SQLite.

-- One row per turn, written once when the turn ends. The session key is kept as its columns
-- ('' for no thread or sender) and as its display form, which `turns list --session` matches.
-- phases is a compact JSON array of [name, startMicros, durationMicros, detail]; prompt is the
-- full prompt, kept only with inspector.keep_prompts. Rows older than inspector.retention go.
-- IF NOT EXISTS: the same script can run again as a later migration where V012 was a placeholder.
CREATE TABLE IF NOT EXISTS turns (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    inbox_id     BIGINT  NOT NULL,
    channel      TEXT    NOT NULL,
    account      TEXT    NOT NULL,
    chat_type    TEXT    NOT NULL,
    reply_target TEXT    NOT NULL,
    thread_id    TEXT    NOT NULL,
    sender       TEXT    NOT NULL,
    session      TEXT    NOT NULL,
    started_at   BIGINT  NOT NULL,
    duration_us  BIGINT  NOT NULL,
    outcome      TEXT    NOT NULL,
    preview      TEXT    NOT NULL,
    phases       TEXT    NOT NULL,
    prompt       TEXT
);
CREATE INDEX IF NOT EXISTS turns_by_start ON turns (started_at);
CREATE INDEX IF NOT EXISTS turns_by_session ON turns (session, started_at);
CREATE INDEX IF NOT EXISTS turns_by_inbox ON turns (inbox_id);
