/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import dev.engram.MemoryEntry;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.ScoredEntry;
import dev.engram.spi.TextAnalysis;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The content search past its bound ({@code fullTextCandidates}): the document frequencies of the query's
 * terms from {@code term_counts} (schema 15) decide whether the query matches more versions of its scopes
 * than the bound; if it does, a bounded candidate set is read from the full-text index (newest first, in
 * three tiers) and ranked here by the BM25 of FTS5's {@code bm25()}, with the statistics FTS5 ranks with:
 * the index's row and token totals, each row's token count, and each term's count of rows over the whole
 * index, so a candidate scores exactly what {@code bm25()} gives it.
 */
final class BoundedFullText {
  /** FTS5's BM25 parameters. */
  static final double K1 = 1.2;
  static final double B = 0.75;
  /** The column weights of {@link Queries#BM25}: content, glossary, disclosure, topics, scope key. */
  static final double[] WEIGHTS = {1.0, 2.0, 1.0, 0.5, 0.0};
  /** Characters of content that the index holds ({@code substr(content, 1, 262144)}). */
  static final int CONTENT_CHARS = 262_144;

  private static final String TERM_COUNTS = "SELECT term, sum(df), sum(CASE WHEN scope IN"
      + " (SELECT value FROM json_each(?2)) THEN df ELSE 0 END) FROM term_counts"
      + " WHERE term IN (SELECT value FROM json_each(?1)) GROUP BY term";
  /** FTS5's averages record: the row count, then each column's token total. */
  private static final String TOTALS = "SELECT block FROM versions_fts_data WHERE id = 1";
  /** What ranking a candidate needs: its id, token counts and (for a version not cached) its indexed texts. */
  private static final String CANDIDATES = "SELECT v.seq, v.version_id, d.sz, v.content, v.glossary,"
      + " v.disclosure, v.topics FROM json_each(?) p CROSS JOIN versions v ON v.seq = p.value"
      + " CROSS JOIN versions_fts_docsize d ON d.id = v.seq";
  /** The best candidates' version rows. */
  private static final String BEST = "SELECT " + Queries.VERSION_COLUMNS
      + " FROM json_each(?) p CROSS JOIN versions v ON v.seq = p.value";

  private BoundedFullText() {}

  /**
   * The weighted term frequencies of recently ranked versions, by version id, shared by a store's
   * connections: versions never change, so an entry stays right until its version is erased, and every
   * erasure empties the cache, so it holds nothing of erased content. Analysing a version's text again
   * costs about 40 microseconds, which a search ranking a thousand candidates would pay every time.
   */
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(BoundedFullText.class);

  static final class Cache {
    /** Versions held; each holds its distinct terms and their weighted counts (about 1 kB). */
    static final int CAPACITY = 8192;
    /** Whether this store already logged that a search ranked a bounded candidate set. */
    final java.util.concurrent.atomic.AtomicBoolean announced = new java.util.concurrent.atomic.AtomicBoolean();
    private final Map<String, Map<String, Double>> byVersion =
        new java.util.LinkedHashMap<>(256, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Map<String, Double>> eldest) {
            return size() > CAPACITY;
          }
        };

    synchronized Map<String, Double> get(String versionId) {
      return byVersion.get(versionId);
    }

    synchronized void put(String versionId, Map<String, Double> frequencies) {
      byVersion.put(versionId, frequencies);
    }

    /** The number of versions held. */
    synchronized int size() {
      return byVersion.size();
    }

