package dev.engram.spi;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Files content on write ({@link #tag}) and, optionally, tidies a topic ({@link #curate}). Its answers
 * are untrusted candidates: the engine validates them, and a bad answer fails the call without
 * changing memory.
 */
public interface Reasoner {

  TagProposal tag(TagRequest request);

  /**
   * Whether {@link #tag} looks at {@link TagRequest#visibleTopics()} and {@link TagRequest#candidates()}.
   * When false the engine skips the reads that gather them and passes empty lists, which saves two
   * queries per write. The default is true.
   */
  default boolean usesContext() {
    return true;
  }

  /** Whether {@link #curate} does anything; when false, {@code Engram.curate} is a no-op. */
  default boolean curates() {
    return false;
  }

  /** Proposes operations for one slice. The default proposes none. */
  default List<CurateOp> curate(CurateRequest request) {
    return List.of();
  }

  /** Whether {@link #extract} does anything; when false, {@code Engram.flush} refuses to run. */
  default boolean extracts() {
    return false;
  }

  /**
   * Turns one window of captured sources into candidate memories, each citing the ids of the window's
   * records it rests on. The answer is untrusted (see {@link ExtractedMemory}). The default extracts
   * nothing.
   */
  default List<ExtractedMemory> extract(ExtractRequest request) {
    return List.of();
  }

  /**
   * Writes the views (gist and questions) of a version about to be stored. Return null to let the
   * engine build rule-based views from the content, disclosure, glossary and path. The answer is
   * untrusted: invalid views are replaced by the rule-based ones.
   */
  default @Nullable EntryViews views(
      String content, @Nullable String disclosure, List<String> glossary, @Nullable String path) {
    return null;
  }
}
