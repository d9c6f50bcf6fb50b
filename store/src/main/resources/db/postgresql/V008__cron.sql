-- Clawgate store, schema version 8 (PostgreSQL): scheduled agent turns (SPEC AG-5 cron tools, OP-1, OUT-12).
-- One statement per ';' at the end of a line; times are epoch milliseconds, as in SQLite.

-- A job belongs to the session and sender that made it; its turns run as a message from that
-- sender in that conversation (channel .. sender_name). schedule_kind is 'cron', 'every' or 'at',
-- schedule_spec the expression, the period in seconds or the ISO instant. next_fire_at moves
-- forward when a fire is claimed, before the turn runs, so a fire runs at most once on any node.
CREATE TABLE cron_jobs (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_id    BIGINT  NOT NULL REFERENCES sessions (id),
    channel       TEXT    NOT NULL,
    account       TEXT    NOT NULL,
    chat_type     TEXT    NOT NULL,
    reply_target  TEXT    NOT NULL,
    thread_id     TEXT,
    sender        TEXT    NOT NULL,
    sender_name   TEXT,
    name          TEXT,
    prompt        TEXT    NOT NULL,
    schedule_kind TEXT    NOT NULL,
    schedule_spec TEXT    NOT NULL,
    zone          TEXT    NOT NULL,
    created_at    BIGINT  NOT NULL,
    next_fire_at  BIGINT
);

CREATE INDEX cron_jobs_owner ON cron_jobs (session_id, sender);

CREATE INDEX cron_jobs_due ON cron_jobs (next_fire_at) WHERE next_fire_at IS NOT NULL;
