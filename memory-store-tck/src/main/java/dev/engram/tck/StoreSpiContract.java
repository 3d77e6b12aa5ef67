/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.EventKind;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.ScoredEntry;
import dev.engram.spi.StoreCapability;
import dev.engram.spi.StoreTransaction;
import dev.engram.spi.StoredVector;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The store SPI driven directly, without the engine: current-version and history-page reads, reads
 * inside a transaction (they answer what the store answers), the scope a transaction is bound to, and
 * nested transactions (see {@link MemoryStore#inTransaction}). Optional parts run by declared
 * capability: {@link #supportsFullText()} and {@link #supportsVectors()} default to what the store
 * declares, so a store without vectors still runs the rest.
 */
public abstract class StoreSpiContract {
  private static final String A = "app/spi/a";
  private static final String B = "app/spi/b";
  private static final AtomicInteger IDS = new AtomicInteger();
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /**
   * A new, empty store.
   *
   * @return the store; the contract closes it after each test
   */
  protected abstract MemoryStore createStore();

  /**
   * Whether the full-text parts run: by default, whether the store declares {@link
   * StoreCapability#FULL_TEXT_SEARCH}.
   *
   * @return true to run the full-text parts
   */
  protected boolean supportsFullText() {
    return store.capabilities().contains(StoreCapability.FULL_TEXT_SEARCH);
  }

  /**
   * Whether the vector parts run: by default, whether the store declares {@link
   * StoreCapability#VECTOR_STORAGE}.
   *
   * @return true to run the vector parts
   */
  protected boolean supportsVectors() {
    return store.capabilities().contains(StoreCapability.VECTOR_STORAGE);
  }

  /** The store under test, fresh for each test. */
  protected MemoryStore store;

  @BeforeEach
  void openStore() {
    store = createStore();
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  // ---- fixtures: rows as the engine would write them

  /** Time-ordered, unique ids (so "newest first by id" means "last made"). */
  private static String id(String kind) {
    return String.format("%s-%010d-%08x", kind, IDS.incrementAndGet(), System.nanoTime() & 0xffffffffL);
  }

  private static MemoryEntry first(String scope, String content) {
    return new MemoryEntry(id("e"), id("v"), 1, null, scope, content, List.of("general"), EntryType.FACT, 2, null,
        List.of(), null, "spi", List.of(), Fixtures.sha256(content), EntryStatus.ACTIVE, null, null, T0, T0, 1);
  }

  private static MemoryEntry next(MemoryEntry cur, String content, long revision) {
    return new MemoryEntry(cur.entryId(), id("v"), cur.version() + 1, cur.versionId(), cur.scope(), content,
        cur.topics(), cur.type(), cur.priority(), null, List.of(), null, "spi", List.of(), Fixtures.sha256(content),
        EntryStatus.ACTIVE, null, null, cur.createdAt(), T0, revision);
  }

  private static MemoryEvent event(MemoryEntry after, @org.jspecify.annotations.Nullable MemoryEntry before,
      long revision) {
    return new MemoryEvent(id("x"), after.scope(), after.entryId(), before == null ? EventKind.CREATE : EventKind.UPDATE,
        before, after, "spi", null, revision, T0, "application");
  }

  /** Commits a new entry in {@code scope} with its event and revision, as one transaction. */
  private MemoryEntry commitNew(String scope, String content) {
    return store.inTransaction(scope, tx -> {
      long revision = tx.headRevision(scope) + 1;
      MemoryEntry e = first(scope, content);
      e = new MemoryEntry(e.entryId(), e.versionId(), 1, null, scope, content, e.topics(), e.type(), e.priority(),
          null, List.of(), null, "spi", List.of(), e.contentHash(), EntryStatus.ACTIVE, null, null, T0, T0, revision);
      tx.insertVersion(e);
      tx.appendEvent(event(e, null, revision));
      tx.appendRevision(new Revision(scope, revision, List.of(new Change(ChangeKind.APPEND, e.entryId(),
          e.versionId())), T0));
      tx.markTopicsWritten(scope, e.topics(), revision, T0);
      return e;
    });
  }

  /** Commits a new version of {@code cur} (the old one superseded), as one transaction. */
  private MemoryEntry commitNext(MemoryEntry cur, String content) {
    return store.inTransaction(cur.scope(), tx -> {
      long revision = tx.headRevision(cur.scope()) + 1;
      MemoryEntry now = tx.currentVersion(cur.entryId()).orElseThrow();
      MemoryEntry n = next(now, content, revision);
      tx.updateStatus(now.versionId(), EntryStatus.SUPERSEDED, n.versionId(), T0);
      tx.insertVersion(n);
      tx.appendEvent(event(n, now, revision));
      tx.appendRevision(new Revision(cur.scope(), revision,
          List.of(new Change(ChangeKind.UPDATE, n.entryId(), n.versionId())), T0));
      return n;
    });
  }

  // ---- current version and history pages

  @Test
  void currentVersionIsTheNewestOfTheChainInsideAndOutsideTransactions() {
    MemoryEntry v1 = commitNew(A, "the chain starts here");
    MemoryEntry cur = v1;
    for (int i = 2; i <= 6; i++) {
      cur = commitNext(cur, "the chain at version " + i);
    }
    assertThat(store.currentVersion(v1.entryId())).contains(store.versions(v1.entryId()).get(5));
    assertThat(store.currentVersion(v1.entryId()).orElseThrow().version()).isEqualTo(6);
    assertThat(store.currentVersion("no-such-entry")).isEmpty();
    MemoryEntry last = cur;
    MemoryEntry seenInside = rolledBack(() -> store.inTransaction(A, tx -> {
      MemoryEntry n = next(last, "version seven, not committed yet", tx.headRevision(A) + 1);
      tx.updateStatus(last.versionId(), EntryStatus.SUPERSEDED, n.versionId(), T0);
      tx.insertVersion(n);
      MemoryEntry seen = tx.currentVersion(last.entryId()).orElseThrow();
      throw new Rollback(seen);
    }));
    assertThat(seenInside.version()).isEqualTo(7);
    assertThat(store.currentVersion(v1.entryId()).orElseThrow().version()).isEqualTo(6);
  }

  @Test
  void historyPagesWalkTheWholeHistoryInOrderAndStopAtTheEnd() {
    MemoryEntry cur = commitNew(A, "history starts");
    for (int i = 2; i <= 23; i++) {
      cur = commitNext(cur, "history step " + i);
    }
    List<MemoryEvent> all = store.events(cur.entryId());
    assertThat(all).hasSize(23);
    List<MemoryEvent> paged = new ArrayList<>();
    long afterRevision = 0;
    String afterId = "";
    int pages = 0;
    while (true) {
      List<MemoryEvent> page = store.events(cur.entryId(), afterRevision, afterId, 5);
      assertThat(page.size()).isLessThanOrEqualTo(5);
      paged.addAll(page);
      pages++;
      if (page.size() < 5) {
        break;
      }
      MemoryEvent last = page.get(page.size() - 1);
      afterRevision = last.revision();
      afterId = last.eventId();
    }
    assertThat(paged).isEqualTo(all);
    assertThat(pages).isEqualTo(5);
    MemoryEvent tail = all.get(all.size() - 1);
    assertThat(store.events(cur.entryId(), tail.revision(), tail.eventId(), 5)).isEmpty();
    assertThat(store.events("no-such-entry", 0, "", 5)).isEmpty();
  }

  @Test
  void eventsOfOneRevisionAreOrderedByIdAcrossPages() {
    MemoryEntry e = first(A, "many events in one revision");
    List<MemoryEvent> made = new ArrayList<>();
    store.inTransaction(A, tx -> {
      tx.insertVersion(e);
      for (int i = 0; i < 7; i++) {
        MemoryEvent ev = event(e, null, 1);
        tx.appendEvent(ev);
        made.add(ev);
      }
      tx.appendRevision(new Revision(A, 1, List.of(new Change(ChangeKind.APPEND, e.entryId(), e.versionId())), T0));
      return null;
    });
    List<MemoryEvent> first = store.events(e.entryId(), 0, "", 3);
    List<MemoryEvent> second = store.events(e.entryId(), 1, first.get(2).eventId(), 3);
    List<MemoryEvent> third = store.events(e.entryId(), 1, second.get(2).eventId(), 3);
    List<MemoryEvent> joined = new ArrayList<>(first);
    joined.addAll(second);
    joined.addAll(third);
    assertThat(joined).isEqualTo(made);
  }

  // ---- reads inside a transaction answer what the store answers

  @Test
  void aTransactionSearchesFullTextIncludingItsOwnChanges() {
    assumeTrue(supportsFullText(), "the store declares no full-text search");
    commitNew(A, "an aardvark sleeps in the burrow");
    FullTextQuery query = new FullTextQuery(List.of("aardvark"), Set.of(), Set.of());
    assertThat(store.searchFullText(List.of(A), query, 10)).hasSize(1);
    List<ScoredEntry> inside = rolledBack(() -> store.inTransaction(A, tx -> {
      tx.insertVersion(new MemoryEntry(id("e"), id("v"), 1, null, A, "a second aardvark digs", List.of("general"),
          EntryType.FACT, 2, null, List.of(), null, "spi", List.of(), Fixtures.sha256("a second aardvark digs"),
          EntryStatus.ACTIVE, null, null, T0, T0, 2));
      throw new Rollback(tx.searchFullText(List.of(A), query, 10));
    }));
    assertThat(inside).hasSize(2);
    assertThat(store.searchFullText(List.of(A), query, 10)).hasSize(1);
  }

  /** Commits new entries in {@code scope}, one per content with its event time (or none), as one transaction. */
  private List<MemoryEntry> commitDated(String scope, List<String> contents, List<@org.jspecify.annotations.Nullable Instant> at) {
    return store.inTransaction(scope, tx -> {
      long revision = tx.headRevision(scope) + 1;
      List<MemoryEntry> made = new ArrayList<>();
      List<Change> changes = new ArrayList<>();
      for (int i = 0; i < contents.size(); i++) {
        String content = contents.get(i);
        MemoryEntry e = new MemoryEntry(id("e"), id("v"), 1, null, scope, content, List.of("general"), EntryType.FACT,
            2, null, List.of(), null, "spi", List.of(), Fixtures.sha256(content), EntryStatus.ACTIVE, null, at.get(i),
            T0, T0, revision);
        tx.insertVersion(e);
        tx.appendEvent(event(e, null, revision));
        changes.add(new Change(ChangeKind.APPEND, e.entryId(), e.versionId()));
        made.add(e);
      }
      tx.appendRevision(new Revision(scope, revision, changes, T0));
      tx.markTopicsWritten(scope, List.of("general"), revision, T0);
      return made;
    });
  }

  private static List<String> contentsOf(List<ScoredEntry> hits) {
    return hits.stream().map(h -> h.entry().content()).toList();
  }

  /**
   * The event-time filter of a full-text query is applied before the limit and exactly at its bounds:
   * with many better-ranked versions outside the interval, the limit still holds the interval's
   * versions; {@code from} is in, {@code to} is out, a nanosecond either side decides, and a version
   * without event time never matches. Event times far from the epoch (signed years, every fraction
   * length) compare as the instants they are.
   */
  @Test
  void fullTextFiltersByEventTimeBeforeTheLimitExactlyAtItsBounds() {
    assumeTrue(supportsFullText(), "the store declares no full-text search");
    Instant from = Instant.parse("2024-01-08T00:00:00Z");
    Instant to = Instant.parse("2024-01-15T00:00:00Z");
    List<String> contents = new ArrayList<>();
    List<Instant> at = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      contents.add("aardvark aardvark burrow " + i);
      at.add(i % 2 == 0 ? Instant.parse("2023-06-01T10:00:00.5Z").plusSeconds(i) : to.plusNanos(i + 1));
    }
    String[][] dated = {
        {"one aardvark seen at the start of the week in the long grass near the river bank", "2024-01-08T00:00:00Z"},
        {"an aardvark crossed the road one nanosecond after the start of that week", "2024-01-08T00:00:00.000000001Z"},
        {"the last aardvark of the week was counted a nanosecond before its end", "2024-01-14T23:59:59.999999999Z"},
        {"an aardvark a nanosecond before the week began, early in the cold morning", "2024-01-07T23:59:59.999999999Z"},
        {"an aardvark exactly at the end bound of the week, late in the quiet evening", "2024-01-15T00:00:00Z"},
        {"an aardvark far in the future beyond the four digit years of the calendar", "+12345-06-07T08:09:10.123456Z"},
        {"an aardvark long before the common era in a very old and dusty story", "-0044-03-15T12:00:00.123Z"}};
    for (String[] d : dated) {
      contents.add(d[0]);
      at.add(Instant.parse(d[1]));
    }
    contents.add("an aardvark without any time at all, undated in the notebook of the ranger");
    at.add(null);
    commitDated(A, contents, at);
    FullTextQuery query = new FullTextQuery(List.of("aardvark"), Set.of(), Set.of());

    assertThat(contentsOf(store.searchFullText(List.of(A), query, 5))).as("unfiltered, the short versions rank first")
        .allMatch(c -> c.startsWith("aardvark aardvark"));
    assertThat(contentsOf(store.searchFullText(List.of(A), query.occurredBetween(from, to), 3)))
        .containsExactlyInAnyOrder(dated[0][0], dated[1][0], dated[2][0]);
    assertThat(contentsOf(store.searchFullText(List.of(A), query.occurredBetween(from, to), 100)))
        .containsExactlyInAnyOrder(dated[0][0], dated[1][0], dated[2][0]);
    assertThat(contentsOf(store.searchFullText(List.of(A), query.occurredBetween(null, from), 100)))
        .as("before the start").hasSize(20 + 2).contains(dated[3][0], dated[6][0])
        .noneMatch(c -> c.contains("without any time"));
    assertThat(contentsOf(store.searchFullText(List.of(A), query.occurredBetween(to, null), 100)))
        .as("from the end on").hasSize(20 + 2).contains(dated[4][0], dated[5][0])
        .noneMatch(c -> c.contains("without any time"));
    assertThat(contentsOf(store.searchFullText(List.of(A),
        query.occurredBetween(Instant.parse("+12345-06-07T08:09:10.123456Z"), Instant.parse("+12345-06-07T08:09:10.123457Z")),
        100))).containsExactly(dated[5][0]);
    assertThat(contentsOf(store.searchFullText(List.of(A),
        query.occurredBetween(Instant.parse("-0044-03-15T12:00:00.122999999Z"), Instant.parse("-0044-03-15T12:00:00.123Z")),
        100))).isEmpty();
    assertThat(store.searchFullText(List.of(A), query.occurredBetween(from, to), 3))
        .extracting(h -> h.entry().occurredAt()).as("event times read back exactly")
        .containsExactlyInAnyOrder(Instant.parse(dated[0][1]), Instant.parse(dated[1][1]), Instant.parse(dated[2][1]));
    List<ScoredEntry> inside = rolledBack(() -> store.inTransaction(A, tx -> {
      throw new Rollback(tx.searchFullText(List.of(A), query.occurredBetween(from, to), 3));
    }));
    assertThat(contentsOf(inside)).containsExactlyInAnyOrder(dated[0][0], dated[1][0], dated[2][0]);
  }

  @Test
  void fullTextHitsTiedInScoreAreCutNewestVersionFirstAndOnlyFromTheScopesSearched() {
    assumeTrue(supportsFullText(), "the store declares no full-text search");
    String c = "app/spi/c";
    List<String> made = new ArrayList<>();
    for (String scope : List.of(A, B, c)) {
      made.add(commitNew(scope, "the heron waits by the weir").versionId());
    }
    MemoryEntry elsewhere = commitNew("app/spi/d", "heron heron heron");
    FullTextQuery query = new FullTextQuery(FullTextQuery.terms("heron"), Set.of(), Set.of());
    List<String> newestFirst = new ArrayList<>(made);
    newestFirst.sort(java.util.Comparator.reverseOrder());

    List<ScoredEntry> two = store.searchFullText(List.of(A, B, c), query, 2);
    assertThat(two).extracting(h -> h.entry().versionId()).containsExactlyElementsOf(newestFirst.subList(0, 2));
    assertThat(two.get(0).score()).isEqualTo(two.get(1).score());
    assertThat(store.searchFullText(List.of(A, B, c), query, 3)).extracting(h -> h.entry().versionId())
        .containsExactlyElementsOf(newestFirst);
    assertThat(store.searchFullText(List.of(A, B, c), query, 10)).extracting(h -> h.entry().scope())
        .doesNotContain(elsewhere.scope());
    assertThat(store.searchFullText(List.of(elsewhere.scope()), query, 10)).extracting(h -> h.entry().versionId())
        .containsExactly(elsewhere.versionId());
  }

  @Test
  void aTransactionReadsVectorsIncludingItsOwnChanges() {
    assumeTrue(supportsVectors(), "the store declares no vector storage");
    MemoryEntry stored = commitNew(A, "a vector holder");
    store.inTransaction(A, tx -> {
      tx.putVectors("p@3", List.of(new StoredVector(stored.versionId(), "content", new float[] {1, 0, 0})));
      return null;
    });
    assertThat(store.activeVectors(A, "p@3")).hasSize(1);
    Object[] inside = rolledBack(() -> store.inTransaction(A, tx -> {
      MemoryEntry other = new MemoryEntry(id("e"), id("v"), 1, null, A, "a second vector holder", List.of("general"),
          EntryType.FACT, 2, null, List.of(), null, "spi", List.of(), Fixtures.sha256("a second vector holder"),
          EntryStatus.ACTIVE, null, null, T0, T0, 2);
      tx.insertVersion(other);
      int missing = tx.countActiveWithoutVectors(A, "p@3");
      tx.putVectors("p@3", List.of(new StoredVector(other.versionId(), "content", new float[] {0, 1, 0})));
      throw new Rollback(new Object[] {missing, tx.activeVectors(A, "p@3").size(), tx.countActiveWithoutVectors(A, "p@3")});
    }));
    assertThat(inside).containsExactly(1, 2, 0);
    assertThat(store.activeVectors(A, "p@3")).hasSize(1);
  }

  @Test
  void aTransactionIsClosedOnceItsWorkReturned() {
    AtomicReference<StoreTransaction> kept = new AtomicReference<>();
    store.inTransaction(A, tx -> {
      kept.set(tx);
      return null;
    });
    assertThatThrownBy(() -> kept.get().insertVersion(first(A, "too late"))).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> kept.get().headRevision(A)).isInstanceOf(IllegalStateException.class);
  }

  // ---- a transaction is bound to its scope

  @Test
  void aTransactionRefusesWritesForAnotherScopeAndStaysUsable() {
    MemoryEntry inB = commitNew(B, "this entry lives in b");
    if (supportsVectors()) {
      store.inTransaction(B, tx -> {
        tx.putVectors("p@3", List.of(new StoredVector(inB.versionId(), "content", new float[] {1, 0, 0})));
        return null;
      });
    }
    MemoryEntry written = store.inTransaction(A, tx -> {
      MemoryEntry foreign = first(B, "written into b from a");
      assertThatThrownBy(() -> tx.insertVersion(foreign)).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(B).hasMessageContaining(A);
      assertThatThrownBy(() -> tx.appendEvent(event(inB, null, 1))).isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> tx.appendRevision(new Revision(B, 2, List.of(), T0)))
          .isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> tx.markTopicsWritten(B, List.of("general"), 9, T0))
          .isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> tx.markTopicCurated(B, "general", 9, "blurb from a"))
          .isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> tx.updateStatus(inB.versionId(), EntryStatus.RETIRED, null, T0))
          .isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> tx.eraseEntry(inB.entryId())).isInstanceOf(IllegalStateException.class);
      if (supportsVectors()) {
        assertThatThrownBy(() -> tx.putVectors("p@3",
            List.of(new StoredVector(inB.versionId(), "content", new float[] {0, 0, 1}))))
            .isInstanceOf(IllegalStateException.class);
      }
      MemoryEntry own = first(A, "written into a, after the refusals");
      own = new MemoryEntry(own.entryId(), own.versionId(), 1, null, A, own.content(), own.topics(), own.type(),
          own.priority(), null, List.of(), null, "spi", List.of(), own.contentHash(), EntryStatus.ACTIVE, null, null,
          T0, T0, 1);
      tx.insertVersion(own);
      tx.appendEvent(event(own, null, 1));
      tx.appendRevision(new Revision(A, 1, List.of(new Change(ChangeKind.APPEND, own.entryId(), own.versionId())), T0));
      return own;
    });
    assertThat(store.version(written.versionId())).contains(written);
    assertThat(store.headRevision(A)).isEqualTo(1);
    assertThat(store.headRevision(B)).isEqualTo(1);
    assertThat(store.currentVersion(inB.entryId())).contains(inB);
    assertThat(store.events(inB.entryId())).hasSize(1);
    assertThat(store.versionsIn(List.of(B), Set.of(EntryStatus.values()))).containsExactly(inB);
    assertThat(store.topics(List.of(B))).singleElement().satisfies(t -> {
      assertThat(t.lastWriteRevision()).isEqualTo(1);
      assertThat(t.blurb()).isNull();
    });
    if (supportsVectors()) {
      assertThat(store.activeVectors(B, "p@3")).singleElement()
          .satisfies(v -> assertThat(v.vector()).containsExactly(1, 0, 0));
    }
  }

  // ---- transactions told the content hashes they look up

  @Test
  void aTransactionToldItsHashesAnswersAsOneThatWasNotAndSeesItsOwnWrites() {
    MemoryEntry held = commitNew(A, "a holder committed before");
    MemoryEntry retired = commitNew(A, "a holder retired in the transaction");
    String added = Fixtures.sha256("a holder added in the transaction");
    String none = Fixtures.sha256("no holder at all");
    String unhinted = Fixtures.sha256("a hash the transaction was not told");
    List<String> hashes = List.of(held.contentHash(), retired.contentHash(), added, none);
    Map<String, MemoryEntry> plain = store.inTransaction(A, tx -> tx.findActiveByHashes(A, hashes));
    assertThat(plain).containsOnlyKeys(held.contentHash(), retired.contentHash());
    store.inTransaction(A, hashes, tx -> {
      assertThat(tx.findActiveByHashes(A, hashes)).isEqualTo(plain);
      assertThat(tx.findActiveByHash(A, held.contentHash())).contains(held);
      assertThat(tx.findActiveByHash(A, none)).isEmpty();
      assertThat(tx.findActiveByHash(A, unhinted)).isEmpty();
      assertThat(tx.findActiveByHashes(B, hashes)).isEmpty();
      MemoryEntry fresh = first(A, "a holder added in the transaction");
      tx.insertVersion(fresh);
      assertThat(tx.findActiveByHash(A, added)).contains(fresh);
      tx.updateStatus(retired.versionId(), EntryStatus.RETIRED, null, T0);
      assertThat(tx.findActiveByHashes(A, hashes)).containsOnlyKeys(held.contentHash(), added);
      tx.appendRevision(new Revision(A, 3, List.of(), T0));
      return null;
    });
    assertThat(store.findActiveByHashes(A, hashes)).containsOnlyKeys(held.contentHash(), added);
  }

  /**
   * The hashes are looked up once the transaction holds its scope: a holder that another transaction
   * committed while this one waited for the scope is seen, on a scope with revisions and on a new one. The
   * first transaction keeps the scope until the second one's thread is inside the store's
   * {@code inTransaction} (its stack shows it), so the second has called before the first commits and
   * waits for it: the wait is observed, not assumed.
   */
  @Test
  void aTransactionToldItsHashesSeesWhatCommittedWhileItWaitedForTheScope() throws Exception {
    commitNew(A, "an earlier entry, so that the scope exists");
    for (String scope : List.of(A, B)) {
      String content = "committed while the other transaction waited in " + scope;
      String hash = Fixtures.sha256(content);
      java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(1);
      java.util.concurrent.atomic.AtomicReference<Thread> waiter = new java.util.concurrent.atomic.AtomicReference<>();
      java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
      try {
        java.util.concurrent.Future<MemoryEntry> first = pool.submit(() -> store.inTransaction(scope, tx -> {
          MemoryEntry e = first(scope, content);
          tx.insertVersion(e);
          tx.appendRevision(new Revision(scope, tx.headRevision(scope) + 1, List.of(), T0));
          holding.countDown();
          awaitInside(waiter, store.getClass().getName(), "inTransaction");
          return e;
        }));
        assertThat(holding.await(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        java.util.concurrent.Future<Map<String, MemoryEntry>> second = pool.submit(() -> {
          waiter.set(Thread.currentThread());
          return store.inTransaction(scope, List.of(hash), tx -> tx.findActiveByHashes(scope, List.of(hash)));
        });
        MemoryEntry committed = first.get(20, java.util.concurrent.TimeUnit.SECONDS);
        Map<String, MemoryEntry> seen = second.get(20, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(seen).as(scope).containsEntry(hash, committed);
      } finally {
        pool.shutdownNow();
      }
    }
  }

  /**
   * Returns once the thread {@code waiter} names is inside {@code method} of {@code className} (it waits
   * there for what the caller holds); fails after 20 s.
   */
  private static void awaitInside(java.util.concurrent.atomic.AtomicReference<Thread> waiter, String className,
      String method) {
    long deadline = System.nanoTime() + java.time.Duration.ofSeconds(20).toNanos();
    while (true) {
      Thread t = waiter.get();
      if (t != null) {
        for (StackTraceElement f : t.getStackTrace()) {
          if (f.getClassName().equals(className) && f.getMethodName().equals(method)) {
            return;
          }
        }
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the second transaction never entered " + className + "." + method);
      }
      java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
    }
  }

  // ---- nesting

  @Test
  void aNestedTransactionCommitsWithItsOuterTransactionOnly() {
    assertThatThrownBy(() -> store.inTransaction(A, outer -> {
      store.inTransaction(B, inner -> {
        MemoryEntry e = first(B, "inner work of a rolled back outer");
        inner.insertVersion(e);
        inner.appendRevision(new Revision(B, 1, List.of(), T0));
        return null;
      });
      throw new IllegalArgumentException("the outer work fails after the inner one returned");
    })).isInstanceOf(IllegalArgumentException.class);
    assertThat(store.headRevision(B)).isZero();
    assertThat(store.versionsIn(List.of(B), Set.of(EntryStatus.values()))).isEmpty();
  }

  @Test
  void aFailedNestedTransactionUndoesOnlyItsOwnChanges() {
    MemoryEntry kept = store.inTransaction(A, outer -> {
      MemoryEntry before = first(A, "outer write before the inner one");
      outer.insertVersion(before);
      assertThatThrownBy(() -> store.inTransaction(A, inner -> {
        inner.insertVersion(first(A, "inner write that is undone"));
        inner.appendRevision(new Revision(A, 1, List.of(), T0));
        throw new IllegalArgumentException("the inner work fails");
      })).isInstanceOf(IllegalArgumentException.class);
      assertThat(outer.headRevision(A)).isZero();
      outer.appendRevision(new Revision(A, 1, List.of(), T0));
      return before;
    });
    assertThat(store.versionsIn(List.of(A), Set.of(EntryStatus.values()))).containsExactly(kept);
    assertThat(store.headRevision(A)).isEqualTo(1);
  }

  @Test
  void aNestedTransactionOnTheSameScopeNeverWaitsForItsOuterTransaction() {
    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> store.inTransaction(A, outer -> {
      outer.appendRevision(new Revision(A, 1, List.of(), T0));
      store.inTransaction(A, inner -> {
        assertThat(inner.headRevision(A)).isEqualTo(1);
        inner.insertVersion(first(A, "inner write on the outer scope"));
        inner.appendRevision(new Revision(A, 2, List.of(), T0));
        return null;
      });
      assertThat(outer.headRevision(A)).isEqualTo(2);
      outer.appendRevision(new Revision(A, 3, List.of(), T0));
      return null;
    }));
    assertThat(store.headRevision(A)).isEqualTo(3);
    assertThat(store.revisions(A, 0, 10)).extracting(Revision::revision).containsExactly(1L, 2L, 3L);
    assertThat(store.versionsIn(List.of(A), Set.of(EntryStatus.ACTIVE))).hasSize(1);
  }

  /** Carries a value out of a transaction that must not commit. */
  private static final class Rollback extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Object value;

    Rollback(Object value) {
      super(null, null, false, false);
      this.value = value;
    }
  }

  /** Runs {@code work}, which ends by throwing {@link Rollback}, and returns what it carried. */
  @SuppressWarnings("unchecked")
  private static <T> T rolledBack(Runnable work) {
    try {
      work.run();
    } catch (Rollback r) {
      return (T) r.value;
    }
    throw new AssertionError("the work committed instead of rolling back");
  }
}
