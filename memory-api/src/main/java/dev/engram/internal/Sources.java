/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.CapabilityNotSupportedException;
import dev.engram.CapturedSource;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.Namespaces;
import dev.engram.NotFoundException;
import dev.engram.SourceQuery;
import dev.engram.SourceConflictException;
import dev.engram.SourceRecord;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SourceFilter;
import dev.engram.spi.StoreCapability;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Capture, reading and erasure of source records. Capture is append-only and idempotent by the
 * caller's id within a scope: capturing the same record again returns the stored one and stores
 * nothing, and a different record under a taken id (or named twice in one batch) is a
 * {@link SourceConflictException} that stores nothing of the call. It changes no entry, so it makes no
 * revision: sources have their own order, the per-scope position.
 */
final class Sources {
  /** The most records one {@code captureAll} takes. */
  static final int MAX_BATCH = 10_000;
  private static final Pattern SOURCE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}");
  private static final Pattern METADATA_KEY = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]{0,63}");
  private static final int MAX_METADATA_VALUE_CHARS = 512;

  private final MemoryStore store;
  private final EngineConfig config;
  private final GrantPolicy policy;
  private final Commits commits;

  Sources(MemoryStore store, EngineConfig config, GrantPolicy policy, Commits commits) {
    this.store = store;
    this.config = config;
    this.policy = policy;
    this.commits = commits;
  }

  void requireCapability() {
    if (!store.capabilities().contains(StoreCapability.SOURCES)) {
      throw new CapabilityNotSupportedException(
          store.getClass().getSimpleName() + " does not declare SOURCES; capture, flush and evidence need it");
    }
  }

  /** A record validated and placed in its scope, not yet positioned. */
  private record Checked(String scope, @Nullable String id, String sessionId, String speaker, String text,
      @Nullable Instant occurredAt, Map<String, String> metadata) {}

  List<CapturedSource> captureAll(Grants grants, List<SourceRecord> records) {
    requireCapability();
    if (records.isEmpty()) {
      return List.of();
    }
    if (records.size() > MAX_BATCH) {
      throw new InvalidInputException("records", records.size() + " records; the limit is " + MAX_BATCH);
    }
    List<Checked> checked = new ArrayList<>(records.size());
    Map<String, List<Integer>> byScope = new LinkedHashMap<>();
    for (int i = 0; i < records.size(); i++) {
      SourceRecord r = records.get(i);
      if (r == null) {
        throw new InvalidInputException("records[" + i + "]", "record is null");
      }
      Checked c = check(grants, r, records.size() == 1 ? "" : "records[" + i + "].");
      checked.add(c);
      byScope.computeIfAbsent(c.scope, k -> new ArrayList<>()).add(i);
    }
    if (byScope.size() > 1) {
      // A batch over several scopes commits scope by scope: its conflicts are all found before any commit.
      for (Map.Entry<String, List<Integer>> e : byScope.entrySet()) {
        Map<String, Checked> batch = new HashMap<>();
        for (int i : e.getValue()) {
          Checked r = checked.get(i);
          if (r.id != null) {
            Checked earlier = batch.putIfAbsent(r.id, r);
            if (earlier != null) {
              requireSame(e.getKey(), r.id, earlier.sessionId, earlier.speaker, earlier.text, earlier.occurredAt,
                  earlier.metadata, r);
            } else {
              store.source(e.getKey(), r.id).ifPresent(stored -> requireSame(stored, r));
            }
          }
        }
      }
    }
    CapturedSource[] out = new CapturedSource[records.size()];
    for (Map.Entry<String, List<Integer>> e : byScope.entrySet()) {
      String scope = e.getKey();
      commits.run(scope, c -> {
        long position = c.reader().sourceState(scope).lastPosition();
        Map<String, CapturedSource> batch = new HashMap<>();
        for (int i : e.getValue()) {
          Checked r = checked.get(i);
          CapturedSource existing = r.id == null ? null : batch.get(r.id);
          if (existing == null && r.id != null) {
            existing = c.reader().source(scope, r.id).orElse(null);
          }
          if (existing != null) {
            // a conflict throws, and the scope's transaction rolls back whatever it captured before
            requireSame(existing, r);
            out[i] = existing;
            continue;
          }
          String id = r.id != null ? r.id : Ids.next();
          CapturedSource s = new CapturedSource(id, scope, ++position, r.sessionId, r.speaker, r.text,
              r.occurredAt != null ? r.occurredAt : c.now(), r.metadata, c.now());
          c.capture(s);
          batch.put(id, s);
          out[i] = s;
        }
        return null;
      });
    }
    return List.of(out);
  }

  /** Fails with a {@link SourceConflictException} unless {@code r} is the record {@code stored} holds. */
  private static void requireSame(CapturedSource stored, Checked r) {
    requireSame(stored.scope(), stored.id(), stored.sessionId(), stored.speaker(), stored.text(), stored.occurredAt(),
        stored.metadata(), r);
  }

  /**
   * Fails unless {@code r} says what the record with these fields says: the same session, speaker, text
   * and metadata, and the same event time when {@code r} gives one (a record without one takes the
   * capture time, so leaving it out never conflicts).
   */
  private static void requireSame(String scope, String id, String sessionId, String speaker, String text,
      @Nullable Instant occurredAt, Map<String, String> metadata, Checked r) {
    List<String> differ = new ArrayList<>();
    if (!sessionId.equals(r.sessionId)) {
      differ.add("sessionId");
    }
    if (!speaker.equals(r.speaker)) {
      differ.add("speaker");
    }
    if (!text.equals(r.text)) {
      differ.add("text");
    }
    if (r.occurredAt != null && !r.occurredAt.equals(occurredAt)) {
      differ.add("occurredAt");
    }
    if (!new TreeMap<>(metadata).equals(new TreeMap<>(r.metadata))) {
      differ.add("metadata");
    }
    if (!differ.isEmpty()) {
      throw new SourceConflictException(scope, id, differ);
    }
  }

  private Checked check(Grants grants, SourceRecord r, String prefix) {
    String scope = r.scope() == null ? grants.namespaces().get(0) : Namespaces.validate(prefix + "scope", r.scope());
    policy.requireWritable(grants, config.writePolicy(), scope);
    String id = r.id() == null ? null : sourceId(prefix + "id", r.id());
    String session = sourceId(prefix + "sessionId", r.sessionId());
    String speaker = Text.shortText(prefix + "speaker", r.speaker(), CapturedSource.MAX_ID_CHARS);
    String text = Text.content(prefix + "text", r.text(), CapturedSource.MAX_TEXT_BYTES);
    return new Checked(scope, id, session, speaker, text, r.occurredAt(), metadata(prefix, r.metadata()));
  }

  /** Metadata checked and normalized: at most {@link CapturedSource#MAX_METADATA} well-formed keys, short values. */
  private static Map<String, String> metadata(String prefix, Map<String, String> raw) {
    if (raw.size() > CapturedSource.MAX_METADATA) {
      throw new InvalidInputException(prefix + "metadata",
          raw.size() + " keys; the limit is " + CapturedSource.MAX_METADATA);
    }
    Map<String, String> metadata = new LinkedHashMap<>();
    for (Map.Entry<String, String> m : raw.entrySet()) {
      if (!METADATA_KEY.matcher(m.getKey()).matches()) {
        throw new InvalidInputException(prefix + "metadata",
            "key '" + Text.printableForMessage(m.getKey()) + "' is not 1-64 of [A-Za-z0-9_.-] starting with a letter");
      }
      metadata.put(m.getKey(), Text.shortText(prefix + "metadata." + m.getKey(), m.getValue(), MAX_METADATA_VALUE_CHARS));
    }
    return metadata;
  }

  /**
   * Fails unless {@code s} is exactly what a capture stores (an imported record is untrusted): well-formed
   * ids, speaker, text and metadata within their limits and already in normalized form.
   */
  static CapturedSource checkStored(CapturedSource s) {
    String what = "source " + Text.printableForMessage(s.id());
    sourceId("id", s.id());
    sourceId("sessionId", s.sessionId());
    if (!Text.shortText("speaker", s.speaker(), CapturedSource.MAX_ID_CHARS).equals(s.speaker())) {
      throw new InvalidInputException("speaker", what + " speaker is not in the normalized form capture stores");
    }
    if (!Text.content("text", s.text(), CapturedSource.MAX_TEXT_BYTES).equals(s.text())) {
      throw new InvalidInputException("text", what + " text is not in the normalized form capture stores");
    }
    if (!metadata("", s.metadata()).equals(s.metadata())) {
      throw new InvalidInputException("metadata", what + " metadata is not in the normalized form capture stores");
    }
    return s;
  }

  /** A source or session id: 1-128 of letters, digits, {@code _ - . :}, starting with a letter or digit. */
  static String sourceId(String field, @Nullable String raw) {
    if (raw == null) {
      throw new NullPointerException(field);
    }
    if (!SOURCE_ID.matcher(raw).matches()) {
      throw new InvalidInputException(field,
          "'" + Text.printableForMessage(raw) + "' is not a well-formed id (1-128 of [A-Za-z0-9_.:-])");
    }
    return raw;
  }

  List<CapturedSource> sources(Grants grants, SourceQuery query) {
    requireCapability();
    List<String> scopes;
    if (query.scope() != null) {
      String scope = Namespaces.validate("scope", query.scope());
      policy.requireVisible(grants, scope, "scope " + scope);
      scopes = List.of(scope);
    } else {
      scopes = List.copyOf(new TreeSet<>(grants.visibleScopes()));
    }
    String session = query.sessionId() == null ? null : sourceId("sessionId", query.sessionId());
    List<CapturedSource> out = new ArrayList<>();
    for (String scope : scopes) {
      int room = query.limit() - out.size();
      if (room <= 0) {
        break;
      }
      out.addAll(store.sources(scope, new SourceFilter(0, session, query.from(), query.to(), room)));
    }
    return out;
  }

  void delete(Grants grants, String scope, String sourceId) {
    requireCapability();
    Namespaces.validate("scope", scope);
    sourceId("sourceId", sourceId);
    policy.requireVisible(grants, scope, "source " + sourceId);
    policy.requireWritable(grants, config.writePolicy(), scope);
    boolean erased = commits.run(scope, c -> c.eraseSource(sourceId));
    if (!erased) {
      throw new NotFoundException("source " + sourceId + " not found in " + scope);
    }
  }

  /** The captured records of the entry's scope that its current version cites, in citation order. */
  List<CapturedSource> evidence(MemoryEntry entry) {
    requireCapability();
    List<CapturedSource> out = new ArrayList<>();
    for (String ref : entry.evidence()) {
      store.source(entry.scope(), ref).ifPresent(out::add);
    }
    return out;
  }
}
