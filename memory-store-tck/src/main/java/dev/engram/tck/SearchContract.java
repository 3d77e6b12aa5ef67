/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.CapabilityNotSupportedException;
import dev.engram.Engram;
import dev.engram.EntryType;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.PreparedContext;
import dev.engram.SearchChannel;
import dev.engram.SearchHit;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.SearchSettings;
import dev.engram.WriteOptions;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.MemoryStore;
import dev.engram.test.HashingEmbedder;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Search and PreparedContext: the same simple queries rank the same entries first on every store,
 * only active entries in visible scopes are ranked, and explicit modes never change silently.
 */
public abstract class SearchContract extends ContractSupport {
  private static final Grants U1 = Grants.of("app/user/u1");
  private static final Grants U2 = Grants.of("app/user/u2");

  @Test
  void fullTextFindsTheEntryWithTheQueryTerms() {
    Engram engram = newEngram();
    seedFourTopics(engram);
    SearchResult r = search(engram, U1, "When does the team meet for planning?", SearchMode.FTS);
    assertThat(r.used()).isEqualTo(SearchMode.FTS);
    assertThat(r.hits()).isNotEmpty();
    assertThat(r.hits().get(0).entry().content()).isEqualTo("The team meets every Tuesday morning for planning.");
    assertThat(r.hits().get(0).matchedBy()).containsExactly(SearchChannel.FTS);
    assertThat(r.hits().get(0).ftsRank()).isEqualTo(1);
  }

  /** The default topic carries no meaning: words that share its stem must not match every entry. */
  @Test
  void theDefaultTopicIsNotFullTextIndexed() {
    Engram engram = newEngram();
    engram.write(U1, "The generator hums in the basement.");
    engram.write(U1, "Lunch is at noon on Fridays.");
    engram.write(U1, "Keeps receipts in a shoebox.");
    assertThat(engram.list(U1)).allSatisfy(e -> assertThat(e.topics()).containsExactly("general"));

    assertThat(contents(search(engram, U1, "generator", SearchMode.FTS)))
        .containsExactly("The generator hums in the basement.");
    for (String word : List.of("general", "generally", "generic", "generation")) {
      assertThat(contents(search(engram, U1, word, SearchMode.FTS))).as(word)
          .doesNotContain("Lunch is at noon on Fridays.", "Keeps receipts in a shoebox.");
    }
    // a topic that was chosen still finds its entries
    write(engram, U1, "Runs three times a week.", "fitness");
    assertThat(contents(search(engram, U1, "fitness", SearchMode.FTS))).containsExactly("Runs three times a week.");
  }

  /**
   * The full-text index covers the first {@value FullTextQuery#MAX_INDEXED_CONTENT_CHARS} characters
   * of content on every store: a 1 MiB entry of distinct words is stored everywhere, found by a word
   * near its start, not by a word past the bound, and read back whole.
   */
  @Test
  void aOneMebibyteEntryIsStoredOnEveryStoreAndFullTextIndexedUpToTheDocumentedBound() {
    Engram engram = newEngram(new DeterministicReasoner(), b -> b.maxContentBytes(1 << 20));
    StringBuilder text = new StringBuilder("aardvarkstart ");
    for (int i = 0; text.length() < (1 << 20) - 32; i++) {
      text.append('w').append(Integer.toString(i, 36)).append(' ');
    }
    text.append("zebraend");
    String content = text.toString();
    assertThat(content.length()).isGreaterThan(FullTextQuery.MAX_INDEXED_CONTENT_CHARS * 3);

    MemoryEntry stored = engram.write(U1, content).entry();

    assertThat(engram.get(U1, stored.entryId()).content()).isEqualTo(content);
    assertThat(search(engram, U1, "aardvarkstart", SearchMode.FTS).hits()).singleElement()
        .satisfies(h -> assertThat(h.entry().entryId()).isEqualTo(stored.entryId()));
    assertThat(search(engram, U1, "zebraend", SearchMode.FTS).hits()).isEmpty();
  }

  @Test
  void fullTextStemsWords() {
    Engram engram = newEngram();
    seedFourTopics(engram);
    assertThat(contents(search(engram, U1, "deploying", SearchMode.FTS)))
        .containsExactly("Deploys happen only after the contract tests pass.");
  }

