/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.CapturedSource;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import dev.engram.spi.SourceState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/** What an export holds for one scope, as {@link ExportReader} read it and before {@link ImportValidator} checks it. */
final class ImportedScope {
  final String scope;
  long revision;
  final TreeMap<Long, Revision> revisions = new TreeMap<>();
  final Map<String, MemoryEntry> versions = new LinkedHashMap<>();
  final List<MemoryEvent> events = new ArrayList<>();
  final List<Topic> topics = new ArrayList<>();
  @Nullable SourceState sourceState;
  final TreeMap<Long, CapturedSource> sources = new TreeMap<>();
  final Set<String> sourceIds = new HashSet<>();
  final Map<String, List<String>> keys = new LinkedHashMap<>();
  final ReviewTransfer.Part review = new ReviewTransfer.Part();

  ImportedScope(String scope) {
    this.scope = scope;
  }

  /** A topic record: the topic's blurb and its write and curation stamps. */
  record Topic(String topic, @Nullable String blurb, long lastWrite, long lastCurated, Instant lastUpdatedAt) {}
}
