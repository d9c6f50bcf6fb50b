-- Clawgate store, schema version 3 (PostgreSQL): the group history lookup (SPEC IN-6).
-- bufferedInbox reads one session's buffered records newest first; without this index it walks
-- the buffered records of every session (inbox_state_id), which grow in every quiet group.
-- IF NOT EXISTS: the script can be checked against a database before it is registered.
CREATE INDEX IF NOT EXISTS inbox_session_state_id ON inbox (session_id, state, id);
