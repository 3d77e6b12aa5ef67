/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.MemoryEntry;
import dev.engram.spi.ScoredEntry;
import dev.engram.spi.TextAnalysis;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TextIndexTest {
  private static final String[] WORDS = {
    "coffee", "garden", "running", "ran", "runs", "paris", "berlin", "dog", "dogs", "cat", "piano", "lesson",
    "lessons", "maria's", "maria", "blue", "bike", "bikes", "the", "a", "of"};

  private static MemoryEntry entry(String scope, int id, String content, List<String> glossary, String disclosure) {
    Instant at = Instant.EPOCH.plusSeconds(id);
    return new MemoryEntry("e" + id, String.format("v%06d", id), 1, null, scope, content, List.of("notes", "general"),
        EntryType.FACT, 2, disclosure, glossary, null, null, List.of(), "h" + id, EntryStatus.ACTIVE, null, null, at, at, id);
  }

  private static String sentence(Random random, int words) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < words; i++) {
      sb.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
    }
    return sb.toString();
  }

  /** The weighted term frequencies and length of a version, added up in the index's order. */
  private static float fields(MemoryEntry e, Map<String, Float> tf) {
    float len = 0;
    len += count(tf, dev.engram.spi.FullTextQuery.indexedContent(e.content()), TextIndex.CONTENT);
    len += count(tf, String.join(" ", e.glossary()), TextIndex.GLOSSARY);
    if (e.disclosure() != null) {
      len += count(tf, e.disclosure(), TextIndex.DISCLOSURE);
    }
    len += count(tf, dev.engram.spi.FullTextQuery.indexedTopics(e.topics()), TextIndex.TOPICS);
    return len;
  }

  private static float count(Map<String, Float> tf, String text, float weight) {
    List<String> tokens = TextAnalysis.terms(text);
    for (String t : tokens) {
      tf.merge(t, weight, Float::sum);
    }
    return tokens.size() * weight;
  }

  /** BM25 over every live version, written the plain way. */
  private static List<ScoredEntry> reference(Map<String, MemoryEntry> live, List<String> stems, int limit) {
    Map<String, Map<String, Float>> tfs = new HashMap<>();
    Map<String, Float> lengths = new HashMap<>();
    double total = 0;
    for (MemoryEntry e : live.values()) {
      Map<String, Float> tf = new HashMap<>();
      float len = fields(e, tf);
      tfs.put(e.versionId(), tf);
      lengths.put(e.versionId(), len);
      total += len;
    }
    int n = live.size();
    double avg = Math.max(total / n, 1e-9);
    Map<String, Double> scores = new HashMap<>();
    for (String stem : stems) {
      long df = tfs.values().stream().filter(m -> m.containsKey(stem)).count();
      if (df == 0) {
        continue;
      }
      double idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (Map.Entry<String, Map<String, Float>> d : tfs.entrySet()) {
        Float f = d.getValue().get(stem);
        if (f != null) {
          double tf = f;
          double dl = lengths.get(d.getKey());
          scores.merge(d.getKey(), idf * tf * (TextIndex.K1 + 1) / (tf + TextIndex.K1 * (1 - TextIndex.B + TextIndex.B * dl / avg)),
              Double::sum);
        }
      }
    }
    List<ScoredEntry> out = new ArrayList<>();
    scores.forEach((id, s) -> out.add(new ScoredEntry(live.get(id), s)));
    out.sort((a, b) -> {
      int c = Double.compare(b.score(), a.score());
      return c != 0 ? c : b.entry().versionId().compareTo(a.entry().versionId());
    });
    return out.size() > limit ? out.subList(0, limit) : out;
  }

  @Test
  void rankingMatchesPlainBm25ThroughAddsRemovesAndSlotReuse() {
    Random random = new Random(7);
    TextIndex a = new TextIndex();
    TextIndex b = new TextIndex();
    Map<String, MemoryEntry> live = new LinkedHashMap<>();
    int next = 0;
    for (int step = 0; step < 600; step++) {
      if (live.isEmpty() || random.nextInt(3) > 0) {
        String scope = random.nextBoolean() ? "a" : "b";
        MemoryEntry e = entry(scope, next++, sentence(random, 1 + random.nextInt(8)),
            random.nextInt(4) == 0 ? List.of(WORDS[random.nextInt(WORDS.length)]) : List.of(),
            random.nextInt(5) == 0 ? sentence(random, 3) : null);
        (scope.equals("a") ? a : b).add(e);
        live.put(e.versionId(), e);
      } else {
        List<MemoryEntry> all = new ArrayList<>(live.values());
        MemoryEntry gone = all.get(random.nextInt(all.size()));
        (gone.scope().equals("a") ? a : b).remove(gone);
        live.remove(gone.versionId());
      }
      if (step % 10 == 0 && !live.isEmpty()) {
        List<String> stems = new ArrayList<>();
        for (String w : sentence(random, 1 + random.nextInt(3)).split(" ")) {
          for (String s : TextAnalysis.terms(w)) {
            if (!stems.contains(s)) {
              stems.add(s);
            }
          }
        }
        int limit = 1 + random.nextInt(12);
        List<ScoredEntry> got = TextIndex.search(List.of(a, b), stems, limit, live::get);
        assertThat(got).as("step %d, stems %s", step, stems).isEqualTo(reference(live, stems, limit));
        List<ScoredEntry> onlyFacts = TextIndex.search(List.of(a, b), stems, limit,
            id -> Integer.parseInt(id.substring(1)) % 2 == 0 ? live.get(id) : null);
        assertThat(onlyFacts).allMatch(s -> Integer.parseInt(s.entry().versionId().substring(1)) % 2 == 0);
      }
    }
    assertThat(a.isEmpty() && b.isEmpty()).isEqualTo(live.isEmpty());
  }

  /** Versions holding "apple" once, the newest the longest: read newest first, each scores above the last. */
  private static Map<String, MemoryEntry> risingScores(TextIndex ix, int versions) {
    Map<String, MemoryEntry> byId = new HashMap<>();
    for (int i = 0; i < versions; i++) {
      MemoryEntry e = entry("s", i, "apple" + " pad".repeat(i), List.of(), null);
      ix.add(e);
      byId.put(e.versionId(), e);
    }
    return byId;
  }

  @Test
  void onlyHitsThatCanEnterTheTopAreLookedUp() {
    TextIndex ix = new TextIndex();
    Map<String, MemoryEntry> byId = risingScores(ix, 300);
    List<String> asked = new ArrayList<>();
    List<ScoredEntry> hits = TextIndex.search(List.of(ix), TextAnalysis.terms("apple"), 10, id -> {
      asked.add(id);
      return byId.get(id);
    });
    List<String> ids = hits.stream().map(h -> h.entry().versionId()).toList();
    assertThat(ids).containsExactly("v000000", "v000001", "v000002", "v000003", "v000004", "v000005", "v000006",
        "v000007", "v000008", "v000009");
    // the shortest ten score best; every other version is skipped before the store is asked about it
    assertThat(asked).containsExactlyInAnyOrderElementsOf(ids);
  }

  @Test
  void hitsBelowTheFloorStillFillTheTopWhenBetterOnesAreNotAdmitted() {
    TextIndex ix = new TextIndex();
    Map<String, MemoryEntry> byId = risingScores(ix, 300);
    List<ScoredEntry> hits = TextIndex.search(List.of(ix), TextAnalysis.terms("apple"), 10,
        id -> Integer.parseInt(id.substring(1)) % 2 == 0 ? null : byId.get(id));
    assertThat(hits.stream().map(h -> h.entry().versionId()).toList()).containsExactly("v000001", "v000003",
        "v000005", "v000007", "v000009", "v000011", "v000013", "v000015", "v000017", "v000019");
  }
}
