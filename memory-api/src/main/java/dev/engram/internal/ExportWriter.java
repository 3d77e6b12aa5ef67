/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.CapturedSource;
import dev.engram.EntryStatus;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import dev.engram.TransferReport;
import dev.engram.json.JsonForms;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SourceFilter;
import dev.engram.spi.SourceState;
import dev.engram.spi.StoreReader;
import dev.engram.spi.TopicState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Writes an export ({@link Transfer} describes the format): the header, then each visible scope read
 * inside one store transaction on it, so a scope is written at one revision even while writes continue.
 * Every record is a Jackson tree written by one generator, a record a line.
 */
final class ExportWriter {
  /** Source records read per page while exporting a scope. */
  private static final int SOURCE_PAGE = 1000;
  private static final int MAX_REVISIONS_PER_SCOPE = Integer.MAX_VALUE;
  private static final ObjectMapper MAPPER = JsonForms.mapper();

  private final MemoryStore store;
  private final EngineConfig config;

  ExportWriter(MemoryStore store, EngineConfig config) {
    this.config = config;
    this.store = store;
  }

  TransferReport write(Grants grants, Writer out) {
    Objects.requireNonNull(out, "out");
    int versions = 0;
    int events = 0;
    int revisions = 0;
    int topics = 0;
    int sources = 0;
    int experience = 0;
    int reviewItems = 0;
    ReviewTransfer reviews = new ReviewTransfer(store, config);
    boolean withSources = store.capabilities().contains(dev.engram.spi.StoreCapability.SOURCES);
    List<String> scopes = new ArrayList<>();
    try {
      JsonGenerator gen = MAPPER.createGenerator(out);
      gen.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      // one record a line: no separator between root values but the newline each line ends with
      gen.setRootValueSeparator(null);
      ObjectNode header = MAPPER.createObjectNode();
      header.put("record", "engram-export");
      header.put("format", Transfer.FORMAT);
      line(gen, header);
      for (String scope : new java.util.TreeSet<>(grants.visibleScopes())) {
        if (store.headRevision(scope) == 0 && !store.hasScope(scope)) {
          continue;
        }
        ReviewTransfer.Part[] part = new ReviewTransfer.Part[1];
        ScopeSnapshot snap = store.inTransaction(scope, tx -> {
          part[0] = reviews.read(tx, scope);
          return ScopeSnapshot.read(tx, scope, withSources);
        });
        if (snap.isEmpty() && part[0].isEmpty()) {
          continue;
        }
        scopes.add(scope);
        ObjectNode s = MAPPER.createObjectNode();
        s.put("record", "scope");
        s.put("scope", scope);
        s.put("revision", snap.head);
        line(gen, s);
        for (Revision r : snap.revisions) {
          line(gen, typed("revision", JsonForms.revisionNode(r)));
          revisions++;
        }
        for (MemoryEntry v : snap.versions) {
          line(gen, typed("version", JsonForms.entryNode(v)));
          versions++;
        }
        for (Map.Entry<String, List<String>> k : snap.keys.entrySet()) {
          ObjectNode n = MAPPER.createObjectNode();
          n.put("record", "keys");
          n.put("scope", scope);
          n.put("versionId", k.getKey());
          var arr = n.putArray("keys");
          k.getValue().forEach(arr::add);
          line(gen, n);
        }
        for (MemoryEvent e : snap.events) {
          line(gen, typed("event", JsonForms.eventNode(e)));
          events++;
        }
        for (TopicState t : snap.topics) {
          ObjectNode n = MAPPER.createObjectNode();
          n.put("record", "topic");
          n.put("scope", t.scope());
          n.put("topic", t.topic());
          n.put("blurb", t.blurb());
          n.put("lastWriteRevision", t.lastWriteRevision());
          n.put("lastCuratedRevision", t.lastCuratedRevision());
          n.put("lastUpdatedAt", t.lastUpdatedAt() == null ? null : t.lastUpdatedAt().toString());
          line(gen, n);
          topics++;
        }
        if (!snap.sourceState.equals(SourceState.EMPTY)) {
          ObjectNode st = MAPPER.createObjectNode();
          st.put("record", "sourceState");
          st.put("scope", scope);
          st.put("lastPosition", snap.sourceState.lastPosition());
          st.put("cursor", snap.sourceState.cursor());
          line(gen, st);
        }
        for (CapturedSource c : snap.sources) {
          line(gen, sourceJson(c));
          sources++;
        }
        gen.flush();
        ReviewTransfer.write(out, scope, part[0]);
        experience += part[0].experience.size();
        reviewItems += part[0].items.size();
      }
      gen.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("export failed while writing", e);
    }
    return new TransferReport(scopes, versions, events, revisions, topics, sources, experience, reviewItems, false);
  }

