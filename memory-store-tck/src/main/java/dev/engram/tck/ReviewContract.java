/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import dev.engram.test.ScriptedReasoner;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.engram.ApproveRequest;
import dev.engram.ContextRequest;
import dev.engram.CurateReport;
import dev.engram.Engram;
import dev.engram.EntryStatus;
import dev.engram.ErrorCode;
import dev.engram.Experience;
import dev.engram.ExperienceListOptions;
import dev.engram.FlushReport;
import dev.engram.Grants;
import dev.engram.ImportOptions;
import dev.engram.IncubationReport;
import dev.engram.InvalidInputException;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.NotFoundException;
import dev.engram.PreparedContext;
import dev.engram.RejectRequest;
import dev.engram.ReviewChange;
import dev.engram.ReviewDetail;
import dev.engram.ReviewItem;
import dev.engram.ReviewKind;
import dev.engram.ReviewListOptions;
import dev.engram.ReviewOutcome;
import dev.engram.ReviewProposal;
import dev.engram.ReviewState;
import dev.engram.ReviseRequest;
import dev.engram.ScopeViolationException;
import dev.engram.SearchRequest;
import dev.engram.SourceRecord;
import dev.engram.VersionConflictException;
import dev.engram.spi.CurateOp;
import dev.engram.spi.ExtractedMemory;
import dev.engram.spi.IncubatedExperience;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreCapability;
import java.io.StringReader;
import java.io.StringWriter;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The review inbox ({@link StoreCapability#REVIEW}): model-made changes a person approves. Driven
 * through the store SPI (items stored at their next version only, listed by state, scope and id, erased)
 * and through the facade: incubated experience waits as a pending item that never reaches search, read
 * or context; approve, reject (with a reason) and revise each name the expected version, so a stale
 * one is a typed conflict and changes nothing; approval commits with the reviewer as actor; with review
 * on for curation a run leaves memory unchanged, a rejected op changes nothing and an approved one is
 * undone like a run; with review on for extraction a flush queues its memories; a reviewer with other
 * grants sees nothing; erasure takes the items that name what it erases; export and import carry them.
 */
public abstract class ReviewContract extends ContractSupport {
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
    boolean keeps = probe.capabilities().contains(StoreCapability.REVIEW)
        && probe.capabilities().contains(StoreCapability.SOURCES);
    if (!keeps) {
      probe.close();
    }
    assumeTrue(keeps, "the store does not declare REVIEW and SOURCES");
  }

  private static ReviewItem item(String id, String scope, long version, ReviewState state) {
    return new ReviewItem(id, scope, ReviewKind.EXPERIENCE, state, version,
        new ReviewProposal.NewExperience("situation " + id, "action", "outcome", "lesson"), List.of(), List.of("s-1"),
        "incubation", null, state == ReviewState.REJECTED ? "no" : null, List.of(), T0, T0);
  }

  /** A reasoner that incubates one experience per task outcome, citing it, with fields taken from its text. */
  static ScriptedReasoner incubating() {
    return new ScriptedReasoner().onIncubate(request -> request.window().stream()
        .map(s -> new IncubatedExperience("When " + s.text(), "The agent retried the " + s.sessionId() + " step",
            "It worked on the second try", "Retry " + s.sessionId() + " once before escalating", List.of(s.id())))
        .toList());
  }

  private static Engram captured(Engram engram) {
    engram.captureAll(U1, List.of(
        SourceRecord.of("deploy", "agent", "Started the nightly deploy.").id("c-1"),
        SourceRecord.taskOutcome("deploy", "agent", "the nightly deploy of the ledger service timed out").id("o-1"),
        SourceRecord.of("chat", "ana", "Thanks!").id("c-2")));
    return engram;
  }

  // ---- the store SPI

  @Test
  void anItemIsStoredAtItsNextVersionOnlyAndListedByStateScopeAndId() {
    probe.inTransaction(S1, tx -> {
      tx.putReviewItem(item("r1", S1, 1, ReviewState.PENDING));
      tx.putReviewItem(item("r2", S1, 1, ReviewState.PENDING));
      tx.putReviewItem(item("r3", S1, 2, ReviewState.REJECTED));
      return null;
    });
    probe.inTransaction(S2, tx -> {
      tx.putReviewItem(item("r0", S2, 1, ReviewState.PENDING));
      return null;
    });
    assertThat(probe.reviewItem("r3")).get().extracting(ReviewItem::state).isEqualTo(ReviewState.REJECTED);
    assertThat(probe.reviewItems(List.of(S1), EnumSet.of(ReviewState.PENDING), "", 10)).extracting(ReviewItem::id)
        .containsExactly("r1", "r2");
    assertThat(probe.reviewItems(List.of(S1, S2), EnumSet.allOf(ReviewState.class), "r1", 2))
        .extracting(ReviewItem::id).containsExactly("r2", "r3");
    assertThat(probe.reviewItems(List.of(S2), EnumSet.allOf(ReviewState.class), "", 10)).extracting(ReviewItem::id)
        .containsExactly("r0");
    assertThat(probe.hasScope(S1)).isTrue();

    // the next version replaces the item; any other version, kind or scope is refused
    ReviewItem r1 = probe.reviewItem("r1").orElseThrow();
    ReviewItem approved = r1.next(ReviewState.APPROVED, r1.proposal(), "alice", null, List.of("v9"), T0.plusSeconds(5));
    probe.inTransaction(S1, tx -> {
      tx.putReviewItem(approved);
      return null;
    });
    assertThat(probe.reviewItem("r1")).contains(approved);
    assertThatThrownBy(() -> probe.inTransaction(S1, tx -> {
      tx.putReviewItem(item("r1", S1, 4, ReviewState.PENDING));
      return null;
    })).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> probe.inTransaction(S1, tx -> {
      tx.putReviewItem(item("r1", S1, 2, ReviewState.PENDING));
      return null;
    })).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> probe.inTransaction(S2, tx -> {
      tx.putReviewItem(item("r5", S1, 1, ReviewState.PENDING));
      return null;
    })).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> probe.inTransaction(S1, tx -> {
      tx.putReviewItem(item("r6", S1, 1, ReviewState.PENDING));
      throw new IllegalStateException("the work fails after writing");
    })).hasMessageContaining("the work fails");
    assertThat(probe.reviewItem("r6")).isEmpty();
    assertThat(probe.<Boolean>inTransaction(S1, tx -> tx.eraseReviewItem("r2"))).isTrue();
    assertThat(probe.<Boolean>inTransaction(S1, tx -> tx.eraseReviewItem("r2"))).isFalse();
    assertThat(probe.reviewItem("r2")).isEmpty();
  }

  // ---- experience through the inbox

  @Test
  void incubatedExperienceWaitsUnseenUntilApprovedWithTheExpectedVersion() {
    ScriptedReasoner reasoner = incubating();
    Engram engram = captured(newEngram(probe, reasoner, Fixtures.clocked()));

    IncubationReport report = engram.experience().incubate(U1);
    assertThat(report.reasonerIncubates()).isTrue();
    assertThat(report.failures()).isEmpty();
    assertThat(report.windows()).isEqualTo(1);
    assertThat(report.outcomes()).as("only the task outcome is shown").isEqualTo(1);
    assertThat(reasoner.incubateRequests()).singleElement()
        .satisfies(r -> assertThat(r.window()).extracting(dev.engram.CapturedSource::id).containsExactly("o-1"));
    assertThat(probe.incubationCursor(S1)).isEqualTo(3);
    assertThat(probe.sourceState(S1).cursor()).as("extraction's cursor did not move").isZero();
    ReviewItem pending = report.pending().get(0);
    assertThat(pending.state()).isEqualTo(ReviewState.PENDING);
    assertThat(pending.kind()).isEqualTo(ReviewKind.EXPERIENCE);
    assertThat(pending.version()).isEqualTo(1);
    assertThat(pending.evidence()).containsExactly("o-1");
    assertThat(engram.review().list(U1)).containsExactly(pending);

    // pending: no experience, nothing in search, read or context
    assertThat(engram.experience().list(U1, ExperienceListOptions.defaults())).isEmpty();
    assertThat(engram.search(U1, "ledger deploy retry").hits()).isEmpty();
    assertThat(engram.prepareContext(U1, ContextRequest.of("ledger deploy timed out retry")).experience()).isEmpty();
    assertThat(engram.list(U1)).isEmpty();
    assertThat(engram.experience().incubate(U1).windows()).as("a window is incubated once").isZero();

    ReviewDetail detail = engram.review().get(U1, pending.id());
    assertThat(detail.changes()).extracting(ReviewChange::field)
        .containsExactly("situation", "action", "outcome", "lesson");
    assertThat(detail.changes()).allSatisfy(c -> assertThat(c.before()).isNull());
    assertThat(detail.changes().get(3).after()).isEqualTo("Retry deploy once before escalating");

    ReviewOutcome approved = engram.review().approve(U1, pending.id(), ApproveRequest.of(1, "alice"));
    Experience x = approved.experience();
    assertThat(x).isNotNull();
    assertThat(x.actor()).isEqualTo("alice");
    assertThat(x.reviewItemId()).isEqualTo(pending.id());
    assertThat(x.evidence()).containsExactly("o-1");
    assertThat(approved.item().state()).isEqualTo(ReviewState.APPROVED);
    assertThat(approved.item().version()).isEqualTo(2);
    assertThat(approved.item().decidedBy()).isEqualTo("alice");
    assertThat(approved.item().results()).containsExactly(x.versionId());
    PreparedContext ctx = engram.prepareContext(U1, ContextRequest.of("ledger deploy timed out retry"));
    assertThat(ctx.experience()).containsExactly(x.citation());
    assertThat(ctx.content()).contains("| Lesson: Retry deploy once before escalating");

    // the second reviewer read version 1 too: refused, typed, nothing changed
    VersionConflictException stale = catchThrowableOfType(
        () -> engram.review().approve(U1, pending.id(), ApproveRequest.of(1, "bob")), VersionConflictException.class);
    assertThat(stale.code()).isEqualTo(ErrorCode.VERSION_CONFLICT);
    assertThat(stale.id()).isEqualTo(pending.id());
    assertThat(stale.actualVersion()).isEqualTo(2);
    // the current version of a decided item is refused too
    assertThatThrownBy(() -> engram.review().approve(U1, pending.id(), ApproveRequest.of(2, "bob")))
        .isInstanceOf(VersionConflictException.class).hasMessageContaining("APPROVED");
    assertThat(engram.experience().list(U1, ExperienceListOptions.defaults())).containsExactly(x);
    assertThat(engram.review().list(U1)).isEmpty();
    assertThat(engram.review().list(U1, ReviewListOptions.builder().states(EnumSet.of(ReviewState.APPROVED)).build()))
        .containsExactly(approved.item());
  }

  @Test
  void aRevisedItemIsApprovedAsRevisedAndARejectedOneChangesNothing() {
    Engram engram = captured(newEngram(probe, incubating(), b -> b));
    engram.captureAll(U1, List.of(SourceRecord.taskOutcome("build", "agent", "the build cache was stale").id("o-2")));
    List<ReviewItem> pending = engram.experience().incubate(U1).pending();
    assertThat(pending).hasSize(2);

    ReviewItem revised = engram.review().revise(U1, pending.get(0).id(),
        ReviseRequest.builder(1, "alice").lesson("Retry the ledger deploy once, then page the on-call").build());
    assertThat(revised.version()).isEqualTo(2);
    assertThat(revised.state()).isEqualTo(ReviewState.PENDING);
    assertThat(((ReviewProposal.NewExperience) revised.proposal()).lesson())
        .isEqualTo("Retry the ledger deploy once, then page the on-call");
    assertThatThrownBy(() -> engram.review().revise(U1, pending.get(0).id(),
        ReviseRequest.builder(1, "bob").lesson("stale").build())).isInstanceOf(VersionConflictException.class);
    assertThatThrownBy(() -> engram.review().revise(U1, pending.get(0).id(),
        ReviseRequest.builder(2, "bob").content("an experience has no content").build()))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("content");
    assertThatThrownBy(() -> engram.review().revise(U1, pending.get(0).id(), ReviseRequest.builder(2, "bob").build()))
        .isInstanceOf(InvalidInputException.class);
    Experience x = engram.review().approve(U1, pending.get(0).id(), ApproveRequest.of(2, "alice")).experience();
    assertThat(x.lesson()).isEqualTo("Retry the ledger deploy once, then page the on-call");

    assertThatThrownBy(() -> engram.review().reject(U1, pending.get(1).id(), RejectRequest.of(1, "bob", " ")))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("reason");
    assertThatThrownBy(() -> engram.review().reject(U1, pending.get(1).id(),
        RejectRequest.of(1, "bob", "x".repeat(ReviewItem.MAX_REASON_CHARS + 1))))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("2000");
    ReviewItem rejected = engram.review().reject(U1, pending.get(1).id(),
        RejectRequest.of(1, "bob", "a stale cache is not a lesson worth keeping"));
    assertThat(rejected.state()).isEqualTo(ReviewState.REJECTED);
    assertThat(rejected.reason()).isEqualTo("a stale cache is not a lesson worth keeping");
    assertThatThrownBy(() -> engram.review().approve(U1, rejected.id(), ApproveRequest.of(2, "alice")))
        .isInstanceOf(VersionConflictException.class);
    assertThat(engram.experience().list(U1, ExperienceListOptions.defaults())).containsExactly(x);
  }

  @Test
  void aReviewerWithOtherGrantsSeesNothingAndDecidesNothing() {
    Engram engram = captured(newEngram(probe, incubating(), b -> b));
    ReviewItem pending = engram.experience().incubate(U1).pending().get(0);
    assertThat(engram.review().list(U2)).isEmpty();
    assertThat(engram.review().list(U2, ReviewListOptions.builder()
        .states(EnumSet.allOf(ReviewState.class)).build())).isEmpty();
    assertThatThrownBy(() -> engram.review().get(U2, pending.id())).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> engram.review().approve(U2, pending.id(), ApproveRequest.of(1, "mallory")))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> engram.review().reject(U2, pending.id(), RejectRequest.of(1, "mallory", "no")))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> engram.review().list(U2, ReviewListOptions.builder().scope(S1).build()))
        .isInstanceOf(NotFoundException.class);
    assertThat(engram.experience().incubate(U2).pending()).isEmpty();
    // an ancestor grant sees the item (ancestors are visible) but may not decide without write authority
    Grants child = Grants.of(S1 + "/project");
    assertThat(engram.review().list(child)).extracting(ReviewItem::id).containsExactly(pending.id());
    assertThatThrownBy(() -> engram.review().approve(child, pending.id(), ApproveRequest.of(1, "carol")))
        .isInstanceOf(ScopeViolationException.class);
    assertThat(engram.review().get(U1, pending.id()).item()).isEqualTo(pending);
  }

  // ---- curation and extraction under review

  @Test
  void withReviewOnACurationRunChangesNothingUntilItsOpsAreApproved() {
    ScriptedReasoner reasoner = new ScriptedReasoner();
    Engram engram = newEngram(probe, reasoner, Fixtures.clocked(b -> b.review(ReviewKind.CURATION)));
    MemoryEntry keep = write(engram, U1, "The build uses Maven.", "build").entry();
    MemoryEntry stale = write(engram, U1, "The build used Ant once.", "build").entry();
    MemoryEntry rewrite = write(engram, U1, "Tests run on JUnit.", "build").entry();
    reasoner.onCurate("build",
        new CurateOp.Retire(stale.entryId(), "obsolete"),
        new CurateOp.Rewrite(rewrite.entryId(), "Tests run on JUnit 5.", "sharper"),
        new CurateOp.Retire("not-shown", "hostile"),
        new CurateOp.Blurb("How the project builds."));
    StoreSnapshot before = StoreSnapshot.of(probe, List.of(S1)).withoutTopics();

    CurateReport report = engram.curate(U1);
    assertThat(report.applied()).isEmpty();
    assertThat(report.runId()).isNull();
    assertThat(report.rejected()).singleElement().asString().contains("not-shown");
    assertThat(report.pending()).extracting(ReviewItem::kind).containsOnly(ReviewKind.CURATION);
    assertThat(report.pending()).hasSize(3);
    assertThat(StoreSnapshot.of(probe, List.of(S1)).withoutTopics()).as("memory is unchanged").isEqualTo(before);
    assertThat(engram.scan(U1)).singleElement().satisfies(t -> {
      assertThat(t.blurb()).isNull();
      assertThat(t.hasUncuratedWrites()).as("the run looked at the topic").isFalse();
    });
    ReviewItem retire = report.pending().get(0);
    ReviewItem rewriteItem = report.pending().get(1);
    ReviewItem blurb = report.pending().get(2);
    assertThat(retire.targets()).containsExactly(stale.entryId());
    assertThat(engram.review().get(U1, retire.id()).changes())
        .contains(new ReviewChange("entry " + stale.entryId(), "status", "ACTIVE", "RETIRED"));
    assertThat(engram.review().get(U1, rewriteItem.id()).changes())
        .containsExactly(new ReviewChange("entry " + rewrite.entryId(), "content", "Tests run on JUnit.",
            "Tests run on JUnit 5."));
    assertThat(engram.review().get(U1, blurb.id()).changes())
        .containsExactly(new ReviewChange("topic build", "blurb", null, "How the project builds."));

    // a rejected op changes nothing
    engram.review().reject(U1, retire.id(), RejectRequest.of(1, "alice", "the Ant note is still useful"));
    assertThat(StoreSnapshot.of(probe, List.of(S1)).withoutTopics()).isEqualTo(before);

    // an approved op commits with the reviewer as actor, recorded as curation, and is undone like a run
    ReviewOutcome approved = engram.review().approve(U1, rewriteItem.id(),
        ApproveRequest.builder(1, "alice").note("yes").origin("console").build());
    assertThat(approved.curationRunId()).isNotNull();
    assertThat(approved.entries()).singleElement().satisfies(c -> assertThat(c.entryId()).isEqualTo(rewrite.entryId()));
    MemoryEntry now = engram.get(U1, rewrite.entryId());
    assertThat(now.content()).isEqualTo("Tests run on JUnit 5.");
    MemoryEvent event = engram.history(U1, rewrite.entryId()).get(1);
    assertThat(event.actor()).isEqualTo("alice");
    assertThat(event.origin()).isEqualTo("curator");
    assertThat(engram.get(U1, stale.entryId()).status()).isEqualTo(EntryStatus.ACTIVE);
    assertThat(engram.get(U1, keep.entryId()).version()).isEqualTo(1);

    engram.review().approve(U1, blurb.id(), ApproveRequest.of(1, "alice"));
    assertThat(engram.scan(U1).get(0).blurb()).isEqualTo("How the project builds.");

    List<MemoryEntry> undone = engram.undoCuration(U1, approved.curationRunId());
    assertThat(undone).singleElement().satisfies(e -> assertThat(e.content()).isEqualTo("Tests run on JUnit."));
    assertThat(engram.get(U1, rewrite.entryId()).content()).isEqualTo("Tests run on JUnit.");
  }

  @Test
  void anApprovalThatNoLongerAppliesIsRefusedAndTheItemStaysPending() {
    ScriptedReasoner reasoner = new ScriptedReasoner();
    Engram engram = newEngram(probe, reasoner, b -> b.review(ReviewKind.CURATION));
    MemoryEntry e = write(engram, U1, "The cache lives in Redis.", "infra").entry();
    reasoner.onCurate("infra", new CurateOp.Rewrite(e.entryId(), "The cache lives in Redis 7.", null));
    ReviewItem item = engram.curate(U1).pending().get(0);
    engram.retire(U1, e.citation(), "moved to Memcached");
    assertThat(engram.review().get(U1, item.id()).warnings()).singleElement().asString().contains("RETIRED");
    assertThatThrownBy(() -> engram.review().approve(U1, item.id(), ApproveRequest.of(1, "alice")))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("no longer active");
    assertThat(engram.review().get(U1, item.id()).item()).isEqualTo(item);
  }

  @Test
  void withReviewOnForExtractionAFlushQueuesItsMemories() {
    ScriptedReasoner reasoner = new ScriptedReasoner().onExtract(r -> List.of(
        ExtractedMemory.of("Ana's laptop is a ThinkPad.", List.of(r.window().get(0).id()))));
    Engram engram = newEngram(probe, reasoner, b -> b.review(ReviewKind.EXTRACTION));
    engram.capture(U1, SourceRecord.of("chat", "ana", "My laptop is a ThinkPad.").id("m-1"));
    FlushReport report = engram.flush(U1);
    assertThat(report.appended()).isZero();
    assertThat(report.pending()).singleElement().satisfies(i -> {
      assertThat(i.kind()).isEqualTo(ReviewKind.EXTRACTION);
      assertThat(i.evidence()).containsExactly("m-1");
    });
    assertThat(probe.sourceState(S1).cursor()).isEqualTo(1);
    assertThat(engram.list(U1)).isEmpty();
    assertThat(engram.search(U1, "ThinkPad laptop").hits()).isEmpty();
    ReviewItem item = report.pending().get(0);
    ReviewItem revised = engram.review().revise(U1, item.id(),
        ReviseRequest.builder(1, "alice").content("Ana works on a ThinkPad laptop.").build());
    ReviewOutcome approved = engram.review().approve(U1, item.id(), ApproveRequest.of(revised.version(), "alice"));
    MemoryEntry entry = engram.get(U1, approved.entries().get(0).entryId());
    assertThat(entry.content()).isEqualTo("Ana works on a ThinkPad laptop.");
    assertThat(entry.evidence()).containsExactly("m-1");
    assertThat(engram.history(U1, entry.entryId()).get(0).actor()).isEqualTo("alice");
    assertThat(engram.search(U1, SearchRequest.of("ThinkPad laptop")).hits()).extracting(h -> h.entry().entryId())
        .containsExactly(entry.entryId());
  }

  // ---- erasure and transfer

  @Test
  void erasingAnEntryTakesTheItemsThatNameItAndAScopeTakesAllOfThem() {
    ScriptedReasoner reasoner = new ScriptedReasoner();
    Engram engram = newEngram(probe, reasoner, b -> b.review(ReviewKind.CURATION));
    MemoryEntry victim = write(engram, U1, "Zeppelin note about the build.", "build").entry();
    MemoryEntry other = write(engram, U1, "The build uses Gradle.", "build").entry();
    reasoner.onCurate("build", new CurateOp.Rewrite(victim.entryId(), "Quetzal rewrite of the zeppelin note.", null),
        new CurateOp.Rewrite(other.entryId(), "The build uses Gradle 8.", null));
    List<ReviewItem> pending = engram.curate(U1).pending();
    assertThat(pending).hasSize(2);
    engram.deleteEntry(U1, victim.entryId());
    assertThat(engram.review().list(U1)).extracting(ReviewItem::id).containsExactly(pending.get(1).id());
    StoredRows rows = storedRows(probe);
    assertThat(rows.mentioning("Quetzal")).isEmpty();
    assertThat(rows.mentioning("Zeppelin")).isEmpty();

    captured(engram);
    engram.deleteScope(U1, S1);
    assertThat(engram.review().list(U1, ReviewListOptions.builder().states(EnumSet.allOf(ReviewState.class)).build()))
        .isEmpty();
    assertThat(rows.mentioning("Gradle 8")).isEmpty();
    assertThat(rows.mentioning(pending.get(1).id())).isEmpty();
  }

  @Test
  void exportAndImportCarryPendingAndDecidedItemsAndTheIncubationCursor() {
    Engram source = captured(newEngram(probe, incubating(), b -> b));
    source.captureAll(U1, List.of(SourceRecord.taskOutcome("build", "agent", "the build cache was stale").id("o-2")));
    List<ReviewItem> pending = source.experience().incubate(U1).pending();
    source.review().reject(U1, pending.get(1).id(), RejectRequest.of(1, "bob", "not a lesson"));
    StringWriter out = new StringWriter();
    assertThat(source.operator().export(U1, out).reviewItems()).isEqualTo(2);

    MemoryStore target = createStore();
    Engram copy = newEngram(target, incubating(), b -> b);
    copy.operator().importFrom(U1, new StringReader(out.toString()), ImportOptions.defaults());
    assertThat(copy.review().list(U1, ReviewListOptions.builder().states(EnumSet.allOf(ReviewState.class)).build()))
        .isEqualTo(source.review().list(U1, ReviewListOptions.builder().states(EnumSet.allOf(ReviewState.class)).build()));
    assertThat(target.incubationCursor(S1)).isEqualTo(probe.incubationCursor(S1)).isEqualTo(4);
    assertThat(copy.experience().incubate(U1).windows()).as("nothing is incubated twice").isZero();
    Experience x = copy.review().approve(U1, pending.get(0).id(), ApproveRequest.of(1, "alice")).experience();
    assertThat(copy.experience().list(U1, ExperienceListOptions.defaults())).containsExactly(x);
  }

  @Test
  void theDeterministicReasonerIncubatesNothingAndSaysSo() {
    Engram engram = captured(newEngram(probe, new dev.engram.reasoner.DeterministicReasoner(), b -> b));
    IncubationReport report = engram.experience().incubate(U1);
    assertThat(report.reasonerIncubates()).isFalse();
    assertThat(report.pending()).isEmpty();
    assertThat(probe.incubationCursor(S1)).isZero();
  }

  @Test
  void aHostileIncubationAnswerQueuesNothingAndTheWindowIsTriedAgain() {
    ScriptedReasoner reasoner = new ScriptedReasoner();
    Engram engram = captured(newEngram(probe, reasoner, b -> b));
    engram.capture(U2, SourceRecord.taskOutcome("x", "eve", "foreign outcome").id("f-1"));
    for (List<IncubatedExperience> hostile : List.of(
        List.of(new IncubatedExperience("s", "a", "o", "l", List.of("f-1"))),
        List.of(new IncubatedExperience("s", "a", "o", "l", List.of("c-1"))),
        List.of(new IncubatedExperience("s", "a", "o", "l", List.of())),
        List.of(new IncubatedExperience(" ", "a", "o", "l", List.of("o-1"))),
        List.of(new IncubatedExperience("s", "a", "o", "l".repeat(Experience.MAX_FIELD_CHARS + 1), List.of("o-1"))),
        List.of(new IncubatedExperience("s", "a", "o", "l", List.of("o-1")),
            new IncubatedExperience("s2", "a", "o", "l", List.of("o-1"))))) {
      reasoner.onIncubate(r -> hostile);
      IncubationReport report = engram.experience().incubate(U1);
      assertThat(report.failures()).singleElement().satisfies(f -> {
        assertThat(f.code()).isEqualTo(ErrorCode.INVALID_MODEL_OUTPUT);
        assertThat(f.scope()).isEqualTo(S1);
      });
      assertThat(report.pending()).isEmpty();
      assertThat(probe.incubationCursor(S1)).isZero();
      assertThat(engram.review().list(U1)).isEmpty();
    }
    reasoner.onIncubate(r -> {
      throw new IllegalStateException("model down");
    });
    assertThat(engram.experience().incubate(U1).failures()).singleElement()
        .satisfies(f -> assertThat(f.code()).isEqualTo(ErrorCode.REASONER_FAILED));
    reasoner.onIncubate(r -> List.of(new IncubatedExperience("s", "a", "o", "l", List.of("o-1"))));
    assertThat(engram.experience().incubate(U1).pending()).hasSize(1);
  }

  @Test
  void everyListedScopeIsVisibleAndListOptionsNarrowByKind() {
    ScriptedReasoner reasoner = incubating();
    Engram engram = captured(newEngram(probe, reasoner, b -> b.review(ReviewKind.CURATION)));
    MemoryEntry e = write(engram, U1, "Deploys run at night.", "ops").entry();
    reasoner.onCurate("ops", new CurateOp.SetCore(e.entryId(), true));
    engram.curate(U1);
    engram.experience().incubate(U1);
    assertThat(engram.review().list(U1)).extracting(ReviewItem::kind)
        .containsExactlyInAnyOrder(ReviewKind.CURATION, ReviewKind.EXPERIENCE);
    assertThat(engram.review().list(U1, ReviewListOptions.builder().kinds(EnumSet.of(ReviewKind.CURATION)).build()))
        .extracting(ReviewItem::kind).containsExactly(ReviewKind.CURATION);
    List<ReviewItem> first = engram.review().list(U1, ReviewListOptions.builder().limit(1).build());
    List<ReviewItem> second = engram.review().list(U1, ReviewListOptions.builder().limit(1)
        .after(first.get(0).id()).build());
    assertThat(first).hasSize(1);
    assertThat(second).hasSize(1).doesNotContainAnyElementsOf(first);
    assertThat(engram.list(U1, ListOptions.defaults())).extracting(MemoryEntry::topics)
        .containsExactly(List.of("ops"));
  }
}
