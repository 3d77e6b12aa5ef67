-- Active versions per (scope, lexeme of the search column): the document frequencies of full-text
-- ranking (BM25's idf), so a search learns how common its terms are from one row per term and searched
-- scope instead of counting every matching version, and can rank a bounded set of candidates when its
-- terms are common. A row exists only while its count is above zero: the lexemes of an erased version
-- that no other active version of its scope holds leave with it, as topic counters do (schema 13).
-- The statements that insert versions add the lexemes of the active ones themselves, as they count
-- versions and topics (schema 9). Statement-level triggers count the rest, one upsert per statement
-- whatever the number of rows it touched: deleted active versions take their lexemes away, and an
-- update (a status change, a re-analysed search column) takes away the old row's and adds the new row's.
-- Writers of one scope already serialize on its head row, so the counter rows add no contention
-- across scopes; the rows are written in key order so that statements of different scopes never wait
-- on each other in a cycle.
CREATE TABLE ${schema}${prefix}term_counts (
  scope text COLLATE "C" NOT NULL,
  term  text COLLATE "C" NOT NULL,
  df    integer NOT NULL,
  PRIMARY KEY (scope, term)
);

INSERT INTO ${schema}${prefix}term_counts (scope, term, df)
  SELECT v.scope, t.term, count(*) FROM ${schema}${prefix}versions v
  CROSS JOIN LATERAL unnest(tsvector_to_array(v.search)) AS t(term)
  WHERE v.status = 'ACTIVE' GROUP BY v.scope, t.term;

CREATE FUNCTION ${schema}${prefix}count_terms() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE ${schema}${prefix}term_counts c SET df = c.df - d.n
      FROM (SELECT o.scope, t.term, count(*) AS n FROM old_rows o
            CROSS JOIN LATERAL unnest(tsvector_to_array(o.search)) AS t(term)
            WHERE o.status = 'ACTIVE' GROUP BY o.scope, t.term) d
      WHERE c.scope = d.scope AND c.term = d.term;
    DELETE FROM ${schema}${prefix}term_counts c USING
      (SELECT DISTINCT o.scope, t.term FROM old_rows o
       CROSS JOIN LATERAL unnest(tsvector_to_array(o.search)) AS t(term) WHERE o.status = 'ACTIVE') d
      WHERE c.scope = d.scope AND c.term = d.term AND c.df <= 0;
  ELSE
    INSERT INTO ${schema}${prefix}term_counts AS c (scope, term, df)
      SELECT x.scope, x.term, sum(x.delta) FROM (
        SELECT n.scope, t.term, 1 AS delta FROM new_rows n
        CROSS JOIN LATERAL unnest(tsvector_to_array(n.search)) AS t(term) WHERE n.status = 'ACTIVE'
        UNION ALL
        SELECT o.scope, t.term, -1 FROM old_rows o
        CROSS JOIN LATERAL unnest(tsvector_to_array(o.search)) AS t(term) WHERE o.status = 'ACTIVE') x
      GROUP BY x.scope, x.term HAVING sum(x.delta) <> 0 ORDER BY x.scope, x.term
      ON CONFLICT (scope, term) DO UPDATE SET df = c.df + EXCLUDED.df;
    DELETE FROM ${schema}${prefix}term_counts c USING
      (SELECT DISTINCT o.scope, t.term FROM old_rows o
       CROSS JOIN LATERAL unnest(tsvector_to_array(o.search)) AS t(term) WHERE o.status = 'ACTIVE') d
      WHERE c.scope = d.scope AND c.term = d.term AND c.df <= 0;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER ${prefix}versions_terms_updated
  AFTER UPDATE ON ${schema}${prefix}versions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE PROCEDURE ${schema}${prefix}count_terms();
CREATE TRIGGER ${prefix}versions_terms_deleted
  AFTER DELETE ON ${schema}${prefix}versions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE PROCEDURE ${schema}${prefix}count_terms();
