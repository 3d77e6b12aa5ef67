/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import dev.engram.AncestorPromotion;
import dev.engram.Engram;
import dev.engram.ErrorCode;
import dev.engram.Grants;
import dev.engram.InvalidGrantException;
import dev.engram.MemoryEntry;
import dev.engram.NotFoundException;
import dev.engram.ProtectedNamespace;
import dev.engram.ReasonerException;
import dev.engram.ScopeViolationException;
import dev.engram.WriteOptions;
import dev.engram.WritePolicy;
import dev.engram.WriteResult;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import dev.engram.tck.TargetedReasoner;
import dev.engram.tck.VisibleState;

/**
 * The grant policy: how grants are validated, where they can write (the grant, descendants unless the
 * policy says otherwise, ancestors only with promotion), what each grant authorizes on its own, and
 * protected namespaces. Engine rules, run once against the reference store.
 */
class GrantPolicyTest extends EngineRules {

  private final AtomicInteger counter = new AtomicInteger();

  private String unique(String label) {
    return label + " #" + counter.incrementAndGet();
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
}
