/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.Citation;
import dev.engram.ContextRequest;
import dev.engram.DirtyTopic;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.NotFoundException;
import dev.engram.ReadOptions;
import dev.engram.Revision;
import dev.engram.ScopeViolationException;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.TopicSummary;
import dev.engram.WriteOptions;
import dev.engram.WritePolicy;
import dev.engram.WriteResult;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreCapability;
import dev.engram.test.HashingEmbedder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Erasure ({@code deleteEntry}, {@code deleteScope}): the one exception to "history is complete".
 * After it, no version, event, topic row or index entry of the erased entries is reachable through
 * any call (reads, citations, history, full-text search, PreparedContext), the
 * revision log keeps only ids and keeps counting up, and nothing else is touched. Beneath the SPI, no
 * row of any table of the store (indexes, counters, bookkeeping) still mentions the erased content,
 * topics, path, glossary, disclosure or captured text ({@link StoredRows}).
 */
public abstract class ErasureContract extends ContractSupport {

  /**
   * What {@code store} holds beneath the SPI, every table of it (see {@link StoredRows}).
   *
   * @param store a store made by {@link #createStore()}
   * @return its rows at rest
   */
  protected abstract StoredRows storedRows(MemoryStore store);

  private static final ListOptions ALL = ListOptions.builder().includeSuperseded(true).build();

  /**
   * Scope {@code er/u1} holds a victim with four versions, a retirement and a reactivation (topics
   * {@code secret-topic} and {@code shared}), plus a bystander (topic {@code shared}); {@code er/u1/sub}
   * and {@code er/u2} hold more bystanders.
   */
  private final class Fixture {
    final MemoryStore store = createStore();
    final Engram engram = newEngram(store, new DeterministicReasoner(), b -> b);
    final boolean fullText = store.capabilities().contains(StoreCapability.FULL_TEXT_SEARCH);
    final Grants grants = Grants.of("er/u1");
    final Grants auditor = Grants.of("er/u1", "er/u1/sub", "er/u2");
    final String victimId;
    final List<Citation> victimCitations = new ArrayList<>();
    final List<String> victimEventIds = new ArrayList<>();
    final WriteResult bystander;
    final WriteResult below;
    final WriteResult other;

    Fixture() {
      WriteResult first = engram.write(grants, "the victim's secret diagnosis",
          WriteOptions.builder().topicsHint("secret-topic", "shared").path("health/diagnosis").build());
      victimId = first.entry().entryId();
      victimCitations.add(first.citation());
      MemoryEntry v2 = engram.correct(grants, victimId, "the victim's secret diagnosis, revised");
      victimCitations.add(v2.citation());
      MemoryEntry retired = engram.retire(grants, v2.citation(), "no longer relevant");
      engram.reactivate(grants, retired.citation(), "relevant again");
      MemoryEntry v3 = engram.correct(grants, victimId, "the victim's secret diagnosis, third take");
      victimCitations.add(v3.citation());
      for (MemoryEvent e : engram.history(grants, victimId)) {
        victimEventIds.add(e.eventId());
      }
      bystander = write(engram, grants, "a bystander fact in the same scope", "shared");
      below = write(engram, Grants.of("er/u1/sub"), "a bystander below", "secret-topic");
      other = write(engram, Grants.of("er/u2"), "a bystander in another scope", "secret-topic");
    }

    /** Entry ids that full-text search and PreparedContext surface for "diagnosis" (empty without full text). */
    Set<String> searchable(Grants g) {
      if (!fullText) {
        return Set.of();
      }
      Set<String> ids = new HashSet<>();
      engram.search(g, SearchRequest.builder("secret diagnosis").mode(SearchMode.FTS).build()).hits()
          .forEach(h -> ids.add(h.entry().entryId()));
      engram.prepareContext(g, ContextRequest.of("secret diagnosis")).citations().forEach(c -> ids.add(c.entryId()));
      return ids;
    }
  }

