/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.SearchSettings;
import dev.engram.WriteOptions;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.test.HashingEmbedder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Lore's recency bonus and PowerContext's full-text term-coverage floor ({@link SearchSettings#recencyBoost()},
 * {@link SearchSettings#termCoverage()}): both off by default, and each does what it says when on. Engine rules,
 * run once against the reference store.
 */
class RecencyAndCoverageSearchTest extends EngineRules {

  private static final Grants U1 = Grants.of("app/user/u1");
  private static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");
  private static final Instant OLD = Instant.parse("2021-06-01T00:00:00Z");
  private static final Instant RECENT = Instant.parse("2026-05-01T00:00:00Z");
  private static final String NOTE = "The staging database is refreshed from production every Sunday night.";

  private Engram engram(SearchSettings settings) {
    return newEngram(new DeterministicReasoner(), b -> b.embedder(new HashingEmbedder()).searchSettings(settings));
  }

  /** The same content at two paths, one that occurred in 2021 and one in 2026, the {@code first} written first. */
  private static void twoNotes(Engram engram, Instant first, Instant second) {
    engram.write(U1, NOTE, WriteOptions.builder().path("notes/a").occurredAt(first).build());
    engram.write(U1, NOTE, WriteOptions.builder().path("notes/b").occurredAt(second).build());
  }

  private static List<Instant> times(SearchResult r) {
    return r.hits().stream().map(h -> h.entry().occurredAt()).toList();
  }

  private static SearchRequest.Builder query(String q, SearchMode mode) {
    return SearchRequest.builder(q).mode(mode).referenceTime(NOW);
  }

  @Test
  void withTheRecencyBonusTheNewerOfTwoEquallyRelevantEntriesRanksFirst() {
    SearchSettings lore = SearchSettings.builder().recencyBoost(0.04, Duration.ofDays(180)).build();
    for (SearchMode mode : new SearchMode[] {SearchMode.FTS, SearchMode.HYBRID}) {
      // the 2026 entry written first: without the bonus the tie goes to the newer version, the 2021 one
      Engram off = engram(SearchSettings.defaults());
      twoNotes(off, RECENT, OLD);
      assertThat(times(off.search(U1, query("when is staging refreshed", mode).build())))
          .as("%s, recency off", mode).containsExactly(OLD, RECENT);
      for (boolean recentFirst : new boolean[] {true, false}) {
        Engram on = engram(lore);
        twoNotes(on, recentFirst ? RECENT : OLD, recentFirst ? OLD : RECENT);
        SearchResult r = on.search(U1, query("when is staging refreshed", mode).build());
        assertThat(times(r)).as("%s, recency on, recent written %s", mode, recentFirst ? "first" : "second")
            .containsExactly(RECENT, OLD);
        // the bonus is bounded: the old entry loses at most the boost's share of the best score
        double best = r.hits().get(0).score();
        assertThat(best - r.hits().get(1).score()).isPositive().isLessThanOrEqualTo(0.04 * best);
      }
    }
  }

  @Test
  void aVersionWithoutEventTimeAgesFromWhenItWasWritten() {
    Engram on = engram(SearchSettings.builder().recencyBoost(0.04, Duration.ofDays(180)).build());
    on.write(U1, NOTE, WriteOptions.builder().path("notes/undated").build());
    on.write(U1, NOTE, WriteOptions.builder().path("notes/dated").occurredAt(OLD).build());
    // the undated one was written today, after NOW-5y: it counts as recent; the reference time is the clock
    SearchResult r = on.search(U1, SearchRequest.builder("staging refreshed").mode(SearchMode.FTS).build());
    assertThat(r.hits()).extracting(h -> h.entry().path()).containsExactly("notes/undated", "notes/dated");
  }

  private static final String QUESTION =
      "Which quarterly report showed the warehouse inventory shrinkage in Rotterdam?";
  private static final String ONE_TERM = "The Rotterdam office closes early on Fridays.";
  private static final String MOST_TERMS = "The quarterly report on Rotterdam found shrinkage of warehouse inventory.";

  @Test
  void theTermCoverageFloorKeepsFullTextHitsHoldingEnoughOfTheQuestionsTerms() {
    Engram off = engram(SearchSettings.defaults());
    off.write(U1, ONE_TERM);
    off.write(U1, MOST_TERMS);
    assertThat(off.search(U1, SearchRequest.builder(QUESTION).mode(SearchMode.FTS).build()).hits())
        .as("no floor: one term is enough").hasSize(2);

    Engram floored = engram(SearchSettings.builder().termCoverage(0.5).build());
    floored.write(U1, ONE_TERM);
    floored.write(U1, MOST_TERMS);
    for (int limit : new int[] {1, 10}) {
      assertThat(floored.search(U1, SearchRequest.builder(QUESTION).mode(SearchMode.FTS).limit(limit).build()).hits())
          .as("floor 0.5, limit %s", limit).extracting(h -> h.entry().content()).containsExactly(MOST_TERMS);
    }
    // a two-term query needs one term at 0.5
    assertThat(floored.search(U1, SearchRequest.builder("Rotterdam Fridays").mode(SearchMode.FTS).build()).hits())
        .extracting(h -> h.entry().content()).contains(ONE_TERM);
    // a floor of 1 needs every term: nothing holds all of the question's
    Engram all = engram(SearchSettings.builder().termCoverage(1).build());
    all.write(U1, ONE_TERM);
    all.write(U1, MOST_TERMS);
    assertThat(all.search(U1, SearchRequest.builder(QUESTION).mode(SearchMode.FTS).build()).hits()).isEmpty();
    assertThat(all.search(U1, SearchRequest.builder("Rotterdam quarterly shrinkage").mode(SearchMode.FTS).build())
        .hits()).extracting(h -> h.entry().content()).containsExactly(MOST_TERMS);
  }

  @Test
  void aFullTextHitBelowTheFloorCanStillBeFoundByVectors() {
    Engram floored = engram(SearchSettings.builder().termCoverage(1).vectorFloor(0).build());
    floored.write(U1, ONE_TERM);
    SearchResult r = floored.search(U1, SearchRequest.builder(QUESTION).mode(SearchMode.HYBRID).build());
    assertThat(r.hits()).singleElement().satisfies(h -> {
      assertThat(h.entry().content()).isEqualTo(ONE_TERM);
      assertThat(h.matchedBy()).containsExactly(dev.engram.SearchChannel.VECTOR);
    });
  }
}
