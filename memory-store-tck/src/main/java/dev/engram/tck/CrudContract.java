/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static dev.engram.tck.Fixtures.S1;
import static dev.engram.tck.Fixtures.S2;
import static dev.engram.tck.Fixtures.clocked;
import static dev.engram.tck.Fixtures.sha256;
import static dev.engram.tck.Fixtures.topics;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Citation;
import dev.engram.EngramBuilder;
import dev.engram.Engram;
import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.ErrorCode;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.NotFoundException;
import dev.engram.PriorityCapExceededException;
import dev.engram.ReadOptions;
import dev.engram.TopicSummary;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import dev.engram.WriteResult.Outcome;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.MemoryStore;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Layer 1: writing, canonical dedupe, path upsert, reads by topic, the audit list, lookups by
 * citation and id, scan, field round-trip and priority caps. One layer, the facade's basic calls over the
 * store; its length is the number of those calls, each checked on its own.
 */
public abstract class CrudContract extends ContractSupport {
  private static final Grants U1 = Grants.of(S1);
  private static final Grants U2 = Grants.of(S2);
  private static final Grants BOTH = Grants.of(S1, S2);

  private Engram engram() {
    return newEngram(new DeterministicReasoner(), clocked());
  }

  private Engram engram(UnaryOperator<EngramBuilder> settings) {
    return newEngram(new DeterministicReasoner(), clocked(settings));
  }

  private static WriteResult writeAt(Engram e, Grants g, String content, int priority) {
    return e.write(g, content, WriteOptions.builder().priority(priority).build());
  }

  // ---- write / append

  @Test
  void firstWriteAppendsVersionOneAtRevisionOne() {
    Engram e = engram();
    WriteResult r = write(e, U1, "Prefers dark roast coffee", "drinks");

    assertThat(r.outcome()).isEqualTo(Outcome.APPENDED);
    assertThat(r.revision()).isEqualTo(1);
    MemoryEntry m = r.entry();
    assertThat(m.version()).isEqualTo(1);
    assertThat(m.previousVersionId()).isNull();
    assertThat(m.scope()).isEqualTo(S1);
    assertThat(m.content()).isEqualTo("Prefers dark roast coffee");
    assertThat(m.topics()).containsExactly("drinks");
    assertThat(m.type()).isEqualTo(EntryType.FACT);
    assertThat(m.priority()).isEqualTo(2);
    assertThat(m.status()).isEqualTo(EntryStatus.ACTIVE);
    assertThat(m.supersededBy()).isNull();
    assertThat(m.entryId()).isNotEqualTo(m.versionId());
    assertThat(m.contentHash()).isEqualTo(sha256("Prefers dark roast coffee"));
    assertThat(m.createdInRevision()).isEqualTo(1);
    assertThat(m.createdAt()).isEqualTo(m.updatedAt());
    assertThat(r.citation()).isEqualTo(new Citation(S1, m.entryId(), m.versionId(), 1));
    assertThat(e.revision(U1, S1)).isEqualTo(1);
    assertThat(e.get(U1, m.entryId())).isEqualTo(m);
  }

