/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static dev.engram.tck.Fixtures.S1;
import static dev.engram.tck.Fixtures.S2;
import static dev.engram.tck.Fixtures.clocked;
import static dev.engram.tck.Fixtures.topics;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.CurateReport;
import dev.engram.DirtyTopic;
import dev.engram.Engram;
import dev.engram.EngramBuilder;
import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.ErrorCode;
import dev.engram.EventKind;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.ReasonerException;
import dev.engram.Revision;
import dev.engram.StoreException;
import dev.engram.TopicSummary;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import dev.engram.WriteResult.Outcome;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.CurateOp;
import dev.engram.spi.CurateRequest;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import dev.engram.spi.TagProposal;
import dev.engram.spi.TagRequest;
import dev.engram.spi.TopicState;
import dev.engram.tck.FaultInjectingStore.Step;
import dev.engram.test.ScriptedReasoner;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Layer 3: topic normalization, dirty tracking, curation with a scripted reasoner (every op, and
 * hostile answers that must change nothing), and hostile tag answers on write (invariant 5).
 */
public abstract class TopicsContract extends ContractSupport {
  private static final Grants U1 = Grants.of(S1);
  private static final Grants U2 = Grants.of(S2);
  private static final List<String> ALL_SCOPES = List.of("app", "app/user", S1, S2, "org/team");

  /** One store, an engine over it, and the scripted reasoner the engine uses. */
  private record Rig(MemoryStore store, Engram engram, ScriptedReasoner reasoner) {
    StoreSnapshot snapshot() {
      return StoreSnapshot.of(store, ALL_SCOPES);
    }
  }

  private Rig rig() {
    return rig(createStore(), b -> b);
  }

  private Rig rig(MemoryStore store, UnaryOperator<EngramBuilder> settings) {
    ScriptedReasoner reasoner = new ScriptedReasoner();
    return new Rig(store, newEngram(store, reasoner, clocked(settings)), reasoner);
  }

  private static List<DirtyTopic> dirty(Engram e) {
    return e.listDirtyTopics();
  }

  private static TopicState topicRow(MemoryStore store, String scope, String topic) {
    return store.topics(List.of(scope)).stream().filter(t -> t.topic().equals(topic)).findFirst().orElseThrow();
  }

  private static MemoryEvent lastEvent(Engram e, Grants g, MemoryEntry m) {
    List<MemoryEvent> h = e.history(g, m.entryId());
    return h.get(h.size() - 1);
  }

  // ---- topic normalization

  @Test
  void topicHintsAreTrimmedLowercasedAndDeduplicated() {
    Engram e = newEngram(new DeterministicReasoner(), clocked());
    MemoryEntry m = write(e, U1, "Focus time is before noon", " Work ", "WORK", "Deep   Focus", "work", "\u00dcBER").entry();

    assertThat(m.topics()).containsExactly("work", "deep focus", "\u00fcber");
    assertThat(e.read(U1, "Deep Focus")).containsExactly(m);
    assertThat(e.scan(U1)).extracting(TopicSummary::topic).containsExactly("deep focus", "work", "\u00fcber");
  }

  @Test
  void entriesWithoutTopicsGoToGeneral() {
    Engram e = newEngram(new DeterministicReasoner(), clocked());
    MemoryEntry m = e.write(U1, "No topic given").entry();

    assertThat(m.topics()).containsExactly("general");
    assertThat(e.read(U1, "general")).containsExactly(m);
    assertThat(e.scan(U1)).singleElement().satisfies(t -> {
      assertThat(t.topic()).isEqualTo("general");
      assertThat(t.count()).isEqualTo(1);
    });
  }

  @Test
  void theCoreTopicMarksTheAlwaysLoadProfile() {
    Engram e = newEngram(new DeterministicReasoner(), clocked());
    MemoryEntry core = write(e, U1, "Name is Ada", "Core", "profile").entry();
    write(e, U1, "Likes long walks", "profile");

    assertThat(core.topics()).containsExactly("core", "profile");
    assertThat(e.read(U1, "core")).containsExactly(core);
    assertThat(e.scan(U1)).extracting(TopicSummary::topic, TopicSummary::count)
        .containsExactly(tuple("core", 1), tuple("profile", 2));
  }

  @Test
  void malformedTopicsAreRejectedAndNothingIsStored() {
    Engram e = newEngram(new DeterministicReasoner(), clocked());
    MemoryEntry kept = write(e, U1, "Kept entry", "fine").entry();

    assertThatThrownBy(() -> write(e, U1, "Bad topic", "a/b"))
        .isInstanceOfSatisfying(InvalidInputException.class, x -> assertThat(x.field()).isEqualTo("topicsHint[0]"));
    assertThatThrownBy(() -> write(e, U1, "Bad topic", "ok", "wild*card"))
        .isInstanceOfSatisfying(InvalidInputException.class, x -> assertThat(x.field()).isEqualTo("topicsHint[1]"));
    assertThatThrownBy(() -> write(e, U1, "Bad topic", "   ")).isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(() -> write(e, U1, "Bad topic", "x".repeat(65))).isInstanceOf(InvalidInputException.class);
    List<String> seventeen = new ArrayList<>();
    for (int i = 0; i < 17; i++) {
      seventeen.add("t" + i);
    }
    assertThatThrownBy(() -> e.write(U1, "Too many topics", WriteOptions.builder().topicsHint(seventeen).build()))
        .isInstanceOf(InvalidInputException.class);

    assertThat(everything(e, U1)).containsExactly(kept);
    assertThat(e.revision(U1, S1)).isEqualTo(1);
    assertThat(e.scan(U1)).extracting(TopicSummary::topic).containsExactly("fine");
  }

  // ---- dirty tracking

  @Test
  void writesMakeTheirScopeAndTopicsDirty() {
    Engram e = newEngram(new DeterministicReasoner(), clocked());
    write(e, U1, "Works on the billing team", "work");
    write(e, U1, "Commutes by bike", "work", "home");

    assertThat(dirty(e)).containsExactly(new DirtyTopic(S1, "home", 2, 0), new DirtyTopic(S1, "work", 2, 0));
    assertThat(e.scan(U1)).allMatch(TopicSummary::hasUncuratedWrites);
  }

