/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import dev.engram.ContextRequest;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.WriteOptions;
import dev.engram.InvalidInputException;
import dev.engram.WritePolicy;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Engram memory as a resource an agent framework registers: configured once, immutable and
 * thread-safe, and {@linkplain #bind(Grants) bound} per request or run to the grants trusted
 * application code mints.
 *
 * <pre>{@code
 * MemoryResource memory = MemoryResource.builder(engram)
 *     .mode(MemoryMode.READ_WRITE)
 *     .autoScan(true)
 *     .preload(Preload.core().topics("goals", "equipment").limit(30).maxChars(10_000))
 *     .writePolicy(WritePolicy.grantOnly())
 *     .build();
 * AgentMemory agent = memory.bind(Grants.of("app/user/" + userId));
 * }</pre>
 */
public final class MemoryResource {
  /** The default budget of the prepared context inside {@link AgentMemory#instructions(String)}. */
  public static final int DEFAULT_CONTEXT_BYTES = 6000;
  /** The default actor recorded in history for changes made through the tools. */
  public static final String DEFAULT_SOURCE = "agent";

  final Engram engram;
  final MemoryMode mode;
  final boolean autoScan;
  final Preload.Settings preload;
  final @Nullable WritePolicy writePolicy;
  final int contextBytes;
  final String source;
  final String origin;
  final Tools tools;

  private MemoryResource(Builder b) {
    this.engram = b.engram;
    this.mode = b.mode != null ? b.mode : MemoryMode.READ_WRITE;
    this.autoScan = b.autoScan != null ? b.autoScan : false;
    this.preload = b.preload != null ? b.preload : Preload.none();
    this.writePolicy = b.writePolicy;
    this.contextBytes = b.contextBytes != null ? b.contextBytes : DEFAULT_CONTEXT_BYTES;
    this.source = b.source != null ? b.source : DEFAULT_SOURCE;
    this.origin = b.origin != null ? b.origin : "agent";
    this.tools = new Tools(this);
  }

  /**
   * Starts configuring memory over an engine.
   *
   * @param engram the engine, shared; its policies bound everything the tools do
   * @return a builder
   * @throws NullPointerException if {@code engram} is null
   */
  public static Builder builder(Engram engram) {
    return new Builder(Objects.requireNonNull(engram, "engram"));
  }

  /**
   * Memory for one request or run. Cheap: it holds the grants and this resource, nothing else.
   *
   * @param grants minted by trusted code; the model never sees or chooses them
   * @return the agent's memory, thread-safe
   * @throws NullPointerException if {@code grants} is null
   */
  public AgentMemory bind(Grants grants) {
    return new AgentMemory(this, Objects.requireNonNull(grants, "grants"), null);
  }

  /**
   * Memory for one request or run of a known agent runtime: {@code memory_boot} loads that runtime's
   * boot node {@code core://agent/<runtime>} unless the call names another runtime, and history
   * records the tools' changes with the actor {@code <source>:<runtime>} (e.g. {@code mcp:codex}).
   *
   * @param grants minted by trusted code; the model never sees or chooses them
   * @param runtime the runtime the agent runs in (e.g. from the MCP client's info)
   * @return the agent's memory, thread-safe
   * @throws NullPointerException if {@code grants} or {@code runtime} is null
   */
  public AgentMemory bind(Grants grants, AgentRuntime runtime) {
    return new AgentMemory(this, Objects.requireNonNull(grants, "grants"),
        Objects.requireNonNull(runtime, "runtime"));
  }

  /**
   * The tools every {@link AgentMemory} of this resource offers (they do not depend on the grants).
   *
   * @return the specs, in a stable order
   */
  public java.util.List<ToolSpec> tools() {
    return tools.specs();
  }

  /**
   * The mode the tools were configured with.
   *
   * @return read or read-write
   */
  public MemoryMode mode() {
    return mode;
  }

  /** Configures a {@link MemoryResource}. Each setting may be given once. */
  public static final class Builder {
    private final Engram engram;
    private @Nullable MemoryMode mode;
    private @Nullable Boolean autoScan;
    private Preload.@Nullable Settings preload;
    private @Nullable WritePolicy writePolicy;
    private @Nullable Integer contextBytes;
    private @Nullable String source;
    private @Nullable String origin;
    private boolean built;

    private Builder(Engram engram) {
      this.engram = engram;
    }

    /**
     * Which tools the agent gets (default {@link MemoryMode#READ_WRITE}).
     *
     * @param mode read or read-write
     * @return this builder
     * @throws NullPointerException if {@code mode} is null
     * @throws IllegalStateException if the setting was already given or the builder was used
     */
    public Builder mode(MemoryMode mode) {
      requireUnset("mode", this.mode);
      this.mode = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /**
     * Whether the instructions block starts with the visible topic summaries (default false).
     *
     * @param enabled true to include them
     * @return this builder
     * @throws IllegalStateException if the setting was already given or the builder was used
     */
    public Builder autoScan(boolean enabled) {
      requireUnset("autoScan", this.autoScan);
      this.autoScan = enabled;
      return this;
    }

    /**
     * Which entries the instructions block inlines (default {@link Preload#none()}).
     *
     * @param preload the settings
     * @return this builder
     * @throws NullPointerException if {@code preload} is null
     * @throws IllegalStateException if the setting was already given or the builder was used
     */
    public Builder preload(Preload preload) {
      requireUnset("preload", this.preload);
      this.preload = (Preload.Settings) Objects.requireNonNull(preload, "preload");
      return this;
    }

    /**
     * A write policy that narrows the engine's for every change made through the tools: a target must
     * be writable under both. Without one, the engine's policy applies alone.
     *
     * @param policy e.g. {@link WritePolicy#grantOnly()}
     * @return this builder
     * @throws NullPointerException if {@code policy} is null
     * @throws IllegalStateException if the setting was already given or the builder was used
     */
    public Builder writePolicy(WritePolicy policy) {
      requireUnset("writePolicy", this.writePolicy);
      this.writePolicy = Objects.requireNonNull(policy, "writePolicy");
      return this;
    }

    /**
     * The UTF-8 budget of the prepared context in the instructions block (default
     * {@value #DEFAULT_CONTEXT_BYTES}; 512..32,768).
     *
     * @param bytes the budget
     * @return this builder
     * @throws InvalidInputException outside the range
     * @throws IllegalStateException if the setting was already given or the builder was used
     */
    public Builder contextBytes(int bytes) {
      requireUnset("contextBytes", this.contextBytes);
      ContextRequest.of("check", bytes);
      this.contextBytes = bytes;
      return this;
    }

    /**
     * The actor recorded in history for changes made through the tools (default
     * {@value #DEFAULT_SOURCE}).
     *
     * @param actor e.g. the agent's id
     * @return this builder
     * @throws InvalidInputException if blank or longer than 200 characters
     * @throws NullPointerException if {@code actor} is null
     * @throws IllegalStateException if the setting was already given or the builder was used
     */
    public Builder source(String actor) {
      requireUnset("source", this.source);
      Objects.requireNonNull(actor, "source");
      if (actor.isBlank() || actor.length() > 200) {
        throw new InvalidInputException("source", "must be 1..200 characters and not blank");
      }
      this.source = actor;
      return this;
    }

    /**
     * Where history records the changes made through the tools come from (default {@code agent}; the
     * MCP server sets {@code mcp}).
     *
     * @param origin the origin of tool changes, an open id (see {@link dev.engram.MemoryEvent#origin()})
     * @return this builder
     * @throws dev.engram.InvalidInputException when {@code origin} is not a valid origin id
     * @throws NullPointerException if {@code origin} is null
     * @throws IllegalStateException if the setting was already given or the builder was used
     */
    public Builder origin(String origin) {
      requireUnset("origin", this.origin);
      WriteOptions.builder().origin(origin); // the one origin rule, checked now rather than at the first write
      this.origin = origin;
      return this;
    }

    /**
     * Freezes the configuration.
     *
     * @return the resource
     * @throws IllegalStateException if this builder was already used
     */
    public MemoryResource build() {
      checkNotBuilt();
      built = true;
      return new MemoryResource(this);
    }

    private void requireUnset(String name, @Nullable Object current) {
      checkNotBuilt();
      if (current != null) {
        throw new IllegalStateException(name + " was already set to " + current);
      }
    }

    private void checkNotBuilt() {
      if (built) {
        throw new IllegalStateException("this builder was already used to build a MemoryResource");
      }
    }
  }
}
