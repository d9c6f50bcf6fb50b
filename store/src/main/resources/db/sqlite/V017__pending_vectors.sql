-- Clawgate store, schema version 17 (SQLite): the memory indexer finds what is pending without reading every memory
-- (issue 27). One statement per ';' at the end of a line.

-- The indexer asks after each turn which memories have no vector of the current model, walking ids upwards from
-- the start: without an index that read every row (and its embedding) each time. With (embedding_model, id) the
-- entries never embedded (NULL) and those of each other model are each a range already in id order.
CREATE INDEX memories_embedding_model ON memories (embedding_model, id);