  @Test
  void listDirtyTopicsIsGlobalAcrossScopesAndBounded() {
    Engram e = newEngram(new DeterministicReasoner(), clocked());
    write(e, Grants.of("org/team"), "Team fact", "c");
    write(e, U2, "U2 fact", "b");
    write(e, U1, "U1 fact", "a");
    write(e, U1, "U1 second fact", "z");

    assertThat(e.listDirtyTopics()).extracting(DirtyTopic::scope, DirtyTopic::topic).containsExactly(
        tuple(S1, "a"),
        tuple(S1, "z"),
        tuple(S2, "b"),
        tuple("org/team", "c"));
    assertThat(e.listDirtyTopics(2)).extracting(DirtyTopic::topic).containsExactly("a", "z");
    assertThatThrownBy(() -> e.listDirtyTopics(0)).isInstanceOf(InvalidInputException.class);
  }

  @Test
  void curateWithTheDeterministicReasonerIsANoOpThatLeavesTopicsDirty() {
    MemoryStore store = createStore();
    Engram e = newEngram(store, new DeterministicReasoner(), clocked());
    write(e, U1, "First fact", "facts");
    write(e, U1, "Second fact", "facts", "more");
    StoreSnapshot before = StoreSnapshot.of(store, ALL_SCOPES);

    CurateReport report = e.curate(U1);

    assertThat(report.reasonerCurates()).isFalse();
    assertThat(report.topicsCurated()).isEmpty();
    assertThat(report.applied()).isEmpty();
    assertThat(report.rejected()).isEmpty();
    assertThat(StoreSnapshot.of(store, ALL_SCOPES)).isEqualTo(before);
    assertThat(dirty(e)).hasSize(2);
    assertThat(e.scan(U1)).allMatch(TopicSummary::hasUncuratedWrites);
  }

  @Test
  void curationWithoutOpsMarksTopicsCleanAndNewWritesDirtyThemAgain() {
    Rig r = rig();
    Engram e = r.engram();
    write(e, U1, "Alpha fact", "alpha");
    write(e, U1, "Beta fact", "beta");
    StoreSnapshot before = r.snapshot();

    CurateReport report = e.curate(U1);
    assertThat(report.reasonerCurates()).isTrue();
    assertThat(report.topicsCurated())
        .containsExactly(new DirtyTopic(S1, "alpha", 1, 2), new DirtyTopic(S1, "beta", 2, 2));
    assertThat(report.applied()).isEmpty();
    assertThat(report.rejected()).isEmpty();
    assertThat(dirty(e)).isEmpty();
    assertThat(e.scan(U1)).noneMatch(TopicSummary::hasUncuratedWrites);
    assertThat(topicRow(r.store(), S1, "alpha").lastCuratedRevision()).isEqualTo(2);
    assertThat(r.snapshot().withoutTopics()).isEqualTo(before.withoutTopics());
    assertThat(e.revision(U1, S1)).isEqualTo(2);

    write(e, U1, "Another alpha fact", "alpha");
    assertThat(dirty(e)).containsExactly(new DirtyTopic(S1, "alpha", 3, 2));
    assertThat(e.curate(U1).topicsCurated()).containsExactly(new DirtyTopic(S1, "alpha", 3, 3));
    assertThat(r.reasoner().curateRequests()).extracting(CurateRequest::topic).containsExactly("alpha", "beta", "alpha");
    assertThat(e.curate(U1).topicsCurated()).isEmpty();
    assertThat(r.reasoner().curateRequests()).hasSize(3);
  }

  @Test
  void curationCoversOnlyTheDirtyTopicsOfTheGrantedScopes() {
    Rig r = rig();
    Engram e = r.engram();
    write(e, Grants.of("app/user"), "Shared fact for every user", "shared");
    write(e, U2, "Someone else's fact", "other");
    write(e, U1, "My fact", "mine");

    CurateReport report = e.curate(U1);

    assertThat(report.topicsCurated()).extracting(DirtyTopic::scope, DirtyTopic::topic)
        .containsExactly(tuple(S1, "mine"));
    assertThat(r.reasoner().curateRequests()).singleElement().satisfies(req -> {
      assertThat(req.scope()).isEqualTo(S1);
      assertThat(req.topic()).isEqualTo("mine");
    });
    assertThat(dirty(e)).extracting(DirtyTopic::scope).containsExactly("app/user", S2);
  }

  @Test
  void theCurateRequestShowsTheActiveSliceNewestFirst() {
    Rig r = rig();
    Engram e = r.engram();
    MemoryEntry a = write(e, U1, "Fact a", "facts").entry();
    MemoryEntry b = write(e, U1, "Fact b", "facts").entry();
    MemoryEntry c = write(e, U1, "Fact c", "facts").entry();
    MemoryEntry a2 = e.correct(U1, a.entryId(), "Fact a, corrected");
    e.retire(U1, b.citation(), "wrong");

    e.curate(U1);

    CurateRequest req = r.reasoner().curateRequests().get(0);
    assertThat(req.scope()).isEqualTo(S1);
    assertThat(req.topic()).isEqualTo("facts");
    assertThat(req.blurb()).isNull();
    assertThat(req.entries()).containsExactly(a2, c);
  }

  // ---- curate ops

  @Test
  void mergeSupersedesTheDuplicatesByTheKeptEntry() {
    Rig r = rig();
    Engram e = r.engram();
    MemoryEntry keep = write(e, U1, "Prefers tea", "drinks").entry();
    MemoryEntry dup = write(e, U1, "Likes tea a lot", "drinks").entry();
    r.reasoner().onCurate("drinks", new CurateOp.Merge(keep.entryId(), List.of(dup.entryId()), null));

    CurateReport report = e.curate(U1);

    assertThat(report.applied()).singleElement().asString().contains("merge");
    assertThat(report.rejected()).isEmpty();
    assertThat(report.topicsCurated()).containsExactly(new DirtyTopic(S1, "drinks", 2, 3));
    assertThat(e.get(U1, keep.entryId())).isEqualTo(keep);
    MemoryEntry merged = e.get(U1, dup.entryId());
    assertThat(merged.status()).isEqualTo(EntryStatus.SUPERSEDED);
    assertThat(merged.supersededBy()).isEqualTo(keep.versionId());
    assertThat(merged.content()).isEqualTo(dup.content());
    assertThat(lastEvent(e, U1, dup)).satisfies(ev -> {
      assertThat(ev.kind()).isEqualTo(EventKind.MERGE);
      assertThat(ev.before()).isEqualTo(dup);
      assertThat(ev.after()).isEqualTo(merged);
      assertThat(ev.actor()).isEqualTo("curator");
      assertThat(ev.reason()).contains(keep.entryId());
    });
    assertThat(e.changes(U1, S1, 2)).singleElement().satisfies(rev -> assertThat(rev.changes())
        .containsExactly(new Change(ChangeKind.SUPERSEDE, dup.entryId(), dup.versionId())));
    assertThat(e.read(U1, "drinks")).containsExactly(keep);
    assertThat(dirty(e)).isEmpty();
  }

