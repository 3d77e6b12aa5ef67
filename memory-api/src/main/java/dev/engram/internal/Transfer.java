/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.CapabilityNotSupportedException;
import dev.engram.EntryStatus;
import dev.engram.Grants;
import dev.engram.ImportMode;
import dev.engram.ImportOptions;
import dev.engram.TransferReport;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SourceState;
import dev.engram.spi.StoreCapability;
import java.io.Reader;
import java.io.Writer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Lossless JSON Lines export and validated import. Line 1 is a header
 * {@code {"record":"engram-export","format":3}}; then per scope a {@code scope} record, its
 * {@code revision}s, {@code version}s, their retrieval {@code keys}, {@code event}s, {@code topic}s and,
 * in stores with sources, its {@code sourceState} (last position and extraction cursor) and captured
 * {@code source}s. Formats 1 (before sources) and 2 (before retrieval keys) still import.
 *
 * <p>{@link ExportWriter} writes an export, each scope at one revision even while writes continue.
 * {@link ExportReader} reads one record by record, {@link ImportValidator} checks it against the rules
 * the engine keeps before anything is written, and this class writes each scope in one commit.
 */
final class Transfer {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Transfer.class);
  /** The format this engine writes: 4 (experience and review items). */
  static final int FORMAT = 4;

  private final MemoryStore store;
  private final EngineConfig config;
  private final GrantPolicy policy;
  private final Commits commits;

  Transfer(MemoryStore store, EngineConfig config, GrantPolicy policy, Commits commits) {
    this.store = store;
    this.config = config;
    this.policy = policy;
    this.commits = commits;
  }

  TransferReport export(Grants grants, Writer out) {
    return new ExportWriter(store, config).write(grants, out);
  }

  TransferReport importFrom(Grants grants, Reader in, ImportOptions options) {
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(options, "options");
    boolean replace = options.mode() == ImportMode.REPLACE;
    if (replace && !store.capabilities().contains(StoreCapability.REPLACE_SCOPE)) {
      throw new CapabilityNotSupportedException(store.getClass().getSimpleName()
          + " does not declare REPLACE_SCOPE: it cannot replace a scope in one transaction, so it offers no restore;"
          + " import into empty scopes instead (delete the scopes first)");
    }
    ImportValidator validator = new ImportValidator(store, config, replace);
    Map<String, ImportedScope> scopes = new ExportReader(config, policy, validator).read(grants, in);
    validator.validate(scopes);
    int versions = 0;
    int events = 0;
    int revisions = 0;
    int topics = 0;
    int sources = 0;
    int experience = 0;
    int reviewItems = 0;
    int replaced = 0;
    for (ImportedScope d : scopes.values()) {
      versions += d.versions.size();
      events += d.events.size();
      revisions += d.revisions.size();
      topics += d.topics.size();
      sources += d.sources.size();
      experience += d.review.experience.size();
      reviewItems += d.review.items.size();
    }
    boolean anySources = scopes.values().stream().anyMatch(d -> d.sourceState != null);
    if (anySources && !store.capabilities().contains(dev.engram.spi.StoreCapability.SOURCES)) {
      throw new dev.engram.CapabilityNotSupportedException(store.getClass().getSimpleName()
          + " does not declare SOURCES; the export carries captured sources");
    }
    if (options.dryRun()) {
      if (replace) {
        for (String scope : scopes.keySet()) {
          replaced += store.versionsIn(List.of(scope), EnumSet.of(EntryStatus.ACTIVE)).size();
        }
      }
    } else {
      boolean storesVectors = store.capabilities().contains(StoreCapability.VECTOR_STORAGE);
      for (ImportedScope d : scopes.values()) {
        List<Commit.RestoredTopic> restoredTopics = new ArrayList<>();
        for (ImportedScope.Topic t : d.topics) {
          restoredTopics.add(new Commit.RestoredTopic(t.topic(), t.blurb(), t.lastWrite(), t.lastCurated(), t.lastUpdatedAt()));
        }
        boolean keepsKeys = store.capabilities().contains(dev.engram.spi.StoreCapability.RETRIEVAL_KEYS);
        if (!keepsKeys && !d.keys.isEmpty()) {
          LOG.warn("{} keeps no retrieval keys: the keys of {} imported versions of {} were dropped; search finds"
              + " them by their own content only", store.getClass().getSimpleName(), d.keys.size(), d.scope);
        }
        int erased = commits.run(d.scope, c -> {
          int active = replace ? c.eraseForRestore(storesVectors) : 0;
          c.restore(d.versions.values(), d.events, d.revisions.values(), restoredTopics);
          if (keepsKeys) {
            c.restoreKeys(d.keys);
          }
          if (d.sourceState != null && !d.sourceState.equals(SourceState.EMPTY)) {
            c.restoreSources(d.sources.values(), d.sourceState);
          }
          ReviewTransfer.restore(c, d.review);
          return active;
        });
        replaced += erased;
        if (replace) {
          LOG.info("Restored {} from an export: {} active entries replaced", d.scope, erased);
        }
      }
    }
    return new TransferReport(List.copyOf(scopes.keySet()), versions, events, revisions, topics, sources, experience,
        reviewItems, options.dryRun(), replaced);
  }
}
