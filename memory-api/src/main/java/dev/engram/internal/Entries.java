/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.EntryStateException;
import dev.engram.EntryStatus;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.NotFoundException;
import dev.engram.spi.StoreReader;
import org.jspecify.annotations.Nullable;

/** Lookups of an entry's current version, shared by the engine's parts. */
final class Entries {
  /** The actor recorded on versions and events curation makes. */
  static final String CURATOR = "curator";

  private Entries() {}

  /** The newest version of the entry, or null when unknown. */
  static @Nullable MemoryEntry current(StoreReader reader, String entryId) {
    return reader.currentVersion(entryId).orElse(null);
  }

  /** The newest version of the entry; {@link NotFoundException} when unknown. */
  static MemoryEntry requireCurrent(StoreReader reader, String entryId) {
    MemoryEntry c = current(reader, entryId);
    if (c == null) {
      throw new NotFoundException("entry " + entryId + " not found");
    }
    return c;
  }

  /** The newest version of an entry the grants can see; {@link NotFoundException} otherwise. */
  static MemoryEntry visibleCurrent(StoreReader reader, Grants grants, String entryId) {
    MemoryEntry c = current(reader, entryId);
    if (c == null || !grants.canSee(c.scope())) {
      throw new NotFoundException("entry " + entryId + " not found or not visible to " + grants);
    }
    return c;
  }

  /** Fails with {@link EntryStateException} unless the version is active. */
  static void requireActive(MemoryEntry c, String operation) {
    if (!c.isActive()) {
      throw new EntryStateException(
          "entry " + c.entryId() + " is " + c.status() + "; only ACTIVE entries can " + operation
              + (c.status() == EntryStatus.RETIRED ? " (reactivate it first)" : ""));
    }
  }
}