  @Test
  void fullTextAdmitsOnlyEntriesContainingAQueryTerm() {
    Engram engram = newEngram();
    seedFourTopics(engram);
    assertThat(search(engram, U1, "volcano eruption", SearchMode.FTS).hits()).isEmpty();
    assertThat(search(engram, U1, "the of and", SearchMode.FTS).hits()).isEmpty();
  }

  @Test
  void glossaryOutranksContent() {
    Engram engram = newEngram();
    engram.write(U1, "Notes about the checkout service and its queue.", WriteOptions.builder().topicsHint("a").build());
    engram.write(U1, "Notes about the billing service and its retries.",
        WriteOptions.builder().topicsHint("b").glossary("checkout").build());
    SearchResult r = search(engram, U1, "checkout", SearchMode.FTS);
    assertThat(contents(r)).hasSize(2);
    assertThat(r.hits().get(0).entry().content()).isEqualTo("Notes about the billing service and its retries.");
  }

  @Test
  void disclosureAndTopicsAreSearchable() {
    Engram engram = newEngram();
    engram.write(U1, "Use the staging bucket.", WriteOptions.builder().topicsHint("storage")
        .disclosure("When uploading invoices").build());
    assertThat(contents(search(engram, U1, "invoices", SearchMode.FTS))).containsExactly("Use the staging bucket.");
    assertThat(contents(search(engram, U1, "storage", SearchMode.FTS))).containsExactly("Use the staging bucket.");
  }

  @Test
  void supersededAndRetiredVersionsAreNeverRanked() {
    Engram engram = withEmbedder(new HashingEmbedder());
    MemoryEntry a = write(engram, U1, "The office wifi password rotates monthly.", "it").entry();
    MemoryEntry b = write(engram, U1, "Parking permits renew in January.", "admin").entry();
    engram.correct(U1, a.entryId(), "The office network uses badge login now.");
    engram.retire(U1, b.citation(), "obsolete");
    for (SearchMode mode : List.of(SearchMode.FTS, SearchMode.VECTOR, SearchMode.HYBRID, SearchMode.AUTO)) {
      assertThat(search(engram, U1, "wifi password rotates", mode).hits()).as(mode.name())
          .allSatisfy(h -> assertThat(h.entry().content()).doesNotContain("wifi"));
      assertThat(search(engram, U1, "parking permits renew", mode).hits()).as(mode.name()).isEmpty();
    }
    assertThat(contents(search(engram, U1, "office network badge", SearchMode.FTS)))
        .containsExactly("The office network uses badge login now.");
  }

  @Test
  void searchNeverCrossesGrants() {
    Engram engram = withEmbedder(new HashingEmbedder());
    write(engram, U1, "Secret launch date is March 3.", "plans");
    write(engram, U2, "Secret launch date is June 9.", "plans");
    write(engram, Grants.of("app"), "Secret launch dates are shared at the all-hands.", "plans");
    for (SearchMode mode : SearchMode.values()) {
      List<SearchHit> hits = search(engram, U2, "secret launch date", mode).hits();
      assertThat(hits).as(mode.name()).isNotEmpty()
          .allSatisfy(h -> assertThat(h.entry().scope()).isIn("app/user/u2", "app/user", "app"));
    }
  }

  @Test
  void topicAndTypeFiltersApplyBeforeRanking() {
    Engram engram = newEngram();
    engram.write(U1, "Budget review happens quarterly.", WriteOptions.builder().topicsHint("finance").type(EntryType.EVENT).build());
    engram.write(U1, "Budget owner is Dana.", WriteOptions.builder().topicsHint("people").type(EntryType.FACT).build());
    assertThat(contents(engram.search(U1, SearchRequest.builder("budget").mode(SearchMode.FTS).topics("people").build())))
        .containsExactly("Budget owner is Dana.");
    assertThat(contents(engram.search(U1, SearchRequest.builder("budget").mode(SearchMode.FTS).types(EntryType.EVENT).build())))
        .containsExactly("Budget review happens quarterly.");
  }

  @Test
  void limitCapsHitsAndOrderIsDeterministic() {
    Engram engram = newEngram();
    for (int i = 0; i < 15; i++) {
      write(engram, U1, "Reminder number " + i + " about the quarterly report.", "reminders");
    }
    SearchRequest req = SearchRequest.builder("quarterly report").mode(SearchMode.FTS).limit(5).build();
    List<SearchHit> first = engram.search(U1, req).hits();
    assertThat(first).hasSize(5);
    assertThat(engram.search(U1, req).hits()).isEqualTo(first);
  }

