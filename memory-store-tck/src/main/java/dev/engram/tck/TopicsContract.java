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

import dev.engram.CurateReport;
import dev.engram.DirtyTopic;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.Revision;
import dev.engram.StoreException;
import dev.engram.TopicSummary;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.CurateOp;
import dev.engram.spi.CurateRequest;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.TopicState;
import dev.engram.tck.FaultInjectingStore.Step;
import dev.engram.test.ScriptedReasoner;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Layer 3: the topic rows a store keeps: the core profile, dirty tracking (per scope and global, bounded),
 * curation marks and blurbs, and a curation op that fails in the store leaving no trace. What a reasoner's
 * answers may do is the engine's, tested there.
 */
public abstract class TopicsContract extends ContractSupport {
  private static final Grants U1 = Grants.of(S1);
  private static final Grants U2 = Grants.of(S2);

  private static List<DirtyTopic> dirty(Engram e) {
    return e.operator().listDirtyTopics();
  }

  private static TopicState topicRow(MemoryStore store, String scope, String topic) {
    return store.topics(List.of(scope)).stream().filter(t -> t.topic().equals(topic)).findFirst().orElseThrow();
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

    assertThat(e.operator().listDirtyTopics()).extracting(DirtyTopic::scope, DirtyTopic::topic).containsExactly(
        tuple(S1, "a"),
        tuple(S1, "z"),
        tuple(S2, "b"),
        tuple("org/team", "c"));
    assertThat(e.operator().listDirtyTopics(2)).extracting(DirtyTopic::topic).containsExactly("a", "z");
    assertThatThrownBy(() -> e.operator().listDirtyTopics(0)).isInstanceOf(InvalidInputException.class);
  }

  @Test
  void curateWithTheDeterministicReasonerIsANoOpThatLeavesTopicsDirty() {
    MemoryStore store = createStore();
    Engram e = newEngram(store, new DeterministicReasoner(), clocked());
    write(e, U1, "First fact", "facts");
    write(e, U1, "Second fact", "facts", "more");
    StoreSnapshot before = StoreSnapshot.of(store, ScriptedRig.FIXTURE_SCOPES);

    CurateReport report = e.curate(U1);

    assertThat(report.reasonerCurates()).isFalse();
    assertThat(report.topicsCurated()).isEmpty();
    assertThat(report.applied()).isEmpty();
    assertThat(report.rejected()).isEmpty();
    assertThat(StoreSnapshot.of(store, ScriptedRig.FIXTURE_SCOPES)).isEqualTo(before);
    assertThat(dirty(e)).hasSize(2);
    assertThat(e.scan(U1)).allMatch(TopicSummary::hasUncuratedWrites);
  }

  @Test
  void curationWithoutOpsMarksTopicsCleanAndNewWritesDirtyThemAgain() {
    ScriptedRig r = rig();
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
    ScriptedRig r = rig();
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
  void blurbOpsReplaceTheTopicBlurbWithoutARevision() {
    ScriptedRig r = rig();
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

  @Test
  void aCurationOpThatFailsInTheStoreLeavesNoTrace() {
    FaultInjectingStore store = new FaultInjectingStore(createStore());
    ScriptedRig r = rig(store, b -> b);
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
}
