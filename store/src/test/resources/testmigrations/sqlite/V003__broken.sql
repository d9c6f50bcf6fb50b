-- third: its first statement works, its second does not; neither may stay
CREATE TABLE pets (id INTEGER PRIMARY KEY);
INSERT INTO no_such_table VALUES (1);
