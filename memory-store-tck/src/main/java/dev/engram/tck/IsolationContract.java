/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.engram.ContextRequest;
import dev.engram.Namespaces;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.Citation;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.NotFoundException;
import dev.engram.ReadOptions;
import dev.engram.TopicSummary;
import dev.engram.WriteOptions;
import dev.engram.WritePolicy;
import dev.engram.WriteResult;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import dev.engram.spi.TagRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Isolation: what grants can see (each grant and its ancestors, never siblings or descendants) through
 * every read path, namespaces compared literally, and a randomized isolation property over random
 * namespace trees, grants, policies and erasures. A store breaks it by filtering scopes wrongly; the grant
 * policy itself (validation, write authority, protected namespaces) is the engine's and tested there.
 */
public abstract class IsolationContract extends ContractSupport {

  /** Topics used by the visibility fixture. */
  private static final List<String> FIXTURE_TOPICS = List.of("policy", "prefs", "notes", "secret");

  @Test
  void namespacesWithEmojiAndOtherValidNonBmpCharactersAreUsable() {
    // a plain emoji, a ZWJ family sequence, CJK, a mathematical letter outside the BMP, an accented letter
    List<String> scopes = List.of("app/user/\uD83D\uDE00", "app/user/\uD83D\uDC68\u200D\uD83D\uDC69\u200D\uD83D\uDC67",
        "app/\u7528\u6237/\u674E", "app/\uD835\uDC00x", "app/user/\u00E9");
    Engram engram = newEngram();
    for (String scope : scopes) {
      assertThat(Grants.of(scope).namespaces()).containsExactly(scope);
      seed(engram, scope, "the entry of " + scope, "notes");
    }
    for (String scope : scopes) {
      List<MemoryEntry> seen = engram.list(Grants.of(scope));
      assertThat(seen).as(scope).extracting(MemoryEntry::content).containsExactly("the entry of " + scope);
      assertThat(seen.get(0).scope()).isEqualTo(scope);
    }
    // the emoji scope and its ZWJ sibling do not see each other
    assertThat(engram.read(Grants.of(scopes.get(0)), "notes")).hasSize(1);
  }

  /**
   * The largest visibility the limits allow: {@value Grants#MAX_GRANTS} grants, each {@value
   * Namespaces#MAX_DEPTH} segments deep, see {@code MAX_GRANTS * MAX_DEPTH} scopes. Every read works.
   */
  @Test
  void theMostGrantsAtTheGreatestDepthStillReadListScanSearchAndPrepareContext() {
    List<String> deepest = new ArrayList<>();
    for (int g = 0; g < Grants.MAX_GRANTS; g++) {
      StringBuilder ns = new StringBuilder("t" + g);
      for (int d = 1; d < Namespaces.MAX_DEPTH; d++) {
        ns.append("/d").append(d);
      }
      deepest.add(ns.toString());
    }
    Grants all = Grants.of(deepest);
    assertThat(all.visibleScopes()).hasSize(Grants.MAX_GRANTS * Namespaces.MAX_DEPTH);
    Engram engram = newEngram();
    seed(engram, deepest.get(0), "zebra migration notes from the first grant", "notes");
    seed(engram, deepest.get(Grants.MAX_GRANTS - 1), "zebra stripes from the last grant", "notes");
    seed(engram, "t7", "zebra herd at the root of the eighth grant", "notes");
    seed(engram, "t8/d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11", "zebra crossing halfway down", "notes");

    assertThat(engram.read(all, "notes")).extracting(MemoryEntry::content).hasSize(4);
    assertThat(engram.list(all)).hasSize(4);
    assertThat(engram.scan(all)).filteredOn(t -> t.topic().equals("notes"))
        .extracting(TopicSummary::count).containsExactly(1, 1, 1, 1);
    assertThat(engram.search(all, SearchRequest.builder("zebra").mode(SearchMode.FTS).limit(10).build()).hits())
        .hasSize(4);
    assertThat(engram.prepareContext(all, ContextRequest.of("zebra", 4000)).citations()).hasSize(4);
  }

  // ---------------------------------------------------------------------------------------------
  // read visibility

  /** Entries in a small tree; the reader {@code org/team/alice} may see exactly three of them. */
  private final class VisibilityFixture {
    final Engram engram = newEngram();
    final Grants reader = Grants.of("org/team/alice");
    final Map<String, WriteResult> byScope = new TreeMap<>();
    final List<String> hidden =
        List.of("org/team/alice/notes", "org/team/bob", "org/teamx", "org2", "org/Team/alice", "org/team_alice");
    final List<String> visible = List.of("org", "org/team", "org/team/alice");