  @Test
  void mergeWithMergedContentWritesANewVersionOfTheKeptEntryFirst() {
    Rig r = rig();
    Engram e = r.engram();
    MemoryEntry keep = write(e, U1, "Prefers tea", "drinks").entry();
    MemoryEntry d1 = write(e, U1, "Drinks green tea", "drinks").entry();
    MemoryEntry d2 = write(e, U1, "Tea over coffee", "drinks").entry();
    r.reasoner().onCurate("drinks",
        new CurateOp.Merge(keep.entryId(), List.of(d1.entryId(), d2.entryId()), "Prefers tea, especially green tea"));

    CurateReport report = e.curate(U1);

    assertThat(report.rejected()).isEmpty();
    MemoryEntry kept = e.get(U1, keep.entryId());
    assertThat(kept.version()).isEqualTo(2);
    assertThat(kept.content()).isEqualTo("Prefers tea, especially green tea");
    assertThat(kept.previousVersionId()).isEqualTo(keep.versionId());
    assertThat(kept.topics()).isEqualTo(keep.topics());
    assertThat(e.get(U1, keep.citation()).supersededBy()).isEqualTo(kept.versionId());
    assertThat(e.get(U1, d1.entryId()).supersededBy()).isEqualTo(kept.versionId());
    assertThat(e.get(U1, d2.entryId()).supersededBy()).isEqualTo(kept.versionId());
    assertThat(e.revision(U1, S1)).isEqualTo(4);
    assertThat(e.changes(U1, S1, 3)).singleElement().satisfies(rev -> assertThat(rev.changes())
        .containsExactlyInAnyOrder(
            new Change(ChangeKind.UPDATE, keep.entryId(), kept.versionId()),
            new Change(ChangeKind.SUPERSEDE, keep.entryId(), keep.versionId()),
            new Change(ChangeKind.SUPERSEDE, d1.entryId(), d1.versionId()),
            new Change(ChangeKind.SUPERSEDE, d2.entryId(), d2.versionId())));
    assertThat(lastEvent(e, U1, keep).kind()).isEqualTo(EventKind.UPDATE);
    assertThat(e.read(U1, "drinks")).containsExactly(kept);
    assertThat(dirty(e)).isEmpty();
  }

  @Test
  void mergeWithContentEqualToTheKeptEntryMakesNoNewVersionOfIt() {
    Rig r = rig();
    Engram e = r.engram();
    MemoryEntry keep = write(e, U1, "Prefers tea", "drinks").entry();
    MemoryEntry dup = write(e, U1, "Likes tea", "drinks").entry();
    r.reasoner().onCurate("drinks", new CurateOp.Merge(keep.entryId(), List.of(dup.entryId()), "  Prefers   tea "));

    CurateReport report = e.curate(U1);

    assertThat(report.rejected()).isEmpty();
    assertThat(e.get(U1, keep.entryId())).isEqualTo(keep);
    assertThat(e.get(U1, dup.entryId()).supersededBy()).isEqualTo(keep.versionId());
    assertThat(e.history(U1, keep.entryId())).hasSize(1);
    assertThat(e.changes(U1, S1, 2)).singleElement().satisfies(rev -> assertThat(rev.changes())
        .containsExactly(new Change(ChangeKind.SUPERSEDE, dup.entryId(), dup.versionId())));
  }

  @Test
  void rewriteResolvesAContradictionWithANewVersion() {
    Rig r = rig();
    Engram e = r.engram();
    MemoryEntry v1 = write(e, U1, "Meeting is on Monday", "calendar").entry();
    r.reasoner().onCurate("calendar", new CurateOp.Rewrite(v1.entryId(), "Meeting moved to Tuesday", "newer message"));

    CurateReport report = e.curate(U1);

    assertThat(report.applied()).hasSize(1);
    MemoryEntry v2 = e.get(U1, v1.entryId());
    assertThat(v2.version()).isEqualTo(2);
    assertThat(v2.content()).isEqualTo("Meeting moved to Tuesday");
    assertThat(v2.source()).isEqualTo("curator");
    assertThat(v2.topics()).isEqualTo(v1.topics());
    assertThat(e.get(U1, v1.citation()).status()).isEqualTo(EntryStatus.SUPERSEDED);
    MemoryEvent ev = lastEvent(e, U1, v1);
    assertThat(ev.kind()).isEqualTo(EventKind.UPDATE);
    assertThat(ev.reason()).isEqualTo("newer message");
    assertThat(ev.actor()).isEqualTo("curator");
    assertThat(e.changes(U1, S1, 1)).singleElement().satisfies(rev -> assertThat(rev.changes())
        .extracting(Change::kind).containsExactlyInAnyOrder(ChangeKind.UPDATE, ChangeKind.SUPERSEDE));
    assertThat(dirty(e)).isEmpty();
  }

  @Test
  void retireOpDeactivatesAnEntry() {
    Rig r = rig();
    Engram e = r.engram();
    MemoryEntry stale = write(e, U1, "Project deadline is March", "project").entry();
    MemoryEntry fresh = write(e, U1, "Project deadline is April", "project").entry();
    r.reasoner().onCurate("project", new CurateOp.Retire(stale.entryId(), "superseded by the April deadline"));

    e.curate(U1);

    MemoryEntry retired = e.get(U1, stale.entryId());
    assertThat(retired.status()).isEqualTo(EntryStatus.RETIRED);
    assertThat(retired.versionId()).isEqualTo(stale.versionId());
    assertThat(lastEvent(e, U1, stale)).satisfies(ev -> {
      assertThat(ev.kind()).isEqualTo(EventKind.RETIRE);
      assertThat(ev.reason()).isEqualTo("superseded by the April deadline");
      assertThat(ev.actor()).isEqualTo("curator");
    });
    assertThat(e.changes(U1, S1, 2)).singleElement().satisfies(rev -> assertThat(rev.changes())
        .containsExactly(new Change(ChangeKind.RETIRE, stale.entryId(), stale.versionId())));
    assertThat(e.read(U1, "project")).containsExactly(fresh);
    assertThat(dirty(e)).isEmpty();
  }