  @Test
  void hybridFusesBothChannelsWithReciprocalRankFusion() {
    Engram engram = newEngram(new DeterministicReasoner(), b -> b.embedder(new HashingEmbedder())
        .searchSettings(SearchSettings.builder().fusion(SearchSettings.Fusion.RECIPROCAL_RANK).rrfK(60)
            .ftsWeight(1).vectorWeight(1).build()));
    seedFourTopics(engram);
    SearchResult r = search(engram, U1, "team planning meets Tuesday", SearchMode.HYBRID);
    assertThat(r.used()).isEqualTo(SearchMode.HYBRID);
    SearchHit top = r.hits().get(0);
    assertThat(top.entry().content()).isEqualTo("The team meets every Tuesday morning for planning.");
    assertThat(top.matchedBy()).containsExactlyInAnyOrder(SearchChannel.FTS, SearchChannel.VECTOR);
    assertThat(top.score()).isCloseTo(1.0 / (60 + top.ftsRank()) + 1.0 / (60 + top.vectorRank()),
        org.assertj.core.data.Offset.offset(1e-9));
    for (int i = 1; i < r.hits().size(); i++) {
      assertThat(r.hits().get(i).score()).isLessThanOrEqualTo(r.hits().get(i - 1).score());
    }
    SearchResult auto = search(engram, U1, "team planning meets Tuesday", SearchMode.AUTO);
    assertThat(auto.used()).isEqualTo(SearchMode.HYBRID);
    assertThat(auto.fallbackReason()).isNull();
  }

  /** The default score fusion: the best of both channels scores the sum of the weights (1.25 + 1). */
  @Test
  void hybridByDefaultFusesScaledChannelScores() {
    Engram engram = withEmbedder(new HashingEmbedder());
    seedFourTopics(engram);
    SearchResult r = search(engram, U1, "team planning meets Tuesday", SearchMode.HYBRID);
    SearchHit top = r.hits().get(0);
    assertThat(top.entry().content()).isEqualTo("The team meets every Tuesday morning for planning.");
    assertThat(top.matchedBy()).containsExactlyInAnyOrder(SearchChannel.FTS, SearchChannel.VECTOR);
    assertThat(top.ftsRank()).isEqualTo(1);
    assertThat(top.vectorRank()).isEqualTo(1);
    assertThat(top.score()).isCloseTo(SearchSettings.defaults().ftsWeight() + SearchSettings.defaults().vectorWeight(),
        org.assertj.core.data.Offset.offset(1e-9));
    for (int i = 1; i < r.hits().size(); i++) {
      assertThat(r.hits().get(i).score()).isLessThanOrEqualTo(r.hits().get(i - 1).score());
    }
  }

  /**
   * Fusion sanity, for both fusion methods and for hybrid and auto: an entry found by both channels never
   * ranks below an entry found by one channel only at a position that is not better in that channel.
   */
  @Test
  void anEntryFoundByBothChannelsNeverRanksBelowOneFoundByOneChannelAtEqualRanks() {
    for (SearchSettings.Fusion fusion : SearchSettings.Fusion.values()) {
      Engram engram = newEngram(new DeterministicReasoner(), b -> b.embedder(new HashingEmbedder())
          .searchSettings(SearchSettings.builder().fusion(fusion).vectorFloor(-1).build()));
      seedFourTopics(engram);
      write(engram, U1, "Planning notes are kept in the shared drive.", "schedule");
      write(engram, U1, "Tuesday is also the day the recycling is collected.", "home");
      write(engram, U1, "The morning stand-up is skipped on Tuesdays.", "schedule");
      write(engram, U1, "Webhook retries back off exponentially.", "payments");
      engram.write(U1, "The cat sleeps in the laundry basket.", WriteOptions.builder().priority(0).build());
      int pairs = 0;
      for (String query : List.of("team planning meets Tuesday", "webhooks refund retries", "morning units")) {
        for (SearchMode mode : List.of(SearchMode.HYBRID, SearchMode.AUTO)) {
          List<SearchHit> hits = search(engram, U1, query, mode).hits();
          for (int a = 0; a < hits.size(); a++) {
            SearchHit both = hits.get(a);
            if (both.matchedBy().size() != 2) {
              continue;
            }
            for (int b = 0; b < hits.size(); b++) {
              SearchHit one = hits.get(b);
              if (one.matchedBy().size() != 1) {
                continue;
              }
              boolean fts = one.matchedBy().contains(SearchChannel.FTS);
              int oneRank = fts ? one.ftsRank() : one.vectorRank();
              int bothRank = fts ? both.ftsRank() : both.vectorRank();
              if (bothRank <= oneRank) {
                pairs++;
                assertThat(a).as(fusion + " " + mode + " '" + query + "': " + both.entry().content()
                    + " (both channels) ranks below " + one.entry().content()).isLessThan(b);
              }
            }
          }
        }
      }
      assertThat(pairs).as("single-channel hits ranked above two-channel hits were checked").isGreaterThan(0);
    }
  }