    /** Forgets every version (an erasure happened). */
    synchronized void clear() {
      byVersion.clear();
    }
  }

  /** The weighted frequency of each term of a version's indexed columns ({@link #columns}), in {@link #WEIGHTS}. */
  static Map<String, Double> weighted(List<List<String>> columns) {
    Map<String, Double> out = new HashMap<>();
    for (int c = 0; c < columns.size(); c++) {
      for (String t : columns.get(c)) {
        out.merge(t, WEIGHTS[c], Double::sum);
      }
    }
    return out;
  }

  /** A query term's count of active versions: in the searched scopes, and in the whole index. */
  record Frequency(long scoped, long total) {}

  /** The document frequencies of the terms that some active version holds. */
  static Map<String, Frequency> frequencies(Session s, Collection<String> scopes, Collection<String> terms)
      throws SQLException {
    PreparedStatement ps = s.prepare(TERM_COUNTS);
    ps.setString(1, Codec.strings(List.copyOf(new LinkedHashSet<>(terms))));
    ps.setString(2, Codec.strings(List.copyOf(new LinkedHashSet<>(scopes))));
    Map<String, Frequency> out = new HashMap<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.put(rs.getString(1), new Frequency(rs.getLong(3), rs.getLong(2)));
      }
    }
    return out;
  }

  private static final String ACTIVE_UP_TO = "SELECT count(*) FROM (SELECT 1 FROM versions"
      + " WHERE scope IN (SELECT value FROM json_each(?)) AND status = 'ACTIVE' LIMIT ?)";

  /**
   * How many active versions {@code scopes} hold, counted up to {@code cap} at most (an index range read of
   * at most {@code cap} rows).
   */
  static long activeUpTo(Session s, Set<String> scopes, int cap) throws SQLException {
    PreparedStatement ps = s.prepare(ACTIVE_UP_TO);
    ps.setString(1, Codec.strings(List.copyOf(scopes)));
    ps.setInt(2, cap);
    try (java.sql.ResultSet rs = ps.executeQuery()) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  /** The number of hits the searched scopes hold at most: the sum of the scoped document frequencies. */
  static long hits(Map<String, Frequency> frequencies) {
    long n = 0;
    for (Frequency f : frequencies.values()) {
      n += f.scoped();
    }
    return n;
  }

  /**
   * The bounded search: candidates from three tiers (up to half the bound holding the rarest term, a
   * quarter holding all but one of the up to four rarest, a quarter holding every term that occurs),
   * each tier the newest that pass the filters, then ranked by {@link #bm25}, ties newest first.
   */
  static List<ScoredEntry> search(Session s, Set<String> scopes, FullTextQuery query,
      Map<String, Frequency> frequencies, int candidates, int limit) throws SQLException {
    if (s.fullTextCache().announced.compareAndSet(false, true)) {
      LOG.info("A full-text search over scopes holding more than {} active versions ranked a bounded candidate"
          + " set; its order may differ from ranking every hit (fullTextCandidates(0) ranks every hit)", candidates);
    }
    List<String> rarest = new ArrayList<>();
    for (Map.Entry<String, Frequency> e : frequencies.entrySet()) {
      if (e.getValue().scoped() > 0) {
        rarest.add(e.getKey());
      }
    }
    rarest.sort(Comparator.comparingLong((String t) -> frequencies.get(t).scoped())
        .thenComparing(Comparator.naturalOrder()));
    List<String> tiers = tiers(rarest);
    int[] limits = tierLimits(candidates, rarest.size());
    Set<Long> seqs = new LinkedHashSet<>();
    for (int t = 0; t < tiers.size(); t++) {
      String match = Queries.FullTextIndex.CONTENT.columns + " : (" + tiers.get(t) + ")"
          + Queries.scopeKeys(scopes);
      PreparedStatement ps = s.prepare(Queries.candidatesSql(scopes.size(), query));
      Queries.bindMatch(ps, match, scopes, query, limits[t]);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          seqs.add(rs.getLong(1));
        }
      }
    }
    if (seqs.isEmpty()) {
      return List.of();
    }
    long[] totals = totals(s);
    record Ranked(long seq, String versionId, double rank) {}
    List<Ranked> ranked = new ArrayList<>();
    PreparedStatement ps = s.prepare(CANDIDATES);
    ps.setString(1, seqsJson(seqs));
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        String versionId = rs.getString(2);
        long rowTokens = 0;
        for (long c : varints(rs.getBytes(3))) {
          rowTokens += c;
        }
        Map<String, Double> weighted = s.fullTextCache().get(versionId);
        if (weighted == null) {
          weighted = weighted(columns(rs.getString(4), Codec.strings(rs.getString(5)), rs.getString(6),
              Codec.strings(rs.getString(7))));
          s.fullTextCache().put(versionId, weighted);
        }
        ranked.add(new Ranked(rs.getLong(1), versionId,
            bm25(query.terms(), weighted, rowTokens, totals[0], totals[1], frequencies)));
      }
    }
    // FTS5's order: rank ascending (bm25() is negative), then version id descending
    ranked.sort(Comparator.comparingDouble(Ranked::rank)
        .thenComparing(Ranked::versionId, Comparator.reverseOrder()));
    List<Ranked> best = ranked.subList(0, Math.min(limit, ranked.size()));
    Set<Long> bestSeqs = new LinkedHashSet<>();
    for (Ranked r : best) {
      bestSeqs.add(r.seq());
    }
    Map<String, MemoryEntry> entries = new HashMap<>();
    PreparedStatement rows = s.prepare(BEST);
    rows.setString(1, seqsJson(bestSeqs));
    try (ResultSet rs = rows.executeQuery()) {
      while (rs.next()) {
        MemoryEntry e = Queries.entry(s, rs);
        entries.put(e.versionId(), e);
      }
    }
    List<ScoredEntry> out = new ArrayList<>();
    for (Ranked r : best) {
      MemoryEntry e = entries.get(r.versionId());
      if (e != null) {
        out.add(new ScoredEntry(e, -r.rank()));
      }
    }
    return List.copyOf(out);
  }

  /**
   * How many candidates each tier takes: half the bound for the rarest term, a quarter for each other
   * tier; with two terms or one, the second tier (the more common term alone, whose holders are the
   * least likely to rank first) takes none and the rarest term three quarters.
   */
  static int[] tierLimits(int candidates, int terms) {
    if (terms <= 2) {
      return new int[] {candidates - candidates / 4, 0, candidates / 4};
    }
    return new int[] {candidates / 2, candidates / 4, candidates - candidates / 2 - candidates / 4};
  }

  /**
   * The three candidate tiers as FTS5 expressions over terms ordered rarest first: the rarest; all but
   * one of the (up to) four rarest (the second rarest of two); every term.
   */
  static List<String> tiers(List<String> rarest) {
    List<String> q = new ArrayList<>();
    for (String term : rarest) {
      q.add('"' + term.replace("\"", "\"\"") + '"');
    }
    int k = Math.min(4, q.size());
    String second;
    if (k >= 3) {
      StringBuilder any = new StringBuilder();
      for (int skip = k - 1; skip >= 0; skip--) {
        StringBuilder all = new StringBuilder();
        for (int j = 0; j < k; j++) {
          if (j != skip) {
            all.append(all.length() == 0 ? "" : " AND ").append(q.get(j));
          }
        }
        any.append(any.length() == 0 ? "" : " OR ").append('(').append(all).append(')');
      }
      second = any.toString();
    } else {
      second = q.get(k - 1);
    }
    return List.of(q.get(0), second, String.join(" AND ", q));
  }

  /** The four indexed columns' terms of a version, as the index holds them. */
  static List<List<String>> columns(String content, List<String> glossary, @Nullable String disclosure,
      List<String> topics) {
    String text = content;
    if (text.codePointCount(0, text.length()) > CONTENT_CHARS) {
      text = text.substring(0, text.offsetByCodePoints(0, CONTENT_CHARS));
    }
    List<String> named = new ArrayList<>();
    for (String topic : topics) {
      if (!topic.equals("general")) {
        named.add(topic);
      }
    }
    return List.of(TextAnalysis.terms(text), TextAnalysis.terms(String.join(" ", glossary)),
        disclosure == null ? List.of() : TextAnalysis.terms(disclosure), TextAnalysis.terms(String.join(" ", named)));
  }

  /**
   * FTS5's {@code bm25()} of one row, negative as FTS5 returns it: for each query term (phrase), its idf
   * {@code ln((N - n + 0.5) / (n + 0.5))} (1e-6 where that is not positive) times
   * {@code f (k1 + 1) / (f + k1 (1 - b + b D / avgdl))}, where {@code f} sums the column weights of the
   * term's occurrences in the row, {@code D} is the row's token count over every column and {@code avgdl}
   * the index's token total over its row count.
   *
   * @param terms the query's terms, one phrase each, in order
   * @param weighted the row's weighted frequency of each term ({@link #weighted})
   * @param rowTokens the row's token count over every column of the index
   * @param rows the index's row count
   * @param tokens the index's token total over every column
   * @param frequencies each term's document frequency over the whole index
   */
  static double bm25(List<String> terms, Map<String, Double> weighted, long rowTokens, long rows, long tokens,
      Map<String, Frequency> frequencies) {
    double n = rows;
    double avgdl = (double) tokens / (double) rows;
    double score = 0.0;
    for (String term : terms) {
      Frequency f = frequencies.get(term);
      double hits = f == null ? 0 : f.total();
      double idf = Math.log((n - hits + 0.5) / (hits + 0.5));
      if (idf <= 0.0) {
        idf = 1e-6;
      }
      double freq = weighted.getOrDefault(term, 0.0);
      score += idf * ((freq * (K1 + 1.0)) / (freq + K1 * (1 - B + B * rowTokens / avgdl)));
    }
    return -1.0 * score;
  }

  /** The index's row count and token total over every column, from FTS5's averages record. */
  static long[] totals(Session s) throws SQLException {
    PreparedStatement ps = s.prepare(TOTALS);
    try (ResultSet rs = ps.executeQuery()) {
      if (!rs.next()) {
        return new long[] {1, 0};
      }
      List<Long> values = varints(rs.getBytes(1));
      long tokens = 0;
      for (int i = 1; i < values.size(); i++) {
        tokens += values.get(i);
      }
      return new long[] {Math.max(1, values.isEmpty() ? 0 : values.get(0)), tokens};
    }
  }

  /** The SQLite varints of an FTS5 record: big-endian groups of seven bits, the ninth byte whole. */
  static List<Long> varints(byte[] bytes) {
    List<Long> out = new ArrayList<>();
    int i = 0;
    while (bytes != null && i < bytes.length) {
      long v = 0;
      int n = 0;
      while (true) {
        int b = bytes[i++] & 0xff;
        if (n == 8) {
          v = (v << 8) | b;
          break;
        }
        v = (v << 7) | (b & 0x7f);
        n++;
        if ((b & 0x80) == 0 || i >= bytes.length) {
          break;
        }
      }
      out.add(v);
    }
    return out;
  }

  private static String seqsJson(Set<Long> seqs) {
    StringBuilder b = new StringBuilder("[");
    for (long seq : seqs) {
      b.append(b.length() == 1 ? "" : ",").append(seq);
    }
    return b.append(']').toString();
  }
}
