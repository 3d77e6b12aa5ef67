/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Locale;
import java.util.Objects;

/**
 * The agent runtimes that have their own boot node {@code core://agent/<id>}. {@link #MCP} is the
 * generic one: any MCP client without a runtime of its own.
 */
public enum ClientType {
  CLAUDECODE,
  CODEX,
  OPENCODE,
  PI,
  OPENCLAW,
  HERMES,
  ZCODE,
  DSH,
  /** A generic MCP client. */
  MCP;

  /** @return the lowercase id used in paths, e.g. {@code codex} */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** @return this runtime's boot node, {@code core://agent/<id>} */
  public String bootPath() {
    return "core://agent/" + id();
  }

  /**
   * The client type with this id.
   *
   * @param id a lowercase id such as {@code claudecode}
   * @return the client type
   * @throws InvalidInputException when no client type has that id
   */
  public static ClientType of(String id) {
    Objects.requireNonNull(id, "clientType");
    for (ClientType t : values()) {
      if (t.id().equals(id)) {
        return t;
      }
    }
    throw new InvalidInputException("clientType", "'" + id + "' is not a client type; use one of "
        + java.util.Arrays.stream(values()).map(ClientType::id).toList());
  }
}
