package dev.engram.internal;

import dev.engram.ProtectedNamespace;
import dev.engram.WritePolicy;
import java.time.Clock;
import java.util.List;

/** Frozen engine settings, made by {@link dev.engram.EngramBuilder}. */
public record EngineConfig(
    Clock clock,
    int maxContentBytes,
    int corePriorityCap,
    int keyPriorityCap,
    WritePolicy writePolicy,
    List<ProtectedNamespace> protectedNamespaces) {
  public EngineConfig {
    protectedNamespaces = List.copyOf(protectedNamespaces);
  }
}
