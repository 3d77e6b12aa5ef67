/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.engram.AncestorPromotion;
import dev.engram.ContextRequest;
import dev.engram.Namespaces;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.Citation;
import dev.engram.Engram;
import dev.engram.ErrorCode;
import dev.engram.Grants;
import dev.engram.InvalidGrantException;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.NotFoundException;
import dev.engram.ProtectedNamespace;
import dev.engram.ReadOptions;
import dev.engram.ReasonerException;
import dev.engram.ScopeViolationException;
import dev.engram.TopicSummary;
import dev.engram.WriteOptions;
import dev.engram.WritePolicy;
import dev.engram.WriteResult;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import dev.engram.spi.TagRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Grants and isolation: how grants are validated, what they can see (each grant and its ancestors,
 * never siblings or descendants), where they can write (the grant, descendants unless the policy says
 * otherwise, ancestors only with promotion), protected namespaces, and a randomized isolation property.
 */
public abstract class GrantsContract extends ContractSupport {

  /** Topics used by the visibility fixture. */
  private static final List<String> FIXTURE_TOPICS = List.of("policy", "prefs", "notes", "secret");

  private final AtomicInteger counter = new AtomicInteger();

  private String unique(String label) {
    return label + " #" + counter.incrementAndGet();
  }

  /** Writes into exactly {@code scope}: the reasoners used here file into the first grant unless told otherwise. */
  private static WriteResult seed(Engram engram, String scope, String content, String... topics) {
    WriteResult r = write(engram, Grants.of(scope), content, topics);
    assertThat(r.outcome()).as("seeding %s", scope).isEqualTo(WriteResult.Outcome.APPENDED);
    assertThat(r.entry().scope()).isEqualTo(scope);
    return r;
  }

  // ---------------------------------------------------------------------------------------------
  // validation

