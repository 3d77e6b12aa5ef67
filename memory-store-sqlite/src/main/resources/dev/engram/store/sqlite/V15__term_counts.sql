-- Document frequencies of the full-text index per (term, scope): how many active versions of a scope hold
-- a term in the indexed columns (content, glossary, disclosure, topics). A search reads them to learn how
-- many versions its terms match before it ranks any, and ranks a bounded candidate set when they match
-- many (BM25's idf is the sum over every scope, as FTS5's own count over the whole index). The store's
-- statement that indexes a transaction's pending versions adds them (engram_fts_term_set, the same
-- analysis as engram_fts_terms); the triggers below take a version away when it stops being active or
-- is deleted, as the index's own triggers do, and a row goes once its count is zero, so erasure leaves
-- no term behind that no active version of the scope holds.
CREATE TABLE term_counts (
  term  TEXT NOT NULL,
  scope TEXT NOT NULL,
  df    INTEGER NOT NULL,
  PRIMARY KEY (term, scope)
) WITHOUT ROWID;

INSERT INTO term_counts (term, scope, df)
SELECT t.value, v.scope, count(*) FROM versions v
CROSS JOIN json_each(engram_fts_term_set(substr(v.content, 1, 262144),
  (SELECT group_concat(value, ' ') FROM json_each(v.glossary)), v.disclosure,
  (SELECT group_concat(value, ' ') FROM json_each(v.topics) WHERE value <> 'general'))) t
WHERE v.status = 'ACTIVE' GROUP BY t.value, v.scope;

CREATE TRIGGER versions_terms_after_deactivate AFTER UPDATE OF status ON versions
WHEN old.status = 'ACTIVE' AND new.status <> 'ACTIVE' BEGIN
  UPDATE term_counts SET df = df - 1
  WHERE scope = old.scope AND term IN (SELECT value FROM json_each(engram_fts_term_set(substr(old.content, 1, 262144),
    (SELECT group_concat(value, ' ') FROM json_each(old.glossary)), old.disclosure,
    (SELECT group_concat(value, ' ') FROM json_each(old.topics) WHERE value <> 'general'))));
  DELETE FROM term_counts
  WHERE scope = old.scope AND df <= 0 AND term IN (SELECT value FROM json_each(engram_fts_term_set(
    substr(old.content, 1, 262144), (SELECT group_concat(value, ' ') FROM json_each(old.glossary)), old.disclosure,
    (SELECT group_concat(value, ' ') FROM json_each(old.topics) WHERE value <> 'general'))));
END;

CREATE TRIGGER versions_terms_after_delete AFTER DELETE ON versions WHEN old.status = 'ACTIVE' BEGIN
  UPDATE term_counts SET df = df - 1
  WHERE scope = old.scope AND term IN (SELECT value FROM json_each(engram_fts_term_set(substr(old.content, 1, 262144),
    (SELECT group_concat(value, ' ') FROM json_each(old.glossary)), old.disclosure,
    (SELECT group_concat(value, ' ') FROM json_each(old.topics) WHERE value <> 'general'))));
  DELETE FROM term_counts
  WHERE scope = old.scope AND df <= 0 AND term IN (SELECT value FROM json_each(engram_fts_term_set(
    substr(old.content, 1, 262144), (SELECT group_concat(value, ' ') FROM json_each(old.glossary)), old.disclosure,
    (SELECT group_concat(value, ' ') FROM json_each(old.topics) WHERE value <> 'general'))));
END;
