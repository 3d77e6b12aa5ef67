-- Full text holds the terms of Engram's one text analysis (dev.engram.spi.TextAnalysis), the same terms
-- every store indexes: normalized (NFKC, case folded), numbers and versions as single terms, stopwords
-- dropped, Porter-stemmed. The store registers the SQL function engram_fts_terms(text) on each of its
-- connections; it returns the terms of a text joined by single spaces. The index tokenizer only splits
-- them again at those spaces: 'ascii' keeps every non-ASCII character inside a token, and the
-- tokenchars add the four ASCII punctuation characters a term may hold. The index is rebuilt from the
-- active versions (the versions waiting in fts_pending are among them, so the list is emptied), and the
-- triggers that remove a version's terms are made anew; the store's pending-list statement indexes
-- engram_fts_terms of each column too.

DROP TABLE versions_fts;

CREATE VIRTUAL TABLE versions_fts USING fts5 (
  content, glossary, disclosure, topics, scope_key,
  content = '',
  tokenize = "ascii tokenchars '_''.,'"
);

INSERT INTO versions_fts (versions_fts, rank) VALUES ('secure-delete', 1);

INSERT INTO versions_fts (rowid, content, glossary, disclosure, topics, scope_key)
SELECT v.seq, engram_fts_terms(substr(v.content, 1, 262144)),
       engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(v.glossary))), engram_fts_terms(v.disclosure),
       engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(v.topics) WHERE value <> 'general')),
       'k' || lower(hex(v.scope))
FROM versions v WHERE v.status = 'ACTIVE';

DELETE FROM fts_pending;

-- Removal from the index repeats the terms the store's pending-list statement indexed, computed the same
-- way from the same (immutable) columns, as the secure-delete option needs.

DROP TRIGGER versions_after_deactivate;

CREATE TRIGGER versions_after_deactivate AFTER UPDATE OF status ON versions
WHEN old.status = 'ACTIVE' AND new.status <> 'ACTIVE' BEGIN
  UPDATE version_topics SET active = 0
  WHERE scope = old.scope AND topic IN (SELECT value FROM json_each(old.topics)) AND active = 1
    AND version_id = old.version_id;
  UPDATE topic_counts SET active_count = active_count - 1
  WHERE scope = old.scope AND topic IN (SELECT value FROM json_each(old.topics));
  DELETE FROM topic_counts
  WHERE scope = old.scope AND active_count = 0 AND topic IN (SELECT value FROM json_each(old.topics));
  INSERT INTO versions_fts (versions_fts, rowid, content, glossary, disclosure, topics, scope_key)
  SELECT 'delete', old.seq, engram_fts_terms(substr(old.content, 1, 262144)),
         engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(old.glossary))),
         engram_fts_terms(old.disclosure),
         engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(old.topics) WHERE value <> 'general')),
         'k' || lower(hex(old.scope))
  WHERE NOT EXISTS (SELECT 1 FROM fts_pending WHERE seq = old.seq);
  DELETE FROM fts_pending WHERE seq = old.seq;
END;

DROP TRIGGER versions_after_delete;

CREATE TRIGGER versions_after_delete AFTER DELETE ON versions BEGIN
  DELETE FROM version_topics
  WHERE scope = old.scope AND topic IN (SELECT value FROM json_each(old.topics))
    AND active = (old.status = 'ACTIVE') AND version_id = old.version_id;
  DELETE FROM version_vectors WHERE version_id = old.version_id;
  UPDATE topic_counts SET active_count = active_count - 1
  WHERE old.status = 'ACTIVE' AND scope = old.scope AND topic IN (SELECT value FROM json_each(old.topics));
  DELETE FROM topic_counts
  WHERE old.status = 'ACTIVE' AND scope = old.scope AND active_count = 0
    AND topic IN (SELECT value FROM json_each(old.topics));
  INSERT INTO versions_fts (versions_fts, rowid, content, glossary, disclosure, topics, scope_key)
  SELECT 'delete', old.seq, engram_fts_terms(substr(old.content, 1, 262144)),
         engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(old.glossary))),
         engram_fts_terms(old.disclosure),
         engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(old.topics) WHERE value <> 'general')),
         'k' || lower(hex(old.scope))
  WHERE old.status = 'ACTIVE' AND NOT EXISTS (SELECT 1 FROM fts_pending WHERE seq = old.seq);
  DELETE FROM fts_pending WHERE seq = old.seq;
END;