  @Test
  void distinctWritesAppendDistinctEntriesAtIncreasingRevisions() {
    Engram e = engram();
    List<MemoryEntry> written = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      WriteResult r = write(e, U1, "Fact number " + i);
      assertThat(r.outcome()).isEqualTo(Outcome.APPENDED);
      assertThat(r.revision()).isEqualTo(i);
      assertThat(r.entry().createdInRevision()).isEqualTo(i);
      written.add(r.entry());
    }
    assertThat(written).extracting(MemoryEntry::entryId).doesNotHaveDuplicates();
    assertThat(written).extracting(MemoryEntry::versionId).doesNotHaveDuplicates();
    assertThat(e.list(U1)).containsExactlyElementsOf(written);
    assertThat(e.revision(U1, S1)).isEqualTo(4);
  }

  @Test
  void contentIsNormalizedBeforeItIsStored() {
    Engram e = engram();
    MemoryEntry m = write(e, U1, "  The  deploy\t window \r\n\r\n   is   Friday\u00a0 evening  \n\n").entry();

    assertThat(m.content()).isEqualTo("The deploy window\nis Friday evening");
    assertThat(m.contentHash()).isEqualTo(sha256("The deploy window is Friday evening"));
    assertThat(e.get(U1, m.entryId()).content()).isEqualTo("The deploy window\nis Friday evening");
  }

  // ---- dedupe

  @Test
  void identicalContentIsDedupedWithoutANewRevision() {
    Engram e = engram();
    WriteResult first = write(e, U1, "Allergic to peanuts", "health");
    WriteResult second = write(e, U1, "Allergic to peanuts", "health");

    assertThat(second.outcome()).isEqualTo(Outcome.DEDUPED);
    assertThat(second.entry()).isEqualTo(first.entry());
    assertThat(second.revision()).isEqualTo(1);
    assertThat(e.revision(U1, S1)).isEqualTo(1);
    assertThat(e.changes(U1, S1, 0)).hasSize(1);
    assertThat(everything(e, U1)).containsExactly(first.entry());
    assertThat(e.history(U1, first.entry().entryId())).hasSize(1);
  }

  @Test
  void dedupeComparesTheCanonicalWhitespaceForm() {
    Engram e = engram();
    WriteResult first = write(e, U1, "Standup is at 9:30 every weekday");
    WriteResult second = write(e, U1, "Standup   is at\n9:30\tevery   weekday ");
    WriteResult third = write(e, U1, "\n Standup is at 9:30\n\nevery weekday");

    assertThat(second.outcome()).isEqualTo(Outcome.DEDUPED);
    assertThat(third.outcome()).isEqualTo(Outcome.DEDUPED);
    assertThat(second.entry().entryId()).isEqualTo(first.entry().entryId());
    assertThat(third.entry().versionId()).isEqualTo(first.entry().versionId());
    assertThat(e.revision(U1, S1)).isEqualTo(1);
    assertThat(everything(e, U1)).hasSize(1);
  }

  @Test
  void dedupeComparesTheNfcForm() {
    Engram e = engram();
    WriteResult composed = write(e, U1, "Favourite caf\u00e9 is on Main Street");
    WriteResult decomposed = write(e, U1, "Favourite cafe\u0301 is on Main Street");

    assertThat(composed.entry().content()).isEqualTo("Favourite caf\u00e9 is on Main Street");
    assertThat(decomposed.outcome()).isEqualTo(Outcome.DEDUPED);
    assertThat(decomposed.entry().entryId()).isEqualTo(composed.entry().entryId());
    assertThat(e.revision(U1, S1)).isEqualTo(1);
  }

  @Test
  void dedupeIsPerScopeAndIgnoresInactiveVersions() {
    Engram e = engram();
    MemoryEntry inU1 = write(e, U1, "Works remotely on Mondays").entry();
    WriteResult inU2 = write(e, U2, "Works remotely on Mondays");
    assertThat(inU2.outcome()).isEqualTo(Outcome.APPENDED);
    assertThat(inU2.entry().entryId()).isNotEqualTo(inU1.entryId());

    e.retire(U1, inU1.citation(), "no longer true");
    WriteResult again = write(e, U1, "Works remotely on Mondays");
    assertThat(again.outcome()).isEqualTo(Outcome.APPENDED);
    assertThat(again.entry().entryId()).isNotEqualTo(inU1.entryId());
    assertThat(again.revision()).isEqualTo(3);

    MemoryEntry corrected = e.correct(U1, again.entry().entryId(), "Works remotely on Tuesdays");
    WriteResult old = write(e, U1, "Works remotely on Mondays");
    assertThat(old.outcome()).isEqualTo(Outcome.APPENDED);
    assertThat(old.entry().entryId()).isNotIn(inU1.entryId(), corrected.entryId());
  }

  // ---- path upsert

  @Test
  void writeToAnActivePathMakesANewVersionOfTheSameEntry() {
    Engram e = engram();
    WriteOptions at = WriteOptions.builder().path("project://checkout_webhooks").topicsHint("ops").build();
    WriteResult first = e.write(U1, "Webhooks retry three times", at);
    WriteResult second = e.write(U1, "Webhooks retry five times with backoff", at);

    assertThat(first.outcome()).isEqualTo(Outcome.APPENDED);
    assertThat(second.outcome()).isEqualTo(Outcome.UPDATED);
    MemoryEntry v1 = first.entry();
    MemoryEntry v2 = second.entry();
    assertThat(v2.entryId()).isEqualTo(v1.entryId());
    assertThat(v2.version()).isEqualTo(2);
    assertThat(v2.previousVersionId()).isEqualTo(v1.versionId());
    assertThat(v2.path()).isEqualTo("project://checkout_webhooks");
    assertThat(v2.createdAt()).isEqualTo(v1.createdAt());
    assertThat(v2.createdInRevision()).isEqualTo(2);
    assertThat(second.revision()).isEqualTo(2);

    MemoryEntry oldNow = e.get(U1, v1.citation());
    assertThat(oldNow.status()).isEqualTo(EntryStatus.SUPERSEDED);
    assertThat(oldNow.supersededBy()).isEqualTo(v2.versionId());
    assertThat(oldNow.content()).isEqualTo("Webhooks retry three times");
    assertThat(e.list(U1)).containsExactly(v2);
    assertThat(e.read(U1, "ops")).containsExactly(v2);
  }

  @Test
  void pathUpsertWithNothingNewIsDedupedAndMetadataChangesMakeAVersion() {
    Engram e = engram();
    WriteOptions.Builder at = WriteOptions.builder().path("notes/timezone").priority(3).glossary("tz");
    MemoryEntry v1 = e.write(U1, "Timezone is Europe/Berlin", at.build()).entry();

    WriteResult same = e.write(U1, "Timezone is  Europe/Berlin", at.build());
    assertThat(same.outcome()).isEqualTo(Outcome.DEDUPED);
    assertThat(same.entry()).isEqualTo(v1);
    assertThat(e.revision(U1, S1)).isEqualTo(1);

    WriteResult reprioritized = e.write(U1, "Timezone is Europe/Berlin", at.priority(4).build());
    assertThat(reprioritized.outcome()).isEqualTo(Outcome.UPDATED);
    assertThat(reprioritized.entry().entryId()).isEqualTo(v1.entryId());
    assertThat(reprioritized.entry().version()).isEqualTo(2);
    assertThat(reprioritized.entry().priority()).isEqualTo(4);
    assertThat(reprioritized.entry().content()).isEqualTo(v1.content());
    assertThat(e.revision(U1, S1)).isEqualTo(2);
  }

  @Test
  void pathsAreAddressesWithinOneScope() {
    Engram e = engram();
    WriteOptions at = WriteOptions.builder().path("profile/name").build();
    MemoryEntry a = e.write(U1, "Name is Ada", at).entry();
    WriteResult b = e.write(U2, "Name is Grace", at);

    assertThat(b.outcome()).isEqualTo(Outcome.APPENDED);
    assertThat(b.entry().entryId()).isNotEqualTo(a.entryId());
    assertThat(e.get(U1, a.entryId())).isEqualTo(a);

    MemoryEntry retired = e.retire(U1, a.citation(), "renamed");
    WriteResult fresh = e.write(U1, "Name is Ada Lovelace", at);
    assertThat(fresh.outcome()).isEqualTo(Outcome.APPENDED);
    assertThat(fresh.entry().entryId()).isNotEqualTo(a.entryId());
    assertThat(e.get(U1, a.entryId())).isEqualTo(retired);
  }

  @Test
  void aPathWriteIsDedupedOnlyAgainstTheEntryAtThatPath() {
    Engram e = engram();
    MemoryEntry loose = write(e, U1, "Deploys go out on Fridays", "ops").entry();

    WriteOptions.Builder at = WriteOptions.builder().path("ops/deploy-day").topicsHint("ops")
        .priority(1).disclosure("when planning a release").glossary("release day");
    WriteResult addressed = e.write(U1, "Deploys go out on Fridays", at.build());
    assertThat(addressed.outcome()).isEqualTo(Outcome.APPENDED);
    MemoryEntry atPath = addressed.entry();
    assertThat(atPath.entryId()).isNotEqualTo(loose.entryId());
    assertThat(atPath.path()).isEqualTo("ops/deploy-day");
    assertThat(atPath.priority()).isEqualTo(1);
    assertThat(atPath.disclosure()).isEqualTo("when planning a release");
    assertThat(atPath.glossary()).containsExactly("release day");
    assertThat(e.revision(U1, S1)).isEqualTo(2);

    WriteResult second = e.write(U1, "Deploys go out on Fridays", at.path("ops/release-day").build());
    assertThat(second.outcome()).isEqualTo(Outcome.APPENDED);
    assertThat(second.entry().entryId()).isNotIn(loose.entryId(), atPath.entryId());
    assertThat(e.list(U1)).extracting(MemoryEntry::path)
        .containsExactlyInAnyOrder(null, "ops/deploy-day", "ops/release-day");

    WriteResult looseAgain = write(e, U1, "Deploys go out on Fridays", "ops");
    assertThat(looseAgain.outcome()).isEqualTo(Outcome.DEDUPED);
    assertThat(e.list(U1)).hasSize(3);
    assertThat(e.revision(U1, S1)).isEqualTo(3);
  }

  @Test
  void aPathUpsertWithEqualContentRecordsANewSourceAndEvidence() {
    Engram e = engram();
    WriteOptions.Builder at = WriteOptions.builder().path("notes/editor").source("agent-a");
    MemoryEntry v1 = e.write(U1, "Uses vim keybindings", at.build()).entry();

    WriteResult sameSource = e.write(U1, "Uses vim keybindings", at.build());
    assertThat(sameSource.outcome()).isEqualTo(Outcome.DEDUPED);

    WriteResult newSource = e.write(U1, "Uses vim keybindings", at.source("agent-b").build());
    assertThat(newSource.outcome()).isEqualTo(Outcome.UPDATED);
    assertThat(newSource.entry().entryId()).isEqualTo(v1.entryId());
    assertThat(newSource.entry().version()).isEqualTo(2);
    assertThat(newSource.entry().source()).isEqualTo("agent-b");
    assertThat(e.get(U1, v1.entryId()).source()).isEqualTo("agent-b");

    WriteResult newEvidence = e.write(U1, "Uses vim keybindings", at.evidence("turn-7").build());
    assertThat(newEvidence.outcome()).isEqualTo(Outcome.UPDATED);
    assertThat(newEvidence.entry().evidence()).containsExactly("turn-7");
    assertThat(e.revision(U1, S1)).isEqualTo(3);
  }

  // ---- read

  @Test
  void readReturnsActiveEntriesOfATopicNewestFirst() {
    Engram e = engram();
    MemoryEntry a = write(e, U1, "Likes jazz", "music").entry();
    MemoryEntry b = write(e, U1, "Plays the cello", "music").entry();
    write(e, U1, "Runs on Sundays", "sport");
    MemoryEntry c = write(e, U1, "Dislikes techno", "music").entry();

    assertThat(e.read(U1, "music")).containsExactly(c, b, a);
    assertThat(e.read(U1, "  MUSIC ")).containsExactly(c, b, a);
    assertThat(e.read(U1, "unknown-topic")).isEmpty();
  }

  @Test
  void readOrdersByTheNewestVersionAndNeverReturnsInactiveVersions() {
    Engram e = engram();
    MemoryEntry a = write(e, U1, "Team lead is Sam", "team").entry();
    MemoryEntry b = write(e, U1, "Team has six engineers", "team").entry();
    MemoryEntry c = write(e, U1, "Team sits on floor 3", "team").entry();

    MemoryEntry a2 = e.correct(U1, a.entryId(), "Team lead is Alex");
    e.retire(U1, c.citation(), "moved");

    List<MemoryEntry> read = e.read(U1, "team");
    assertThat(read).containsExactly(a2, b);
    assertThat(read).allMatch(MemoryEntry::isActive);
    assertThat(read).extracting(MemoryEntry::versionId).doesNotContain(a.versionId(), c.versionId());
  }

  @Test
  void readOfSeveralTopicsReturnsEachEntryOnceNewestFirst() {
    Engram e = engram();
    MemoryEntry onlyA = write(e, U1, "Alpha only", "alpha").entry();
    MemoryEntry both = write(e, U1, "Alpha and beta", "alpha", "beta").entry();
    MemoryEntry onlyB = write(e, U1, "Beta only", "beta").entry();
    write(e, U1, "Gamma only", "gamma");

    List<MemoryEntry> read = e.read(U1, List.of("alpha", "BETA", "alpha"));
    assertThat(read).containsExactly(onlyB, both, onlyA);
  }

  @Test
  void readLimitAppliesPerTopic() {
    Engram e = engram();
    List<MemoryEntry> alpha = new ArrayList<>();
    List<MemoryEntry> beta = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      alpha.add(write(e, U1, "Alpha fact " + i, "alpha").entry());
    }
    for (int i = 0; i < 5; i++) {
      beta.add(write(e, U1, "Beta fact " + i, "beta").entry());
    }

    assertThat(e.read(U1, "alpha", ReadOptions.limit(2))).containsExactly(alpha.get(4), alpha.get(3));
    assertThat(e.read(U1, List.of("alpha", "beta"), ReadOptions.limit(2)))
        .containsExactly(beta.get(4), beta.get(3), alpha.get(4), alpha.get(3));
    assertThat(e.read(U1, "alpha", ReadOptions.limit(1000))).hasSize(5);
  }

  @Test
  void readDoesNotConfuseTopicsThatLookAlikeToPatternMatchers() {
    Engram e = engram();
    MemoryEntry percent = write(e, U1, "Topic with percent", "100%_done").entry();
    write(e, U1, "Topic without percent", "100xxdone");
    MemoryEntry underscore = write(e, U1, "Topic with underscore", "a_c").entry();
    write(e, U1, "Topic abc", "abc");
    write(e, U1, "Topic with a prefix", "a_c-extended");

    assertThat(e.read(U1, "100%_done")).containsExactly(percent);
    assertThat(e.read(U1, "a_c")).containsExactly(underscore);
    assertThat(e.read(U1, "a%")).isEmpty();
  }

  // ---- list

  @Test
  void listIsOrderedByScopeThenCreatingRevisionThenVersion() {
    Engram e = engram();
    MemoryEntry b1 = write(e, U2, "b one").entry();
    MemoryEntry a1 = write(e, U1, "a one").entry();
    MemoryEntry b2 = write(e, U2, "b two").entry();
    MemoryEntry a2 = write(e, U1, "a two").entry();
    MemoryEntry a1v2 = e.correct(BOTH, a1.entryId(), "a one, corrected");

    assertThat(e.list(BOTH)).containsExactly(a2, a1v2, b1, b2);
    assertThat(e.list(BOTH)).isEqualTo(e.list(BOTH));
    List<MemoryEntry> all = everything(e, BOTH);
    assertThat(all).extracting(MemoryEntry::versionId)
        .containsExactly(a1.versionId(), a2.versionId(), a1v2.versionId(), b1.versionId(), b2.versionId());
  }

  @Test
  void listWithSupersededShowsWholeChains() {
    Engram e = engram();
    MemoryEntry v1 = write(e, U1, "Budget is 10k").entry();
    MemoryEntry other = write(e, U1, "Deadline is June").entry();
    MemoryEntry v2 = e.correct(U1, v1.entryId(), "Budget is 12k");
    MemoryEntry v3 = e.correct(U1, v1.entryId(), "Budget is 15k");

    assertThat(e.list(U1)).containsExactly(other, v3);
    List<MemoryEntry> chains = everything(e, U1);
    assertThat(chains).extracting(MemoryEntry::versionId)
        .containsExactly(v1.versionId(), other.versionId(), v2.versionId(), v3.versionId());
    List<MemoryEntry> chain = chains.stream().filter(m -> m.entryId().equals(v1.entryId())).toList();
    assertThat(chain).extracting(MemoryEntry::version).containsExactly(1, 2, 3);
    assertThat(chain).extracting(MemoryEntry::status)
        .containsExactly(EntryStatus.SUPERSEDED, EntryStatus.SUPERSEDED, EntryStatus.ACTIVE);
    assertThat(chain).extracting(MemoryEntry::supersededBy).containsExactly(v2.versionId(), v3.versionId(), null);
    assertThat(chain).extracting(MemoryEntry::previousVersionId).containsExactly(null, v1.versionId(), v2.versionId());
  }

  @Test
  void listHidesRetiredEntriesUnlessAsked() {
    Engram e = engram();
    MemoryEntry kept = write(e, U1, "Uses vim", "tools").entry();
    MemoryEntry gone = write(e, U1, "Uses emacs", "tools").entry();
    MemoryEntry retired = e.retire(U1, gone.citation(), "switched editors");

    assertThat(e.list(U1)).containsExactly(kept);
    assertThat(e.list(U1, ListOptions.builder().includeRetired(true).build())).containsExactly(kept, retired);
    assertThat(retired.status()).isEqualTo(EntryStatus.RETIRED);
    assertThat(everything(e, U1)).containsExactly(kept, retired);
  }

  @Test
  void listFiltersByTopicAndScope() {
    Engram e = engram();
    MemoryEntry a = write(e, U1, "Kotlin at work", "work").entry();
    write(e, U1, "Piano at home", "home");
    MemoryEntry c = write(e, U2, "Go at work", "work").entry();

    assertThat(e.list(BOTH, ListOptions.builder().topic("WORK").build())).containsExactly(a, c);
    assertThat(e.list(BOTH, ListOptions.builder().topic("work").scope(S2).build())).containsExactly(c);
    assertThat(e.list(BOTH, ListOptions.builder().scope("app/user").build())).isEmpty();
  }

  // ---- get

  @Test
  void getByCitationReturnsAnyHistoricalVersionExactly() {
    Engram e = engram();
    MemoryEntry v1 = write(e, U1, "Office is in Lisbon").entry();
    MemoryEntry v2 = e.correct(U1, v1.entryId(), "Office is in Porto");
    MemoryEntry v3 = e.correct(U1, v1.entryId(), "Office is in Braga");

    MemoryEntry old = e.get(U1, v1.citation());
    assertThat(old.versionId()).isEqualTo(v1.versionId());
    assertThat(old.content()).isEqualTo("Office is in Lisbon");
    assertThat(old.status()).isEqualTo(EntryStatus.SUPERSEDED);
    assertThat(e.get(U1, v2.citation()).content()).isEqualTo("Office is in Porto");
    assertThat(e.get(U1, v3.citation())).isEqualTo(v3);
  }

  @Test
  void getByCitationRequiresEveryPartToMatch() {
    Engram e = engram();
    MemoryEntry a = write(e, U1, "Entry a").entry();
    MemoryEntry b = write(e, U1, "Entry b").entry();
    Citation c = a.citation();

    assertThatThrownBy(() -> e.get(U1, new Citation(c.scope(), c.entryId(), c.versionId(), c.revision() + 1)))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> e.get(U1, new Citation(c.scope(), b.entryId(), c.versionId(), c.revision())))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> e.get(U1, new Citation("app/user", c.entryId(), c.versionId(), c.revision())))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> e.get(U1, new Citation(c.scope(), c.entryId(), "v-unknown", c.revision())))
        .isInstanceOf(NotFoundException.class)
        .extracting(t -> ((NotFoundException) t).code()).isEqualTo(ErrorCode.NOT_FOUND);
  }

  @Test
  void getByEntryIdReturnsTheCurrentVersionWhateverItsStatus() {
    Engram e = engram();
    MemoryEntry v1 = write(e, U1, "Car is blue").entry();
    MemoryEntry v2 = e.correct(U1, v1.entryId(), "Car is red");
    assertThat(e.get(U1, v1.entryId())).isEqualTo(v2);

    MemoryEntry retired = e.retire(U1, v2.citation(), "sold the car");
    assertThat(e.get(U1, v1.entryId())).isEqualTo(retired);
    assertThat(retired.status()).isEqualTo(EntryStatus.RETIRED);
    assertThat(retired.versionId()).isEqualTo(v2.versionId());

    assertThatThrownBy(() -> e.get(U1, "no-such-entry")).isInstanceOf(NotFoundException.class);
  }

  // ---- scan

  @Test
  void scanSummarizesEachTopicOfTheScope() {
    Engram e = engram();
    write(e, U1, "Reads sci-fi", "books");
    MemoryEntry last = write(e, U1, "Reads history", "books", "history").entry();
    MemoryEntry goner = write(e, U1, "Reads poetry", "books").entry();

    List<TopicSummary> before = e.scan(U1);
    assertThat(before).extracting(TopicSummary::scope).containsOnly(S1);
    assertThat(before).extracting(TopicSummary::topic).containsExactly("books", "history");
    assertThat(before).extracting(TopicSummary::count).containsExactly(3, 1);
    assertThat(before).allSatisfy(t -> {
      assertThat(t.hasUncuratedWrites()).isTrue();
      assertThat(t.blurb()).isNull();
    });
    assertThat(before.get(0).lastUpdatedAt()).isEqualTo(goner.updatedAt());
    assertThat(before.get(1).lastUpdatedAt()).isEqualTo(last.updatedAt());

    MemoryEntry retired = e.retire(U1, goner.citation(), "finished");
    List<TopicSummary> after = e.scan(U1);
    assertThat(after).extracting(TopicSummary::count).containsExactly(2, 1);
    assertThat(after.get(0).lastUpdatedAt()).isEqualTo(retired.updatedAt());
  }

  @Test
  void scanOfAScopeWithoutWritesIsEmpty() {
    Engram e = engram();
    write(e, U2, "Somebody else's fact", "misc");
    assertThat(e.scan(U1)).isEmpty();
    assertThat(e.scan(U2)).singleElement().satisfies(t -> {
      assertThat(t.scope()).isEqualTo(S2);
      assertThat(t.topic()).isEqualTo("misc");
      assertThat(t.count()).isEqualTo(1);
    });
  }

  // ---- field round-trip

  @Test
  void everyFieldRoundTrips() {
    MemoryStore store = createStore();
    Engram e = newEngram(store, new DeterministicReasoner(), clocked());
    WriteOptions options = WriteOptions.builder()
        .topicsHint("Billing", "invoices")
        .type(EntryType.DECISION)
        .priority(1)
        .disclosure("When the user asks about refunds")
        .glossary("refund", "chargeback", "money back")
        .path("project://billing_refunds")
        .source("agent:planner/session-42")
        .evidence("src:chat/2024-05-01#m12", "src:doc/policy.pdf")
        .build();
    MemoryEntry m = e.write(U1, "Refunds over 500 EUR need a second approver", options).entry();

    assertThat(m.content()).isEqualTo("Refunds over 500 EUR need a second approver");
    assertThat(m.topics()).containsExactly("billing", "invoices");
    assertThat(m.type()).isEqualTo(EntryType.DECISION);
    assertThat(m.priority()).isEqualTo(1);
    assertThat(m.disclosure()).isEqualTo("When the user asks about refunds");
    assertThat(m.glossary()).containsExactly("refund", "chargeback", "money back");
    assertThat(m.path()).isEqualTo("project://billing_refunds");
    assertThat(m.source()).isEqualTo("agent:planner/session-42");
    assertThat(m.evidence()).containsExactly("src:chat/2024-05-01#m12", "src:doc/policy.pdf");

    assertThat(e.get(U1, m.entryId())).isEqualTo(m);
    assertThat(e.get(U1, m.citation())).isEqualTo(m);
    assertThat(e.list(U1)).containsExactly(m);
    assertThat(e.read(U1, "invoices")).containsExactly(m);
    assertThat(e.history(U1, m.entryId())).singleElement().satisfies(ev -> assertThat(ev.after()).isEqualTo(m));

    Engram second = newEngram(store, new DeterministicReasoner(), clocked());
    assertThat(second.get(U1, m.citation())).isEqualTo(m);
  }

  @Test
  void everyEntryTypeRoundTrips() {
    Engram e = engram();
    for (EntryType type : EntryType.values()) {
      MemoryEntry m = e.write(U1, "An entry of type " + type.wireName(), WriteOptions.builder().type(type).build())
          .entry();
      assertThat(m.type()).isEqualTo(type);
      assertThat(e.get(U1, m.citation()).type()).isEqualTo(type);
    }
    assertThat(e.list(U1)).extracting(MemoryEntry::type).containsExactly(EntryType.values());
  }

  @Test
  void optionalFieldsStayAbsentWhenNotGiven() {
    Engram e = engram();
    MemoryEntry m = write(e, U1, "Minimal entry").entry();
    MemoryEntry back = e.get(U1, m.citation());

    assertThat(back.disclosure()).isNull();
    assertThat(back.path()).isNull();
    assertThat(back.source()).isNull();
    assertThat(back.supersededBy()).isNull();
    assertThat(back.previousVersionId()).isNull();
    assertThat(back.glossary()).isEmpty();
    assertThat(back.evidence()).isEmpty();
    assertThat(back.topics()).containsExactly("general");
  }

  @Test
  void sqlMetacharactersAreStoredVerbatim() {
    Engram e = engram();
    String content = "Robert'); DROP TABLE entries; -- 100% of \"quotes\", `ticks`, \\backslash, _x_, $1 ? :name";
    WriteOptions options = WriteOptions.builder()
        .topicsHint("o'brien; drop", "100%_done")
        .disclosure("\"; DELETE FROM events; --")
        .glossary("%", "_", "' OR '1'='1")
        .path("db://tbl_1/col.name-x")
        .source("src'; --")
        .evidence("ref:'\"%_\\")
        .build();
    MemoryEntry m = e.write(U1, content, options).entry();
    MemoryEntry back = e.get(U1, m.citation());

    assertThat(back).isEqualTo(m);
    assertThat(back.content()).isEqualTo(content);
    assertThat(back.topics()).containsExactly("o'brien; drop", "100%_done");
    assertThat(back.disclosure()).isEqualTo("\"; DELETE FROM events; --");
    assertThat(back.glossary()).containsExactly("%", "_", "' OR '1'='1");
    assertThat(back.source()).isEqualTo("src'; --");
    assertThat(back.evidence()).containsExactly("ref:'\"%_\\");
    assertThat(e.read(U1, "o'brien; drop")).containsExactly(m);
    assertThat(e.list(U1, ListOptions.builder().topic("100%_done").build())).containsExactly(m);
    assertThat(write(e, U1, content).outcome()).isEqualTo(Outcome.DEDUPED);
  }

  @Test
  void emojiAndOtherNonBmpTextIsStoredVerbatim() {
    Engram e = engram();
    String raw = "Favourite food: \uD83C\uDF63 sushi \uD83D\uDC68\u200D\uD83D\uDC69\u200D\uD83D\uDC67, "
        + "\uD835\uDD18\uD835\uDD2B\uD835\uDD26 math, \u4E2D\u6587, \u05E2\u05D1\u05E8\u05D9\u05EA, cafe\u0301";
    String expected = Normalizer.normalize(raw, Normalizer.Form.NFC);
    WriteOptions options = topics("\uD83C\uDF63", "\u98DF\u3079\u7269")
        .glossary("\uD835\uDD18\uD835\uDD2B\uD835\uDD26")
        .disclosure("When \uD83C\uDF63 comes up")
        .build();
    MemoryEntry m = e.write(U1, raw, options).entry();

    assertThat(m.content()).isEqualTo(expected).contains("caf\u00e9");
    assertThat(m.contentHash()).isEqualTo(sha256(expected));
    MemoryEntry back = e.get(U1, m.citation());
    assertThat(back).isEqualTo(m);
    assertThat(back.topics()).containsExactly("\uD83C\uDF63", "\u98DF\u3079\u7269");
    assertThat(back.glossary()).containsExactly("\uD835\uDD18\uD835\uDD2B\uD835\uDD26");
    assertThat(e.read(U1, "\uD83C\uDF63")).containsExactly(m);
    assertThat(write(e, U1, expected).outcome()).isEqualTo(Outcome.DEDUPED);
  }

  @Test
  void contentLimitCountsUtf8BytesOfNonBmpCharacters() {
    Engram e = engram(b -> b.maxContentBytes(64));
    String sixteenSushi = "\uD83C\uDF63".repeat(16);
    MemoryEntry m = write(e, U1, sixteenSushi).entry();
    assertThat(e.get(U1, m.citation()).content()).isEqualTo(sixteenSushi);

    assertThatThrownBy(() -> write(e, U1, "\uD83C\uDF63".repeat(17)))
        .isInstanceOf(InvalidInputException.class)
        .satisfies(t -> assertThat(((InvalidInputException) t).field()).isEqualTo("content"));
    assertThat(everything(e, U1)).containsExactly(m);
  }

  // ---- priority caps

  @Test
  void coreCapDefaultsToFivePerScope() {
    Engram e = engram();
    for (int i = 0; i < 5; i++) {
      writeAt(e, U1, "Core fact " + i, 0);
    }
    assertThatThrownBy(() -> writeAt(e, U1, "Core fact 5", 0))
        .isInstanceOfSatisfying(PriorityCapExceededException.class, x -> {
          assertThat(x.namespace()).isEqualTo(S1);
          assertThat(x.priority()).isEqualTo(0);
          assertThat(x.cap()).isEqualTo(5);
          assertThat(x.code()).isEqualTo(ErrorCode.PRIORITY_CAP_EXCEEDED);
        });
    assertThat(e.list(U1)).hasSize(5);
    assertThat(e.revision(U1, S1)).isEqualTo(5);

    assertThat(writeAt(e, U2, "Core fact of a sibling scope", 0).outcome()).isEqualTo(Outcome.APPENDED);
    assertThat(writeAt(e, Grants.of("app/user"), "Core fact of the parent scope", 0).outcome())
        .isEqualTo(Outcome.APPENDED);
    assertThat(writeAt(e, U1, "Plenty of room at priority 2", 2).outcome()).isEqualTo(Outcome.APPENDED);
  }

  @Test
  void keyCapDefaultsToFifteen() {
    Engram e = engram();
    for (int i = 0; i < 15; i++) {
      writeAt(e, U1, "Key fact " + i, 1);
    }
    assertThatThrownBy(() -> writeAt(e, U1, "Key fact 15", 1))
        .isInstanceOfSatisfying(PriorityCapExceededException.class, x -> {
          assertThat(x.priority()).isEqualTo(1);
          assertThat(x.cap()).isEqualTo(15);
        });
    assertThat(writeAt(e, U1, "Core is counted separately", 0).outcome()).isEqualTo(Outcome.APPENDED);
    assertThat(writeAt(e, U2, "Key fact of another scope", 1).outcome()).isEqualTo(Outcome.APPENDED);
  }

  @Test
  void capsAreConfigurable() {
    Engram e = engram(b -> b.priorityCaps(1, 2));
    writeAt(e, U1, "The one core fact", 0);
    writeAt(e, U1, "Key one", 1);
    writeAt(e, U1, "Key two", 1);

    assertThatThrownBy(() -> writeAt(e, U1, "Second core fact", 0))
        .isInstanceOfSatisfying(PriorityCapExceededException.class, x -> assertThat(x.cap()).isEqualTo(1));
    assertThatThrownBy(() -> writeAt(e, U1, "Key three", 1))
        .isInstanceOfSatisfying(PriorityCapExceededException.class, x -> assertThat(x.cap()).isEqualTo(2));

    Engram none = engram(b -> b.priorityCaps(0, 0));
    assertThatThrownBy(() -> writeAt(none, U1, "No core allowed", 0)).isInstanceOf(PriorityCapExceededException.class);
    for (int i = 0; i < 30; i++) {
      writeAt(none, U1, "General fact " + i, 2);
    }
    assertThat(none.list(U1)).hasSize(30);
  }

  @Test
  void retiringFreesACapSlotAndReactivatingNeedsOne() {
    Engram e = engram(b -> b.priorityCaps(1, 15));
    MemoryEntry first = writeAt(e, U1, "First core fact", 0).entry();
    assertThatThrownBy(() -> writeAt(e, U1, "Second core fact", 0)).isInstanceOf(PriorityCapExceededException.class);

    e.retire(U1, first.citation(), "making room");
    MemoryEntry second = writeAt(e, U1, "Second core fact", 0).entry();
    assertThat(second.priority()).isZero();

    long head = e.revision(U1, S1);
    assertThatThrownBy(() -> e.reactivate(U1, first.citation(), "want it back"))
        .isInstanceOf(PriorityCapExceededException.class);
    assertThat(e.get(U1, first.entryId()).status()).isEqualTo(EntryStatus.RETIRED);
    assertThat(e.revision(U1, S1)).isEqualTo(head);
  }

  @Test
  void pathUpsertCountsTheReplacedVersionAgainstTheCap() {
    Engram e = engram(b -> b.priorityCaps(1, 15));
    WriteOptions.Builder core = WriteOptions.builder().path("profile/core").priority(0);
    e.write(U1, "Core profile v1", core.build());
    WriteResult replaced = e.write(U1, "Core profile v2", core.build());
    assertThat(replaced.outcome()).isEqualTo(Outcome.UPDATED);
    assertThat(replaced.entry().priority()).isZero();

    WriteOptions.Builder other = WriteOptions.builder().path("profile/other").priority(2);
    MemoryEntry plain = e.write(U1, "Other profile fact", other.build()).entry();
    long head = e.revision(U1, S1);
    assertThatThrownBy(() -> e.write(U1, "Other profile fact", other.priority(0).build()))
        .isInstanceOf(PriorityCapExceededException.class);
    assertThat(e.get(U1, plain.entryId())).isEqualTo(plain);
    assertThat(e.revision(U1, S1)).isEqualTo(head);
  }
}