  @Test
  void compactReplacesStaleEntriesWithOneSummary() {
    Rig r = rig();
    Engram e = r.engram();
    MemoryEntry t1 = e.write(U1, "Flew to Rome on May 2",
        topics("trips").type(EntryType.EVENT).priority(3).build()).entry();
    MemoryEntry t2 = e.write(U1, "Flew to Oslo on May 9",
        topics("trips", "nordics").type(EntryType.EVENT).priority(4).build()).entry();
    MemoryEntry t3 = e.write(U1, "Flew to Porto on May 20",
        topics("trips").type(EntryType.EVENT).priority(5).build()).entry();
    r.reasoner().onCurate("trips",
        new CurateOp.Compact(List.of(t1.entryId(), t2.entryId(), t3.entryId()), "Three trips in May: Rome, Oslo, Porto"));

    CurateReport report = e.curate(U1);

    assertThat(report.rejected()).isEmpty();
    List<MemoryEntry> trips = e.read(U1, "trips");
    assertThat(trips).hasSize(1);
    MemoryEntry summary = trips.get(0);
    assertThat(summary.entryId()).isNotIn(t1.entryId(), t2.entryId(), t3.entryId());
    assertThat(summary.content()).isEqualTo("Three trips in May: Rome, Oslo, Porto");
    assertThat(summary.type()).isEqualTo(EntryType.SUMMARY);
    assertThat(summary.topics()).containsExactlyInAnyOrder("trips", "nordics");
    assertThat(summary.version()).isEqualTo(1);
    assertThat(summary.scope()).isEqualTo(S1);
    assertThat(summary.createdInRevision()).isEqualTo(4);
    for (MemoryEntry old : List.of(t1, t2, t3)) {
      MemoryEntry now = e.get(U1, old.entryId());
      assertThat(now.status()).isEqualTo(EntryStatus.SUPERSEDED);
      assertThat(now.supersededBy()).isEqualTo(summary.versionId());
      assertThat(lastEvent(e, U1, old).kind()).isEqualTo(EventKind.MERGE);
    }
    assertThat(e.history(U1, summary.entryId())).singleElement()
        .satisfies(ev -> assertThat(ev.kind()).isEqualTo(EventKind.CREATE));
    assertThat(e.changes(U1, S1, 3)).singleElement().satisfies(rev -> assertThat(rev.changes())
        .containsExactlyInAnyOrder(
            new Change(ChangeKind.APPEND, summary.entryId(), summary.versionId()),
            new Change(ChangeKind.SUPERSEDE, t1.entryId(), t1.versionId()),
            new Change(ChangeKind.SUPERSEDE, t2.entryId(), t2.versionId()),
            new Change(ChangeKind.SUPERSEDE, t3.entryId(), t3.versionId())));
    assertThat(e.read(U1, "nordics")).containsExactly(summary);
  }

  @Test
  void compactKeepsAtMostTheTopicLimitOfTheUnionOfTopics() {
    Rig r = rig();
    Engram e = r.engram();
    List<String> first = new ArrayList<>();
    List<String> second = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      first.add("first" + i);
      second.add("second" + i);
    }
    first.add("log");
    second.add("log");
    MemoryEntry a = e.write(U1, "Log entry one", WriteOptions.builder().topicsHint(first).build()).entry();
    MemoryEntry b = e.write(U1, "Log entry two", WriteOptions.builder().topicsHint(second).build()).entry();
    r.reasoner().onCurate(req -> req.topic().equals("log")
        ? List.of(new CurateOp.Compact(List.of(a.entryId(), b.entryId()), "Two log entries"))
        : List.of());

    CurateReport report = e.curate(U1);