  @Test
  void deleteEntryErasesEveryVersionCitationAndEvent() {
    Fixture f = new Fixture();
    assertThat(f.victimEventIds).hasSize(5);
    if (f.fullText) {
      assertThat(f.searchable(f.grants)).contains(f.victimId);
    }
    assertThat(f.engram.deleteEntry(f.grants, f.victimId)).isEqualTo(3);

    for (Grants g : List.of(f.grants, f.auditor)) {
      for (Citation c : f.victimCitations) {
        assertThatThrownBy(() -> f.engram.get(g, c)).as(c.render()).isInstanceOf(NotFoundException.class);
      }
      assertThatThrownBy(() -> f.engram.get(g, f.victimId)).isInstanceOf(NotFoundException.class);
      assertThatThrownBy(() -> f.engram.history(g, f.victimId)).isInstanceOf(NotFoundException.class);
      assertThat(f.engram.list(g, ALL)).extracting(MemoryEntry::entryId).doesNotContain(f.victimId);
      assertThat(f.engram.list(g, ListOptions.builder().includeRetired(true).build()))
          .extracting(MemoryEntry::entryId).doesNotContain(f.victimId);
      assertThat(f.engram.read(g, List.of("secret-topic", "shared"), ReadOptions.limit(1000)))
          .extracting(MemoryEntry::entryId).doesNotContain(f.victimId);
      assertThat(f.searchable(g)).doesNotContain(f.victimId);
    }
    for (String eventId : f.victimEventIds) {
      assertThatThrownBy(() -> f.engram.rollback(f.grants, eventId)).isInstanceOf(NotFoundException.class);
    }
    assertThat(f.engram.list(f.auditor, ALL)).extracting(MemoryEntry::content)
        .noneMatch(c -> c.contains("diagnosis"));
  }

