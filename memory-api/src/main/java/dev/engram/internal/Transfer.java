package dev.engram.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import dev.engram.spi.TopicState;
import java.io.BufferedReader;
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

/**
 * Lossless JSON Lines export and validated import. Line 1 is a header
 * {@code {"record":"engram-export","format":1}}; then per scope a {@code scope} record, its
 * {@code revision}s, {@code version}s, {@code event}s and {@code topic}s.
 */
final class Transfer {
  static final int FORMAT = 1;
  private static final int MAX_LINE_CHARS = 4 * 1024 * 1024;
  private static final int MAX_REVISIONS_PER_SCOPE = Integer.MAX_VALUE;

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
    List<String> scopes = new ArrayList<>();
    try {
      ObjectNode header = EntryJson.mapper().createObjectNode();
      header.put("record", "engram-export");
      header.put("format", FORMAT);
      line(out, header);
      for (String scope : new java.util.TreeSet<>(grants.visibleScopes())) {
        long head = store.headRevision(scope);
        List<MemoryEntry> all = store.versionsIn(List.of(scope), EnumSet.allOf(EntryStatus.class));
        List<TopicState> topicRows = store.topics(List.of(scope));
        if (head == 0 && all.isEmpty() && topicRows.isEmpty()) {
          continue;
        }
        scopes.add(scope);
        ObjectNode s = EntryJson.mapper().createObjectNode();
        s.put("record", "scope");
        s.put("scope", scope);
        s.put("revision", head);
        line(out, s);
        for (Revision r : store.revisions(scope, 0, MAX_REVISIONS_PER_SCOPE)) {
          line(out, typed("revision", EntryJson.revisionNode(r)));
          revisions++;
        }
        all.sort((a, b) -> a.versionId().compareTo(b.versionId()));
        Set<String> entryIds = new java.util.LinkedHashSet<>();
        for (MemoryEntry v : all) {
          line(out, typed("version", EntryJson.entryNode(v)));
          entryIds.add(v.entryId());
          versions++;
        }
        for (String entryId : entryIds) {
          for (MemoryEvent e : store.events(entryId)) {
            line(out, typed("event", EntryJson.eventNode(e)));
            events++;
          }
        }
        for (TopicState t : topicRows) {
          ObjectNode n = EntryJson.mapper().createObjectNode();
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
      }
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("export failed while writing", e);
    }
    return new TransferReport(scopes, versions, events, revisions, topics, false);
  }

  private static ObjectNode typed(String type, ObjectNode body) {
    ObjectNode n = EntryJson.mapper().createObjectNode();
    n.put("record", type);
    n.setAll(body);
    return n;
  }

  private static void line(Writer out, JsonNode node) throws IOException {
    out.write(node.toString());
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
    for (ScopeData d : scopes.values()) {
      versions += d.versions.size();
      events += d.events.size();
      revisions += d.revisions.size();
      topics += d.topics.size();
    }
    if (!options.dryRun()) {
      for (ScopeData d : scopes.values()) {
        List<Commit.RestoredTopic> restoredTopics = new ArrayList<>();
        for (TopicRecord t : d.topics) {
          restoredTopics.add(new Commit.RestoredTopic(t.topic, t.blurb, t.lastWrite, t.lastCurated, t.lastUpdatedAt));
        }
        commits.run(d.scope, c -> {
          c.restore(d.versions.values(), d.events, d.revisions.values(), restoredTopics);
          return null;
        });
      }
    }
    return new TransferReport(List.copyOf(scopes.keySet()), versions, events, revisions, topics, options.dryRun());
  }

