-- The vector epoch: moved by every transaction that stores vectors of versions committed earlier
-- (reindex), which no revision records, so the vector caches of every process using this file notice.
CREATE TABLE vector_epoch (
  id    INTEGER PRIMARY KEY CHECK (id = 1),
  epoch INTEGER NOT NULL
);
INSERT INTO vector_epoch (id, epoch) VALUES (1, 0);