  /**
   * Everything of one scope, read inside one store transaction on it: transactions on a scope are
   * serialized, so no commit lands between the reads and the parts agree on one revision (an export
   * taken under traffic imports).
   */
  private record ScopeSnapshot(
      long head, List<Revision> revisions, List<MemoryEntry> versions, Map<String, List<String>> keys,
      List<MemoryEvent> events, List<TopicState> topics, SourceState sourceState, List<CapturedSource> sources) {

    static ScopeSnapshot read(StoreReader tx, String scope, boolean withSources) {
      long head = tx.headRevision(scope);
      List<MemoryEntry> all = new ArrayList<>(tx.versionsIn(List.of(scope), EnumSet.allOf(EntryStatus.class)));
      all.sort((a, b) -> a.versionId().compareTo(b.versionId()));
      List<TopicState> topicRows = tx.topics(List.of(scope));
      List<Revision> revisions = head == 0 ? List.of() : tx.revisions(scope, 0, MAX_REVISIONS_PER_SCOPE);
      Set<String> entryIds = new java.util.LinkedHashSet<>();
      all.forEach(v -> entryIds.add(v.entryId()));
      List<MemoryEvent> events = new ArrayList<>();
      for (String entryId : entryIds) {
        events.addAll(tx.events(entryId));
      }
      SourceState state = withSources ? tx.sourceState(scope) : SourceState.EMPTY;
      List<CapturedSource> records = new ArrayList<>();
      if (withSources && state.lastPosition() > 0) {
        long after = 0;
        while (true) {
          List<CapturedSource> page = tx.sources(scope, SourceFilter.after(after, SOURCE_PAGE));
          records.addAll(page);
          if (page.size() < SOURCE_PAGE) {
            break;
          }
          after = page.get(page.size() - 1).position();
        }
      }
      Map<String, List<String>> keys = new java.util.TreeMap<>(
          tx.keysOf(all.stream().map(MemoryEntry::versionId).toList()));
      return new ScopeSnapshot(head, revisions, all, keys, events, topicRows, state, records);
    }

    boolean isEmpty() {
      return head == 0 && versions.isEmpty() && topics.isEmpty() && sourceState.equals(SourceState.EMPTY);
    }
  }

  private static ObjectNode sourceJson(CapturedSource c) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("record", "source");
    n.put("scope", c.scope());
    n.put("id", c.id());
    n.put("position", c.position());
    n.put("sessionId", c.sessionId());
    n.put("speaker", c.speaker());
    n.put("text", c.text());
    n.put("occurredAt", c.occurredAt().toString());
    ObjectNode m = n.putObject("metadata");
    c.metadata().forEach(m::put);
    n.put("capturedAt", c.capturedAt().toString());
    return n;
  }

  /** {@code {"record":type, …fields of body}}: a record line holding one of the JSON forms. */
  private static ObjectNode typed(String type, ObjectNode body) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("record", type);
    n.setAll(body);
    return n;
  }

  private static void line(JsonGenerator gen, ObjectNode node) throws IOException {
    gen.writeTree(node);
    gen.writeRaw('\n');
  }
}
