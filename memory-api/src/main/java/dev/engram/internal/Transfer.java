/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.CapturedSource;
import dev.engram.Change;
import dev.engram.EntryStatus;
import dev.engram.Grants;
import dev.engram.ImportOptions;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Namespaces;
import dev.engram.Revision;
import dev.engram.TransferReport;
import dev.engram.spi.EntryJson;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SourceFilter;
import dev.engram.spi.SourceState;
import dev.engram.spi.StoreReader;
import dev.engram.spi.TopicState;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Lossless JSON Lines export and validated import. Line 1 is a header
 * {@code {"record":"engram-export","format":2}}; then per scope a {@code scope} record, its
 * {@code revision}s, {@code version}s, {@code event}s, {@code topic}s and, in stores with sources, its
 * {@code sourceState} (last position and extraction cursor) and captured {@code source}s. Format 1
 * (before sources) still imports: it has no source records.
 *
 * <p>Export reads each scope inside one store transaction on it, so a scope is written at one revision
 * even while writes continue. Import reads lines up to {@value #MAX_LINE_CHARS} characters, checks every
 * record and then the whole file against the rules the engine keeps ({@link #validate}) before it writes
 * anything, and writes each scope in one transaction.
 */
final class Transfer {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Transfer.class);
  static final int FORMAT = 4;
  /** Formats this engine reads: 1 (no sources), 2, 3 (retrieval keys) and 4 (experience and review items). */
  private static final Set<Integer> READABLE = Set.of(1, 2, 3, 4);
  /** Source records read per page while exporting a scope. */
  private static final int SOURCE_PAGE = 1000;
  private static final int MAX_LINE_CHARS = 4 * 1024 * 1024;
  private static final int MAX_REVISIONS_PER_SCOPE = Integer.MAX_VALUE;
  private static final ObjectMapper MAPPER = new ObjectMapper();

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

  // ---- export

  TransferReport export(Grants grants, Writer out) {
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
      ObjectNode header = MAPPER.createObjectNode();
      header.put("record", "engram-export");
      header.put("format", FORMAT);
      line(out, header);
      for (String scope : new java.util.TreeSet<>(grants.visibleScopes())) {
        if (store.headRevision(scope) == 0 && store.scopes(scope, false).isEmpty()) {
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
        line(out, s);
        for (Revision r : snap.revisions) {
          line(out, typed("revision", EntryJson.writeRevision(r)));
          revisions++;
        }
        for (MemoryEntry v : snap.versions) {
          line(out, typed("version", EntryJson.writeEntry(v)));
          versions++;
        }
        for (Map.Entry<String, List<String>> k : snap.keys.entrySet()) {
          ObjectNode n = MAPPER.createObjectNode();
          n.put("record", "keys");
          n.put("scope", scope);
          n.put("versionId", k.getKey());
          var arr = n.putArray("keys");
          k.getValue().forEach(arr::add);
          line(out, n);
        }
        for (MemoryEvent e : snap.events) {
          line(out, typed("event", EntryJson.writeEvent(e)));
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
          line(out, n);
          topics++;
        }
        if (!snap.sourceState.equals(SourceState.EMPTY)) {
          ObjectNode st = MAPPER.createObjectNode();
          st.put("record", "sourceState");
          st.put("scope", scope);
          st.put("lastPosition", snap.sourceState.lastPosition());
          st.put("cursor", snap.sourceState.cursor());
          line(out, st);
        }
        for (CapturedSource c : snap.sources) {
          line(out, sourceJson(c));
          sources++;
        }
        ReviewTransfer.write(out, scope, part[0]);
        experience += part[0].experience.size();
        reviewItems += part[0].items.size();
      }
      out.flush();
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

  /** {@code {"record":type, …body's fields}}: body is one of EntryJson's (non-empty) JSON objects. */
  private static String typed(String type, String body) {
    return "{\"record\":\"" + type + "\"," + body.substring(1);
  }

  private static void line(Writer out, JsonNode node) throws IOException {
    line(out, node.toString());
  }

  private static void line(Writer out, String json) throws IOException {
    out.write(json);
    out.write('\n');
  }

  // ---- import

  private static final class ScopeData {
    final String scope;
    long revision;
    final TreeMap<Long, Revision> revisions = new TreeMap<>();
    final Map<String, MemoryEntry> versions = new LinkedHashMap<>();
    final List<MemoryEvent> events = new ArrayList<>();
    final List<TopicRecord> topics = new ArrayList<>();
    @Nullable SourceState sourceState;
    final TreeMap<Long, CapturedSource> sources = new TreeMap<>();
    final Set<String> sourceIds = new HashSet<>();
    final Map<String, List<String>> keys = new LinkedHashMap<>();
    final ReviewTransfer.Part review = new ReviewTransfer.Part();

    ScopeData(String scope) {
      this.scope = scope;
    }
  }

  private record TopicRecord(String topic, String blurb, long lastWrite, long lastCurated, Instant lastUpdatedAt) {}

  TransferReport importFrom(Grants grants, Reader in, ImportOptions options) {
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(options, "options");
    Map<String, ScopeData> scopes = parse(grants, in);
    validate(scopes);
    int versions = 0;
    int events = 0;
    int revisions = 0;
    int topics = 0;
    int sources = 0;
    int experience = 0;
    int reviewItems = 0;
    for (ScopeData d : scopes.values()) {
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
    if (!options.dryRun()) {
      for (ScopeData d : scopes.values()) {
        List<Commit.RestoredTopic> restoredTopics = new ArrayList<>();
        for (TopicRecord t : d.topics) {
          restoredTopics.add(new Commit.RestoredTopic(t.topic, t.blurb, t.lastWrite, t.lastCurated, t.lastUpdatedAt));
        }
        boolean keepsKeys = store.capabilities().contains(dev.engram.spi.StoreCapability.RETRIEVAL_KEYS);
        if (!keepsKeys && !d.keys.isEmpty()) {
          LOG.warn("{} keeps no retrieval keys: the keys of {} imported versions of {} were dropped; search finds"
              + " them by their own content only", store.getClass().getSimpleName(), d.keys.size(), d.scope);
        }
        commits.run(d.scope, c -> {
          c.restore(d.versions.values(), d.events, d.revisions.values(), restoredTopics);
          if (keepsKeys) {
            c.restoreKeys(d.keys);
          }
          if (d.sourceState != null && !d.sourceState.equals(SourceState.EMPTY)) {
            c.restoreSources(d.sources.values(), d.sourceState);
          }
          ReviewTransfer.restore(c, d.review);
          return null;
        });
      }
    }
    return new TransferReport(List.copyOf(scopes.keySet()), versions, events, revisions, topics, sources, experience,
        reviewItems, options.dryRun());
  }

  private Map<String, ScopeData> parse(Grants grants, Reader in) {
    Map<String, ScopeData> scopes = new LinkedHashMap<>();
    LineReader reader = new LineReader(in, MAX_LINE_CHARS);
    int lineNo = 0;
    int format = 0;
    try {
      String line;
      while ((line = reader.next(lineNo + 1)) != null) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        String where = "line " + lineNo;
        JsonNode n;
        try {
          n = MAPPER.readTree(line);
        } catch (JsonProcessingException e) {
          throw new InvalidInputException(where, "not valid JSON: " + e.getOriginalMessage());
        }
        String type = n.path("record").asText("");
        if (lineNo == 1) {
          if (!type.equals("engram-export") || !n.path("format").isInt() || !READABLE.contains(n.path("format").asInt())) {
            throw new InvalidInputException(where, "not an Engram export header (expected record engram-export, format 1 to "
                + FORMAT + ")");
          }
          format = n.path("format").asInt();
          continue;
        }
        if (format < 2 && (type.equals("source") || type.equals("sourceState"))
            || format < 3 && type.equals("keys") || format < 4 && ReviewTransfer.handles(type)) {
          throw new InvalidInputException(where, "a " + type + " record in a format " + format + " export");
        }
        try {
          record(grants, scopes, type, n);
        } catch (InvalidInputException e) {
          throw new InvalidInputException(where, e.getMessage());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("import failed while reading", e);
    }
    if (lineNo == 0) {
      throw new InvalidInputException("in", "the export is empty");
    }
    return scopes;
  }

  /**
   * Reads lines ({@code \n}, {@code \r\n} or {@code \r} terminated) and refuses a line as soon as it
   * grows past the limit, without reading the rest of it.
   */
  static final class LineReader {
    private final Reader in;
    private final int maxChars;
    private final char[] buf = new char[8192];
    private int pos;
    private int end;
    private boolean skipLf;

    LineReader(Reader in, int maxChars) {
      this.in = in;
      this.maxChars = maxChars;
    }

    /** The next line without its terminator, or null at the end of the stream. */
    @Nullable String next(int lineNo) throws IOException {
      StringBuilder sb = null;
      while (true) {
        if (pos == end) {
          end = in.read(buf, 0, buf.length);
          pos = 0;
          if (end <= 0) {
            end = 0;
            return sb == null ? null : sb.toString();
          }
        }
        if (skipLf) {
          skipLf = false;
          if (buf[pos] == '\n') {
            pos++;
            continue;
          }
        }
        int start = pos;
        while (pos < end && buf[pos] != '\n' && buf[pos] != '\r') {
          pos++;
        }
        if (sb == null) {
          sb = new StringBuilder(Math.min(maxChars, 256));
        }
        if ((long) sb.length() + (pos - start) > maxChars) {
          throw new InvalidInputException("line " + lineNo, "is longer than the limit of " + maxChars
              + " characters; reading stopped there");
        }
        sb.append(buf, start, pos - start);
        if (pos < end) {
          skipLf = buf[pos] == '\r';
          pos++;
          return sb.toString();
        }
      }
    }
  }

  private void record(Grants grants, Map<String, ScopeData> scopes, String type, JsonNode n) {
    String scope = n.path("scope").asText(null);
    if (scope == null) {
      throw new InvalidInputException("scope", "record has no scope");
    }
    Namespaces.validate("scope", scope);
    if (type.equals("scope")) {
      policy.requireWritable(grants, config.writePolicy(), scope);
      if (scopes.containsKey(scope)) {
        throw new InvalidInputException("scope", "scope '" + scope + "' appears twice");
      }
      ScopeData d = new ScopeData(scope);
      d.revision = n.path("revision").asLong(-1);
      if (d.revision < 0) {
        throw new InvalidInputException("revision", "scope record needs a revision >= 0");
      }
      scopes.put(scope, d);
      return;
    }
    ScopeData d = scopes.get(scope);
    if (d == null) {
      throw new InvalidInputException("scope", "record for scope '" + scope + "' before its scope record");
    }
    switch (type) {
      case "revision" -> {
        Revision r = EntryJson.readRevision(n.toString());
        if (d.revisions.put(r.revision(), r) != null) {
          throw new InvalidInputException("revision", "revision " + r.revision() + " of " + scope + " appears twice");
        }
      }
      case "version" -> {
        MemoryEntry v = checkVersion(EntryJson.readEntry(n.toString()));
        if (d.versions.put(v.versionId(), v) != null) {
          throw new InvalidInputException("versionId", "version " + v.versionId() + " appears twice");
        }
      }
      case "event" -> {
        MemoryEvent e = EntryJson.readEvent(n.toString());
        Text.id("eventId", e.eventId());
        Text.id("entryId", e.entryId());
        normalized("actor", e.actor(), Text.optionalShort("actor", e.actor(), Text.MAX_SOURCE_CHARS));
        normalized("reason", e.reason(), Text.optionalShort("reason", e.reason(), Text.MAX_REASON_CHARS));
        if (e.before() != null) {
          checkVersion(e.before());
        }
        if (e.after() != null) {
          checkVersion(e.after());
        }
        d.events.add(e);
      }
      case "topic" -> {
        String topic = Text.topic("topic", n.path("topic").asText(null));
        JsonNode blurb = n.get("blurb");
        String at = n.path("lastUpdatedAt").asText(null);
        Instant lastUpdatedAt;
        try {
          lastUpdatedAt = at == null ? Instant.EPOCH : Instant.parse(at);
        } catch (java.time.format.DateTimeParseException ex) {
          throw new InvalidInputException("lastUpdatedAt", "not an ISO-8601 instant: " + at);
        }
        if (d.topics.stream().anyMatch(t -> t.topic().equals(topic))) {
          throw new InvalidInputException("topic", "topic '" + topic + "' of " + scope + " appears twice");
        }
        d.topics.add(new TopicRecord(topic,
            blurb == null || blurb.isNull() ? null : Text.shortText("blurb", blurb.asText(), Text.MAX_DISCLOSURE_CHARS),
            n.path("lastWriteRevision").asLong(0), n.path("lastCuratedRevision").asLong(0), lastUpdatedAt));
      }
      case "keys" -> {
        String versionId = Text.id("versionId", n.path("versionId").asText(null));
        if (!d.versions.containsKey(versionId)) {
          throw new InvalidInputException("versionId", "keys of version " + versionId + " before (or without) its version record");
        }
        JsonNode arr = n.get("keys");
        if (arr == null || !arr.isArray() || arr.isEmpty()) {
          throw new InvalidInputException("keys", "keys of version " + versionId + " must be a non-empty array");
        }
        List<String> keys = new ArrayList<>();
        for (JsonNode k : arr) {
          if (!k.isTextual()) {
            throw new InvalidInputException("keys", "keys of version " + versionId + " must be strings");
          }
          keys.add(k.asText());
        }
        List<String> valid = Views.keys(new dev.engram.spi.EntryViews("", List.of(), keys));
        if (!valid.equals(keys)) {
          throw new InvalidInputException("keys", "keys of version " + versionId + " are not in the form the engine stores"
              + " (at most " + dev.engram.spi.EntryViews.MAX_KEYS + ", each non-blank, one line, at most "
              + dev.engram.spi.EntryViews.MAX_KEY_CHARS + " characters)");
        }
        if (d.keys.put(versionId, keys) != null) {
          throw new InvalidInputException("keys", "keys of version " + versionId + " appear twice");
        }
      }
      case "sourceState" -> {
        if (d.sourceState != null) {
          throw new InvalidInputException("sourceState", "the source state of " + scope + " appears twice");
        }
        d.sourceState = new SourceState(wholeNumber(n, "lastPosition"), wholeNumber(n, "cursor"));
      }
      case "source" -> {
        if (d.sourceState == null) {
          throw new InvalidInputException("source", "source record of " + scope + " before its sourceState record");
        }
        CapturedSource c = Sources.checkStored(readSource(n, scope));
        if (c.position() > d.sourceState.lastPosition()) {
          throw new InvalidInputException("position", "source " + c.id() + " of " + scope + " is at position "
              + c.position() + ", beyond the scope's last position " + d.sourceState.lastPosition());
        }
        if (!d.sourceIds.add(c.id())) {
          throw new InvalidInputException("id", "source " + c.id() + " of " + scope + " appears twice");
        }
        if (d.sources.put(c.position(), c) != null) {
          throw new InvalidInputException("position", "two sources of " + scope + " are at position " + c.position());
        }
      }
      case "experience", "reviewItem", "incubation" -> new ReviewTransfer(store, config).record(d.review, scope, type, n);
      default -> throw new InvalidInputException("record", "unknown record type '" + type + "'");
    }
  }

  /** A whole number field (no fraction, no text, within long). */
  private static long wholeNumber(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.canConvertToExactIntegral() || !v.canConvertToLong()) {
      throw new InvalidInputException(field, "must be a whole number");
    }
    return v.asLong();
  }

  private static String requiredText(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isTextual()) {
      throw new InvalidInputException(field, "must be a string");
    }
    return v.asText();
  }

  private static Instant instant(JsonNode n, String field) {
    String raw = requiredText(n, field);
    try {
      return Instant.parse(raw);
    } catch (java.time.format.DateTimeParseException e) {
      throw new InvalidInputException(field, "not an ISO-8601 instant: " + Text.printableForMessage(raw));
    }
  }

  /** A source record's fields, typed; {@link Sources#checkStored} then checks them as capture would. */
  private static CapturedSource readSource(JsonNode n, String scope) {
    Map<String, String> metadata = new LinkedHashMap<>();
    JsonNode m = n.get("metadata");
    if (m != null && !m.isNull()) {
      if (!m.isObject()) {
        throw new InvalidInputException("metadata", "must be an object of strings");
      }
      if (m.size() > CapturedSource.MAX_METADATA) {
        throw new InvalidInputException("metadata", m.size() + " keys; the limit is " + CapturedSource.MAX_METADATA);
      }
      for (java.util.Iterator<Map.Entry<String, JsonNode>> it = m.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!e.getValue().isTextual()) {
          throw new InvalidInputException("metadata", "value of '" + Text.printableForMessage(e.getKey()) + "' is not a string");
        }
        metadata.put(e.getKey(), e.getValue().asText());
      }
    }
    return new CapturedSource(requiredText(n, "id"), scope, wholeNumber(n, "position"), requiredText(n, "sessionId"),
        requiredText(n, "speaker"), requiredText(n, "text"), instant(n, "occurredAt"), metadata, instant(n, "capturedAt"));
  }

  /** A version must be exactly what the engine would have stored. */
  private MemoryEntry checkVersion(MemoryEntry v) {
    Namespaces.validate("scope", v.scope());
    Text.id("entryId", v.entryId());
    Text.id("versionId", v.versionId());
    String content = Text.content("content", v.content(), config.maxContentBytes());
    if (!content.equals(v.content())) {
      throw new InvalidInputException("content", "version " + v.versionId() + " content is not in normalized form");
    }
    if (!Text.contentHash(content).equals(v.contentHash())) {
      throw new InvalidInputException("contentHash", "version " + v.versionId() + " hash does not match its content");
    }
    if (!Text.topics("topics", v.topics(), true).equals(v.topics())) {
      throw new InvalidInputException("topics", "version " + v.versionId() + " topics are not normalized");
    }
    Text.priority("priority", v.priority());
    normalized("disclosure", v.disclosure(), Text.optionalShort("disclosure", v.disclosure(), Text.MAX_DISCLOSURE_CHARS));
    normalized("glossary", v.glossary(), Text.glossary("glossary", v.glossary()));
    Text.path("path", v.path());
    normalized("source", v.source(), Text.optionalShort("source", v.source(), Text.MAX_SOURCE_CHARS));
    normalized("evidence", v.evidence(), Text.evidence("evidence", v.evidence()));
    if (v.status() == EntryStatus.SUPERSEDED ? v.supersededBy() == null : v.supersededBy() != null) {
      throw new InvalidInputException("supersededBy", "version " + v.versionId() + " is " + v.status()
          + (v.supersededBy() == null ? " without" : " with") + " a supersededBy");
    }
    if (v.supersededBy() != null) {
      Text.id("supersededBy", v.supersededBy());
      if (v.supersededBy().equals(v.versionId())) {
        throw new InvalidInputException("supersededBy", "version " + v.versionId() + " names itself as superseding it");
      }
    }
    return v;
  }

  /** A stored value must be in the form the engine stores (the engine's own rules, applied once more, change nothing). */
  private static void normalized(String field, @Nullable Object stored, @Nullable Object normal) {
    if (!Objects.equals(stored, normal)) {
      throw new InvalidInputException(field, "is not in the normalized form the engine stores");
    }
  }

  /**
   * Cross-record consistency: ids unique across the whole file, every version chain one the engine
   * could have made, the engine's per-scope rules (one active entry per content hash and per path,
   * priority caps), stamps within the scope's revision, change sets and snapshots naming only ids of
   * their own scope; and that nothing collides with the target store.
   */
  private void validate(Map<String, ScopeData> scopes) {
    Map<String, String> versionScope = new HashMap<>();
    Map<String, MemoryEntry> versionsById = new HashMap<>();
    Map<String, String> entryScope = new HashMap<>();
    Map<String, String> eventScope = new HashMap<>();
    for (ScopeData d : scopes.values()) {
      for (MemoryEntry v : d.versions.values()) {
        String other = versionScope.putIfAbsent(v.versionId(), d.scope);
        if (other != null) {
          throw new InvalidInputException("versionId", "version " + v.versionId() + " appears in " + other + " and in " + d.scope);
        }
        versionsById.put(v.versionId(), v);
        String entryOther = entryScope.putIfAbsent(v.entryId(), d.scope);
        if (entryOther != null && !entryOther.equals(d.scope)) {
          throw new InvalidInputException("entryId", "entry " + v.entryId() + " appears in more than one scope ("
              + entryOther + ", " + d.scope + ")");
        }
      }
      for (MemoryEvent e : d.events) {
        String other = eventScope.putIfAbsent(e.eventId(), d.scope);
        if (other != null) {
          throw new InvalidInputException("eventId", "event " + e.eventId() + " appears "
              + (other.equals(d.scope) ? "twice in " + d.scope : "in " + other + " and in " + d.scope));
        }
      }
    }
    for (ScopeData d : scopes.values()) {
      validateScope(d, versionScope, versionsById, entryScope);
    }
    Set<String> reviewIds = new HashSet<>();
    for (ScopeData d : scopes.values()) {
      new ReviewTransfer(store, config).validate(d.scope, d.review, d.sourceState, reviewIds);
    }
  }

  private void validateScope(
      ScopeData d, Map<String, String> versionScope, Map<String, MemoryEntry> versionsById, Map<String, String> entryScope) {
    long expect = 1;
    for (long r : d.revisions.keySet()) {
      if (r != expect) {
        throw new InvalidInputException("revision", "revisions of " + d.scope + " are not gap-free: expected " + expect + ", found " + r);
      }
      expect++;
    }
    if (d.revisions.size() != d.revision) {
      throw new InvalidInputException("revision", "scope " + d.scope + " declares revision " + d.revision
          + " but carries " + d.revisions.size() + " revisions");
    }
    Map<String, List<MemoryEntry>> byEntry = new HashMap<>();
    for (MemoryEntry v : d.versions.values()) {
      if (!v.scope().equals(d.scope)) {
        throw new InvalidInputException("scope", "version " + v.versionId() + " is filed under " + d.scope + " but names " + v.scope());
      }
      if (v.createdInRevision() < 1 || v.createdInRevision() > d.revision) {
        throw new InvalidInputException("createdInRevision", "version " + v.versionId() + " cites revision " + v.createdInRevision()
            + " outside 1.." + d.revision);
      }
      byEntry.computeIfAbsent(v.entryId(), k -> new ArrayList<>()).add(v);
      if (store.version(v.versionId()).isPresent()) {
        throw new InvalidInputException("versionId", "version " + v.versionId() + " already exists in the target store");
      }
    }
    Map<String, MemoryEntry> activeByHash = new HashMap<>();
    Map<String, MemoryEntry> activeByPath = new HashMap<>();
    int[] activeWithPriority = new int[2];
    for (Map.Entry<String, List<MemoryEntry>> e : byEntry.entrySet()) {
      if (!store.versions(e.getKey()).isEmpty()) {
        throw new InvalidInputException("entryId", "entry " + e.getKey() + " already exists in the target store");
      }
      List<MemoryEntry> chain = e.getValue();
      chain.sort((a, b) -> Integer.compare(a.version(), b.version()));
      for (int i = 0; i < chain.size(); i++) {
        MemoryEntry v = chain.get(i);
        if (v.version() != i + 1) {
          throw new InvalidInputException("version", "entry " + e.getKey() + " versions are not 1.." + chain.size());
        }
        String prev = i == 0 ? null : chain.get(i - 1).versionId();
        if (!Objects.equals(prev, v.previousVersionId())) {
          throw new InvalidInputException("previousVersionId", "version " + v.versionId() + " breaks the chain of entry " + e.getKey());
        }
        boolean head = i == chain.size() - 1;
        if (!head && v.status() != EntryStatus.SUPERSEDED) {
          throw new InvalidInputException("status", "version " + v.versionId() + " of entry " + e.getKey() + " is " + v.status()
              + " but a later version exists; only the newest version of an entry may be current");
        }
        if (v.supersededBy() != null) {
          MemoryEntry by = versionsById.get(v.supersededBy());
          if (by == null || !d.scope.equals(versionScope.get(v.supersededBy()))) {
            throw new InvalidInputException("supersededBy", "version " + v.versionId() + " is superseded by " + v.supersededBy()
                + ", which is not a version of " + d.scope + " in this export");
          }
          if (head && by.entryId().equals(v.entryId())) {
            throw new InvalidInputException("supersededBy", "version " + v.versionId() + " is the newest of entry " + e.getKey()
                + " but names its own entry's version " + v.supersededBy() + " as superseding it");
          }
        }
        if (v.status() == EntryStatus.ACTIVE) {
          MemoryEntry twin = activeByHash.putIfAbsent(v.contentHash(), v);
          if (twin != null) {
            throw new InvalidInputException("contentHash", "entries " + twin.entryId() + " and " + v.entryId() + " of " + d.scope
                + " are both active with one content; the engine keeps one active entry per content");
          }
          if (v.path() != null) {
            MemoryEntry holder = activeByPath.putIfAbsent(v.path(), v);
            if (holder != null) {
              throw new InvalidInputException("path", "entries " + holder.entryId() + " and " + v.entryId() + " of " + d.scope
                  + " are both active at path " + v.path());
            }
          }
          if (v.priority() <= 1) {
            activeWithPriority[v.priority()]++;
          }
        }
      }
    }
    int[] caps = {config.corePriorityCap(), config.keyPriorityCap()};
    for (int p = 0; p < caps.length; p++) {
      if (activeWithPriority[p] > caps[p]) {
        throw new InvalidInputException("priority", "scope " + d.scope + " holds " + activeWithPriority[p]
            + " active entries of priority " + p + "; the cap is " + caps[p]);
      }
    }
    for (MemoryEvent ev : d.events) {
      if (!ev.scope().equals(d.scope) || !byEntry.containsKey(ev.entryId())) {
        throw new InvalidInputException("event", "event " + ev.eventId() + " names an entry not exported with scope " + d.scope);
      }
      if (ev.revision() < 1 || ev.revision() > d.revision) {
        throw new InvalidInputException("event", "event " + ev.eventId() + " cites revision " + ev.revision() + " outside 1.." + d.revision);
      }
      for (MemoryEntry snap : java.util.Arrays.asList(ev.before(), ev.after())) {
        if (snap == null) {
          continue;
        }
        MemoryEntry stored = versionsById.get(snap.versionId());
        if (!snap.scope().equals(d.scope) || !snap.entryId().equals(ev.entryId()) || stored == null
            || !stored.entryId().equals(ev.entryId()) || !d.scope.equals(versionScope.get(snap.versionId()))) {
          throw new InvalidInputException("event", "event " + ev.eventId() + " holds a snapshot of version " + snap.versionId()
              + " that is not a version of entry " + ev.entryId() + " in " + d.scope);
        }
      }
      if (store.event(ev.eventId()).isPresent()) {
        throw new InvalidInputException("eventId", "event " + ev.eventId() + " already exists in the target store");
      }
    }
    for (Revision r : d.revisions.values()) {
      for (Change c : r.changes()) {
        Text.id("entryId", c.entryId());
        String owner = entryScope.get(c.entryId());
        boolean foreign = owner != null ? !owner.equals(d.scope) : !store.versions(c.entryId()).isEmpty();
        if (c.versionId() != null) {
          Text.id("versionId", c.versionId());
          MemoryEntry v = versionsById.get(c.versionId());
          foreign |= v != null ? !v.entryId().equals(c.entryId()) || !d.scope.equals(versionScope.get(c.versionId()))
              : store.version(c.versionId()).isPresent();
        }
        if (foreign) {
          throw new InvalidInputException("changes", "revision " + r.revision() + " of " + d.scope + " names entry " + c.entryId()
              + (c.versionId() == null ? "" : " version " + c.versionId()) + ", which belongs to another scope");
        }
      }
    }
    for (TopicRecord t : d.topics) {
      if (t.lastWrite < 0 || t.lastWrite > d.revision) {
        throw new InvalidInputException("lastWriteRevision", "topic " + t.topic + " of " + d.scope + " was written at revision "
            + t.lastWrite + ", outside 0.." + d.revision);
      }
      if (t.lastCurated < 0 || t.lastCurated > d.revision) {
        throw new InvalidInputException("lastCuratedRevision", "topic " + t.topic + " of " + d.scope + " was curated at revision "
            + t.lastCurated + ", outside 0.." + d.revision);
      }
    }
    if (store.headRevision(d.scope) != 0 || !store.scopes(d.scope, false).isEmpty()) {
      throw new InvalidInputException("scope", "scope '" + d.scope + "' is not empty in the target store; import only into empty scopes");
    }
  }
}
