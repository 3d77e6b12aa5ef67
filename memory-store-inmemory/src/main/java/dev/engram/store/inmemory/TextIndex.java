package dev.engram.store.inmemory;

import dev.engram.MemoryEntry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * An inverted index over the active versions of one scope, scored with BM25 over weighted fields
 * (content 1, glossary 2, disclosure 1, topics 0.5): term frequencies and lengths are summed with the
 * field weights before the usual BM25 formula (k1 = 1.2, b = 0.75). Terms are Porter stems of
 * lowercase Unicode word tokens, the same stemming SQLite's FTS5 {@code porter} tokenizer applies.
 * Not thread-safe; the store guards it.
 */
final class TextIndex {
  static final float CONTENT = 1.0f;
  static final float GLOSSARY = 2.0f;
  static final float DISCLOSURE = 1.0f;
  static final float TOPICS = 0.5f;
  static final double K1 = 1.2;
  static final double B = 0.75;

  private static final Analyzer ANALYZER = new Analyzer() {
    @Override
    protected TokenStreamComponents createComponents(String fieldName) {
      Tokenizer source = new StandardTokenizer();
      TokenStream ts = new EnglishPossessiveFilter(source);
      ts = new LowerCaseFilter(ts);
      ts = new PorterStemFilter(ts);
      return new TokenStreamComponents(source, ts);
    }
  };

  /** term -> versionId -> weighted term frequency. */
  final Map<String, Map<String, Float>> postings = new HashMap<>();
  /** versionId -> weighted length. */
  final Map<String, Float> lengths = new HashMap<>();
  double totalLength;

  static List<String> analyze(String text) {
    List<String> out = new ArrayList<>();
    try (TokenStream ts = ANALYZER.tokenStream("f", text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        out.add(term.toString());
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  void add(MemoryEntry e) {
    Map<String, Float> tf = new HashMap<>();
    float len = 0;
    len += count(tf, e.content(), CONTENT);
    len += count(tf, String.join(" ", e.glossary()), GLOSSARY);
    if (e.disclosure() != null) {
      len += count(tf, e.disclosure(), DISCLOSURE);
    }
    len += count(tf, String.join(" ", e.topics()), TOPICS);
    for (Map.Entry<String, Float> t : tf.entrySet()) {
      postings.computeIfAbsent(t.getKey(), k -> new HashMap<>()).put(e.versionId(), t.getValue());
    }
    lengths.put(e.versionId(), len);
    totalLength += len;
  }

  void remove(MemoryEntry e) {
    Float len = lengths.remove(e.versionId());
    if (len == null) {
      return;
    }
    totalLength -= len;
    for (String term : terms(e)) {
      Map<String, Float> p = postings.get(term);
      if (p != null) {
        p.remove(e.versionId());
        if (p.isEmpty()) {
          postings.remove(term);
        }
      }
    }
  }

  boolean isEmpty() {
    return lengths.isEmpty();
  }

  private static List<String> terms(MemoryEntry e) {
    List<String> all = new ArrayList<>(analyze(e.content()));
    all.addAll(analyze(String.join(" ", e.glossary())));
    if (e.disclosure() != null) {
      all.addAll(analyze(e.disclosure()));
    }
    all.addAll(analyze(String.join(" ", e.topics())));
    return all;
  }

  private static float count(Map<String, Float> tf, String text, float weight) {
    List<String> tokens = analyze(text);
    for (String t : tokens) {
      tf.merge(t, weight, Float::sum);
    }
    return tokens.size() * weight;
  }

  /** BM25 scores of every version in {@code indexes} containing any of {@code stems}. */
  static Map<String, Double> score(Collection<TextIndex> indexes, Collection<String> stems) {
    long n = 0;
    double total = 0;
    for (TextIndex ix : indexes) {
      n += ix.lengths.size();
      total += ix.totalLength;
    }
    Map<String, Double> scores = new HashMap<>();
    if (n == 0) {
      return scores;
    }
    double avg = Math.max(total / n, 1e-9);
    for (String stem : stems) {
      long df = 0;
      for (TextIndex ix : indexes) {
        Map<String, Float> p = ix.postings.get(stem);
        df += p == null ? 0 : p.size();
      }
      if (df == 0) {
        continue;
      }
      double idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (TextIndex ix : indexes) {
        Map<String, Float> p = ix.postings.get(stem);
        if (p == null) {
          continue;
        }
        for (Map.Entry<String, Float> d : p.entrySet()) {
          double tf = d.getValue();
          double dl = ix.lengths.get(d.getKey());
          double s = idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * dl / avg));
          scores.merge(d.getKey(), s, Double::sum);
        }
      }
    }
    return scores;
  }
}