  @Test
  void vectorChannelHonoursTheCosineFloor() {
    Engram engram = newEngram(new DeterministicReasoner(), b -> b.embedder(new HashingEmbedder())
        .searchSettings(SearchSettings.builder().vectorFloor(0.95).build()));
    seedFourTopics(engram);
    SearchResult r = search(engram, U1, "completely unrelated volcano geology", SearchMode.VECTOR);
    assertThat(r.hits()).isEmpty();
    SearchResult exact = search(engram, U1, "Prefers metric units for every workout log.", SearchMode.VECTOR);
    assertThat(contents(exact)).containsExactly("Prefers metric units for every workout log.");
    assertThat(exact.hits().get(0).cosine()).isGreaterThan(0.95);
  }

  @Test
  void failedWriteTimeEmbeddingKeepsTheWriteAndMarksVectorsIncomplete() {
    HashingEmbedder embedder = new HashingEmbedder();
    Engram engram = withEmbedder(embedder);
    seedFourTopics(engram);
    embedder.failing(true);
    MemoryEntry e = write(engram, U1, "Quarterly taxes are filed by the accountant.", "finance").entry();
    assertThat(engram.get(U1, e.entryId()).content()).isEqualTo("Quarterly taxes are filed by the accountant.");
    // while the embedder is down, a search cannot complete the gap: explicit modes fail, AUTO falls back
    assertThatThrownBy(() -> search(engram, U1, "taxes", SearchMode.VECTOR))
        .isInstanceOf(CapabilityNotSupportedException.class).hasMessageContaining("incomplete");
    assertThatThrownBy(() -> search(engram, U1, "taxes", SearchMode.HYBRID))
        .isInstanceOf(CapabilityNotSupportedException.class);
    SearchResult auto = search(engram, U1, "taxes accountant", SearchMode.AUTO);
    assertThat(auto.used()).isEqualTo(SearchMode.FTS);
    assertThat(auto.fallbackReason()).contains("incomplete");
    assertThat(contents(auto)).contains("Quarterly taxes are filed by the accountant.");

    // once it is back, the next search completes the few missing vectors itself
    embedder.failing(false);
    SearchResult after = search(engram, U1, "taxes accountant", SearchMode.AUTO);
    assertThat(after.used()).isEqualTo(SearchMode.HYBRID);
    assertThat(after.warnings()).isEmpty();
    assertThat(after.hits().get(0).matchedBy()).contains(SearchChannel.VECTOR);
    assertThat(engram.operator().reindex(U1)).isZero();
  }

  @Test
  void aScopeMissingManyVectorsIsSearchedByFullTextUntilReindex() {
    HashingEmbedder embedder = new HashingEmbedder();
    // without the background completion (VectorsContract has it), only a reindex completes them
    Engram engram = newEngram(createStore(), new DeterministicReasoner(), b -> b.embedder(embedder)
        .backgroundVectorCompletion(false));
    seedFourTopics(engram);
    embedder.failing(true);
    for (int i = 0; i < 17; i++) {
      write(engram, U1, "Quarterly tax note number " + i + " for the accountant.", "finance");
    }
    embedder.failing(false);
    SearchResult auto = search(engram, U1, "tax accountant", SearchMode.AUTO);
    assertThat(auto.used()).isEqualTo(SearchMode.FTS);
    assertThat(auto.fallbackReason()).contains("incomplete").contains("17 active entries").endsWith("(call reindex)");
    assertThat(engram.operator().reindex(U1)).isEqualTo(17);
    assertThat(search(engram, U1, "tax accountant", SearchMode.AUTO).used()).isEqualTo(SearchMode.HYBRID);
  }

