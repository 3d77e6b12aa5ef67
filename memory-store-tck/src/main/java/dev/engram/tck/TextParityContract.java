/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.SearchHit;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.WriteOptions;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.TextAnalysis;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Full text gives the same hits on every store: exactly the active entries whose
 * {@link TextAnalysis#fields analysed terms} contain a term of the query. One fixed-seed randomized
 * corpus of contents, glossaries, disclosures and topics, with Unicode compatibility forms, case
 * variants, numbers, decimals, versions and FTS query syntax, is written, partly corrected, and
 * searched with random queries; each store's hit set is compared with the one the analysis defines,
 * so all stores are held to one oracle. Ranking may differ between stores; hit sets may not.
 */
public abstract class TextParityContract extends ContractSupport {
  private static final Grants U1 = Grants.of("app/user/u1");

  /** Words as written in content, each with the ways a query may write the same word. */
  private static final String[][] WORDS = {
    {"ﬁsh", "fish", "FISH", "ﬁsh"},
    {"ﬂight", "flight", "Flights"},
    {"ＡＢＣ", "abc", "ABC", "ａｂｃ"},
    {"Ⅻ", "xii", "XII"},
    {"İstanbul", "istanbul", "ISTANBUL", "İstanbul"},
    {"m²", "m2", "M²"},
    {"①", "1"},
    {"3.14", "3.14", "３.１４"},
    {"1,000", "1,000", "１,０００"},
    {"v2.1.3", "v2.1.3", "V2.1.3"},
    {"café", "café", "CAFÉ", "cafe\u0301"},
    {"Straße", "straße", "STRASSE"},
    {"ΣΊΣΥΦΟΣ", "σίσυφος", "Σίσυφος"},
    {"naïve", "naïve", "NAÏVE"},
    {"O'Brien", "o'brien", "O’Brien"},
    {"Maria's", "maria", "Maria’s"},
    {"e.g.", "e.g", "E.G."},
    {"foo_bar", "foo_bar", "FOO_BAR"},
    {"東京", "東", "京"},
    {"한국어", "한국어"},
    {"ウェブフック", "フック", "ウェブ", "ｳｪﾌﾞﾌｯｸ"},
    {"웹훅은", "웹훅"},
    {"サーバー", "サーバー", "サーバ"},
    {"deploying", "deploy", "deployed", "deploys"},
    {"running", "run", "runs"},
    {"connections", "connection", "connected", "CONNECTING"},
    {"generator", "generators", "generation"},
    {"piano", "pianos", "Piano"},
    {"webhook", "webhooks", "WEBHOOK"},
    {"refund", "refunds", "refunded"},
    {"Tuesday", "tuesday", "Tuesdays"},
    {"2019", "2019"},
    {"x86_64", "x86_64"},
    {"état", "état", "ÉTAT"},
    {"don't", "don't", "dont"},
    {"NEAR(a b)", "near", "NEAR(a b)"},
    {"\"quoted\"", "\"quoted", "quoted\""},
    {"col:term", "col:term", "col"},
    {"a*", "a*", "*"},
    {"x OR y", "x OR y", "OR"},
    {"^start", "^start", "start"},
    {"' OR 1=1 --", "1=1", "' OR '1'='1"},
    {"a & b | !c", "!c", "a & b"},
    {"<->", "<->", "a <-> b"},
    {"back\\slash", "back\\slash", "slash"},
    {"the", "the", "The"},
  };

  private static final String[] FILLER = {
    "notes", "about", "the", "team", "and", "its", "queue", "prefers", "metric", "units", "every", "morning",
    "of", "with", "planning", "service", "retries", "billing", "checkout"};
  private static final String[] PUNCTUATION = {" ", " ", " ", ", ", ". ", "; ", " (", ") ", " — ", "\n"};
  private static final String[] TOPICS = {"payments", "travel", "music", "ﬁnance", "ＩＴ", "general"};

  private static String pick(Random random, String[] options) {
    return options[random.nextInt(options.length)];
  }

  private static String content(Random random, int index) {
    StringBuilder sb = new StringBuilder("entry").append(index);
    for (int i = 0, n = 2 + random.nextInt(7); i < n; i++) {
      sb.append(pick(random, PUNCTUATION));
      sb.append(random.nextInt(3) == 0 ? pick(random, FILLER) : WORDS[random.nextInt(WORDS.length)][0]);
    }
    return sb.append('.').toString();
  }

  private static String query(Random random) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
      String[] word = WORDS[random.nextInt(WORDS.length)];
      sb.append(i == 0 ? "" : pick(random, new String[] {" ", ", ", " OR ", " AND ", "? "}));
      sb.append(random.nextInt(5) == 0 ? pick(random, FILLER) : word[1 + random.nextInt(word.length - 1)]);
    }
    return sb.toString();
  }

  /** The entries full text must return for {@code query}: the analysis's own answer. */
  private static Set<String> expected(List<MemoryEntry> active, String query) {
    Set<String> terms = new HashSet<>(FullTextQuery.terms(query));
    Set<String> out = new TreeSet<>();
    for (MemoryEntry e : active) {
      if (TextAnalysis.fields(e).containsAny(terms)) {
        out.add(e.entryId());
      }
    }
    return out;
  }

  private static Set<String> found(Engram engram, String query) {
    SearchResult r = engram.search(U1,
        SearchRequest.builder(query).mode(SearchMode.FTS).limit(SearchRequest.MAX_LIMIT).build());
    assertThat(r.used()).isEqualTo(SearchMode.FTS);
    Set<String> out = new TreeSet<>();
    for (SearchHit h : r.hits()) {
      out.add(h.entry().entryId());
    }
    return out;
  }

  @Test
  void aRandomizedCorpusGetsTheHitSetsTheAnalysisDefines() {
    Engram engram = newEngram();
    Random random = new Random(1813);
    Map<String, String> written = new LinkedHashMap<>();
    for (int i = 0; i < 70; i++) {
      WriteOptions.Builder options = WriteOptions.builder().topicsHint(pick(random, TOPICS));
      if (random.nextInt(4) == 0) {
        options.glossary(WORDS[random.nextInt(WORDS.length)][0]);
      }
      if (random.nextInt(5) == 0) {
        options.disclosure("shown only for " + WORDS[random.nextInt(WORDS.length)][0]);
      }
      MemoryEntry e = engram.write(U1, content(random, i), options.build()).entry();
      written.put(e.entryId(), e.content());
    }
    // corrections take the old version's terms out of the index and put the new one's in
    List<String> ids = new ArrayList<>(written.keySet());
    for (int i = 0; i < 12; i++) {
      String id = ids.get(random.nextInt(ids.size()));
      engram.correct(U1, id, content(random, 100 + i));
    }
    List<MemoryEntry> active = engram.list(U1);
    assertThat(active).hasSizeGreaterThan(40);

    List<String> queries = new ArrayList<>();
    for (String[] word : WORDS) {
      for (int v = 1; v < word.length; v++) {
        queries.add(word[v]);
      }
    }
    for (int i = 0; i < 120; i++) {
      queries.add(query(random));
    }
    List<String> mismatches = new ArrayList<>();
    int withHits = 0;
    for (String q : queries) {
      Set<String> want = expected(active, q);
      Set<String> got = found(engram, q);
      withHits += want.isEmpty() ? 0 : 1;
      if (!got.equals(want)) {
        Set<String> missing = new TreeSet<>(want);
        missing.removeAll(got);
        Set<String> extra = new TreeSet<>(got);
        extra.removeAll(want);
        mismatches.add("'" + q + "' " + FullTextQuery.terms(q) + ": missing " + missing + ", extra " + extra);
      }
    }
    assertThat(mismatches).isEmpty();
    assertThat(withHits).as("queries with at least one expected hit").isGreaterThan(queries.size() / 2);
  }

  /** The forms the analysis folds are found by every way of writing them, and numbers stay whole. */
  @Test
  void unicodeFormsNumbersAndVersionsAreFoundByTheWordsTheyContain() {
    Engram engram = newEngram();
    String id = engram.write(U1, "The ﬁnal ＡＢＣ report, chapter Ⅻ, from İstanbul: 20 m² per item ①; "
        + "pi is 3.14, 1,000 users run v2.1.3.").entry().entryId();
    engram.write(U1, "Unrelated: 3 apples and 14 pears, version 2 of 000 things.");
    for (String q : List.of("final", "FINAL", "ﬁnal", "abc", "ＡＢＣ", "XII", "xii", "Ⅻ", "istanbul", "İstanbul",
        "ISTANBUL", "m2", "m²", "①", "3.14", "1,000", "v2.1.3", "V2.1.3", "reports", "users")) {
      assertThat(found(engram, q)).as(q).containsExactly(id);
    }
    // a decimal, a grouped number and a version are single terms: their parts do not match them
    assertThat(found(engram, "14")).as("14").doesNotContain(id);
    assertThat(found(engram, "000")).as("000").doesNotContain(id);
  }

  /** FTS syntax in a query is text: it neither fails nor widens the match. */
  @Test
  void queryTextThatLooksLikeFtsSyntaxIsOnlyText() {
    Engram engram = newEngram();
    String id = engram.write(U1, "Notes on near misses and column labels.").entry().entryId();
    engram.write(U1, "Keeps receipts in a shoebox.");
    for (String q : List.of("NEAR(misses labels)", "\"misses", "content:misses", "misses*", "^misses",
        "misses OR receipts AND NOT", "misses & !labels", "misses <-> labels", "'misses':*", "{content}: misses",
        "misses\\", "(((misses")) {
      assertThat(found(engram, q)).as(q).contains(id);
    }
    assertThat(found(engram, "\" OR \"\"")).isEmpty();
    assertThat(found(engram, "*")).isEmpty();
  }
}
