-- Entries by event time: a search's occurredBetween(from, to) is part of the full-text statement (and
-- of the engine's vector scan), applied before the limit. It compares (occurred_s, occurred_n), the
-- epoch second and nano of occurred_at, as the sources table does: the ISO-8601 text is exact but does
-- not sort (its fraction has 0, 3, 6 or 9 digits, and years past 9999 carry a sign). The store writes
-- both columns with every version. Existing versions get them from occurred_at here: the text is
-- Instant.toString() ([+-]year-MM-ddTHH:mm:ss[.fraction]Z), split at its 'T' and turned into days
-- since 1970-01-01 with the proleptic Gregorian calendar in integer arithmetic, which covers every
-- year an Instant can hold.
-- No index on the columns: the full-text statement reads the versions holding a term and checks each
-- row's event time (BM25 is computed only for those in the interval); a plan driven by an event-time
-- index instead looks each version of the interval up in the full-text index, which costs more from a
-- few dozen versions in the interval on.
ALTER TABLE versions ADD COLUMN occurred_s INTEGER;
ALTER TABLE versions ADD COLUMN occurred_n INTEGER;

UPDATE versions SET occurred_s = d.days * 86400 + d.secs, occurred_n = d.nanos
FROM (
  SELECT seq, secs, nanos,
         era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + (153 * ((m + 9) % 12) + 2) / 5 + dd - 1 - 719468 AS days
  FROM (
    SELECT seq, secs, nanos, m, dd, era, y - era * 400 AS yoe
    FROM (
      SELECT seq, secs, nanos, m, dd, y, (CASE WHEN y >= 0 THEN y ELSE y - 399 END) / 400 AS era
      FROM (
        SELECT seq, secs, nanos, m, dd, yr - (CASE WHEN m <= 2 THEN 1 ELSE 0 END) AS y
        FROM (
          SELECT seq,
                 CAST(substr(occurred_at, 1, ti - 7) AS INTEGER) AS yr,
                 CAST(substr(occurred_at, ti - 5, 2) AS INTEGER) AS m,
                 CAST(substr(occurred_at, ti - 2, 2) AS INTEGER) AS dd,
                 CAST(substr(occurred_at, ti + 1, 2) AS INTEGER) * 3600
                   + CAST(substr(occurred_at, ti + 4, 2) AS INTEGER) * 60
                   + CAST(substr(occurred_at, ti + 7, 2) AS INTEGER) AS secs,
                 CASE WHEN substr(occurred_at, ti + 9, 1) = '.'
                   THEN CAST(substr(substr(occurred_at, ti + 10, length(occurred_at) - ti - 10) || '000000000', 1, 9)
                        AS INTEGER)
                   ELSE 0 END AS nanos
          FROM (SELECT seq, occurred_at, instr(occurred_at, 'T') AS ti FROM versions WHERE occurred_at IS NOT NULL)
        )
      )
    )
  )
) AS d
WHERE versions.seq = d.seq;
