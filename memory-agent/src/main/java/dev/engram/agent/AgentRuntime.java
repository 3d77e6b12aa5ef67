/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import dev.engram.BootBlock;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An agent runtime an {@link AgentMemory} is bound to: an open id that names the runtime's own boot
 * node ({@code core://agent/<id>}) and is appended to the actor history records. The constants are
 * the runtimes this module knows by name (the MCP server recognises them from a client's
 * {@code clientInfo}); any other valid id works the same way, so a new runtime needs no new release.
 *
 * @param id 1 to 32 lowercase letters, digits or {@code -}, starting with a letter
 */
public record AgentRuntime(String id) {
  /** Claude Code. */
  public static final AgentRuntime CLAUDE_CODE = new AgentRuntime("claudecode");
  /** OpenAI Codex. */
  public static final AgentRuntime CODEX = new AgentRuntime("codex");
  /** OpenCode. */
  public static final AgentRuntime OPENCODE = new AgentRuntime("opencode");
  /** Pi. */
  public static final AgentRuntime PI = new AgentRuntime("pi");
  /** OpenClaw. */
  public static final AgentRuntime OPENCLAW = new AgentRuntime("openclaw");
  /** Hermes. */
  public static final AgentRuntime HERMES = new AgentRuntime("hermes");
  /** Z Code. */
  public static final AgentRuntime ZCODE = new AgentRuntime("zcode");
  /** dsh. */
  public static final AgentRuntime DSH = new AgentRuntime("dsh");
  /** A generic MCP client: the runtime assumed when none is known. */
  public static final AgentRuntime MCP = new AgentRuntime("mcp");

  /** The runtimes known by name, in a stable order. */
  public static final List<AgentRuntime> KNOWN =
      List.of(CLAUDE_CODE, CODEX, OPENCODE, PI, OPENCLAW, HERMES, ZCODE, DSH, MCP);

  /**
   * Checks the id.
   *
   * @param id 1 to 32 lowercase letters, digits or {@code -}, starting with a letter
   * @throws NullPointerException when {@code id} is null
   * @throws dev.engram.InvalidInputException when {@code id} is not a valid runtime id
   */
  public AgentRuntime {
    BootBlock.bootPath(Objects.requireNonNull(id, "id"));
  }

  /**
   * The runtime with this id.
   *
   * @param id the runtime id
   * @return the runtime
   * @throws dev.engram.InvalidInputException when {@code id} is not a valid runtime id
   */
  public static AgentRuntime of(String id) {
    return new AgentRuntime(id);
  }

  /**
   * The known runtime a display name names: the name lowercased with its punctuation and spaces
   * removed ({@code "Claude Code"} and {@code claude-code} are {@code claudecode}), or its first word
   * ({@code codex-mcp-client} is {@code codex}), when that is a known runtime's id.
   *
   * @param name a runtime's display name, such as an MCP client's {@code clientInfo.name}
   * @return the runtime, or null when the name names no known runtime
   */
  public static @Nullable AgentRuntime known(@Nullable String name) {
    if (name == null) {
      return null;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    String joined = lower.replaceAll("[^a-z0-9]", "");
    String first = lower.split("[^a-z0-9]+", -1)[0];
    for (AgentRuntime r : KNOWN) {
      if (r.id.equals(joined) || r.id.equals(first)) {
        return r;
      }
    }
    return null;
  }

  /**
   * @return this runtime's boot node, {@code core://agent/<id>}
   */
  public String bootPath() {
    return BootBlock.bootPath(id);
  }
}
