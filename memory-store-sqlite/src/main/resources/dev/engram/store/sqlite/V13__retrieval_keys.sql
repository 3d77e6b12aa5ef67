-- Retrieval keys (StoreCapability.RETRIEVAL_KEYS): extra texts of a version (a captured turn together
-- with the turn before it), stored with the version in its transaction and never changed afterwards,
-- searched by full text as an index of their own. A version's key document is its keys joined by a space,
-- analysed like the content (engram_fts_terms); its keys are never part of versions_fts, and its content
-- is never part of version_keys_fts.

-- One row per version that has keys: the keys as a JSON array in their order, and the version's scope.
-- A version has at most one row (putKeys refuses a second), and loses it when it is deleted.
CREATE TABLE version_keys (
  version_id TEXT PRIMARY KEY,
  scope      TEXT NOT NULL,
  keys       TEXT NOT NULL
) WITHOUT ROWID;

-- Whether a version has a row in version_keys. The triggers below act only on versions with keys (their
-- WHEN clause reads the flag from the row being changed), so a version without keys costs no statement
-- and no page of the keys' tables when it is written, superseded, retired or deleted. Existing versions
-- have no keys; the default needs no rewrite of their rows.
ALTER TABLE versions ADD COLUMN has_keys INTEGER NOT NULL DEFAULT 0 CHECK (has_keys IN (0, 1));

-- The key index, built like versions_fts (version 10): contentless, rowid = versions.seq, the terms of
-- engram_fts_terms split again at their spaces, the scope's key for confining a search to its scopes,
-- secure-delete so a version leaving the index takes its terms with it, automerge 2 (version 12). It holds
-- exactly the active versions with keys. The store indexes the versions whose keys a transaction stored
-- or which it made active again from its list of them, with one statement per transaction (before the
-- commit, before a search in the transaction, and before a version on the list stops being active or is
-- deleted), the way it indexes the content.
CREATE VIRTUAL TABLE version_keys_fts USING fts5 (
  keys, scope_key,
  content = '',
  tokenize = "ascii tokenchars '_''.,'"
);

INSERT INTO version_keys_fts (version_keys_fts, rank) VALUES ('secure-delete', 1);

INSERT INTO version_keys_fts (version_keys_fts, rank) VALUES ('automerge', 2);

-- Removal from the key index repeats the terms the store's statement indexed, computed the same way from
-- the same (immutable) row, as secure-delete needs. The keys row itself stays: a version that is no longer
-- active keeps its keys, and is indexed again when it becomes active again.
CREATE TRIGGER version_keys_after_deactivate AFTER UPDATE OF status ON versions
WHEN old.has_keys = 1 AND old.status = 'ACTIVE' AND new.status <> 'ACTIVE' BEGIN
  INSERT INTO version_keys_fts (version_keys_fts, rowid, keys, scope_key)
  SELECT 'delete', old.seq,
         engram_fts_terms((SELECT group_concat(j.value, ' ' ORDER BY j.key) FROM json_each(k.keys) j)),
         'k' || lower(hex(k.scope))
  FROM version_keys k WHERE k.version_id = old.version_id;
END;

-- A deleted version (erasure) takes its keys with it: out of the index if it was active, then its row.
CREATE TRIGGER version_keys_after_delete AFTER DELETE ON versions WHEN old.has_keys = 1 BEGIN
  INSERT INTO version_keys_fts (version_keys_fts, rowid, keys, scope_key)
  SELECT 'delete', old.seq,
         engram_fts_terms((SELECT group_concat(j.value, ' ' ORDER BY j.key) FROM json_each(k.keys) j)),
         'k' || lower(hex(k.scope))
  FROM version_keys k WHERE k.version_id = old.version_id AND old.status = 'ACTIVE';
  DELETE FROM version_keys WHERE version_id = old.version_id;
END;
