-- Entries by event time: a search's occurredBetween(from, to) is part of the full-text statement (and
-- of the engine's vector scan), applied before the limit. It compares (occurred_s, occurred_n), the
-- epoch second and nano of occurred_at, as the sources table does: the ISO-8601 text is exact but does
-- not sort (its fraction has 0, 3, 6 or 9 digits, and years past 9999 carry a sign). Both columns are
-- generated from occurred_at, so every write and import sets them and existing versions get them when
-- the columns are added. The text is Instant.toString() ([+-]year-MM-ddTHH:mm:ss[.fraction]Z): it is
-- split at its 'T' and turned into days since 1970-01-01 with the proleptic Gregorian calendar in
-- integer arithmetic, which covers every year an Instant can hold (a timestamp cast would not, and
-- keeps microseconds only). No index on the columns: the full-text statement counts each term's
-- versions in the scopes for BM25 anyway and then ranks only the versions in the interval.
CREATE FUNCTION ${schema}${prefix}occurred_second(iso text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT (era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + (153 * ((m + 9) % 12) + 2) / 5 + dd - 1 - 719468) * 86400
         + secs
  FROM (SELECT secs, m, dd, era, y - era * 400 AS yoe
        FROM (SELECT secs, m, dd, y, (CASE WHEN y >= 0 THEN y ELSE y - 399 END) / 400 AS era
              FROM (SELECT secs, m, dd, yr - (CASE WHEN m <= 2 THEN 1 ELSE 0 END) AS y
                    FROM (SELECT substr(iso, 1, ti - 7)::bigint AS yr,
                                 substr(iso, ti - 5, 2)::bigint AS m,
                                 substr(iso, ti - 2, 2)::bigint AS dd,
                                 substr(iso, ti + 1, 2)::bigint * 3600 + substr(iso, ti + 4, 2)::bigint * 60
                                   + substr(iso, ti + 7, 2)::bigint AS secs
                          FROM (SELECT strpos(iso, 'T') AS ti) t) p) q) r) s
$$;

CREATE FUNCTION ${schema}${prefix}occurred_nano(iso text) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN substr(iso, ti + 9, 1) = '.'
           THEN rpad(substr(iso, ti + 10, length(iso) - ti - 10), 9, '0')::integer ELSE 0 END
  FROM (SELECT strpos(iso, 'T') AS ti) t
$$;

ALTER TABLE ${schema}${prefix}versions
  ADD COLUMN occurred_s bigint GENERATED ALWAYS AS (${schema}${prefix}occurred_second(occurred_at)) STORED,
  ADD COLUMN occurred_n integer GENERATED ALWAYS AS (${schema}${prefix}occurred_nano(occurred_at)) STORED;