  static Stream<Arguments> malformedGrants() {
    List<String> tooMany = IntStream.rangeClosed(0, Grants.MAX_GRANTS).mapToObj(i -> "g" + i).toList();
    return Stream.of(
        Arguments.of("no grants", List.of(), "at least one grant"),
        Arguments.of("empty", List.of(""), "empty"),
        Arguments.of("blank", List.of("   "), "whitespace"),
        Arguments.of("leading slash", List.of("/app/user"), "leading or trailing '/'"),
        Arguments.of("trailing slash", List.of("app/user/"), "leading or trailing '/'"),
        Arguments.of("only a slash", List.of("/"), "leading or trailing '/'"),
        Arguments.of("double slash", List.of("app//user"), "'//'"),
        Arguments.of("dot segment", List.of("app/./user"), "'.' segment"),
        Arguments.of("dot-dot segment", List.of("app/../user"), "'..' segment"),
        Arguments.of("lone dot-dot", List.of(".."), "'..' segment"),
        Arguments.of("wildcard segment", List.of("app/*"), "'*'"),
        Arguments.of("wildcard inside", List.of("app/u*"), "'*'"),
        Arguments.of("space", List.of("app/u 1"), "whitespace"),
        Arguments.of("tab", List.of("app\tuser"), "whitespace"),
        Arguments.of("newline", List.of("app/user\n"), "whitespace"),
        Arguments.of("no-break space", List.of("app/\u00A0user"), "whitespace"),
        Arguments.of("em space", List.of("app/\u2003user"), "whitespace"),
        Arguments.of("NUL", List.of("app/u\u0000"), "control"),
        Arguments.of("escape character", List.of("app/\u001Bu"), "control"),
        Arguments.of("unpaired surrogate", List.of("app/\uD800"), "unpaired surrogate"),
        Arguments.of("unpaired low surrogate", List.of("app/u\uDE00x"), "unpaired surrogate (U+DE00) at index 5"),
        Arguments.of("surrogates reversed", List.of("app/\uDE00\uD83D"), "unpaired surrogate"),
        Arguments.of("noncharacter", List.of("app/u\uFFFE"), "noncharacter U+FFFE"),
        Arguments.of("plane-1 noncharacter", List.of("app/\uD83F\uDFFF"), "noncharacter U+1FFFF"),
        Arguments.of("right-to-left override", List.of("app/u\u202Ex"), "format character U+202E"),
        Arguments.of("not NFC (combining accent)", List.of("app/e\u0301"), "not in Unicode NFC form"),
        Arguments.of("zero-width space", List.of("app/u\u200Bx"), "format character U+200B"),
        Arguments.of("backslash", List.of("app\\user"), "backslash"),
        Arguments.of("second grant malformed", List.of("app/ok", "app/../x"), "'..' segment"),
        Arguments.of("null grant", Arrays.asList("app/ok", null), "null"),
        Arguments.of("too many grants", tooMany, "limit is " + Grants.MAX_GRANTS),
        Arguments.of("too long", List.of("a".repeat(513)), "limit is 512"),
        Arguments.of("too deep", List.of(String.join("/", Collections.nCopies(33, "d"))), "limit is 32"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedGrants")
  void malformedGrantsAreRejectedNamingTheProblem(String label, List<String> namespaces, String problem) {
    InvalidGrantException e = catchThrowableOfType(InvalidGrantException.class, () -> Grants.of(namespaces));
    assertThat(e).as(label).isNotNull();
    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_GRANT);
    assertThat(e.field()).startsWith("grants");
    assertThat(e.getMessage()).startsWith("grants").contains(problem);
  }

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

  @Test
  void grantsKeepOrderDropDuplicatesAndSeeThemselvesAndTheirAncestorsOnly() {
    Grants g = Grants.of("org/team/alice", "shared", "org/team/alice", "x_y/z");
    assertThat(g.namespaces()).containsExactly("org/team/alice", "shared", "x_y/z");
    assertThat(g.visibleScopes())
        .containsExactlyInAnyOrder("org/team/alice", "org/team", "org", "shared", "x_y/z", "x_y");
    assertThat(g.canSee("org/team/alice/notes")).isFalse();
    assertThat(g.canSee("org/team/bob")).isFalse();
    assertThat(g.canSee("org/teamx")).isFalse();
    assertThat(g.canSee("x_y/z/w")).isFalse();
    assertThat(Grants.of("a", "b")).isEqualTo(Grants.of(List.of("a", "b"))).isNotEqualTo(Grants.of("b", "a"));
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
  // write authority

  /** Asserts that a write filed into {@code target} fails as invalid model output and changes nothing. */
  private void assertWriteRejected(
      Engram engram, TargetedReasoner reasoner, Grants writer, WriteOptions options, String target, Grants auditor) {
    VisibleState before = VisibleState.of(engram, auditor);
    reasoner.fileInto(target);
    String content = unique("rejected write into " + target);
    ReasonerException e = catchThrowableOfType(ReasonerException.class, () -> engram.write(writer, content, options));
    assertThat(e).as("write into %s with %s and %s", target, writer, options.writePolicy()).isNotNull();
    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_MODEL_OUTPUT);
    assertThat(e.getMessage()).contains(target);
    assertThat(VisibleState.of(engram, auditor)).isEqualTo(before);
  }

  private WriteResult assertWriteLands(
      Engram engram, TargetedReasoner reasoner, Grants writer, WriteOptions options, String target) {
    reasoner.fileInto(target);
    WriteResult r = engram.write(writer, unique("accepted write into " + target), options);
    assertThat(r.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
    assertThat(r.entry().scope()).isEqualTo(target);
    assertThat(engram.get(Grants.of(target), r.citation())).isEqualTo(r.entry());
    return r;
  }

  private static WriteOptions policy(WritePolicy policy) {
    return WriteOptions.builder().writePolicy(policy).build();
  }

  @Test
  void writesLandInTheGrantOrBelowItByDefault() {
    TargetedReasoner reasoner = new TargetedReasoner();
    Engram engram = newEngram(reasoner, b -> b);
    Grants team = Grants.of("org/team");
    Grants auditor = Grants.of("org/team/alice/deep", "org/teamx", "org/other");
    assertWriteLands(engram, reasoner, team, WriteOptions.defaults(), "org/team");
    assertWriteLands(engram, reasoner, team, WriteOptions.defaults(), "org/team/alice");
    assertWriteLands(engram, reasoner, team, WriteOptions.defaults(), "org/team/alice/deep");
    assertWriteRejected(engram, reasoner, team, WriteOptions.defaults(), "org", auditor);
    assertWriteRejected(engram, reasoner, team, WriteOptions.defaults(), "org/teamx", auditor);
    assertWriteRejected(engram, reasoner, team, WriteOptions.defaults(), "org/other", auditor);
    assertWriteRejected(engram, reasoner, team, WriteOptions.defaults(), "elsewhere", Grants.of("elsewhere"));
  }

  @Test
  void grantOnlyPolicyInWriteOptionsKeepsWritesOnTheGrant() {
    TargetedReasoner reasoner = new TargetedReasoner();
    Engram engram = newEngram(reasoner, b -> b);
    Grants team = Grants.of("org/team");
    WriteOptions grantOnly = policy(WritePolicy.grantOnly());
    assertWriteLands(engram, reasoner, team, grantOnly, "org/team");
    assertWriteRejected(engram, reasoner, team, grantOnly, "org/team/alice", Grants.of("org/team/alice"));
    assertWriteRejected(engram, reasoner, team, grantOnly, "org", Grants.of("org/team"));
    assertWriteLands(engram, reasoner, team, WriteOptions.defaults(), "org/team/alice");
  }

  @Test
  void builderWritePolicyIsTheDefaultAndWriteOptionsCannotWidenIt() {
    TargetedReasoner reasoner = new TargetedReasoner();
    Engram engram = newEngram(reasoner, b -> b.writePolicy(WritePolicy.grantOnly()));
    Grants team = Grants.of("org/team");
    assertWriteRejected(engram, reasoner, team, WriteOptions.defaults(), "org/team/alice", Grants.of("org/team/alice"));
    assertWriteRejected(engram, reasoner, team, policy(WritePolicy.defaults()), "org/team/alice", Grants.of("org/team/alice"));
    assertWriteLands(engram, reasoner, team, WriteOptions.defaults(), "org/team");
  }

  @Test
  void ancestorPromotionNoneNeverWritesAboveTheGrant() {
    TargetedReasoner reasoner = new TargetedReasoner();
    Engram engram = newEngram(reasoner, b -> b);
    Grants alice = Grants.of("org/team/alice");
    Grants auditor = Grants.of("org/team/alice");
    for (String target : List.of("org/team", "org")) {
      assertWriteRejected(engram, reasoner, alice, WriteOptions.defaults(), target, auditor);
      assertWriteRejected(engram, reasoner, alice, policy(WritePolicy.builder().ancestorPromotion(AncestorPromotion.NONE).build()),
          target, auditor);
    }
  }

  @Test
  void ancestorPromotionParentReachesOnlyTheParent() {
    TargetedReasoner reasoner = new TargetedReasoner();
    Engram engram = newEngram(reasoner, b -> b.writePolicy(WritePolicy.builder().ancestorPromotion(AncestorPromotion.PARENT).build()));
    Grants alice = Grants.of("org/team/alice");
    Grants auditor = Grants.of("org/team/alice", "org/team/bob");
    WriteOptions parent = policy(WritePolicy.builder().ancestorPromotion(AncestorPromotion.PARENT).build());
    assertWriteLands(engram, reasoner, alice, parent, "org/team");
    assertWriteRejected(engram, reasoner, alice, parent, "org", auditor);
    assertWriteRejected(engram, reasoner, alice, parent, "org/team/bob", auditor);
    WriteOptions parentOnly = policy(WritePolicy.builder().grantOnly().ancestorPromotion(AncestorPromotion.PARENT).build());
    assertWriteLands(engram, reasoner, alice, parentOnly, "org/team");
    assertWriteRejected(engram, reasoner, alice, parentOnly, "org/team/alice/notes", Grants.of("org/team/alice/notes"));
  }

  @Test
  void ancestorPromotionAncestorsReachesEveryAncestorButNeverASiblingOrCousin() {
    TargetedReasoner reasoner = new TargetedReasoner();
    Engram engram = newEngram(reasoner, b -> b.writePolicy(WritePolicy.builder().ancestorPromotion(AncestorPromotion.ANCESTORS).build()));
    Grants alice = Grants.of("org/team/alice");
    assertWriteLands(engram, reasoner, alice, WriteOptions.defaults(), "org/team");
    assertWriteLands(engram, reasoner, alice, WriteOptions.defaults(), "org");
    Grants auditor = Grants.of("org/team/bob", "org/teamx", "org/other/alice", "org/team/alicex", "org2");
    for (String target : List.of("org/team/bob", "org/teamx", "org/other/alice", "org/team/alicex", "org2")) {
      assertWriteRejected(engram, reasoner, alice, WriteOptions.defaults(), target, auditor);
    }
  }

  @Test
  void eachGrantAuthorizesOnItsOwnAndGrantsDoNotCombine() {
    TargetedReasoner reasoner = new TargetedReasoner();
    Engram engram = newEngram(reasoner, b -> b.writePolicy(WritePolicy.builder().ancestorPromotion(AncestorPromotion.PARENT).build()));
    Grants two = Grants.of("x/a", "y/b");
    WriteOptions parent = policy(WritePolicy.builder().ancestorPromotion(AncestorPromotion.PARENT).build());
    assertWriteLands(engram, reasoner, two, WriteOptions.defaults(), "y/b/c");
    assertWriteLands(engram, reasoner, two, parent, "y");
    assertWriteLands(engram, reasoner, two, parent, "x");
    Grants auditor = Grants.of("x/b", "y/a", "x/a");
    assertWriteRejected(engram, reasoner, two, parent, "x/b", auditor);
    assertWriteRejected(engram, reasoner, two, parent, "y/a", auditor);
  }

  @Test
  void malformedOrMissingProposedNamespacesAreRejected() {
    TargetedReasoner reasoner = new TargetedReasoner();
    Engram engram = newEngram(reasoner, b -> b);
    Grants team = Grants.of("org/team");
    seed(engram, "org/team", "something already there", "general");
    for (String bad : List.of("org/team/../x", "org/team/*", "/org/team", "org/team/", "org//team", "org/team/a b")) {
      VisibleState before = VisibleState.of(engram, team);
      reasoner.fileInto(bad);
      assertThatThrownBy(() -> engram.write(team, unique("bad namespace")))
          .as(bad).isInstanceOfSatisfying(ReasonerException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_MODEL_OUTPUT));
      assertThat(VisibleState.of(engram, team)).isEqualTo(before);
    }
  }

  /** One entry in each of {@code org}, {@code org/team} and {@code org/team/alice}, written by their own grant. */
  private final class ChangeFixture {
    final Engram engram;
    final Grants alice = Grants.of("org/team/alice");
    final WriteResult org;
    final WriteResult team;
    final WriteResult own;

    ChangeFixture(Engram engram) {
      this.engram = engram;
      org = seed(engram, "org", "org level fact", "general");
      team = seed(engram, "org/team", "team level fact", "general");
      own = seed(engram, "org/team/alice", "alice level fact", "general");
    }

    void assertScopeViolation(String what, ThrowingCallable call) {
      VisibleState before = VisibleState.of(engram, alice);
      assertThatThrownBy(call).as(what).isInstanceOfSatisfying(ScopeViolationException.class, e -> {
        assertThat(e.code()).isEqualTo(ErrorCode.SCOPE_VIOLATION);
        assertThat(e.getMessage()).contains("not writable");
      });
      assertThat(VisibleState.of(engram, alice)).as(what).isEqualTo(before);
    }
  }

  @Test
  void changesToVisibleButUnwritableAncestorEntriesAreScopeViolations() {
    ChangeFixture f = new ChangeFixture(newEngram());
    for (WriteResult r : List.of(f.org, f.team)) {
      String id = r.entry().entryId();
      String eventId = f.engram.history(f.alice, id).get(0).eventId();
      f.assertScopeViolation("correct " + r.entry().scope(), () -> f.engram.correct(f.alice, id, "hijacked"));
      f.assertScopeViolation("retire " + r.entry().scope(), () -> f.engram.retire(f.alice, r.citation(), "hijack"));
      f.assertScopeViolation("rollback " + r.entry().scope(), () -> f.engram.rollback(f.alice, eventId));
      f.assertScopeViolation("deleteEntry " + r.entry().scope(), () -> f.engram.deleteEntry(f.alice, id));
      f.assertScopeViolation("deleteScope " + r.entry().scope(),
          () -> f.engram.deleteScope(f.alice, r.entry().scope()));
    }
    f.assertScopeViolation("deleteScope of a sibling", () -> f.engram.deleteScope(f.alice, "org/team/bob", dev.engram.DeleteScopeOptions.withDescendants()));
    MemoryEntry corrected = f.engram.correct(f.alice, f.own.entry().entryId(), "alice level fact, corrected");
    assertThat(corrected.version()).isEqualTo(2);
  }

  @Test
  void reactivatingAnUnwritableEntryIsAScopeViolation() {
    ChangeFixture f = new ChangeFixture(newEngram());
    MemoryEntry retired = f.engram.retire(Grants.of("org/team"), f.team.citation(), "done");
    f.assertScopeViolation("reactivate", () -> f.engram.reactivate(f.alice, retired.citation(), "bring back"));
    assertThat(f.engram.get(f.alice, f.team.entry().entryId()).status()).isEqualTo(retired.status());
  }

  @Test
  void theEngineWritePolicyGovernsChangesToExistingEntries() {
    ChangeFixture f = new ChangeFixture(newEngram(new TargetedReasoner(),
        b -> b.writePolicy(WritePolicy.builder().ancestorPromotion(AncestorPromotion.PARENT).build())));
    MemoryEntry team = f.engram.correct(f.alice, f.team.entry().entryId(), "team level fact, corrected by alice");
    assertThat(team.scope()).isEqualTo("org/team");
    assertThat(team.version()).isEqualTo(2);
    f.assertScopeViolation("correct grandparent", () -> f.engram.correct(f.alice, f.org.entry().entryId(), "nope"));
  }

  @Test
  void entriesBelowTheGrantAreWritableButNeverVisibleSoTheyCannotBeChangedById() {
    TargetedReasoner reasoner = new TargetedReasoner();
    Engram engram = newEngram(reasoner, b -> b);
    Grants team = Grants.of("org/team");
    WriteResult below = assertWriteLands(engram, reasoner, team, WriteOptions.defaults(), "org/team/alice");
    String id = below.entry().entryId();
    assertThatThrownBy(() -> engram.get(team, id)).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> engram.correct(team, id, "changed from above")).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> engram.retire(team, below.citation(), "from above")).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> engram.deleteEntry(team, id)).isInstanceOf(NotFoundException.class);
    assertThat(engram.get(Grants.of("org/team/alice"), id)).isEqualTo(below.entry());
  }

  // ---------------------------------------------------------------------------------------------
  // protected namespaces

  private static final String BOUNDARY = "app/private/users";

  @Test
  void grantsAtOrJustBelowAProtectedBoundaryAreRejectedByEveryCall() {
    Engram engram = newEngram(new TargetedReasoner(), b -> b.protectNamespace(ProtectedNamespace.of(BOUNDARY)));
    seed(engram, "app/private/users/u1", "user one data", "general");
    for (Grants bad : List.of(Grants.of(BOUNDARY), Grants.of("app/private/users/u1", BOUNDARY))) {
      List<ThrowingCallable> calls = List.of(
          () -> engram.write(bad, "content"),
          () -> engram.read(bad, "general"),
          () -> engram.list(bad),
          () -> engram.scan(bad),
          () -> engram.revision(bad, "app"),
          () -> engram.changes(bad, "app", 0),
          () -> engram.deleteScope(bad, BOUNDARY, dev.engram.DeleteScopeOptions.withDescendants()),
          () -> engram.curate(bad));
      for (ThrowingCallable call : calls) {
        assertThatThrownBy(call).as("%s", bad).isInstanceOfSatisfying(InvalidGrantException.class, e -> {
          assertThat(e.code()).isEqualTo(ErrorCode.INVALID_GRANT);
          assertThat(e.getMessage()).contains(BOUNDARY);
        });
      }
    }
    assertThat(engram.list(Grants.of("app/private/users/u1"))).extracting(MemoryEntry::content)
        .containsExactly("user one data");
  }

  @Test
  void minDepthBelowCountsSegmentsUnderTheBoundary() {
    Engram engram = newEngram(new TargetedReasoner(), b -> b.protectNamespace(new ProtectedNamespace(BOUNDARY, 2)));
    assertThatThrownBy(() -> engram.write(Grants.of("app/private/users/u1"), "too shallow"))
        .isInstanceOf(InvalidGrantException.class).hasMessageContaining(BOUNDARY);
    WriteResult ok = engram.write(Grants.of("app/private/users/u1/s1"), "deep enough");
    assertThat(ok.entry().scope()).isEqualTo("app/private/users/u1/s1");
    assertThat(engram.list(Grants.of("app/private"))).isEmpty();
  }

  @Test
  void aGrantAboveAProtectedBoundaryCannotWriteIntoIt() {
    TargetedReasoner reasoner = new TargetedReasoner();
    Engram engram = newEngram(reasoner, b -> b.protectNamespace(ProtectedNamespace.of(BOUNDARY)));
    Grants above = Grants.of("app/private");
    Grants auditor = Grants.of("app/private/users/u1/deeper");
    assertWriteLands(engram, reasoner, above, WriteOptions.defaults(), "app/private/notes");
    assertWriteRejected(engram, reasoner, above, WriteOptions.defaults(), "app/private/users/u1", auditor);
    assertWriteRejected(engram, reasoner, above, WriteOptions.defaults(), "app/private/users/u1/deeper", auditor);
    assertWriteRejected(engram, reasoner, above, WriteOptions.defaults(), BOUNDARY, auditor);
    assertWriteRejected(engram, reasoner, Grants.of("app"), WriteOptions.defaults(), "app/private/users/u1", auditor);
  }

  @Test
  void theProtectedBoundaryAndItsSiblingsAreNeverReachedFromInside() {
    TargetedReasoner reasoner = new TargetedReasoner();
    Engram engram = newEngram(reasoner, b -> b.protectNamespace(ProtectedNamespace.of(BOUNDARY)));
    Grants u1 = Grants.of("app/private/users/u1");
    WriteOptions ancestors = policy(WritePolicy.builder().ancestorPromotion(AncestorPromotion.ANCESTORS).build());
    Grants auditor = Grants.of("app/private/users/u1", "app/private/users/u2");
    assertWriteLands(engram, reasoner, u1, ancestors, "app/private/users/u1/inbox");
    assertWriteRejected(engram, reasoner, u1, ancestors, BOUNDARY, auditor);
    assertWriteRejected(engram, reasoner, u1, ancestors, "app/private/users/u2", auditor);
  }

  @Test
  void erasingFromAboveAProtectedBoundaryIsAScopeViolationAndErasesNothing() {
    Engram engram = newEngram(new TargetedReasoner(), b -> b.protectNamespace(ProtectedNamespace.of(BOUNDARY)));
    seed(engram, "app/private/users/u1", "user one data", "general");
    seed(engram, "app/private", "shared private data", "general");
    Grants above = Grants.of("app/private");
    Grants auditor = Grants.of("app/private/users/u1");
    VisibleState before = VisibleState.of(engram, auditor);
    assertThatThrownBy(() -> engram.deleteScope(above, "app/private", dev.engram.DeleteScopeOptions.withDescendants()))
        .isInstanceOf(ScopeViolationException.class).hasMessageContaining("app/private/users/u1");
    assertThatThrownBy(() -> engram.deleteScope(above, "app/private/users/u1"))
        .isInstanceOf(ScopeViolationException.class);
    assertThatThrownBy(() -> engram.deleteScope(Grants.of("app"), "app", dev.engram.DeleteScopeOptions.withDescendants()))
        .isInstanceOf(ScopeViolationException.class);
    assertThat(VisibleState.of(engram, auditor)).isEqualTo(before);
    assertThat(engram.deleteScope(above, "app/private")).isEqualTo(1);
    assertThat(engram.list(auditor)).extracting(MemoryEntry::content).containsExactly("user one data");
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