    VisibilityFixture() {
      add("org", "the org handbook applies to everyone", "policy");
      add("org/team", "the team charter says ship on fridays", "policy");
      add("org/team/alice", "alice prefers tea", "prefs");
      add("org/team/alice/notes", "alice private note below her grant", "notes");
      add("org/team/bob", "bob prefers coffee", "prefs", "secret");
      add("org/teamx", "teamx is a prefix sibling of team", "policy", "secret");
      add("org2", "org2 is a prefix sibling of org", "policy", "secret");
      add("org/Team/alice", "a scope that differs only by case", "prefs", "secret");
      add("org/team_alice", "a scope with an underscore", "prefs", "secret");
    }

    void add(String scope, String content, String... topics) {
      byScope.put(scope, seed(engram, scope, content, topics));
    }

    List<WriteResult> hiddenResults() {
      return hidden.stream().map(byScope::get).toList();
    }

    Set<String> visibleContents() {
      return visible.stream().map(s -> byScope.get(s).entry().content()).collect(Collectors.toSet());
    }
  }

  @Test
  void readReturnsOnlyEntriesOfTheGrantAndItsAncestors() {
    VisibilityFixture f = new VisibilityFixture();
    List<MemoryEntry> got = f.engram.read(f.reader, FIXTURE_TOPICS, ReadOptions.limit(1000));
    assertThat(got).extracting(MemoryEntry::scope).allMatch(f.reader::canSee);
    assertThat(got).extracting(MemoryEntry::content).containsExactlyInAnyOrderElementsOf(f.visibleContents());
    assertThat(f.engram.read(f.reader, "secret")).isEmpty();
    assertThat(f.engram.read(f.reader, "notes")).isEmpty();
  }

  @Test
  void listReturnsOnlyVisibleScopesWhateverTheStatusFilter() {
    VisibilityFixture f = new VisibilityFixture();
    WriteResult bob = f.byScope.get("org/team/bob");
    Grants bobGrants = Grants.of("org/team/bob");
    f.engram.correct(bobGrants, bob.entry().entryId(), "bob prefers espresso now");
    WriteResult teamx = f.byScope.get("org/teamx");
    f.engram.retire(Grants.of("org/teamx"), teamx.citation(), "obsolete");

    for (ListOptions options : List.of(
        ListOptions.defaults(),
        ListOptions.builder().includeRetired(true).build(),
        ListOptions.builder().includeSuperseded(true).build(),
        ListOptions.builder().includeSuperseded(true).topic("prefs").build())) {
      List<MemoryEntry> got = f.engram.list(f.reader, options);
      assertThat(got).as("%s", options).extracting(MemoryEntry::scope).allMatch(f.reader::canSee).isNotEmpty();
      assertThat(got).as("%s", options).extracting(MemoryEntry::content)
          .doesNotContain("bob prefers coffee", "bob prefers espresso now", "teamx is a prefix sibling of team");
    }
    assertThat(everything(f.engram, f.reader)).extracting(MemoryEntry::content)
        .containsExactlyInAnyOrderElementsOf(f.visibleContents());
  }

  @Test
  void listOfOneScopeRequiresThatScopeToBeVisible() {
    VisibilityFixture f = new VisibilityFixture();
    assertThat(f.engram.list(f.reader, ListOptions.builder().scope("org/team").build()))
        .extracting(MemoryEntry::content).containsExactly("the team charter says ship on fridays");
    for (String scope : f.hidden) {
      assertThatThrownBy(() -> f.engram.list(f.reader, ListOptions.builder().scope(scope).build()))
          .as(scope).isInstanceOf(NotFoundException.class);
    }
  }

  @Test
  void scanReportsTopicsOfVisibleScopesOnly() {
    VisibilityFixture f = new VisibilityFixture();
    List<TopicSummary> scan = f.engram.scan(f.reader);
    assertThat(scan).extracting(TopicSummary::scope).allMatch(f.reader::canSee);
    assertThat(scan).extracting(t -> t.scope() + ":" + t.topic() + "=" + t.count())
        .containsExactly("org:policy=1", "org/team:policy=1", "org/team/alice:prefs=1");
  }

