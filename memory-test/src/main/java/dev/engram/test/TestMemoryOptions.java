/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.test;

import dev.engram.EngramBuilder;
import dev.engram.spi.StoreSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * How {@link TestMemory} builds a test's memory. The defaults: an empty in-memory store ({@code memory}), a
 * {@link SteppingClock} from 2030-01-01T00:00:00Z in steps of one second, a {@link ScriptedReasoner}, a
 * {@link HashingEmbedder}, and the engine's defaults for everything else.
 */
public final class TestMemoryOptions {
  private static final TestMemoryOptions DEFAULTS = builder().build();

  private final StoreSpec store;
  private final Instant clockStart;
  private final Duration clockStep;
  private final boolean embedder;
  private final UnaryOperator<EngramBuilder> settings;

  private TestMemoryOptions(Builder b) {
    this.store = b.store;
    this.clockStart = b.clockStart;
    this.clockStep = b.clockStep;
    this.embedder = b.embedder;
    this.settings = b.settings;
  }

  /**
   * The defaults.
   *
   * @return the default options
   */
  public static TestMemoryOptions defaults() {
    return DEFAULTS;
  }

  /**
   * A builder starting from the defaults.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Where each test's memory lives; opened afresh for every test.
   *
   * @return the store spec
   */
  public StoreSpec store() {
    return store;
  }

  /**
   * The first instant of each test's clock.
   *
   * @return the start
   */
  public Instant clockStart() {
    return clockStart;
  }

  /**
   * How far each test's clock moves per reading.
   *
   * @return the step
   */
  public Duration clockStep() {
    return clockStep;
  }

  /**
   * Whether the engine has the {@link HashingEmbedder} (hybrid search), or none (full text only).
   *
   * @return true with the embedder
   */
  public boolean embedder() {
    return embedder;
  }

  /**
   * Further settings applied to the engine's builder after the store, clock, reasoner and embedder.
   *
   * @return the settings
   */
  public UnaryOperator<EngramBuilder> settings() {
    return settings;
  }

  /** Builds {@link TestMemoryOptions}; not thread-safe. */
  public static final class Builder {
    private StoreSpec store = new StoreSpec("memory", "");
    private Instant clockStart = Instant.parse("2030-01-01T00:00:00Z");
    private Duration clockStep = Duration.ofSeconds(1);
    private boolean embedder = true;
    private UnaryOperator<EngramBuilder> settings = UnaryOperator.identity();

    private Builder() {}

    /**
     * The store each test gets, as a {@link StoreSpec} (e.g. {@code sqlite:/tmp/x.db}); the store module
     * must be on the test class path. Each test opens it afresh and closes it after.
     *
     * @param spec the spec
     * @return this builder
     * @throws dev.engram.InvalidInputException if the spec is malformed or names a store not on the class path
     */
    public Builder store(String spec) {
      this.store = StoreSpec.parse(Objects.requireNonNull(spec, "spec"));
      return this;
    }

    /**
     * Where each test's clock starts and how far it moves per reading.
     *
     * @param start the first instant
     * @param step the step, at least one millisecond
     * @return this builder
     * @throws IllegalArgumentException if {@code step} is shorter than a millisecond
     */
    public Builder clock(Instant start, Duration step) {
      Objects.requireNonNull(start, "start");
      Objects.requireNonNull(step, "step");
      if (step.toMillis() < 1) {
        throw new IllegalArgumentException("step must be at least one millisecond, was " + step);
      }
      this.clockStart = start;
      this.clockStep = step;
      return this;
    }

    /**
     * No embedder: search runs on full text only.
     *
     * @return this builder
     */
    public Builder withoutEmbedder() {
      this.embedder = false;
      return this;
    }

    /**
     * Further settings for the engine's builder (priority caps, a write policy, search settings…), applied
     * after the store, clock, reasoner and embedder.
     *
     * @param settings the settings
     * @return this builder
     */
    public Builder settings(UnaryOperator<EngramBuilder> settings) {
      this.settings = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /**
     * The options.
     *
     * @return the options built
     */
    public TestMemoryOptions build() {
      return new TestMemoryOptions(this);
    }
  }
}
