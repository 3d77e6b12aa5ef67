/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.test;

import dev.engram.Engram;
import dev.engram.EngramBuilder;
import dev.engram.spi.MemoryStore;
import java.util.Objects;

/**
 * One test's memory: a fresh {@link Engram} over an empty store, with a {@link SteppingClock} (every reading
 * one step later, so timestamps and their order are the same on every run), a {@link ScriptedReasoner} (files
 * writes like the deterministic reasoner until a test scripts its tagging, curation or extraction) and a
 * {@link HashingEmbedder} (hybrid search without a model). Close it after the test; {@link EngramExtension}
 * does that for JUnit 5 tests.
 *
 * <pre>{@code
 * try (TestMemory memory = TestMemory.create()) {
 *   memory.engram().write(Grants.of("app/user/u1"), "Prefers metric units.");
 * }
 * }</pre>
 *
 * <p>The store comes from {@link TestMemoryOptions#store()} ({@code memory} by default), so its module
 * ({@code dev.engram:memory-store-inmemory} for the default) must be on the test class path.
 */
public final class TestMemory implements AutoCloseable {
  private final Engram engram;
  private final ScriptedReasoner reasoner;
  private final SteppingClock clock;
  private final HashingEmbedder embedder;

  private TestMemory(Engram engram, ScriptedReasoner reasoner, SteppingClock clock, HashingEmbedder embedder) {
    this.engram = engram;
    this.reasoner = reasoner;
    this.clock = clock;
    this.embedder = embedder;
  }

  /**
   * A fresh memory with the {@link TestMemoryOptions#defaults()}.
   *
   * @return the memory
   * @throws dev.engram.InvalidInputException if no in-memory store is on the class path
   */
  public static TestMemory create() {
    return create(TestMemoryOptions.defaults());
  }

  /**
   * A fresh memory as {@code options} say.
   *
   * @param options the options
   * @return the memory
   * @throws dev.engram.InvalidInputException if the options' store is not on the class path
   * @throws dev.engram.StoreException if the store cannot be opened
   */
  public static TestMemory create(TestMemoryOptions options) {
    Objects.requireNonNull(options, "options");
    ScriptedReasoner reasoner = new ScriptedReasoner();
    SteppingClock clock = new SteppingClock(options.clockStart(), options.clockStep());
    HashingEmbedder embedder = new HashingEmbedder();
    MemoryStore store = options.store().open();
    try {
      EngramBuilder builder = Engram.builder().store(store).clock(clock).reasoner(reasoner);
      if (options.embedder()) {
        builder.embedder(embedder);
      }
      return new TestMemory(options.settings().apply(builder).build(), reasoner, clock, embedder);
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /**
   * The engine; it owns the store and closes it with this memory.
   *
   * @return the engine
   */
  public Engram engram() {
    return engram;
  }

  /**
   * The reasoner: script its answers, read the requests it received.
   *
   * @return the reasoner
   */
  public ScriptedReasoner reasoner() {
    return reasoner;
  }

  /**
   * The clock the engine reads.
   *
   * @return the clock
   */
  public SteppingClock clock() {
    return clock;
  }

  /**
   * The embedder (also when {@link TestMemoryOptions.Builder#withoutEmbedder()} left it out of the engine).
   *
   * @return the embedder
   */
  public HashingEmbedder embedder() {
    return embedder;
  }

  /** Closes the engine and its store. Idempotent. */
  @Override
  public void close() {
    engram.close();
  }
}
