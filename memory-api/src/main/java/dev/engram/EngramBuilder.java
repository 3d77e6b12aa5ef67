package dev.engram;

import dev.engram.internal.EngineConfig;
import dev.engram.internal.MemoryEngine;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Configures an {@link Engram}. Each setting may be given once; {@link #build()} freezes the result. */
public final class EngramBuilder {
  public static final int DEFAULT_MAX_CONTENT_BYTES = 8192;
  public static final int DEFAULT_CORE_CAP = 5;
  public static final int DEFAULT_KEY_CAP = 15;

  private @Nullable MemoryStore store;
  private @Nullable Reasoner reasoner;
  private @Nullable Clock clock;
  private @Nullable Integer maxContentBytes;
  private @Nullable Integer corePriorityCap;
  private @Nullable Integer keyPriorityCap;
  private @Nullable WritePolicy writePolicy;
  private final List<ProtectedNamespace> protectedNamespaces = new ArrayList<>();
  private @Nullable Embedder embedder;
  private @Nullable SearchSettings searchSettings;
  private boolean built;

  EngramBuilder() {}

  public EngramBuilder store(MemoryStore store) {
    requireUnset("store", this.store);
    this.store = Objects.requireNonNull(store, "store");
    return this;
  }

  public EngramBuilder reasoner(Reasoner reasoner) {
    requireUnset("reasoner", this.reasoner);
    this.reasoner = Objects.requireNonNull(reasoner, "reasoner");
    return this;
  }

  /** The clock for timestamps (default: the UTC system clock). */
  public EngramBuilder clock(Clock clock) {
    requireUnset("clock", this.clock);
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /** The largest content accepted, in UTF-8 bytes (default 8,192; 64..1,048,576). */
  public EngramBuilder maxContentBytes(int bytes) {
    requireUnset("maxContentBytes", this.maxContentBytes);
    if (bytes < 64 || bytes > 1 << 20) {
      throw new IllegalArgumentException("maxContentBytes must be between 64 and 1048576, was " + bytes);
    }
    this.maxContentBytes = bytes;
    return this;
  }

  /**
   * Caps on active entries per scope (each namespace counts only its own entries) at priority 0 (default 5) and priority 1 (default 15).
   */
  public EngramBuilder priorityCaps(int core, int key) {
    requireUnset("priorityCaps", this.corePriorityCap);
    if (core < 0 || key < 0) {
      throw new IllegalArgumentException("priority caps must be >= 0, were " + core + " and " + key);
    }
    this.corePriorityCap = core;
    this.keyPriorityCap = key;
    return this;
  }

  /**
   * The write policy (default: descendants allowed, no ancestor promotion). A per-call
   * {@link WriteOptions#writePolicy()} can only narrow it.
   */
  public EngramBuilder writePolicy(WritePolicy policy) {
    requireUnset("writePolicy", this.writePolicy);
    this.writePolicy = Objects.requireNonNull(policy, "writePolicy");
    return this;
  }

  /** The embedder for the vector channel of search (default: none; search is full-text only). */
  public EngramBuilder embedder(Embedder embedder) {
    requireUnset("embedder", this.embedder);
    this.embedder = Objects.requireNonNull(embedder, "embedder");
    return this;
  }

  /** Search tuning (default {@link SearchSettings#DEFAULTS}). */
  public EngramBuilder searchSettings(SearchSettings settings) {
    requireUnset("searchSettings", this.searchSettings);
    this.searchSettings = Objects.requireNonNull(settings, "searchSettings");
    return this;
  }

  /** Adds a protected namespace; may be called several times. */
  public EngramBuilder protectNamespace(ProtectedNamespace boundary) {
    checkNotBuilt();
    protectedNamespaces.add(Objects.requireNonNull(boundary, "boundary"));
    return this;
  }

  public Engram build() {
    checkNotBuilt();
    if (store == null) {
      throw new IllegalStateException("store is required: call .store(...) before build()");
    }
    if (reasoner == null) {
      throw new IllegalStateException(
          "reasoner is required: call .reasoner(...) before build() (e.g. new DeterministicReasoner())");
    }
    built = true;
    EngineConfig config = new EngineConfig(
        clock != null ? clock : Clock.systemUTC(),
        maxContentBytes != null ? maxContentBytes : DEFAULT_MAX_CONTENT_BYTES,
        corePriorityCap != null ? corePriorityCap : DEFAULT_CORE_CAP,
        keyPriorityCap != null ? keyPriorityCap : DEFAULT_KEY_CAP,
        writePolicy != null ? writePolicy : WritePolicy.DEFAULT,
        protectedNamespaces,
        embedder,
        searchSettings != null ? searchSettings : SearchSettings.DEFAULTS);
    return new MemoryEngine(store, reasoner, config);
  }

  private void checkNotBuilt() {
    if (built) {
      throw new IllegalStateException("this builder was already used to build an Engram");
    }
  }

  private void requireUnset(String name, @Nullable Object current) {
    checkNotBuilt();
    if (current != null) {
      throw new IllegalStateException(name + " was already set to " + current);
    }
  }
}
