-- Text analysis 2 (dev.engram.spi.TextAnalysis.VERSION 2): runs of katakana and of Hangul are indexed as
-- overlapping pairs of characters, so a word is found inside a longer compound or before a particle. The
-- three full-text indexes hold terms of the earlier analysis, and a contentless index removes a version by
-- repeating the terms it was given: each index is emptied and rebuilt from its rows with engram_fts_terms,
-- which the store registers on its connections and which now makes the new terms.

INSERT INTO versions_fts (versions_fts) VALUES ('delete-all');

INSERT INTO versions_fts (rowid, content, glossary, disclosure, topics, scope_key)
SELECT v.seq, engram_fts_terms(substr(v.content, 1, 262144)),
       engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(v.glossary))), engram_fts_terms(v.disclosure),
       engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(v.topics) WHERE value <> 'general')),
       'k' || lower(hex(v.scope))
FROM versions v WHERE v.status = 'ACTIVE' ORDER BY v.seq;

INSERT INTO version_keys_fts (version_keys_fts) VALUES ('delete-all');

INSERT INTO version_keys_fts (rowid, keys, scope_key)
SELECT v.seq, engram_fts_terms((SELECT group_concat(j.value, ' ' ORDER BY j.key) FROM json_each(k.keys) j)),
       'k' || lower(hex(k.scope))
FROM versions v JOIN version_keys k ON k.version_id = v.version_id
WHERE v.status = 'ACTIVE' AND v.has_keys = 1 ORDER BY v.seq;

-- The experience index keeps its terms (it is not contentless): the terms of Experience.text(), remade from
-- each active version's document.
DELETE FROM experience_fts;

INSERT INTO experience_fts (rowid, terms)
SELECT e.seq, engram_fts_terms('Situation: ' || json_extract(e.doc, '$.situation') || char(10)
         || 'Action: ' || json_extract(e.doc, '$.action') || char(10)
         || 'Outcome: ' || json_extract(e.doc, '$.outcome') || char(10)
         || 'Lesson: ' || json_extract(e.doc, '$.lesson'))
FROM experience_versions e WHERE e.status = 'ACTIVE' ORDER BY e.seq;

-- The document frequencies of the full-text index (version 15) are counts of the new terms too.
DELETE FROM term_counts;

INSERT INTO term_counts (term, scope, df)
SELECT t.value, v.scope, count(*) FROM versions v
CROSS JOIN json_each(engram_fts_term_set(substr(v.content, 1, 262144),
  (SELECT group_concat(value, ' ') FROM json_each(v.glossary)), v.disclosure,
  (SELECT group_concat(value, ' ') FROM json_each(v.topics) WHERE value <> 'general'))) t
WHERE v.status = 'ACTIVE' GROUP BY t.value, v.scope;
