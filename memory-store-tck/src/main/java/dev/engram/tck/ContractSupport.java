/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import dev.engram.test.HashingEmbedder;
import dev.engram.test.ScriptedReasoner;
import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.EngramBuilder;
import dev.engram.Grants;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.WriteOptions;
import dev.engram.WritePolicy;
import dev.engram.WriteResult;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;

/**
 * Base of every contract layer: one fresh store per test, an {@link Engram} over it, and helpers.
 * Stores made by {@link #newEngram} are closed after each test.
 */
public abstract class ContractSupport {
  private final List<Engram> opened = new ArrayList<>();

  /**
   * A new, empty store. Called once or more per test.
   *
   * @return the store; the engine built over it closes it after the test
   */
  protected abstract MemoryStore createStore();

  /**
   * An engine over a fresh store with the deterministic reasoner and default settings.
   *
   * @return the engine, closed after the test
   */
  protected Engram newEngram() {
    return newEngram(new DeterministicReasoner(), b -> b);
  }

  /**
   * An engine over a fresh store with {@code reasoner} and extra settings.
   *
   * @param reasoner the reasoner
   * @param settings changes to the builder, applied after the store and the reasoner are set
   * @return the engine, closed after the test
   */
  protected Engram newEngram(Reasoner reasoner, UnaryOperator<EngramBuilder> settings) {
    return newEngram(createStore(), reasoner, settings);
  }

  /**
   * An engine over {@code store} (e.g. a second engine sharing one store). The engine owns the store: closing
   * it closes the store.
   *
   * @param store the store
   * @param reasoner the reasoner
   * @param settings changes to the builder, applied after the store and the reasoner are set
   * @return the engine, closed after the test
   */
  protected Engram newEngram(MemoryStore store, Reasoner reasoner, UnaryOperator<EngramBuilder> settings) {
    Engram engram = settings.apply(Engram.builder().store(store).reasoner(reasoner)).build();
    opened.add(engram);
    return engram;
  }

  /** Closes every engine {@link #newEngram} made in the test. */
  @AfterEach
  protected void closeEngrams() {
    for (Engram e : opened) {
      e.close();
    }
    opened.clear();
  }

  /**
   * Writes {@code content} with {@code topics} as the topic hints and no other option.
   *
   * @param engram the engine
   * @param grants the caller's grants
   * @param content the text
   * @param topics the topic hints
   * @return what the write did
   */
  protected static WriteResult write(Engram engram, Grants grants, String content, String... topics) {
    return engram.write(grants, content, WriteOptions.builder().topicsHint(topics).build());
  }

  /**
   * A rig over a fresh store: an engine with a {@link ScriptedReasoner} and a stepping clock.
   *
   * @return the rig; its engine (and with it the store) is closed after the test
   */
  protected ScriptedRig rig() {
    return rig(createStore(), b -> b);
  }

  /**
   * A rig over {@code store}: an engine with a {@link ScriptedReasoner}, a stepping clock and {@code settings}.
   *
   * @param store the store; the rig's engine owns it
   * @param settings changes to the builder, applied after the clock is set
   * @return the rig; its engine (and with it the store) is closed after the test
   */
  protected ScriptedRig rig(MemoryStore store, UnaryOperator<EngramBuilder> settings) {
    ScriptedReasoner reasoner = new ScriptedReasoner();
    return new ScriptedRig(store, newEngram(store, reasoner, Fixtures.clocked(settings)), reasoner);
  }

  /**
   * An engine over a fresh store with the deterministic reasoner and {@code embedder}.
   *
   * @param embedder the embedder
   * @return the engine, closed after the test
   */
  protected Engram withEmbedder(HashingEmbedder embedder) {
    return newEngram(new DeterministicReasoner(), b -> b.embedder(embedder));
  }

  /**
   * A search in {@code mode} with no other option.
   *
   * @param engram the engine
   * @param grants the caller's grants
   * @param query the query text
   * @param mode the search mode
   * @return what the search found
   */
  protected static SearchResult search(Engram engram, Grants grants, String query, SearchMode mode) {
    return engram.search(grants, SearchRequest.builder(query).mode(mode).build());
  }

  /**
   * The hits' contents, in order.
   *
   * @param r a search result
   * @return the content of each hit's entry, in hit order
   */
  protected static List<String> contents(SearchResult r) {
    return r.hits().stream().map(h -> h.entry().content()).toList();
  }

  /**
   * Four entries of {@value Fixtures#S1} on four topics: payments, schedule, preferences, process.
   *
   * @param engram the engine to write through
   */
  protected static void seedFourTopics(Engram engram) {
    Grants u1 = Grants.of(Fixtures.S1);
    write(engram, u1, "Refund webhooks are idempotent by event id.", "payments");
    write(engram, u1, "The team meets every Tuesday morning for planning.", "schedule");
    write(engram, u1, "Prefers metric units for every workout log.", "preferences");
    write(engram, u1, "Deploys happen only after the contract tests pass.", "process");
  }

  /**
   * Writes into exactly {@code scope}: the reasoners used here file into the first grant unless told otherwise.
   *
   * @param engram the engine
   * @param scope the scope, which is also the only grant
   * @param content the text
   * @param topics the topic hints
   * @return what the write did
   * @throws AssertionError when the write did not append a new entry in {@code scope}
   */
  protected static WriteResult seed(Engram engram, String scope, String content, String... topics) {
    WriteResult r = write(engram, Grants.of(scope), content, topics);
    assertThat(r.outcome()).as("seeding %s", scope).isEqualTo(WriteResult.Outcome.APPENDED);
    assertThat(r.entry().scope()).isEqualTo(scope);
    return r;
  }

  /**
   * Write options with only a per-call write policy.
   *
   * @param policy the write policy
   * @return the options
   */
  protected static WriteOptions policy(WritePolicy policy) {
    return WriteOptions.builder().writePolicy(policy).build();
  }

  /**
   * Every version in every scope the grants can see, whatever its status.
   *
   * @param engram the engine
   * @param grants the caller's grants
   * @return the versions, in {@link Engram#list} order
   */
  protected static List<MemoryEntry> everything(Engram engram, Grants grants) {
    return engram.list(grants, ListOptions.builder().includeSuperseded(true).build());
  }
}