    assertThat(report.rejected()).isEmpty();
    assertThat(report.applied()).singleElement().asString().contains("compact");
    MemoryEntry summary = e.read(U1, "log").get(0);
    assertThat(summary.content()).isEqualTo("Two log entries");
    assertThat(summary.topics()).hasSize(16).doesNotHaveDuplicates().startsWith(a.topics().toArray(String[]::new));
    assertThat(e.get(U1, a.entryId()).status()).isEqualTo(EntryStatus.SUPERSEDED);
    assertThat(e.get(U1, b.entryId()).status()).isEqualTo(EntryStatus.SUPERSEDED);
  }

  @Test
  void setCorePromotesAndDemotesThroughMetadataVersions() {
    Rig r = rig();
    Engram e = r.engram();
    MemoryEntry v1 = write(e, U1, "Name is Ada", "profile").entry();
    r.reasoner().onCurate("profile", new CurateOp.SetCore(v1.entryId(), true));

    e.curate(U1);

    MemoryEntry v2 = e.get(U1, v1.entryId());
    assertThat(v2.version()).isEqualTo(2);
    assertThat(v2.topics()).containsExactly("profile", "core");
    assertThat(v2.content()).isEqualTo(v1.content());
    assertThat(e.read(U1, "core")).containsExactly(v2);
    assertThat(e.changes(U1, S1, 1)).singleElement().satisfies(rev -> assertThat(rev.changes())
        .containsExactlyInAnyOrder(
            new Change(ChangeKind.METADATA, v1.entryId(), v2.versionId()),
            new Change(ChangeKind.SUPERSEDE, v1.entryId(), v1.versionId())));
    assertThat(dirty(e)).extracting(DirtyTopic::topic).containsExactly("core");

    r.reasoner().onCurate("core", new CurateOp.SetCore(v1.entryId(), false));
    e.curate(U1);

    MemoryEntry v3 = e.get(U1, v1.entryId());
    assertThat(v3.version()).isEqualTo(3);
    assertThat(v3.topics()).containsExactly("profile");
    assertThat(e.read(U1, "core")).isEmpty();
    assertThat(dirty(e)).extracting(DirtyTopic::topic).containsExactly("profile");
  }

  @Test
  void setCoreNeverBreaksTheTopicRules() {
    Rig r = rig();
    Engram e = r.engram();
    List<String> sixteen = new ArrayList<>();
    for (int i = 0; i < 15; i++) {
      sixteen.add("t" + i);
    }
    sixteen.add("profile");
    MemoryEntry full = e.write(U1, "Entry with the most topics allowed",
        WriteOptions.builder().topicsHint(sixteen).build()).entry();
    MemoryEntry onlyCore = write(e, U1, "Entry that is only core", "core").entry();
    r.reasoner().onCurate(req -> switch (req.topic()) {
      case "profile" -> List.of(new CurateOp.SetCore(full.entryId(), true));
      case "core" -> List.of(new CurateOp.SetCore(onlyCore.entryId(), false));
      default -> List.of();
    });

    CurateReport report = e.curate(U1);

    assertThat(report.rejected()).singleElement().asString().contains("setcore").contains("limit is 16");
    assertThat(e.get(U1, full.entryId())).isEqualTo(full);
    MemoryEntry demoted = e.get(U1, onlyCore.entryId());
    assertThat(demoted.version()).isEqualTo(2);
    assertThat(demoted.topics()).containsExactly("general");
    assertThat(e.read(U1, "core")).isEmpty();
    assertThat(e.read(U1, "general")).containsExactly(demoted);
  }

  @Test
  void blurbOpsReplaceTheTopicBlurbWithoutARevision() {
    Rig r = rig();
    Engram e = r.engram();
    write(e, U1, "Drinks oat milk", "drinks");
    r.reasoner().onCurate("drinks", new CurateOp.Blurb("What the user likes to drink"));

    CurateReport report = e.curate(U1);

    assertThat(report.applied()).singleElement().asString().contains("blurb");
    assertThat(e.revision(U1, S1)).isEqualTo(1);
    assertThat(e.scan(U1)).singleElement().satisfies(t -> {
      assertThat(t.blurb()).isEqualTo("What the user likes to drink");
      assertThat(t.hasUncuratedWrites()).isFalse();
    });

    r.reasoner().onCurate(req -> List.of());
    write(e, U1, "Drinks espresso", "drinks");
    e.curate(U1);
    assertThat(r.reasoner().curateRequests().get(1).blurb()).isEqualTo("What the user likes to drink");
    assertThat(e.scan(U1).get(0).blurb()).isEqualTo("What the user likes to drink");
  }

  // ---- hostile curate output (invariant 5)

  private static void assertRejectedWithoutChanges(Rig r, CurateReport report, int rejected, StoreSnapshot before) {
    assertThat(report.applied()).isEmpty();
    assertThat(report.rejected()).hasSize(rejected);
    assertThat(r.snapshot().withoutTopics()).isEqualTo(before.withoutTopics());
    assertThat(r.engram().listDirtyTopics()).extracting(DirtyTopic::scope).doesNotContain(S1);
  }

  @Test
  void curateRejectsIdsThatWereNotShownForTheTopic() {
    Rig r = rig();
    Engram e = r.engram();
    MemoryEntry a = write(e, U1, "Entry in topic a", "a").entry();
    MemoryEntry b = write(e, U1, "Entry in topic b", "b").entry();
    r.reasoner().onCurate("a",
        new CurateOp.Retire(b.entryId(), "not shown"),
        new CurateOp.Rewrite(b.entryId(), "Rewritten b", null),
        new CurateOp.Merge(a.entryId(), List.of(b.entryId()), null),
        new CurateOp.SetCore(b.entryId(), true),
        new CurateOp.Compact(List.of(a.entryId(), b.entryId()), "Summary of a and b"));
    StoreSnapshot before = r.snapshot();

    CurateReport report = e.curate(U1);

    assertRejectedWithoutChanges(r, report, 5, before);
    assertThat(report.rejected()).allSatisfy(msg -> assertThat(msg).contains(b.entryId()).contains("not among"));
    assertThat(e.list(U1)).containsExactly(a, b);
  }

  @Test
  void curateRejectsUnknownIds() {
    Rig r = rig();
    Engram e = r.engram();
    MemoryEntry a = write(e, U1, "Real entry", "facts").entry();
    String ghost = "0000-no-such-entry";
    r.reasoner().onCurate("facts",
        new CurateOp.Retire(ghost, null),
        new CurateOp.Rewrite(ghost, "Rewritten", null),
        new CurateOp.Merge(a.entryId(), List.of(ghost), null),
        new CurateOp.Merge(ghost, List.of(a.entryId()), "Merged"),
        new CurateOp.Compact(List.of(a.entryId(), ghost), "Summary"),
        new CurateOp.SetCore(ghost, true));
    StoreSnapshot before = r.snapshot();

    CurateReport report = e.curate(U1);

    assertRejectedWithoutChanges(r, report, 6, before);
    assertThat(report.rejected()).allSatisfy(msg -> assertThat(msg).contains(ghost));
    assertThat(e.get(U1, a.entryId())).isEqualTo(a);
  }

  @Test
  void curateRejectsIdsFromAnotherScope() {
    Rig r = rig();
    Engram e = r.engram();
    MemoryEntry mine = write(e, U1, "My fact", "facts").entry();
    MemoryEntry theirs = write(e, U2, "Their fact", "facts").entry();
    MemoryEntry shared = write(e, Grants.of("app/user"), "Shared fact", "facts").entry();
    r.reasoner().onCurate(req -> req.scope().equals(S1)
        ? List.of(
            new CurateOp.Retire(theirs.entryId(), "cross-scope"),
            new CurateOp.Retire(shared.entryId(), "ancestor"),
            new CurateOp.Merge(mine.entryId(), List.of(theirs.entryId()), null),
            new CurateOp.Rewrite(shared.entryId(), "Rewritten shared fact", null))
        : List.of(new CurateOp.Retire(mine.entryId(), "cross-scope from u2")));
    StoreSnapshot before = r.snapshot();

    CurateReport report = e.curate(Grants.of(S1, S2));

    assertThat(report.topicsCurated()).extracting(DirtyTopic::scope).containsExactly(S1, S2);
    assertThat(report.applied()).isEmpty();
    assertThat(report.rejected()).hasSize(5);
    assertThat(r.snapshot().withoutTopics()).isEqualTo(before.withoutTopics());
    assertThat(e.get(U2, theirs.entryId())).isEqualTo(theirs);
    assertThat(e.get(U1, shared.entryId())).isEqualTo(shared);
    assertThat(e.get(U1, mine.entryId())).isEqualTo(mine);
  }

  @Test
  void curateRejectsEmptyOrMissingContent() {
    Rig r = rig();
    Engram e = r.engram();
    MemoryEntry a = write(e, U1, "Fact a", "facts").entry();
    MemoryEntry b = write(e, U1, "Fact b", "facts").entry();
    r.reasoner().onCurate("facts",
        new CurateOp.Rewrite(a.entryId(), "   ", null),
        new CurateOp.Rewrite(a.entryId(), null, null),
        new CurateOp.Rewrite(a.entryId(), "\n\t\n", "whitespace"),
        new CurateOp.Merge(a.entryId(), List.of(b.entryId()), ""),
        new CurateOp.Compact(List.of(a.entryId(), b.entryId()), " \n "),
        new CurateOp.Compact(List.of(a.entryId(), b.entryId()), null),
        new CurateOp.Rewrite(a.entryId(), "bad \u0000 byte", null),
        new CurateOp.Blurb("  "));
    StoreSnapshot before = r.snapshot();

    CurateReport report = e.curate(U1);

    assertRejectedWithoutChanges(r, report, 8, before);
    assertThat(e.scan(U1).get(0).blurb()).isNull();
  }

  @Test
  void curateRejectsNullOpsAndNullAnswers() {
    Rig r = rig();
    Engram e = r.engram();
    write(e, U1, "Fact in a", "a");
    write(e, U1, "Fact in b", "b");
    r.reasoner().onCurate(req -> req.topic().equals("a") ? Collections.singletonList(null) : null);
    StoreSnapshot before = r.snapshot();

    CurateReport report = e.curate(U1);

    assertThat(report.applied()).isEmpty();
    assertThat(report.rejected()).hasSize(2);
    assertThat(report.rejected()).anySatisfy(msg -> assertThat(msg).contains("null op"));
    assertThat(report.rejected()).anySatisfy(msg -> assertThat(msg).contains("returned null"));
    assertThat(r.snapshot().withoutTopics()).isEqualTo(before.withoutTopics());
    assertThat(report.topicsCurated()).extracting(DirtyTopic::topic).containsExactly("a");
    assertThat(dirty(e)).extracting(DirtyTopic::topic).containsExactly("b");
  }

  @Test
  void curateRejectsOpsThatMakeNoSense() {
    Rig r = rig();
    Engram e = r.engram();
    MemoryEntry a = write(e, U1, "Fact a", "facts").entry();
    MemoryEntry b = write(e, U1, "Fact b", "facts").entry();
    r.reasoner().onCurate("facts",
        new CurateOp.Merge(a.entryId(), List.of(a.entryId()), null),
        new CurateOp.Merge(a.entryId(), List.of(b.entryId(), b.entryId()), null),
        new CurateOp.Merge(a.entryId(), List.of(), null),
        new CurateOp.Merge(a.entryId(), null, null),
        new CurateOp.Merge(a.entryId(), Arrays.asList(b.entryId(), null), null),
        new CurateOp.Compact(List.of(a.entryId()), "A summary of one"),
        new CurateOp.SetCore(a.entryId(), false),
        new CurateOp.Rewrite(a.entryId(), "Fact  a", "no change"));
    StoreSnapshot before = r.snapshot();

    CurateReport report = e.curate(U1);

    assertRejectedWithoutChanges(r, report, 8, before);
    assertThat(e.list(U1)).containsExactly(a, b);
  }

  @Test
  void curateAppliesValidOpsAndRejectsOpsMadeStaleByEarlierOnes() {
    Rig r = rig();
    Engram e = r.engram();
    MemoryEntry a = write(e, U1, "Fact a", "facts").entry();
    MemoryEntry b = write(e, U1, "Fact b", "facts").entry();
    r.reasoner().onCurate("facts",
        new CurateOp.Retire(a.entryId(), "obsolete"),
        new CurateOp.Rewrite(a.entryId(), "Fact a, rewritten", null),
        new CurateOp.Merge(b.entryId(), List.of(a.entryId()), null),
        new CurateOp.Blurb("Facts about the project"));

    CurateReport report = e.curate(U1);

    assertThat(report.applied()).hasSize(2);
    assertThat(report.applied().get(0)).contains("retire");
    assertThat(report.applied().get(1)).contains("blurb");
    assertThat(report.rejected()).hasSize(2).allSatisfy(msg -> assertThat(msg).contains("no longer active"));
    assertThat(e.get(U1, a.entryId()).status()).isEqualTo(EntryStatus.RETIRED);
    assertThat(e.get(U1, a.entryId()).version()).isEqualTo(1);
    assertThat(e.get(U1, b.entryId())).isEqualTo(b);
    assertThat(e.revision(U1, S1)).isEqualTo(3);
    assertThat(e.scan(U1).get(0).blurb()).isEqualTo("Facts about the project");
    assertThat(dirty(e)).isEmpty();
  }

  @Test
  void aThrowingCurateStepFailsTheCallAndLeavesTopicsDirty() {
    Rig r = rig();
    Engram e = r.engram();
    write(e, U1, "Fact", "facts");
    IllegalStateException cause = new IllegalStateException("model timed out");
    r.reasoner().onCurate(req -> {
      throw cause;
    });
    StoreSnapshot before = r.snapshot();

    assertThatThrownBy(() -> e.curate(U1))
        .isInstanceOfSatisfying(ReasonerException.class, x -> {
          assertThat(x.code()).isEqualTo(ErrorCode.REASONER_FAILED);
          assertThat(x.getCause()).isSameAs(cause);
        });
    assertThat(r.snapshot()).isEqualTo(before);
    assertThat(dirty(e)).containsExactly(new DirtyTopic(S1, "facts", 1, 0));
  }

  @Test
  void aCurationOpThatFailsInTheStoreLeavesNoTrace() {
    FaultInjectingStore store = new FaultInjectingStore(createStore());
    Rig r = rig(store, b -> b);
    Engram e = r.engram();
    MemoryEntry keep = write(e, U1, "Keep me", "facts").entry();
    MemoryEntry d1 = write(e, U1, "Duplicate one", "facts").entry();
    MemoryEntry d2 = write(e, U1, "Duplicate two", "facts").entry();
    r.reasoner().onCurate("facts",
        new CurateOp.Merge(keep.entryId(), List.of(d1.entryId(), d2.entryId()), "Keep me, merged"));
    StoreSnapshot before = r.snapshot();

    store.failAfter(Step.APPEND_REVISION);
    assertThatThrownBy(() -> e.curate(U1)).isInstanceOf(StoreException.class).hasMessageContaining("injected fault");

    assertThat(store.faultsInjected()).isEqualTo(1);
    assertThat(r.snapshot()).isEqualTo(before);
    assertThat(dirty(e)).extracting(DirtyTopic::topic).containsExactly("facts");

    CurateReport retry = e.curate(U1);
    assertThat(retry.applied()).hasSize(1);
    assertThat(e.read(U1, "facts")).extracting(MemoryEntry::content).containsExactly("Keep me, merged");
    assertThat(e.changes(U1, S1, 0)).extracting(Revision::revision).containsExactly(1L, 2L, 3L, 4L);
  }

  // ---- hostile tag output (invariant 5)

  private void assertTagRejected(ErrorCode code, Function<TagRequest, TagProposal> script) {
    Rig r = rig();
    Engram e = r.engram();
    write(e, U1, "Seed fact", "seed");
    write(e, U2, "Neighbour fact", "seed");
    StoreSnapshot before = r.snapshot();
    r.reasoner().onTag(script);

    assertThatThrownBy(() -> write(e, U1, "Content the model files badly", "notes"))
        .isInstanceOfSatisfying(ReasonerException.class, x -> assertThat(x.code()).isEqualTo(code));

    assertThat(r.snapshot()).isEqualTo(before);
    r.reasoner().tagDeterministically();
    assertThat(write(e, U1, "Content the model files badly", "notes").revision()).isEqualTo(2);
  }

  private static TagProposal proposal(TagRequest req, String namespace) {
    return new TagProposal(namespace, List.of("notes"), EntryType.FACT, req.content(), null);
  }

  @Test
  void tagIntoANamespaceThatIsNotWritableIsRejected() {
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT, req -> proposal(req, S2));
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT, req -> proposal(req, "app/user"));
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT, req -> proposal(req, "org/elsewhere"));
  }

  @Test
  void tagIntoAMalformedNamespaceIsRejected() {
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT, req -> proposal(req, "app/user/u1/../u2"));
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT, req -> proposal(req, "app/user/u1/"));
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT, req -> proposal(req, "app/user/u1/*"));
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT, req -> proposal(req, "app/user/u1/with space"));
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT, req -> proposal(req, ""));
  }

  @Test
  void tagWithMissingFieldsIsRejected() {
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT, req -> null);
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT,
        req -> new TagProposal(null, List.of("notes"), EntryType.FACT, req.content(), null));
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT,
        req -> new TagProposal(S1, null, EntryType.FACT, req.content(), null));
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT,
        req -> new TagProposal(S1, List.of("notes"), null, req.content(), null));
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT,
        req -> new TagProposal(S1, List.of("notes"), EntryType.FACT, null, null));
  }

  @Test
  void tagWithMalformedTopicsIsRejected() {
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT,
        req -> new TagProposal(S1, Arrays.asList("notes", null), EntryType.FACT, req.content(), null));
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT,
        req -> new TagProposal(S1, List.of("a/../b"), EntryType.FACT, req.content(), null));
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT,
        req -> new TagProposal(S1, List.of("  "), EntryType.FACT, req.content(), null));
    List<String> many = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      many.add("topic" + i);
    }
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT,
        req -> new TagProposal(S1, many, EntryType.FACT, req.content(), null));
  }

  @Test
  void tagWithBadContentIsRejected() {
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT,
        req -> new TagProposal(S1, List.of("notes"), EntryType.FACT, "x".repeat(9000), null));
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT,
        req -> new TagProposal(S1, List.of("notes"), EntryType.FACT, " \n\t ", null));
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT,
        req -> new TagProposal(S1, List.of("notes"), EntryType.FACT, "nul \u0000 inside", null));
    assertTagRejected(ErrorCode.INVALID_MODEL_OUTPUT,
        req -> new TagProposal(S1, List.of("notes"), EntryType.FACT, "broken \uD800 surrogate", null));
  }

  @Test
  void tagNamingADuplicateThatWasNotACandidateIsRejected() {
    Rig r = rig();
    Engram e = r.engram();
    MemoryEntry neighbour = write(e, U2, "Neighbour fact", "notes").entry();
    MemoryEntry otherTopic = write(e, U1, "Seed fact", "seed").entry();
    StoreSnapshot before = r.snapshot();

    for (String dupOf : List.of("no-such-entry", neighbour.entryId(), otherTopic.entryId())) {
      r.reasoner().onTag(req -> new TagProposal(S1, List.of("notes"), EntryType.FACT, req.content(), dupOf));
      assertThatThrownBy(() -> write(e, U1, "Unrelated note", "notes"))
          .isInstanceOfSatisfying(ReasonerException.class, x -> {
            assertThat(x.code()).isEqualTo(ErrorCode.INVALID_MODEL_OUTPUT);
            assertThat(x.getMessage()).contains(dupOf);
          });
      assertThat(r.reasoner().lastTagRequest().candidates()).isEmpty();
      assertThat(r.snapshot()).isEqualTo(before);
    }
  }

  @Test
  void aThrowingTagStepFailsTheWriteWithTheCauseKept() {
    IllegalStateException cause = new IllegalStateException("connection reset");
    assertTagRejected(ErrorCode.REASONER_FAILED, req -> {
      throw cause;
    });
    Rig r = rig();
    r.reasoner().onTag(req -> {
      throw cause;
    });
    assertThatThrownBy(() -> write(r.engram(), U1, "Anything"))
        .isInstanceOf(ReasonerException.class)
        .hasCause(cause);
  }

  @Test
  void tagMayNameAShownCandidateAsDuplicate() {
    Rig r = rig();
    Engram e = r.engram();
    MemoryEntry original = write(e, U1, "Has two cats", "pets").entry();
    r.reasoner().onTag(req -> new TagProposal(S1, List.of("pets"), EntryType.FACT, req.content(),
        req.candidates().get(0).entryId()));

    WriteResult r2 = write(e, U1, "Owns a pair of cats", "pets");

    assertThat(r.reasoner().lastTagRequest().candidates()).containsExactly(original);
    assertThat(r2.outcome()).isEqualTo(Outcome.DEDUPED);
    assertThat(r2.entry()).isEqualTo(original);
    assertThat(r2.revision()).isEqualTo(1);
    assertThat(everything(e, U1)).containsExactly(original);
  }

  @Test
  void theTagRequestShowsGrantsVisibleTopicsAndCandidatesOfTheGrantedScopes() {
    Rig r = rig();
    Engram e = r.engram();
    write(e, Grants.of("app"), "Company-wide fact", "company");
    write(e, U2, "Neighbour pet", "neighbour-pets");
    MemoryEntry mine = write(e, U1, "My pet is a dog", "pets").entry();
    MemoryEntry gone = write(e, U1, "My old pet was a cat", "pets").entry();
    e.retire(U1, gone.citation(), "gone");

    e.write(U1, "My dog is called Rex", WriteOptions.builder().topicsHint("Pets").type(EntryType.PREFERENCE).build());

    TagRequest req = r.reasoner().lastTagRequest();
    assertThat(req.grants()).containsExactly(S1);
    assertThat(req.content()).isEqualTo("My dog is called Rex");
    assertThat(req.topicsHint()).containsExactly("pets");
    assertThat(req.typeHint()).isEqualTo(EntryType.PREFERENCE);
    assertThat(req.visibleTopics()).containsExactly("company", "pets");
    assertThat(req.candidates()).containsExactly(mine);
  }

  @Test
  void tagMayFileIntoAWritableDescendantNamespace() {
    Rig r = rig();
    Engram e = r.engram();
    r.reasoner().onTag(req -> proposal(req, S1 + "/notes"));

    WriteResult result = write(e, U1, "Filed below the grant", "notes");

    Grants below = Grants.of(S1 + "/notes");
    assertThat(result.entry().scope()).isEqualTo(S1 + "/notes");
    assertThat(e.revision(below, S1 + "/notes")).isEqualTo(1);
    assertThat(e.revision(U1, S1)).isZero();
    assertThat(e.read(below, "notes")).containsExactly(result.entry());
    assertThat(e.read(U1, "notes")).isEmpty();
  }

  @Test
  void theReasonerDecidesTopicsAndTypeWithinTheRules() {
    Rig r = rig();
    Engram e = r.engram();
    r.reasoner().onTag(req -> new TagProposal(S1, List.of(" Travel ", "TRAVEL", "Plans"), EntryType.DECISION,
        "  Will   visit Kyoto in spring  ", null));

    MemoryEntry m = write(e, U1, "kyoto trip", "misc").entry();

    assertThat(m.topics()).as("the caller's topic first, the reasoner's after it").containsExactly("misc", "travel", "plans");
    assertThat(m.type()).isEqualTo(EntryType.DECISION);
    assertThat(m.content()).isEqualTo("Will visit Kyoto in spring");
    assertThat(e.read(U1, "misc")).containsExactly(m);
    assertThat(e.read(U1, "travel")).containsExactly(m);
  }

  // ---- the caller's fields win over the reasoner's

  private static WriteOptions explicit(EntryType type, String... topics) {
    return WriteOptions.builder().type(type).topicsHint(topics).build();
  }

  @Test
  void theCallersTypeAndTopicsWinOverTheReasoners() {
    Rig r = rig();
    Engram e = r.engram();
    r.reasoner().onTag(req -> new TagProposal(S1, List.of("location"), EntryType.FACT, "Ran the Berlin marathon", null));

    MemoryEntry m = e.write(U1, "ran the berlin marathon", explicit(EntryType.EVENT, "races")).entry();

    assertThat(r.reasoner().lastTagRequest().typeHint()).isEqualTo(EntryType.EVENT);
    assertThat(m.type()).isEqualTo(EntryType.EVENT);
    assertThat(m.topics()).containsExactly("races", "location");
    assertThat(m.content()).as("what the caller left open is the reasoner's").isEqualTo("Ran the Berlin marathon");
    assertThat(e.read(U1, "races")).containsExactly(m);
  }

  @Test
  void theCallersTopicsAreKeptUpToTheTopicLimit() {
    Rig r = rig();
    List<String> mine = new ArrayList<>();
    List<String> theirs = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      mine.add("mine" + i);
      theirs.add("theirs" + i);
    }
    r.reasoner().onTag(req -> new TagProposal(S1, theirs, EntryType.FACT, req.content(), null));

    MemoryEntry m = r.engram().write(U1, "Many topics", WriteOptions.builder().topicsHint(mine).build()).entry();

    assertThat(m.topics()).hasSize(16).startsWith(mine.toArray(String[]::new)).contains("theirs0").doesNotContain("theirs6");
  }

  @Test
  void anExplicitWriteIsFiledWhileTheReasonerFailsAndSaysSo() {
    Rig r = rig();
    Engram e = r.engram();
    write(e, U1, "Seed fact", "seed");
    r.reasoner().onTag(req -> {
      throw new IllegalStateException("model unreachable");
    });

    WriteResult w = e.write(U1, "Ran the Berlin marathon", explicit(EntryType.EVENT, "races"));

    assertThat(w.outcome()).isEqualTo(Outcome.APPENDED);
    assertThat(w.entry().scope()).isEqualTo(S1);
    assertThat(w.entry().type()).isEqualTo(EntryType.EVENT);
    assertThat(w.entry().topics()).containsExactly("races");
    assertThat(w.entry().content()).isEqualTo("Ran the Berlin marathon");
    assertThat(w.warnings()).anySatisfy(x -> assertThat(x).contains("filed without the reasoner")
        .contains("REASONER_FAILED").doesNotContain("model unreachable"));
    // a hostile proposal is as good as none: the caller's fields file it, never the proposed namespace
    r.reasoner().onTag(req -> proposal(req, S2));
    WriteResult hostile = e.write(U1, "Ran the Paris marathon", explicit(EntryType.EVENT, "races"));
    assertThat(hostile.entry().scope()).isEqualTo(S1);
    assertThat(hostile.warnings()).anySatisfy(x -> assertThat(x).contains("INVALID_MODEL_OUTPUT"));
    assertThat(e.list(U2)).isEmpty();

    // a write that leaves its type open still needs the reasoner, which fails it
    StoreSnapshot before = r.snapshot();
    assertThatThrownBy(() -> write(e, U1, "Needs the reasoner", "races")).isInstanceOf(ReasonerException.class);
    assertThatThrownBy(() -> e.write(U1, "Needs the reasoner", WriteOptions.builder().type(EntryType.EVENT).build()))
        .isInstanceOf(ReasonerException.class);
    assertThat(r.snapshot()).isEqualTo(before);
  }

  @Test
  void aReasonerThatAsksForItHasFailedTagsFiledDeterministically() {
    Rig r = rig();
    Engram e = r.engram();
    write(e, U1, "Seed fact", "seed");
    r.reasoner().onTagFailure(dev.engram.spi.TagFailure.FILE_DETERMINISTICALLY).onTag(req -> {
      throw new IllegalStateException("model unreachable");
    });

    WriteResult hinted = write(e, U1, "Likes green tea", "drinks");
    WriteResult bare = e.write(U1, "Lives in Lisbon", WriteOptions.defaults());

    assertThat(hinted.entry().scope()).isEqualTo(S1);
    assertThat(hinted.entry().topics()).containsExactly("drinks");
    assertThat(hinted.entry().type()).isEqualTo(EntryType.FACT);
    assertThat(bare.entry().topics()).containsExactly("general");
    assertThat(List.of(hinted, bare)).allSatisfy(w -> assertThat(w.warnings())
        .anySatisfy(x -> assertThat(x).contains("filed without the reasoner").contains("'general'")));
    // a refused proposal is filed the same way, never where it pointed
    r.reasoner().onTag(req -> proposal(req, S2));
    assertThat(write(e, U1, "Owns a bike", "things").entry().scope()).isEqualTo(S1);
    assertThat(e.list(U2)).isEmpty();
  }

  @Test
  void reasonersWithoutACurateStepReportSo() {
    Reasoner tagOnly = req -> new TagProposal(req.grants().get(0), List.of("x"), EntryType.FACT, req.content(), null);
    Engram e = newEngram(tagOnly, clocked());
    write(e, U1, "Fact");
    CurateReport report = e.curate(U1);
    assertThat(report.reasonerCurates()).isFalse();
    assertThat(e.listDirtyTopics()).containsExactly(new DirtyTopic(S1, "x", 1, 0));
  }
}