  @Test
  void getByCitationFindsVisibleVersionsOnly() {
    VisibilityFixture f = new VisibilityFixture();
    for (String scope : f.visible) {
      WriteResult r = f.byScope.get(scope);
      assertThat(f.engram.get(f.reader, r.citation())).isEqualTo(r.entry());
    }
    for (WriteResult r : f.hiddenResults()) {
      assertThatThrownBy(() -> f.engram.get(f.reader, r.citation()))
          .as(r.entry().scope()).isInstanceOf(NotFoundException.class);
      Citation relabelled = new Citation(
          "org/team/alice", r.entry().entryId(), r.entry().versionId(), r.entry().createdInRevision());
      assertThatThrownBy(() -> f.engram.get(f.reader, relabelled))
          .as("citation relabelled with a visible scope for %s", r.entry().scope())
          .isInstanceOf(NotFoundException.class);
    }
  }

  @Test
  void getByEntryIdAndHistoryFindVisibleEntriesOnly() {
    VisibilityFixture f = new VisibilityFixture();
    for (String scope : f.visible) {
      WriteResult r = f.byScope.get(scope);
      assertThat(f.engram.get(f.reader, r.entry().entryId())).isEqualTo(r.entry());
      assertThat(f.engram.history(f.reader, r.entry().entryId()))
          .singleElement().extracting(MemoryEvent::after).isEqualTo(r.entry());
    }
    for (WriteResult r : f.hiddenResults()) {
      String id = r.entry().entryId();
      assertThatThrownBy(() -> f.engram.get(f.reader, id)).as(r.entry().scope()).isInstanceOf(NotFoundException.class);
      assertThatThrownBy(() -> f.engram.history(f.reader, id)).as(r.entry().scope())
          .isInstanceOf(NotFoundException.class);
    }
  }

  @Test
  void revisionAndChangesOfInvisibleScopesAreNotFound() {
    VisibilityFixture f = new VisibilityFixture();
    for (String scope : f.visible) {
      assertThat(f.engram.revision(f.reader, scope)).as(scope).isEqualTo(1);
      assertThat(f.engram.changes(f.reader, scope, 0)).as(scope).singleElement()
          .satisfies(rev -> assertThat(rev.changes()).extracting(c -> c.entryId())
              .containsExactly(f.byScope.get(scope).entry().entryId()));
    }
    for (String scope : f.hidden) {
      assertThatThrownBy(() -> f.engram.revision(f.reader, scope)).as(scope).isInstanceOf(NotFoundException.class);
      assertThatThrownBy(() -> f.engram.changes(f.reader, scope, 0)).as(scope).isInstanceOf(NotFoundException.class);
    }
  }

  @Test
  void notFoundForAnInvisibleEntryLooksLikeNotFoundForAnUnknownOne() {
    VisibilityFixture f = new VisibilityFixture();
    WriteResult bob = f.byScope.get("org/team/bob");
    String hiddenId = bob.entry().entryId();
    char last = hiddenId.charAt(hiddenId.length() - 1);
    String unknownId = hiddenId.substring(0, hiddenId.length() - 1) + (last == '0' ? '1' : '0');
    for (Function<String, ThrowingCallable> call : List.<Function<String, ThrowingCallable>>of(
        id -> () -> f.engram.get(f.reader, id),
        id -> () -> f.engram.history(f.reader, id),
        id -> () -> f.engram.correct(f.reader, id, "overwrite"),
        id -> () -> f.engram.deleteEntry(f.reader, id))) {
      NotFoundException hidden = catchThrowableOfType(NotFoundException.class, call.apply(hiddenId));
      NotFoundException unknown = catchThrowableOfType(NotFoundException.class, call.apply(unknownId));
      assertThat(hidden).isNotNull();
      assertThat(unknown).isNotNull();
      assertThat(hidden.getMessage().replace(hiddenId, "ID")).isEqualTo(unknown.getMessage().replace(unknownId, "ID"));
      assertThat(hidden.getMessage()).doesNotContain("org/team/bob").doesNotContain("coffee");
    }
    assertThat(f.engram.get(Grants.of("org/team/bob"), hiddenId).content()).isEqualTo("bob prefers coffee");
  }

  @Test
  void changesAddressedToInvisibleEntriesAreNotFoundAndChangeNothing() {
    VisibilityFixture f = new VisibilityFixture();
    Grants auditor = Grants.of(f.hidden);
    VisibleState before = VisibleState.of(f.engram, auditor);
    for (WriteResult r : f.hiddenResults()) {
      String id = r.entry().entryId();
      String eventId = f.engram.history(Grants.of(r.entry().scope()), id).get(0).eventId();
      List<ThrowingCallable> calls = List.of(
          () -> f.engram.correct(f.reader, id, "overwritten by a stranger"),
          () -> f.engram.retire(f.reader, r.citation(), "retired by a stranger"),
          () -> f.engram.reactivate(f.reader, r.citation(), "reactivated by a stranger"),
          () -> f.engram.rollback(f.reader, eventId),
          () -> f.engram.deleteEntry(f.reader, id));
      for (ThrowingCallable call : calls) {
        assertThatThrownBy(call).as(r.entry().scope()).isInstanceOf(NotFoundException.class);
      }
    }
    assertThat(VisibleState.of(f.engram, auditor)).isEqualTo(before);
  }

