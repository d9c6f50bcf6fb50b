-- first: a table
CREATE TABLE people (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL
);
INSERT INTO people (name) VALUES ('first; not a statement end');
