/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import dev.engram.Engram;
import dev.engram.EngramBuilder;
import dev.engram.Grants;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.WriteOptions;
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

  @AfterEach
  void closeEngrams() {
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
