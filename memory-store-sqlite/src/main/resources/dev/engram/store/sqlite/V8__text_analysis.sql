-- Full text holds the terms of Engram's one text analysis (dev.engram.spi.TextAnalysis), the same terms
-- every store indexes: normalized (NFKC, case folded), numbers and versions as single terms, stopwords
-- dropped, Porter-stemmed. The store registers the SQL function engram_fts_terms(text) on each of its
-- connections; it returns the terms of a text joined by single spaces. The index tokenizer only splits
-- them again at those spaces: 'ascii' keeps every non-ASCII character inside a token, and the
-- tokenchars add the four ASCII punctuation characters a term may hold. The index is rebuilt from the
-- active versions, and the triggers that add or remove a version's terms are made anew.

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

DROP TRIGGER versions_after_insert;

CREATE TRIGGER versions_after_insert AFTER INSERT ON versions BEGIN
  INSERT INTO version_topics (scope, topic, active, version_id, seq)
  SELECT new.scope, j.value, new.status = 'ACTIVE', new.version_id, new.seq FROM json_each(new.topics) j;
  INSERT INTO topic_counts (scope, topic, active_count)
  SELECT new.scope, j.value, 1 FROM json_each(new.topics) j WHERE new.status = 'ACTIVE'
  ON CONFLICT (scope, topic) DO UPDATE SET active_count = active_count + 1;
  INSERT INTO versions_fts (rowid, content, glossary, disclosure, topics, scope_key)
  SELECT new.seq, engram_fts_terms(substr(new.content, 1, 262144)),
         engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(new.glossary))),
         engram_fts_terms(new.disclosure),
         engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(new.topics) WHERE value <> 'general')),
         'k' || lower(hex(new.scope))
  WHERE new.status = 'ACTIVE';
END;

DROP TRIGGER versions_after_activate;

CREATE TRIGGER versions_after_activate AFTER UPDATE OF status ON versions
WHEN old.status <> 'ACTIVE' AND new.status = 'ACTIVE' BEGIN
  UPDATE version_topics SET active = 1
  WHERE scope = new.scope AND topic IN (SELECT value FROM json_each(new.topics)) AND active = 0
    AND version_id = new.version_id;
  INSERT INTO topic_counts (scope, topic, active_count)
  SELECT new.scope, j.value, 1 FROM json_each(new.topics) j WHERE true
  ON CONFLICT (scope, topic) DO UPDATE SET active_count = active_count + 1;
  INSERT INTO versions_fts (rowid, content, glossary, disclosure, topics, scope_key)
  VALUES (new.seq, engram_fts_terms(substr(new.content, 1, 262144)),
          engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(new.glossary))),
          engram_fts_terms(new.disclosure),
          engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(new.topics) WHERE value <> 'general')),
          'k' || lower(hex(new.scope)));
END;

-- Removal from the index repeats the terms the insert and activate triggers indexed, computed the same
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
  VALUES ('delete', old.seq, engram_fts_terms(substr(old.content, 1, 262144)),
          engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(old.glossary))),
          engram_fts_terms(old.disclosure),
          engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(old.topics) WHERE value <> 'general')),
          'k' || lower(hex(old.scope)));
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
  WHERE old.status = 'ACTIVE';
END;