  @Test
  void namespacesAreComparedLiterallyAndCaseSensitively() {
    Engram engram = newEngram();
    seed(engram, "lit/a_b", "underscore scope", "t");
    seed(engram, "lit/aXb", "x scope", "t");
    seed(engram, "lit/a%", "percent scope", "t");
    seed(engram, "lit/ab", "ab scope", "t");
    seed(engram, "lit/A_B", "upper scope", "t");
    seed(engram, "lit/a_b/c", "child of underscore", "t");
    assertThat(engram.read(Grants.of("lit/a_b"), "t")).extracting(MemoryEntry::content)
        .containsExactly("underscore scope");
    assertThat(engram.read(Grants.of("lit/a%"), "t")).extracting(MemoryEntry::content)
        .containsExactly("percent scope");
    assertThat(everything(engram, Grants.of("lit/A_B"))).extracting(MemoryEntry::content)
        .containsExactly("upper scope");
    assertThat(engram.scan(Grants.of("lit/a_b/c"))).extracting(TopicSummary::scope)
        .containsExactly("lit/a_b", "lit/a_b/c");
    assertThat(engram.list(Grants.of("lit/a"))).isEmpty();
  }

  @Test
  void severalGrantsSeeTheUnionOfTheirScopesAndAncestors() {
    VisibilityFixture f = new VisibilityFixture();
    Grants two = Grants.of("org/team/alice", "org/teamx");
    List<MemoryEntry> got = f.engram.read(two, FIXTURE_TOPICS, ReadOptions.limit(1000));
    assertThat(got).extracting(MemoryEntry::scope)
        .containsExactlyInAnyOrder("org", "org/team", "org/team/alice", "org/teamx");
    assertThat(got).extracting(MemoryEntry::entryId).doesNotHaveDuplicates();
    assertThat(f.engram.scan(two)).extracting(TopicSummary::scope).allMatch(two::canSee)
        .doesNotContain("org/team/bob", "org2", "org/team/alice/notes");
  }

  @Test
  void theReasonerIsShownOnlyVisibleTopicsAndCandidatesOfTheGrants() {
    List<TagRequest> seen = new CopyOnWriteArrayList<>();
    Reasoner recording = request -> {
      seen.add(request);
      return new TargetedReasoner().tag(request);
    };
    Engram engram = newEngram(recording, b -> b);
    seed(engram, "vis/a", "visible ancestor fact", "shared-topic");
    seed(engram, "vis/a/me", "my own fact", "shared-topic");
    seed(engram, "vis/a/me/below", "descendant fact", "below-topic");
    seed(engram, "vis/a/sibling", "sibling fact", "sibling-topic", "shared-topic");
    seen.clear();

    engram.write(Grants.of("vis/a/me"), "a new fact", WriteOptions.builder().topicsHint("shared-topic").build());
    assertThat(seen).singleElement().satisfies(req -> {
      assertThat(req.visibleTopics()).containsExactly("shared-topic");
      assertThat(req.candidates()).extracting(MemoryEntry::scope).containsOnly("vis/a/me");
      assertThat(req.candidates()).extracting(MemoryEntry::content).containsExactly("my own fact");
    });
  }

  // ---------------------------------------------------------------------------------------------
  // property: isolation over random trees and grants

  /** Trials per run: {@code -Dengram.tck.trials=N} (default 1,000). Seed: {@code -Dengram.tck.seed=S}. */
  @Test
  void isolationHoldsForRandomNamespaceTreesAndGrants() {
    int trials = Integer.getInteger("engram.tck.trials", 1000);
    long seed = Long.getLong("engram.tck.seed", System.nanoTime());
    int trialsPerStore = 250;
    IsolationProperty property = null;
    long checks = 0;
    for (int t = 0; t < trials; t++) {
      if (t % trialsPerStore == 0) {
        MemoryStore store = createStore();
        property = new IsolationProperty(store, newEngram(store, new TargetedReasoner(), b -> b), seed, trials);
      }
      checks += property.runTrial(t);
    }
    assertThat(checks).as("checks made with seed=%d", seed).isGreaterThanOrEqualTo(trials);
  }
}
