/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import dev.engram.test.ScriptedReasoner;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.engram.ContextRequest;
import dev.engram.Engram;
import dev.engram.EntryStateException;
import dev.engram.ErrorCode;
import dev.engram.Experience;
import dev.engram.ExperienceCitation;
import dev.engram.ExperienceListOptions;
import dev.engram.ExperienceRequest;
import dev.engram.ExperienceStatus;
import dev.engram.Grants;
import dev.engram.ImportOptions;
import dev.engram.InvalidInputException;
import dev.engram.NotFoundException;
import dev.engram.PreparedContext;
import dev.engram.ScopeViolationException;
import dev.engram.SourceRecord;
import dev.engram.TransferReport;
import dev.engram.UntrustedText;
import dev.engram.VersionConflictException;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.ScoredExperience;
import dev.engram.spi.StoreCapability;
import dev.engram.spi.TextAnalysis;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Experience ({@link StoreCapability#REVIEW}): lessons from task outcomes, a kind of memory of its own.
 * Driven through the store SPI (versions stored with at most one active per experience, a full-text
 * index of their own holding only active versions, scopes filtering, a failed transaction leaving
 * nothing, the incubation cursor within the scope's source positions) and through the facade (record,
 * revise and retire with the expected version and typed conflicts, history, isolation, erasure leaving no
 * row behind, export and import, and the context's experience share: at most two items, each capped,
 * labelled, cited, inside the untrusted fence, within the one byte budget).
 */
public abstract class ExperienceContract extends ContractSupport {
  private static final String S1 = Fixtures.S1;
  private static final String S2 = Fixtures.S2;
  private static final Grants U1 = Grants.of(S1);
  private static final Grants U2 = Grants.of(S2);
  private static final Instant T0 = Instant.parse("2025-03-04T09:00:00Z");

  /**
   * What {@code store} holds beneath the SPI (see {@link StoredRows}).
   *
   * @param store a store made by {@link #createStore()}
   * @return its rows at rest
   */
  protected abstract StoredRows storedRows(MemoryStore store);

  private MemoryStore probe;

  @BeforeEach
  void requireReview() {
    probe = createStore();
    boolean keeps = probe.capabilities().contains(StoreCapability.REVIEW);
    if (!keeps) {
      probe.close();
    }
    assumeTrue(keeps, "the store does not declare REVIEW");
  }

  private static Experience version(String experienceId, String versionId, int version, String previous,
      String scope, String lesson, ExperienceStatus status) {
    return new Experience(experienceId, versionId, version, previous, scope, "Deploying the billing service",
        "Ran the schema migration first", "The old pods failed on the new schema", lesson, List.of("s-1"), status,
        "ops", null, null, T0, T0);
  }

  private static FullTextQuery query(String text) {
    return new FullTextQuery(TextAnalysis.queryTerms(text, FullTextQuery.MAX_TERMS), Set.of(), Set.of());
  }

  static ExperienceRequest deployLesson() {
    return ExperienceRequest.builder("Deploying the billing service on a Friday evening",
        "Ran the schema migration before rolling out the new pods",
        "The old pods crashed reading the new schema and checkout was down for ten minutes",
        "Roll out the new pods first and migrate the schema only after the old pods are gone")
        .evidence(List.of("turn-7")).actor("ops-lead").build();
  }

  // ---- the store SPI

  @Test
  void anExperienceVersionIsSearchableOnlyWhileActiveAndOnlyInItsScope() {
    probe.inTransaction(S1, tx -> {
      tx.insertExperience(version("x1", "v1", 1, null, S1, "Migrate after the rollout", ExperienceStatus.ACTIVE));
      return null;
    });
    assertThat(probe.experienceVersion("v1")).get().extracting(Experience::lesson).isEqualTo("Migrate after the rollout");
    List<ScoredExperience> hits = probe.searchExperience(List.of(S1), query("schema migration rollout"), 10);
    assertThat(hits).extracting(h -> h.experience().versionId()).containsExactly("v1");
    assertThat(hits.get(0).score()).isPositive();
    assertThat(probe.searchExperience(List.of(S2), query("schema migration"), 10)).isEmpty();
    assertThat(probe.searchExperience(List.of(S1), query("kubernetes helm"), 10)).isEmpty();
    assertThat(probe.hasScope(S1)).isTrue();

    probe.inTransaction(S1, tx -> {
      tx.updateExperienceStatus("v1", ExperienceStatus.SUPERSEDED, T0.plusSeconds(1));
      tx.insertExperience(version("x1", "v2", 2, "v1", S1, "Canary the rollout, then migrate", ExperienceStatus.ACTIVE));
      return null;
    });
    assertThat(probe.searchExperience(List.of(S1), query("migrate"), 10)).extracting(h -> h.experience().versionId())
        .containsExactly("v2");
    assertThat(probe.experienceVersions("x1")).extracting(Experience::versionId, Experience::status)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("v1", ExperienceStatus.SUPERSEDED),
            org.assertj.core.groups.Tuple.tuple("v2", ExperienceStatus.ACTIVE));
    assertThat(probe.experienceVersion("v1").orElseThrow().updatedAt()).isEqualTo(T0.plusSeconds(1));
    assertThat(probe.experiences(List.of(S1), EnumSet.of(ExperienceStatus.ACTIVE), 10))
        .extracting(Experience::versionId).containsExactly("v2");
    assertThat(probe.experiences(List.of(S1), EnumSet.allOf(ExperienceStatus.class), 1))
        .extracting(Experience::versionId).containsExactly("v1");
  }

  @Test
  void theStoreRefusesWhatWouldBreakAChainAndAFailedTransactionLeavesNothing() {
    probe.inTransaction(S1, tx -> {
      tx.insertExperience(version("x1", "v1", 1, null, S1, "Lesson one", ExperienceStatus.ACTIVE));
      return null;
    });
    // a second active version of one experience
    assertThatThrownBy(() -> probe.inTransaction(S1, tx -> {
      tx.insertExperience(version("x1", "v2", 2, "v1", S1, "Lesson two", ExperienceStatus.ACTIVE));
      return null;
    })).isInstanceOf(IllegalStateException.class);
    // a version number taken, a version id taken, another scope
    assertThatThrownBy(() -> probe.inTransaction(S1, tx -> {
      tx.insertExperience(version("x1", "v3", 1, null, S1, "Lesson three", ExperienceStatus.SUPERSEDED));
      return null;
    })).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> probe.inTransaction(S1, tx -> {
      tx.insertExperience(version("x9", "v1", 1, null, S1, "Lesson four", ExperienceStatus.ACTIVE));
      return null;
    })).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> probe.inTransaction(S2, tx -> {
      tx.insertExperience(version("x2", "w1", 1, null, S1, "Lesson five", ExperienceStatus.ACTIVE));
      return null;
    })).isInstanceOf(IllegalStateException.class);
    // the work fails after writing: nothing of it stays, the index included
    assertThatThrownBy(() -> probe.inTransaction(S1, tx -> {
      tx.updateExperienceStatus("v1", ExperienceStatus.SUPERSEDED, T0);
      tx.insertExperience(version("x1", "v4", 2, "v1", S1, "Quarantine the deploy", ExperienceStatus.ACTIVE));
      throw new IllegalStateException("the work fails after writing");
    })).hasMessageContaining("the work fails");
    assertThat(probe.experienceVersions("x1")).extracting(Experience::versionId, Experience::status)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("v1", ExperienceStatus.ACTIVE));
    assertThat(probe.searchExperience(List.of(S1), query("quarantine"), 10)).isEmpty();
    assertThat(probe.searchExperience(List.of(S1), query("lesson"), 10)).extracting(h -> h.experience().versionId())
        .containsExactly("v1");
    // erasure removes every version and its index rows
    assertThat(probe.<Integer>inTransaction(S1, tx -> tx.eraseExperience("x1"))).isEqualTo(1);
    assertThat(probe.experienceVersions("x1")).isEmpty();
    assertThat(probe.searchExperience(List.of(S1), query("lesson"), 10)).isEmpty();
    assertThat(probe.<Integer>inTransaction(S1, tx -> tx.eraseExperience("x1"))).isZero();
  }

  @Test
  void theIncubationCursorMovesForwardWithinTheSourcePositionsAndGoesWithTheScope() {
    assumeTrue(probe.capabilities().contains(StoreCapability.SOURCES), "the store does not declare SOURCES");
    Engram engram = newEngram(probe, new ScriptedReasoner(), b -> b);
    engram.captureAll(U1, List.of(SourceRecord.of("s", "ana", "one"), SourceRecord.of("s", "ana", "two")));
    assertThat(probe.incubationCursor(S1)).isZero();
    probe.inTransaction(S1, tx -> {
      tx.advanceIncubationCursor(1);
      return null;
    });
    assertThat(probe.incubationCursor(S1)).isEqualTo(1);
    assertThat(probe.sourceState(S1).cursor()).as("extraction's cursor is its own").isZero();
    assertThatThrownBy(() -> probe.inTransaction(S1, tx -> {
      tx.advanceIncubationCursor(3);
      return null;
    })).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> probe.inTransaction(S1, tx -> {
      tx.advanceIncubationCursor(0);
      return null;
    })).isInstanceOf(IllegalStateException.class);
    assertThat(probe.incubationCursor(S1)).isEqualTo(1);
    engram.deleteScope(U1, S1);
    assertThat(probe.incubationCursor(S1)).isZero();
  }

  // ---- the facade

  @Test
  void trustedCodeRecordsRevisesAndRetiresWithTheExpectedVersion() {
    Engram engram = newEngram(probe, new ScriptedReasoner(), Fixtures.clocked());
    Experience v1 = engram.experience().record(U1, deployLesson());
    assertThat(v1.version()).isEqualTo(1);
    assertThat(v1.status()).isEqualTo(ExperienceStatus.ACTIVE);
    assertThat(v1.scope()).isEqualTo(S1);
    assertThat(v1.actor()).isEqualTo("ops-lead");
    assertThat(v1.evidence()).containsExactly("turn-7");
    assertThat(v1.reviewItemId()).as("trusted code needs no review").isNull();

    ExperienceRequest sharper = ExperienceRequest.builder(v1.situation(), v1.action(), v1.outcome(),
        "Roll out first, migrate last, and keep the old schema readable for one release").build();
    Experience v2 = engram.experience().revise(U1, v1.experienceId(), 1, sharper);
    assertThat(v2.version()).isEqualTo(2);
    assertThat(v2.previousVersionId()).isEqualTo(v1.versionId());
    // the same fields again change nothing
    assertThat(engram.experience().revise(U1, v1.experienceId(), 2, sharper)).isEqualTo(v2);

    VersionConflictException stale = org.assertj.core.api.Assertions.catchThrowableOfType(
        () -> engram.experience().revise(U1, v1.experienceId(), 1, deployLesson()), VersionConflictException.class);
    assertThat(stale.code()).isEqualTo(ErrorCode.VERSION_CONFLICT);
    assertThat(stale.expectedVersion()).isEqualTo(1);
    assertThat(stale.actualVersion()).isEqualTo(2);
    assertThat(engram.experience().get(U1, v1.experienceId())).isEqualTo(v2);

    Experience retired = engram.experience().retire(U1, v1.experienceId(), 2, "the service moved to blue-green deploys");
    assertThat(retired.status()).isEqualTo(ExperienceStatus.RETIRED);
    assertThat(retired.version()).isEqualTo(3);
    assertThat(retired.reason()).isEqualTo("the service moved to blue-green deploys");
    assertThatThrownBy(() -> engram.experience().retire(U1, v1.experienceId(), 3, "again"))
        .isInstanceOf(EntryStateException.class);
    assertThatThrownBy(() -> engram.experience().revise(U1, v1.experienceId(), 3, sharper))
        .isInstanceOf(EntryStateException.class);
    assertThat(engram.experience().history(U1, v1.experienceId())).extracting(Experience::version, Experience::status)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(1, ExperienceStatus.SUPERSEDED),
            org.assertj.core.groups.Tuple.tuple(2, ExperienceStatus.SUPERSEDED),
            org.assertj.core.groups.Tuple.tuple(3, ExperienceStatus.RETIRED));
    assertThat(engram.experience().list(U1, ExperienceListOptions.defaults())).isEmpty();
    assertThat(engram.experience().list(U1, ExperienceListOptions.builder()
        .statuses(EnumSet.of(ExperienceStatus.RETIRED)).build())).containsExactly(retired);
    assertThat(engram.prepareContext(U1, ContextRequest.of("deploy the billing schema migration")).experience())
        .as("retired experience never reaches context").isEmpty();
  }

  @Test
  void badFieldsAreRefusedByNameAndStoreNothing() {
    Engram engram = newEngram(probe, new ScriptedReasoner(), b -> b);
    assertThatThrownBy(() -> engram.experience().record(U1, ExperienceRequest.builder(" ", "a", "o", "l").build()))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("situation");
    assertThatThrownBy(() -> engram.experience().record(U1,
        ExperienceRequest.builder("s", "a", "o", "x".repeat(Experience.MAX_FIELD_CHARS + 1)).build()))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("lesson").hasMessageContaining("8000");
    List<String> tooMany = new java.util.ArrayList<>();
    for (int i = 0; i <= Experience.MAX_EVIDENCE; i++) {
      tooMany.add("src-" + i);
    }
    assertThatThrownBy(() -> engram.experience().record(U1,
        ExperienceRequest.builder("s", "a", "o", "l").evidence(tooMany).build()))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("evidence");
    assertThatThrownBy(() -> engram.experience().record(U1, ExperienceRequest.builder("s", "a", "o", "l").scope(S2).build()))
        .isInstanceOf(ScopeViolationException.class);
    // the longest field is accepted
    Experience longest = engram.experience().record(U1,
        ExperienceRequest.builder("s", "a", "o", "y".repeat(Experience.MAX_FIELD_CHARS)).build());
    assertThat(engram.experience().list(U1, ExperienceListOptions.defaults())).containsExactly(longest);
  }

  @Test
  void otherGrantsSeeNothingAndCannotChangeIt() {
    Engram engram = newEngram(probe, new ScriptedReasoner(), b -> b);
    Experience mine = engram.experience().record(U1, deployLesson());
    assertThat(engram.experience().list(U2, ExperienceListOptions.defaults())).isEmpty();
    assertThatThrownBy(() -> engram.experience().get(U2, mine.experienceId())).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> engram.experience().history(U2, mine.experienceId())).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> engram.experience().retire(U2, mine.experienceId(), 1, "not mine"))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> engram.experience().delete(U2, mine.experienceId())).isInstanceOf(NotFoundException.class);
    assertThat(engram.prepareContext(U2, ContextRequest.of("billing schema migration deploy")).experience()).isEmpty();
    assertThat(engram.experience().get(U1, mine.experienceId())).isEqualTo(mine);
  }

  @Test
  void contextRendersAtMostTwoExperienceItemsLabelledCitedAndFencedWithinTheBudget() {
    Engram engram = newEngram(probe, new ScriptedReasoner(), b -> b);
    write(engram, U1, "The billing service schema lives in the payments database.", "billing");
    write(engram, U1, "Billing migrations run through Flyway.", "billing");
    for (int i = 0; i < 5; i++) {
      engram.experience().record(U1, ExperienceRequest.builder(
          "Billing schema migration number " + i, "Migrated the billing schema during the rollout " + i,
          "Checkout failed for " + (i + 2) + " minutes", "Lesson " + i + ": migrate the billing schema after rollout")
          .build());
    }
    PreparedContext ctx = engram.prepareContext(U1, ContextRequest.of("billing schema migration"));
    assertThat(ctx.status()).isEqualTo(PreparedContext.Status.READY);
    assertThat(ctx.experience()).hasSize(PreparedContext.MAX_EXPERIENCE_ITEMS);
    assertThat(ctx.citations()).as("the entries keep the other items").isNotEmpty();
    assertThat(ctx.citations().size() + ctx.experience().size()).isLessThanOrEqualTo(8);
    String content = ctx.content();
    assertThat(content.getBytes(StandardCharsets.UTF_8).length).isEqualTo(ctx.contentBytes())
        .isLessThanOrEqualTo(ContextRequest.DEFAULT_MAX_BYTES);
    int begin = content.indexOf(UntrustedText.BEGIN);
    int end = content.indexOf(UntrustedText.END);
    for (ExperienceCitation c : ctx.experience()) {
      int at = content.indexOf("cite " + c.render() + " | experience\n");
      assertThat(at).as("labelled and cited inside the fence").isGreaterThan(begin).isLessThan(end);
      assertThat(content.substring(at)).contains("\n| Lesson: ");
      assertThat(c.scope()).isEqualTo(S1);
    }

    // each item within the per-item cap, all of it within a small budget
    PreparedContext tight = engram.prepareContext(U1, ContextRequest.builder("billing schema migration").maxBytes(1024).maxItemBytes(64).build());
    assertThat(tight.contentBytes()).isLessThanOrEqualTo(1024);
    assertThat(tight.experience().size()).isLessThanOrEqualTo(PreparedContext.MAX_EXPERIENCE_ITEMS);
    // fewer than four items leave no room for experience's share
    assertThat(engram.prepareContext(U1, ContextRequest.builder("billing schema migration").maxItems(3).build()).experience())
        .isEmpty();
    // a task that matches no experience renders none
    assertThat(engram.prepareContext(U1, ContextRequest.of("payments database")).experience()).isEmpty();
  }

  @Test
  void onlyExperienceRendersWhenNoEntryMatches() {
    Engram engram = newEngram(probe, new ScriptedReasoner(), b -> b);
    Experience x = engram.experience().record(U1, deployLesson());
    PreparedContext ctx = engram.prepareContext(U1, ContextRequest.of("pods schema rollout"));
    assertThat(ctx.status()).isEqualTo(PreparedContext.Status.READY);
    assertThat(ctx.citations()).isEmpty();
    assertThat(ctx.experience()).containsExactly(x.citation());
    assertThat(ctx.content()).contains("[1] cite " + x.citation().render() + " | experience");
  }

  @Test
  void deletingAnExperienceOrItsScopeLeavesNoRowBehind() {
    Engram engram = newEngram(probe, new ScriptedReasoner(), b -> b);
    Experience gone = engram.experience().record(U1, ExperienceRequest.builder("Zanzibar outage situation",
        "Quokka rollback action", "Narwhal outcome", "Xylophone lesson").build());
    engram.experience().revise(U1, gone.experienceId(), 1, ExperienceRequest.builder("Zanzibar outage situation",
        "Quokka rollback action", "Narwhal outcome", "Xylophone lesson, sharper").build());
    Experience kept = engram.experience().record(U1, deployLesson());
    assertThat(engram.experience().delete(U1, gone.experienceId())).isEqualTo(2);
    assertThatThrownBy(() -> engram.experience().get(U1, gone.experienceId())).isInstanceOf(NotFoundException.class);
    StoredRows rows = storedRows(probe);
    for (String text : List.of("Zanzibar", "Quokka", "Narwhal", "Xylophone", gone.experienceId())) {
      assertThat(rows.mentioning(text)).as(text).isEmpty();
    }
    assertThat(engram.experience().get(U1, kept.experienceId())).isEqualTo(kept);

    engram.deleteScope(U1, S1);
    assertThat(engram.experience().list(U1, ExperienceListOptions.defaults())).isEmpty();
    assertThat(rows.mentioning("old pods crashed")).isEmpty();
    assertThat(rows.mentioning(kept.experienceId())).isEmpty();
    assertThat(probe.searchExperience(List.of(S1), query("pods schema"), 10)).isEmpty();
  }

  @Test
  void exportAndImportCarryEveryVersion() {
    Engram source = newEngram(probe, new ScriptedReasoner(), b -> b);
    Experience x = source.experience().record(U1, deployLesson());
    Experience x2 = source.experience().revise(U1, x.experienceId(), 1, ExperienceRequest.builder(
        x.situation(), x.action(), x.outcome(), "Migrate last").build());
    Experience other = source.experience().record(U1, ExperienceRequest.builder("s", "a", "o", "l").build());
    source.experience().retire(U1, other.experienceId(), 1, "obsolete");
    StringWriter out = new StringWriter();
    TransferReport exported = source.operator().export(U1, out);
    assertThat(exported.experience()).isEqualTo(4);
    assertThat(out.toString()).contains("\"record\":\"experience\"");

    MemoryStore target = createStore();
    Engram copy = newEngram(target, new ScriptedReasoner(), b -> b);
    TransferReport imported = copy.operator().importFrom(U1, new StringReader(out.toString()), ImportOptions.defaults());
    assertThat(imported.experience()).isEqualTo(4);
    assertThat(copy.experience().history(U1, x.experienceId()))
        .isEqualTo(source.experience().history(U1, x.experienceId()));
    assertThat(copy.experience().history(U1, other.experienceId()))
        .isEqualTo(source.experience().history(U1, other.experienceId()));
    assertThat(target.searchExperience(List.of(S1), query("migrate last"), 10))
        .extracting(h -> h.experience().versionId()).containsExactly(x2.versionId());
    // importing again collides with what is there: refused, nothing written twice
    assertThatThrownBy(() -> copy.operator().importFrom(U1, new StringReader(out.toString()), ImportOptions.defaults()))
        .isInstanceOf(InvalidInputException.class);
    // a scope holding only experience is exported too
    Engram lonely = newEngram(createStore(), new ScriptedReasoner(), b -> b);
    lonely.experience().record(U2, deployLesson());
    StringWriter alone = new StringWriter();
    assertThat(lonely.operator().export(U2, alone).scopes()).containsExactly(S2);
  }
}