  @Test
  void deleteEntryDropsTopicsOnlyTheErasedEntryCarried() {
    Fixture f = new Fixture();
    f.engram.deleteEntry(f.grants, f.victimId);
    assertThat(f.engram.scan(f.grants)).extracting(t -> t.scope() + ":" + t.topic() + "=" + t.count())
        .containsExactly("er/u1:shared=1");
    assertThat(f.engram.scan(f.auditor)).extracting(TopicSummary::scope, TopicSummary::topic)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("er/u1", "shared"),
            org.assertj.core.groups.Tuple.tuple("er/u1/sub", "secret-topic"),
            org.assertj.core.groups.Tuple.tuple("er/u2", "secret-topic"));
    assertThat(f.engram.operator().listDirtyTopics()).extracting(DirtyTopic::scope, DirtyTopic::topic)
        .doesNotContain(org.assertj.core.groups.Tuple.tuple("er/u1", "secret-topic"));
  }

  @Test
  void deleteEntryFreesItsContentHashAndPath() {
    Fixture f = new Fixture();
    f.engram.deleteEntry(f.grants, f.victimId);
    WriteResult again = f.engram.write(f.grants, "the victim's secret diagnosis, third take",
        WriteOptions.builder().topicsHint("secret-topic").path("health/diagnosis").build());
    assertThat(again.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
    assertThat(again.entry().entryId()).isNotEqualTo(f.victimId);
    assertThat(again.entry().version()).isEqualTo(1);
    assertThat(again.entry().previousVersionId()).isNull();
    assertThat(f.engram.history(f.grants, again.entry().entryId())).hasSize(1);
  }

  @Test
  void deleteEntryLeavesEveryOtherEntryUntouched() {
    Fixture f = new Fixture();
    Grants sub = Grants.of("er/u1/sub");
    ListOptions onlySub = ListOptions.builder().includeSuperseded(true).scope("er/u1/sub").build();
    List<MemoryEntry> subBefore = f.engram.list(sub, onlySub);
    List<MemoryEvent> subHistory = f.engram.history(sub, f.below.entry().entryId());
    VisibleState otherBefore = VisibleState.of(f.engram, Grants.of("er/u2"));
    List<MemoryEvent> bystanderHistory = f.engram.history(f.grants, f.bystander.entry().entryId());
    f.engram.deleteEntry(f.grants, f.victimId);
    assertThat(f.engram.get(f.grants, f.bystander.citation())).isEqualTo(f.bystander.entry());
    assertThat(f.engram.history(f.grants, f.bystander.entry().entryId())).isEqualTo(bystanderHistory);
    assertThat(f.engram.list(f.auditor, ALL)).extracting(MemoryEntry::entryId)
        .containsExactlyInAnyOrder(
            f.bystander.entry().entryId(), f.below.entry().entryId(), f.other.entry().entryId());
    assertThat(f.engram.list(sub, onlySub)).isEqualTo(subBefore);
    assertThat(f.engram.history(sub, f.below.entry().entryId())).isEqualTo(subHistory);
    assertThat(VisibleState.of(f.engram, Grants.of("er/u2"))).isEqualTo(otherBefore);
  }

  @Test
  void deleteEntryMakesOneRevisionThatCarriesOnlyIds() {
    Fixture f = new Fixture();
    long head = f.engram.revision(f.grants, "er/u1");
    List<Revision> logBefore = f.engram.changes(f.grants, "er/u1", 0);
    f.engram.deleteEntry(f.grants, f.victimId);
    assertThat(f.engram.revision(f.grants, "er/u1")).isEqualTo(head + 1);
    List<Revision> log = f.engram.changes(f.grants, "er/u1", 0);
    assertThat(log).extracting(Revision::revision).containsExactly(
        java.util.stream.LongStream.rangeClosed(1, head + 1).boxed().toArray(Long[]::new));
    assertThat(log.subList(0, logBefore.size())).isEqualTo(logBefore);
    assertThat(log.get(log.size() - 1).changes()).containsExactly(new Change(ChangeKind.DELETE, f.victimId, null));
    assertThat(log.toString()).doesNotContain("diagnosis").doesNotContain("secret-topic");
    WriteResult next = write(f.engram, f.grants, "written after the erasure", "shared");
    assertThat(next.revision()).isEqualTo(head + 2);
  }

  @Test
  void erasedEntriesCannotBeChangedOrErasedAgain() {
    Fixture f = new Fixture();
    Citation last = f.victimCitations.get(f.victimCitations.size() - 1);
    f.engram.deleteEntry(f.grants, f.victimId);
    VisibleState before = VisibleState.of(f.engram, f.auditor);
    assertThatThrownBy(() -> f.engram.correct(f.grants, f.victimId, "resurrect")).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> f.engram.retire(f.grants, last, "again")).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> f.engram.reactivate(f.grants, last, "again")).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> f.engram.deleteEntry(f.grants, f.victimId)).isInstanceOf(NotFoundException.class);
    assertThat(VisibleState.of(f.engram, f.auditor)).isEqualTo(before);
  }

  @Test
  void deleteScopeWithoutRecursionErasesOnlyThatScope() {
    Fixture f = new Fixture();
    long head = f.engram.revision(f.grants, "er/u1");
    Grants sub = Grants.of("er/u1/sub");
    List<MemoryEntry> belowBefore = f.engram.list(sub, ListOptions.builder().includeSuperseded(true).scope("er/u1/sub").build());
    List<MemoryEvent> belowHistory = f.engram.history(sub, f.below.entry().entryId());
    long belowHead = f.engram.revision(sub, "er/u1/sub");
    VisibleState otherBefore = VisibleState.of(f.engram, Grants.of("er/u2"));
    if (f.fullText) {
      assertThat(f.searchable(f.grants)).contains(f.victimId);
    }
    assertThat(f.engram.deleteScope(f.grants, "er/u1")).isEqualTo(2);
    assertThat(f.searchable(f.grants)).doesNotContain(f.victimId, f.bystander.entry().entryId());

    assertThat(f.engram.list(f.grants, ALL)).isEmpty();
    assertThat(f.engram.scan(f.grants)).isEmpty();
    assertThat(f.engram.read(f.grants, List.of("secret-topic", "shared"))).isEmpty();
    for (Citation c : f.victimCitations) {
      assertThatThrownBy(() -> f.engram.get(f.grants, c)).isInstanceOf(NotFoundException.class);
    }
    assertThatThrownBy(() -> f.engram.get(f.grants, f.bystander.citation())).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> f.engram.history(f.grants, f.victimId)).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> f.engram.history(f.grants, f.bystander.entry().entryId()))
        .isInstanceOf(NotFoundException.class);
    assertThat(f.engram.operator().listDirtyTopics()).extracting(DirtyTopic::scope).doesNotContain("er/u1");
    assertThat(f.engram.list(sub, ListOptions.builder().includeSuperseded(true).scope("er/u1/sub").build()))
        .isEqualTo(belowBefore).isNotEmpty();
    assertThat(f.engram.history(sub, f.below.entry().entryId())).isEqualTo(belowHistory);
    assertThat(f.engram.revision(sub, "er/u1/sub")).isEqualTo(belowHead);
    assertThat(f.engram.scan(sub)).extracting(TopicSummary::scope).containsExactly("er/u1/sub");
    assertThat(VisibleState.of(f.engram, Grants.of("er/u2"))).isEqualTo(otherBefore);

    assertThat(f.engram.revision(f.grants, "er/u1")).isEqualTo(head + 1);
    Revision erasure = f.engram.changes(f.grants, "er/u1", head).get(0);
    assertThat(erasure.changes()).extracting(Change::kind).containsOnly(ChangeKind.DELETE);
    assertThat(erasure.changes()).extracting(Change::entryId)
        .containsExactlyInAnyOrder(f.victimId, f.bystander.entry().entryId());
    assertThat(erasure.changes()).extracting(Change::versionId).containsOnlyNulls();
  }

  @Test
  void deleteScopeRecursiveErasesTheSubtreeAndNothingBesideIt() {
    Engram engram = newEngram();
    for (String scope : List.of("rec/a_b", "rec/a_b/c", "rec/a_b/c/d", "rec/aXb", "rec/a_bc", "rec/A_B", "rec/a%",
        "rec/ab", "rec")) {
      write(engram, Grants.of(scope), "fact in " + scope, "t");
    }
    Grants beside = Grants.of("rec/aXb", "rec/a_bc", "rec/A_B", "rec/a%", "rec/ab");
    VisibleState besideBefore = VisibleState.of(engram, beside);
    assertThat(engram.deleteScope(Grants.of("rec/a_b"), "rec/a_b", dev.engram.DeleteScopeOptions.withDescendants())).isEqualTo(3);
    for (String scope : List.of("rec/a_b", "rec/a_b/c", "rec/a_b/c/d")) {
      assertThat(engram.list(Grants.of(scope), ALL)).as(scope).extracting(MemoryEntry::scope).doesNotContain(scope);
      assertThat(engram.scan(Grants.of(scope))).as(scope).extracting(TopicSummary::scope).doesNotContain(scope);
      assertThat(engram.revision(Grants.of(scope), scope)).as(scope).isEqualTo(2);
    }
    assertThat(VisibleState.of(engram, beside)).isEqualTo(besideBefore);

    assertThat(engram.deleteScope(Grants.of("rec/a%"), "rec/a%", dev.engram.DeleteScopeOptions.withDescendants())).isEqualTo(1);
    assertThat(engram.list(Grants.of("rec/ab"), ALL)).extracting(MemoryEntry::scope).containsExactly("rec", "rec/ab");
    assertThat(engram.list(Grants.of("rec/aXb"), ALL)).extracting(MemoryEntry::scope).containsExactly("rec", "rec/aXb");
  }

  @Test
  void aRestoreErasesWhatItReplacesAsThoroughlyAsDeleteScope() {
    MemoryStore store = createStore();
    Assumptions.assumeTrue(store.capabilities().contains(StoreCapability.REPLACE_SCOPE));
    boolean vectors = store.capabilities().contains(StoreCapability.VECTOR_STORAGE);
    boolean sources = store.capabilities().contains(StoreCapability.SOURCES);
    Engram engram = newEngram(store, new DeterministicReasoner(), b -> vectors ? b.embedder(new HashingEmbedder()) : b);
    StoredRows rows = storedRows(store);
    Grants u1 = Grants.of("res/u1");
    write(engram, u1, "A fact of the backup that stays.", "shared");
    java.io.StringWriter backup = new java.io.StringWriter();
    engram.operator().export(u1, backup);
    // written after the backup: every field a word of its own, all of it replaced by the restore
    WriteResult later = engram.write(u1, "The quetzalcoatl file is sealed.", WriteOptions.builder()
        .topicsHint("hiv-status", "shared").path("health/axolotlpath").disclosure("When the okapiwhen question comes up")
        .glossary(List.of("pangolinterm")).build());
    engram.correct(u1, later.entry().entryId(), "The quetzalcoatl file is sealed twice.");
    List<String> words = new ArrayList<>(List.of("quetzalcoatl", "hiv-status", "axolotlpath", "okapiwhen", "pangolinterm"));
    if (sources) {
      engram.capture(u1, dev.engram.SourceRecord.of("s", "user", "The narwhalsaid turn was captured.").id("turn-9"));
      words.add("narwhalsaid");
    }
    for (String word : words) {
      assertThat(rows.mentioning(word)).as("the store holds '%s' before the restore", word).isNotEmpty();
    }

    engram.operator().importFrom(u1, new java.io.StringReader(backup.toString()), dev.engram.ImportOptions.replace());

    for (String word : words) {
      assertThat(rows.mentioning(word)).as("rows mentioning '%s' after the restore", word).isEmpty();
    }
    assertThat(rows.mentioning("A fact of the backup that stays.")).isNotEmpty();
  }

  @Test
  void erasureLeavesNoRowOfAnyTableMentioningWhatWasErased() {
    MemoryStore store = createStore();
    boolean vectors = store.capabilities().contains(StoreCapability.VECTOR_STORAGE);
    boolean sources = store.capabilities().contains(StoreCapability.SOURCES);
    Engram engram = newEngram(store, new DeterministicReasoner(), b -> vectors ? b.embedder(new HashingEmbedder()) : b);
    StoredRows rows = storedRows(store);
    Grants u1 = Grants.of("res/u1");
    Grants u2 = Grants.of("res/u2");
    // every field of the erased entry carries a word of its own (each its own Porter stem, so a full-text
    // index holds it as it is written)
    WriteResult victim = engram.write(u1, "The quetzalcoatl file is sealed.", WriteOptions.builder()
        .topicsHint("hiv-status", "shared").path("health/axolotlpath").disclosure("When the okapiwhen question comes up")
        .glossary(List.of("pangolinterm")).build());
    MemoryEntry v2 = engram.correct(u1, victim.entry().entryId(), "The quetzalcoatl file is sealed twice.");
    engram.reactivate(u1, engram.retire(u1, v2.citation(), "for a moment").citation(), "back");
    write(engram, u1, "A bystander fact that stays.", "shared");
    List<String> u1Words = List.of("quetzalcoatl", "hiv-status", "axolotlpath", "okapiwhen", "pangolinterm");
    for (String word : u1Words) {
      assertThat(rows.mentioning(word)).as("the store holds '%s' before the erasure", word).isNotEmpty();
    }

    engram.deleteEntry(u1, victim.entry().entryId());

    for (String word : u1Words) {
      assertThat(rows.mentioning(word)).as("rows mentioning '%s' after deleteEntry", word).isEmpty();
    }
    assertThat(rows.mentioning("A bystander fact that stays.")).isNotEmpty();

    WriteResult inU2 = engram.write(u2, "The wombatnook is kept here.",
        WriteOptions.builder().topicsHint("tsetse-topic").path("notes/wombatpath").build());
    engram.correct(u2, inU2.entry().entryId(), "The wombatnook is kept here, revised.");
    List<String> u2Words = new ArrayList<>(List.of("wombatnook", "tsetse-topic", "wombatpath"));
    if (sources) {
      engram.capture(u2, dev.engram.SourceRecord.of("s", "user", "The narwhalsaid turn was captured.").id("turn-1"));
      engram.flush(u2);
      u2Words.add("narwhalsaid");
    }
    for (String word : u2Words) {
      assertThat(rows.mentioning(word)).as("the store holds '%s' before the erasure", word).isNotEmpty();
    }

    engram.deleteScope(u2, "res/u2");

    for (String word : u2Words) {
      assertThat(rows.mentioning(word)).as("rows mentioning '%s' after deleteScope", word).isEmpty();
    }
    assertThat(rows.mentioning("A bystander fact that stays.")).isNotEmpty();
  }

  @Test
  void revisionsKeepCountingUpAcrossScopeErasure() {
    Engram engram = newEngram();
    Grants g = Grants.of("cnt/s");
    write(engram, g, "one", "t");
    write(engram, g, "two", "t");
    assertThat(engram.deleteScope(g, "cnt/s")).isEqualTo(2);
    assertThat(engram.revision(g, "cnt/s")).isEqualTo(3);
    WriteResult after = write(engram, g, "one", "t");
    assertThat(after.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
    assertThat(after.revision()).isEqualTo(4);
    assertThat(engram.changes(g, "cnt/s", 0)).extracting(Revision::revision).containsExactly(1L, 2L, 3L, 4L);
    assertThat(engram.changes(g, "cnt/s", 0)).flatExtracting(Revision::changes).extracting(Change::kind)
        .containsExactly(ChangeKind.APPEND, ChangeKind.APPEND, ChangeKind.DELETE, ChangeKind.DELETE, ChangeKind.APPEND);
    assertThat(engram.deleteScope(g, "cnt/s/never-written")).isZero();
  }

  @Test
  void erasingOutsideTheWritableScopesIsAScopeViolationAndErasesNothing() {
    Fixture f = new Fixture();
    WriteResult ancestor = write(f.engram, Grants.of("er"), "an ancestor fact", "shared");
    Grants all = Grants.of("er/u1", "er/u1/sub", "er/u2", "er");
    VisibleState before = VisibleState.of(f.engram, all);
    assertThatThrownBy(() -> f.engram.deleteEntry(f.grants, ancestor.entry().entryId()))
        .isInstanceOf(ScopeViolationException.class).hasMessageContaining("'er'");
    assertThatThrownBy(() -> f.engram.deleteScope(f.grants, "er"))
        .isInstanceOf(ScopeViolationException.class).hasMessageContaining("'er'");
    assertThatThrownBy(() -> f.engram.deleteScope(f.grants, "er", dev.engram.DeleteScopeOptions.withDescendants())).isInstanceOf(ScopeViolationException.class);
    assertThatThrownBy(() -> f.engram.deleteScope(f.grants, "er/u2", dev.engram.DeleteScopeOptions.withDescendants())).isInstanceOf(ScopeViolationException.class);
    assertThatThrownBy(() -> f.engram.deleteScope(f.grants, "er/u1x"))
        .isInstanceOf(ScopeViolationException.class);
    assertThatThrownBy(() -> f.engram.deleteEntry(f.grants, f.other.entry().entryId()))
        .isInstanceOf(NotFoundException.class);
    assertThat(VisibleState.of(f.engram, all)).isEqualTo(before);
  }

  @Test
  void recursiveErasureIsRefusedWholeWhenAnySubscopeIsNotWritable() {
    Engram engram = newEngram(new TargetedReasoner(), b -> b.writePolicy(WritePolicy.grantOnly()));
    write(engram, Grants.of("gw/u1"), "top fact", "t");
    write(engram, Grants.of("gw/u1/notes"), "note fact", "t");
    Grants all = Grants.of("gw/u1", "gw/u1/notes");
    VisibleState before = VisibleState.of(engram, all);
    assertThatThrownBy(() -> engram.deleteScope(Grants.of("gw/u1"), "gw/u1", dev.engram.DeleteScopeOptions.withDescendants()))
        .isInstanceOf(ScopeViolationException.class).hasMessageContaining("gw/u1/notes");
    assertThat(VisibleState.of(engram, all)).isEqualTo(before);
    assertThat(engram.deleteScope(Grants.of("gw/u1"), "gw/u1")).isEqualTo(1);
    assertThat(engram.list(Grants.of("gw/u1/notes"))).extracting(MemoryEntry::content).containsExactly("note fact");
  }

  @Test
  void erasureDropsTheEngineCachedVectorsAndContentOfTheEntryAtOnce() throws InterruptedException {
    MemoryStore store = createStore();
    org.junit.jupiter.api.Assumptions.assumeTrue(store.capabilities().contains(StoreCapability.VECTOR_STORAGE),
        "the store keeps no vectors");
    Engram engram = newEngram(store, new DeterministicReasoner(), b -> b.embedder(new HashingEmbedder()));
    Grants u1 = Grants.of("er/u1");
    Grants u2 = Grants.of("er/u2");
    write(engram, u1, "The lighthouse keeper logs the tide.", "coast");
    write(engram, u2, "The lighthouse lamp is serviced monthly.", "coast");
    String erasedEntry = write(engram, u1, "The lighthouse vault code is kept by Mira.", "coast").entry().entryId();
    write(engram, u2, "The lighthouse ferry leaves at dawn.", "coast");
    java.lang.ref.WeakReference<MemoryEntry> entryHit = cachedHit(engram, u1, "lighthouse vault code Mira");
    java.lang.ref.WeakReference<MemoryEntry> scopeHit = cachedHit(engram, u2, "lighthouse ferry dawn");

    engram.deleteEntry(u1, erasedEntry);
    engram.deleteScope(u2, "er/u2");

    assertThat(collected(entryHit)).as("deleteEntry released the cached version").isTrue();
    assertThat(collected(scopeHit)).as("deleteScope released the cached versions").isTrue();
  }

  /** Runs a vector search (which fills the engine's vector cache) and weakly refers to its top hit. */
  private static java.lang.ref.WeakReference<MemoryEntry> cachedHit(Engram engram, Grants grants, String query) {
    List<dev.engram.SearchHit> hits = engram.search(grants, SearchRequest.builder(query).mode(SearchMode.VECTOR).build()).hits();
    assertThat(hits).isNotEmpty();
    return new java.lang.ref.WeakReference<>(hits.get(0).entry());
  }

  private static boolean collected(java.lang.ref.WeakReference<?> ref) throws InterruptedException {
    for (int i = 0; i < 50 && ref.get() != null; i++) {
      System.gc();
      byte[][] pressure = new byte[16][];
      for (int k = 0; k < pressure.length; k++) {
        pressure[k] = new byte[1 << 16];
      }
      Thread.sleep(10);
    }
    return ref.get() == null;
  }
}