  @Test
  void aProfileChangeMakesVectorsIncompleteUntilReindex() {
    MemoryStore store = createStore();
    Engram first = newEngram(store, new DeterministicReasoner(), b -> b.embedder(new HashingEmbedder("model-a", 64)));
    seedFourTopics(first);
    // more versions than a search completes by itself
    for (int i = 0; i < 16; i++) {
      write(first, U1, "Planning checklist item " + i + " for the release.", "planning");
    }
    Engram second = newEngram(store, new DeterministicReasoner(), b -> b.embedder(new HashingEmbedder("model-b", 32))
        .backgroundVectorCompletion(false));
    assertThat(search(second, U1, "planning", SearchMode.AUTO).used()).isEqualTo(SearchMode.FTS);
    assertThat(second.operator().reindex(U1)).isEqualTo(20);
    assertThat(search(second, U1, "planning", SearchMode.AUTO).used()).isEqualTo(SearchMode.HYBRID);
    assertThat(search(first, U1, "planning", SearchMode.AUTO).used()).isEqualTo(SearchMode.HYBRID);
  }

  @Test
  void autoFallsBackWhenQueryEmbeddingTimesOutButExplicitModesFail() {
    HashingEmbedder embedder = new HashingEmbedder();
    MemoryStore store = createStore();
    // the timeout bounds write-time embeddings too: seed with the default one, so a slow machine cannot
    // leave the seed without vectors
    seedFourTopics(newEngram(store, new DeterministicReasoner(), b -> b.embedder(new HashingEmbedder())));
    Engram engram = newEngram(store, new DeterministicReasoner(), b -> b.embedder(embedder)
        .searchSettings(SearchSettings.builder().embedTimeout(Duration.ofMillis(50)).build()));
    embedder.stalling(1000);
    SearchResult auto = search(engram, U1, "contract tests deploys", SearchMode.AUTO);
    assertThat(auto.used()).isEqualTo(SearchMode.FTS);
    assertThat(auto.fallbackReason()).contains("50 ms");
    assertThat(contents(auto)).contains("Deploys happen only after the contract tests pass.");
    assertThatThrownBy(() -> search(engram, U1, "deploys after tests", SearchMode.VECTOR))
        .isInstanceOf(CapabilityNotSupportedException.class);
  }

  @Test
  void vectorCacheFollowsWritesFromAnotherEngineOnTheSameStore() {
    MemoryStore store = createStore();
    Engram reader = newEngram(store, new DeterministicReasoner(), b -> b.embedder(new HashingEmbedder()));
    Engram writer = newEngram(store, new DeterministicReasoner(), b -> b.embedder(new HashingEmbedder()));
    seedFourTopics(writer);
    assertThat(search(reader, U1, "volcano lava eruption", SearchMode.VECTOR).hits()).isEmpty();
    write(writer, U1, "The volcano eruption sent lava downhill.", "geology");
    assertThat(contents(search(reader, U1, "volcano lava eruption", SearchMode.VECTOR)))
        .contains("The volcano eruption sent lava downhill.");
    MemoryEntry e = reader.search(U1, SearchRequest.builder("volcano lava eruption").mode(SearchMode.VECTOR).build())
        .hits().get(0).entry();
    writer.deleteEntry(U1, e.entryId());
    assertThat(contents(search(reader, U1, "volcano lava eruption", SearchMode.VECTOR)))
        .doesNotContain("The volcano eruption sent lava downhill.");
  }

  @Test
  void erasedEntriesAreNotFound() {
    Engram engram = withEmbedder(new HashingEmbedder());
    MemoryEntry e = write(engram, U1, "Allergic to peanuts.", "health").entry();
    engram.deleteEntry(U1, e.entryId());
    for (SearchMode mode : SearchMode.values()) {
      assertThat(search(engram, U1, "peanuts allergic", mode).hits()).as(mode.name()).isEmpty();
    }
  }

