/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;
import dev.engram.ContextRequest;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.PreparedContext;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.SearchSettings;
import dev.engram.WriteOptions;
import dev.engram.reasoner.DeterministicReasoner;
import java.util.List;
import org.junit.jupiter.api.Test;
import dev.engram.test.HashingEmbedder;

/**
 * Time references in queries ("last week", "in March"): an entry that occurred in the referenced time
 * outranks an otherwise equal one, no boost without a reference or with the boost off, and relative
 * references count from the engine clock unless the request gives a time. Engine rules, run once against
 * the reference store.
 */
class TimeReferencesSearchTest extends EngineRules {

  private static final Grants U1 = Grants.of("app/user/u1");

  // ---- time references in queries (SearchSettings.timeBoost)

  /** Wednesday 17 January 2024, noon UTC: "last week" is 8-14 January. */
  private static final java.time.Instant REFERENCE = java.time.Instant.parse("2024-01-17T12:00:00Z");
  private static final java.time.Instant LAST_WEEK = java.time.Instant.parse("2024-01-10T18:00:00Z");
  private static final java.time.Instant EARLIER = java.time.Instant.parse("2023-11-02T18:00:00Z");

  private Engram timeBoosted(SearchSettings settings, java.time.Clock clock) {
    return newEngram(new DeterministicReasoner(), b -> b.embedder(new HashingEmbedder()).searchSettings(settings)
        .clock(clock));
  }

  private static final String BAKE = "Paola baked a lemon cake for the neighbours.";

  /**
   * Two entries equal for both channels but for their event time (the same content at two paths whose
   * words are not in the query): {@code notes/n1} last week, {@code notes/n2} in November 2023.
   * {@code inFirst}: the dated one is the older version.
   */
  private static void twoBakes(Engram engram, boolean inFirst) {
    WriteOptions in = WriteOptions.builder().path("notes/n1").occurredAt(LAST_WEEK).build();
    WriteOptions out = WriteOptions.builder().path("notes/n2").occurredAt(EARLIER).build();
    if (inFirst) {
      engram.write(U1, BAKE, in);
      engram.write(U1, BAKE, out);
    } else {
      engram.write(U1, BAKE, out);
      engram.write(U1, BAKE, in);
    }
  }

  private static List<String> paths(SearchResult r) {
    return r.hits().stream().map(h -> h.entry().path()).toList();
  }

  private static String entryAt(Engram engram, String path) {
    return engram.search(U1, SearchRequest.builder("lemon cake").mode(SearchMode.FTS).build()).hits().stream()
        .filter(h -> path.equals(h.entry().path())).findFirst().orElseThrow().entry().entryId();
  }

  @Test
  void anEntryThatOccurredInTheReferencedTimeOutranksAnOtherwiseEqualOne() {
    for (boolean inFirst : new boolean[] {true, false}) {
      for (SearchMode mode : new SearchMode[] {SearchMode.FTS, SearchMode.HYBRID, SearchMode.AUTO}) {
        Engram engram = timeBoosted(SearchSettings.builder().timeBoost(0.2).build(), java.time.Clock.systemUTC());
        twoBakes(engram, inFirst);
        SearchResult r = engram.search(U1, SearchRequest.builder("What did Paola bake last week?").mode(mode)
            .referenceTime(REFERENCE).build());
        assertThat(paths(r)).as("%s, dated entry written %s", mode, inFirst ? "first" : "second")
            .containsExactly("notes/n1", "notes/n2");
        // a boost, not a filter: the entry outside the interval is still found, below
        assertThat(r.hits().get(0).score()).isGreaterThan(r.hits().get(1).score());
      }
    }
  }

  @Test
  void withoutTheBoostOrWithoutATimeReferenceTheTieGoesToTheNewerVersion() {
    Engram off = timeBoosted(SearchSettings.builder().timeBoost(0).build(), java.time.Clock.systemUTC());
    twoBakes(off, true);
    assertThat(paths(off.search(U1, SearchRequest.builder("What did Paola bake last week?").mode(SearchMode.FTS)
        .referenceTime(REFERENCE).build()))).containsExactly("notes/n2", "notes/n1");
    Engram on = timeBoosted(SearchSettings.builder().timeBoost(0.2).build(), java.time.Clock.systemUTC());
    twoBakes(on, true);
    assertThat(paths(on.search(U1, SearchRequest.builder("What did Paola bake?").mode(SearchMode.FTS)
        .referenceTime(REFERENCE).build()))).containsExactly("notes/n2", "notes/n1");
  }

  @Test
  void relativeReferencesCountFromTheEngineClockUnlessTheRequestGivesATime() {
    java.time.Clock clock = java.time.Clock.fixed(REFERENCE, java.time.ZoneOffset.UTC);
    Engram engram = timeBoosted(SearchSettings.builder().timeBoost(0.2).build(), clock);
    twoBakes(engram, false);
    java.time.Instant november = java.time.Instant.parse("2023-11-09T09:00:00Z");
    assertThat(paths(engram.search(U1, SearchRequest.builder("What did Paola bake last week?")
        .mode(SearchMode.FTS).build()))).containsExactly("notes/n1", "notes/n2");
    // "last week" of 9 November 2023 is 30 October - 5 November: the other entry's
    assertThat(paths(engram.search(U1, SearchRequest.builder("What did Paola bake last week?")
        .mode(SearchMode.FTS).referenceTime(november).build()))).containsExactly("notes/n2", "notes/n1");
    // the prepared context renders one of two equal contents: the one the boost puts first
    PreparedContext now = engram.prepareContext(U1, ContextRequest.of("What did Paola bake last week?"));
    assertThat(now.citations()).extracting(c -> c.entryId()).containsExactly(entryAt(engram, "notes/n1"));
    PreparedContext then = engram.prepareContext(U1, ContextRequest.builder("What did Paola bake last week?")
        .referenceTime(november).build());
    assertThat(then.citations()).extracting(c -> c.entryId()).containsExactly(entryAt(engram, "notes/n2"));
  }
}
