/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import dev.engram.Citation;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * What bad and hostile input runs against: scope {@code bad/input} with a live, a corrected (superseded)
 * and a retired entry, and one entry in {@code bad/other}, which {@code bad/input} cannot see.
 */
public final class InputFixture {
  /** The engine the fixture wrote through. */
  public final Engram engram;
  /** Grants of {@code bad/input} only. */
  public final Grants grants = Grants.of("bad/input");
  /** Grants of both {@code bad/input} and {@code bad/other}. */
  public final Grants auditor = Grants.of("bad/input", "bad/other");
  /** The write of the first entry (path {@code doc/one}, glossary {@code first}), since corrected. */
  public final WriteResult first;
  /** The first entry's corrected version 2, the live one. */
  public final MemoryEntry firstV2;
  /** The write of the second entry, live. */
  public final WriteResult second;
  /** The retired version of the third entry. */
  public final MemoryEntry retired;
  /** The write of the entry in {@code bad/other}, which {@link #grants} cannot see. */
  public final WriteResult foreign;
  /** The id of the first entry's creation event. */
  public final String createEventId;

  /**
   * Writes the fixture's entries through {@code engram}.
   *
   * @param engram an engine over a fresh store
   */
  public InputFixture(Engram engram) {
    this.engram = engram;
    first = engram.write(grants, "the first fact",
        WriteOptions.builder().topicsHint("facts").path("doc/one").glossary("first").build());
    firstV2 = engram.correct(grants, first.entry().entryId(), "the first fact, corrected");
    second = ContractSupport.write(engram, grants, "the second fact", "facts");
    WriteResult toRetire = ContractSupport.write(engram, grants, "a fact that was retired", "facts");
    retired = engram.retire(grants, toRetire.citation(), "obsolete");
    foreign = ContractSupport.write(engram, Grants.of("bad/other"), "a fact in a scope bad/input cannot see", "facts");
    createEventId = engram.history(grants, first.entry().entryId()).get(0).eventId();
  }

  /**
   * The first entry's id.
   *
   * @return its entry id
   */
  public String firstId() {
    return first.entry().entryId();
  }

  /**
   * Writes {@code content} into the fixture's scope.
   *
   * @param content the content
   * @param options the write options
   * @return the stored version
   */
  public MemoryEntry write(String content, UnaryOperator<WriteOptions.Builder> options) {
    return engram.write(grants, content, options.apply(WriteOptions.builder()).build()).entry();
  }

  /**
   * {@code c} with some parts replaced (null keeps a part).
   *
   * @param c a citation
   * @param scope another scope, or null
   * @param entryId another entry id, or null
   * @param versionId another version id, or null
   * @param rev the revision
   * @return the citation
   */
  public Citation with(Citation c, @Nullable String scope, @Nullable String entryId, @Nullable String versionId, long rev) {
    return new Citation(
        scope != null ? scope : c.scope(),
        entryId != null ? entryId : c.entryId(),
        versionId != null ? versionId : c.versionId(),
        rev);
  }
}