  /**
   * {@code occurredBetween(from, to)} is exact at its bounds in every mode: {@code from} is in, {@code to}
   * is out, a moment either side of them decides, and an entry without event time never matches.
   */
  @Test
  void theEventTimeFilterIsExactAtItsBounds() {
    java.time.Instant from = java.time.Instant.parse("2024-01-08T00:00:00Z");
    java.time.Instant to = java.time.Instant.parse("2024-01-15T00:00:00Z");
    Engram engram = withEmbedder(new HashingEmbedder());
    String[][] entries = {
        {"Harbour walk one before the week.", "2024-01-07T23:59:59.999Z"},
        {"Harbour walk two at the start.", "2024-01-08T00:00:00Z"},
        {"Harbour walk three inside.", "2024-01-11T12:00:00Z"},
        {"Harbour walk four at the last moment.", "2024-01-14T23:59:59.999Z"},
        {"Harbour walk five at the end bound.", "2024-01-15T00:00:00Z"},
        {"Harbour walk six with no time.", null}};
    for (String[] e : entries) {
      engram.write(U1, e[0], e[1] == null ? WriteOptions.defaults()
          : WriteOptions.builder().occurredAt(java.time.Instant.parse(e[1])).build());
    }
    for (SearchMode mode : new SearchMode[] {SearchMode.FTS, SearchMode.HYBRID, SearchMode.AUTO, SearchMode.VECTOR}) {
      SearchResult r = engram.search(U1, SearchRequest.builder("harbour walk").mode(mode).limit(20)
          .occurredBetween(from, to).build());
      assertThat(contents(r)).as("%s", mode).containsExactlyInAnyOrder("Harbour walk two at the start.",
          "Harbour walk three inside.", "Harbour walk four at the last moment.");
      assertThat(contents(engram.search(U1, SearchRequest.builder("harbour walk").mode(mode).limit(20)
          .occurredBetween(to, null).build()))).as("%s from the end bound on", mode)
          .containsExactly("Harbour walk five at the end bound.");
      assertThat(contents(engram.search(U1, SearchRequest.builder("harbour walk").mode(mode).limit(20)
          .occurredBetween(null, from).build()))).as("%s before the start bound", mode)
          .containsExactly("Harbour walk one before the week.");
    }
  }

  /**
   * The event-time filter reaches into every channel before it cuts at its depth: with many entries that
   * match the query better but lie outside the interval (more than ten times the channel depth), a
   * narrow interval still returns exactly its own matching entries, in every mode.
   */
  @Test
  void aNarrowEventTimeFilterFindsEntriesRankedFarBelowTheChannelDepth() {
    Engram engram = newEngram(new DeterministicReasoner(), b -> b.embedder(new HashingEmbedder())
        .searchSettings(SearchSettings.builder().channelDepth(10).build()));
    java.time.Instant from = java.time.Instant.parse("2024-03-04T00:00:00Z");
    java.time.Instant to = java.time.Instant.parse("2024-03-05T00:00:00Z");
    List<dev.engram.WriteRequest> outside = new java.util.ArrayList<>();
    for (int i = 0; i < 130; i++) {
      java.time.Instant at = i % 2 == 0 ? from.minusSeconds(3600L * (i + 1)) : to.plusSeconds(3600L * i);
      outside.add(dev.engram.WriteRequest.of("Harbour walk harbour walk " + i + ".",
          WriteOptions.builder().occurredAt(at).build()));
    }
    engram.writeAll(U1, outside);
    List<String> inside = List.of(
        "A harbour walk with the visiting cousins.",
        "Rain cut the harbour walk short.",
        "The evening harbour walk ended at the lighthouse.");
    List<dev.engram.WriteRequest> dated = new java.util.ArrayList<>();
    for (int i = 0; i < inside.size(); i++) {
      dated.add(dev.engram.WriteRequest.of(inside.get(i),
          WriteOptions.builder().occurredAt(from.plusSeconds(3600L * (4 * i + 8))).build()));
    }
    engram.writeAll(U1, dated);
    engram.write(U1, "A harbour walk on a day nobody wrote down, past the moored sailing boats.");

    for (SearchMode mode : new SearchMode[] {SearchMode.FTS, SearchMode.HYBRID, SearchMode.AUTO, SearchMode.VECTOR}) {
      SearchResult unfiltered = engram.search(U1, SearchRequest.builder("harbour walk").mode(mode).limit(100).build());
      assertThat(contents(unfiltered)).as("%s unfiltered", mode).doesNotContainAnyElementsOf(inside);
      SearchResult r = engram.search(U1, SearchRequest.builder("harbour walk").mode(mode).limit(5)
          .occurredBetween(from, to).build());
      assertThat(contents(r)).as("%s in the interval", mode).containsExactlyInAnyOrderElementsOf(inside);
    }
  }
}
