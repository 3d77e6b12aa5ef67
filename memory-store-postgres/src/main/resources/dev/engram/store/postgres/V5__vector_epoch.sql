-- The vector epoch: moved by every transaction that stores vectors of versions committed earlier
-- (reindex), which no revision records, so the vector caches of every process using this database notice.
CREATE TABLE ${schema}${prefix}vector_epoch (
  id    integer PRIMARY KEY CHECK (id = 1),
  epoch bigint NOT NULL
);
INSERT INTO ${schema}${prefix}vector_epoch (id, epoch) VALUES (1, 0);
