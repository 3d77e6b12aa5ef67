/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.ProtectedNamespace;
import dev.engram.SearchSettings;
import dev.engram.WritePolicy;
import dev.engram.spi.Embedder;
import org.jspecify.annotations.Nullable;
import java.time.Clock;
import java.util.List;

/** Frozen engine settings, made by {@link dev.engram.EngramBuilder}. */
public record EngineConfig(
    Clock clock,
    int maxContentBytes,
    int corePriorityCap,
    int keyPriorityCap,
    WritePolicy writePolicy,
    List<ProtectedNamespace> protectedNamespaces,
    @Nullable Embedder embedder,
    SearchSettings search,
    dev.engram.spi.@Nullable Reranker reranker) {
  public EngineConfig {
    protectedNamespaces = List.copyOf(protectedNamespaces);
  }
}
