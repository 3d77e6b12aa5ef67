package dev.engram.spi;

import java.util.List;

/**
 * Files content on write ({@link #tag}) and, optionally, tidies a topic ({@link #curate}). Its answers
 * are untrusted candidates: the engine validates them, and a bad answer fails the call without
 * changing memory.
 */
public interface Reasoner {

  TagProposal tag(TagRequest request);

  /** Whether {@link #curate} does anything; when false, {@code Engram.curate} is a no-op. */
  default boolean curates() {
    return false;
  }

  /** Proposes operations for one slice. The default proposes none. */
  default List<CurateOp> curate(CurateRequest request) {
    return List.of();
  }
}
