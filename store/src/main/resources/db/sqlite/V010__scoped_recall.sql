-- Clawgate store, schema version 10 (SQLite): recall reads only its own scopes (SPEC ME-2, ME-5), and a
-- reply's receipt finds its transcript row in one probe (SPEC OUT-8).
-- One statement per ';' at the end of a line.

-- A number for each memory scope that ever held an entry; rows are never deleted, so a number
-- names one scope for good. The full-text index below is keyed by these numbers.
CREATE TABLE memory_scopes (
    id    INTEGER PRIMARY KEY,
    scope TEXT    NOT NULL UNIQUE
) STRICT;

INSERT INTO memory_scopes (scope) SELECT DISTINCT scope FROM memories ORDER BY scope;

-- V006's index held every scope's terms together, so a common word walked every user's entries
-- before the scope filter (bench/RESULTS.md, "What limits it"). Now each term is indexed as
-- <scope number>_<term> ('_' is a token character; terms are letters and digits only), so a
-- query for "12_cat" reads scope 12's entries holding "cat" and nothing else.
DROP TABLE memory_fts;

CREATE VIRTUAL TABLE memory_fts USING fts5(terms, tokenize = 'unicode61 remove_diacritics 2 tokenchars ''_''');

INSERT INTO memory_fts (rowid, terms)
SELECT m.id, CASE WHEN m.terms = '' THEN '' ELSE s.id || '_' || replace(m.terms, ' ', ' ' || s.id || '_') END
FROM memories m JOIN memory_scopes s ON s.scope = m.scope;

-- A reply's receipt is written to its transcript row by inbox id alone (OutboxRows.update).
CREATE INDEX transcript_inbox_id ON transcript (inbox_id);
