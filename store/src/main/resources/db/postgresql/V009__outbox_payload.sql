-- Clawgate store, schema version 9: a message's platform-native payload (SPEC OUT-4 payload), kept with its
-- delivery intent so a retry or a replay after a restart sends it as the turn did. Null: none (every entry before).
ALTER TABLE outbox ADD COLUMN payload TEXT;
