/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.EventKind;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class EntryJsonTest {
  private final MemoryEntry entry = new MemoryEntry("e1", "v2", 2, "v1", "app/u", "Quote \" and 'SQL'; -- 😀",
      List.of("goals", "core"), EntryType.DECISION, 1, "When planning", List.of("plan"), "project://x/y", "agent:a",
      List.of("chat:1"), "abc", EntryStatus.SUPERSEDED, "v3", Instant.parse("2025-12-31T23:00:00Z"),
      Instant.parse("2026-01-02T03:04:05.123456789Z"),
      Instant.parse("2026-01-03T00:00:00Z"), 7);

  @Test
  void entriesAndEventsRoundTrip() {
    assertThat(EntryJson.readEntry(EntryJson.writeEntry(entry))).isEqualTo(entry);
    MemoryEvent event = new MemoryEvent("ev", "app/u", "e1", EventKind.UPDATE, entry, entry, null, "why", 7,
        Instant.parse("2026-01-03T00:00:00Z"), null);
    assertThat(EntryJson.readEvent(EntryJson.writeEvent(event))).isEqualTo(event);
    List<Change> changes = List.of(new Change(ChangeKind.DELETE, "e1", null), new Change(ChangeKind.APPEND, "e2", "v9"));
    assertThat(EntryJson.readChanges(EntryJson.writeChanges(changes))).isEqualTo(changes);
  }

  @Test
  void malformedDocumentsAreTypedErrors() {
    assertThatThrownBy(() -> EntryJson.readEntry("{")).isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(() -> EntryJson.readEntry("{\"entryId\":1}")).isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("entryId");
    assertThatThrownBy(() -> EntryJson.readStrings("[1,2]")).isInstanceOf(InvalidInputException.class);
  }
}