  private Map<String, ScopeData> parse(Grants grants, Reader in) {
    Map<String, ScopeData> scopes = new LinkedHashMap<>();
    BufferedReader reader = in instanceof BufferedReader b ? b : new BufferedReader(in);
    int lineNo = 0;
    try {
      String line;
      while ((line = reader.readLine()) != null) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        String where = "line " + lineNo;
        if (line.length() > MAX_LINE_CHARS) {
          throw new InvalidInputException(where, "is " + line.length() + " characters; the limit is " + MAX_LINE_CHARS);
        }
        JsonNode n;
        try {
          n = EntryJson.parse(line);
        } catch (InvalidInputException e) {
          throw new InvalidInputException(where, e.getMessage());
        }
        String type = n.path("record").asText("");
        if (lineNo == 1) {
          if (!type.equals("engram-export") || n.path("format").asInt(-1) != FORMAT) {
            throw new InvalidInputException(where, "not an Engram export header (expected record engram-export, format " + FORMAT + ")");
          }
          continue;
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
        Revision r = EntryJson.revision(n);
        if (d.revisions.put(r.revision(), r) != null) {
          throw new InvalidInputException("revision", "revision " + r.revision() + " of " + scope + " appears twice");
        }
      }
      case "version" -> {
        MemoryEntry v = checkVersion(EntryJson.entry(n));
        if (d.versions.put(v.versionId(), v) != null) {
          throw new InvalidInputException("versionId", "version " + v.versionId() + " appears twice");
        }
      }
      case "event" -> {
        MemoryEvent e = EntryJson.event(n);
        Text.id("eventId", e.eventId());
        Text.id("entryId", e.entryId());
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
        d.topics.add(new TopicRecord(topic,
            blurb == null || blurb.isNull() ? null : Text.shortText("blurb", blurb.asText(), Text.MAX_DISCLOSURE_CHARS),
            n.path("lastWriteRevision").asLong(0), n.path("lastCuratedRevision").asLong(0), lastUpdatedAt));
      }
      default -> throw new InvalidInputException("record", "unknown record type '" + type + "'");
    }
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
    Text.optionalShort("disclosure", v.disclosure(), Text.MAX_DISCLOSURE_CHARS);
    Text.glossary("glossary", v.glossary());
    Text.path("path", v.path());
    Text.optionalShort("source", v.source(), Text.MAX_SOURCE_CHARS);
    Text.evidence("evidence", v.evidence());
    return v;
  }

  /** Cross-record consistency, and that nothing collides with the target store. */
  private void validate(Map<String, ScopeData> scopes) {
    Set<String> allEntries = new HashSet<>();
    for (ScopeData d : scopes.values()) {
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
      for (Map.Entry<String, List<MemoryEntry>> e : byEntry.entrySet()) {
        if (!allEntries.add(e.getKey())) {
          throw new InvalidInputException("entryId", "entry " + e.getKey() + " appears in more than one scope");
        }
        if (!store.versions(e.getKey()).isEmpty()) {
          throw new InvalidInputException("entryId", "entry " + e.getKey() + " already exists in the target store");
        }
        List<MemoryEntry> chain = e.getValue();
        chain.sort((a, b) -> Integer.compare(a.version(), b.version()));
        int active = 0;
        for (int i = 0; i < chain.size(); i++) {
          MemoryEntry v = chain.get(i);
          if (v.version() != i + 1) {
            throw new InvalidInputException("version", "entry " + e.getKey() + " versions are not 1.." + chain.size());
          }
          String prev = i == 0 ? null : chain.get(i - 1).versionId();
          if (!Objects.equals(prev, v.previousVersionId())) {
            throw new InvalidInputException("previousVersionId", "version " + v.versionId() + " breaks the chain of entry " + e.getKey());
          }
          if (v.status() != EntryStatus.SUPERSEDED) {
            active++;
          }
        }
        if (active > 1) {
          throw new InvalidInputException("status", "entry " + e.getKey() + " has more than one current version");
        }
      }
      for (MemoryEvent ev : d.events) {
        if (!ev.scope().equals(d.scope) || !byEntry.containsKey(ev.entryId())) {
          throw new InvalidInputException("event", "event " + ev.eventId() + " names an entry not exported with scope " + d.scope);
        }
        if (ev.revision() < 1 || ev.revision() > d.revision) {
          throw new InvalidInputException("event", "event " + ev.eventId() + " cites revision " + ev.revision() + " outside 1.." + d.revision);
        }
        if (store.event(ev.eventId()).isPresent()) {
          throw new InvalidInputException("eventId", "event " + ev.eventId() + " already exists in the target store");
        }
      }
      for (Revision r : d.revisions.values()) {
        for (Change c : r.changes()) {
          Text.id("entryId", c.entryId());
        }
      }
      if (store.headRevision(d.scope) != 0 || !store.scopes(d.scope, false).isEmpty()) {
        throw new InvalidInputException("scope", "scope '" + d.scope + "' is not empty in the target store; import only into empty scopes");
      }
    }
  }

}
